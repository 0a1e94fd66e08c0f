"""core.text.token_blocks: a text's tokens in blocks equal its whole tokens, edit after edit."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from matchlens.core.metrics.error_rates import wer_units
from matchlens.core.metrics.jaccard import folded_words
from matchlens.core.metrics.rouge import rouge_tokens
from matchlens.core.metrics.token_f1 import squad_tokens
from matchlens.core.text import token_blocks
from matchlens.core.text.token_blocks import KeptTokens, tokens_whole

# Every tokenizer the incremental word metrics cut into blocks (incremental_words' callers).
TOKENIZERS = [str.split, squad_tokens, rouge_tokens, wer_units, folded_words]

# Words, spaces of every kind (a cut is only made at a lone " " between non-spaces), and the
# characters the tokenizers treat specially: punctuation, articles, control characters, case
# mappings that change length or depend on context (İ, final Σ).
_PIECES = st.sampled_from([
    "a", "b", "The", "an", "the", "x", "Σ", "ΑΣ", "İ", "é", "日", "1", "_", ".", ",", "'", "-",
    " ", " ", "  ", "\n", "\t", "\u00a0", "\u2003", "\x01", "\x1c", " the ", " a. ", "don't"])
TEXT = st.lists(_PIECES, max_size=60).map("".join)


@pytest.fixture(autouse=True)
def tiny_blocks(monkeypatch):
    """Blocks of 3 characters, so that short texts have many blocks and cuts."""
    monkeypatch.setattr(token_blocks, "BLOCK", 3)


@pytest.mark.parametrize("tokenize", TOKENIZERS, ids=lambda f: f.__name__)
@given(text=TEXT)
@settings(max_examples=300, deadline=None)
def test_the_blocks_tokens_are_the_whole_texts_tokens(tokenize, text):
    kept = tokens_whole(tokenize, text)
    assert kept.tokens == tokenize(text)
    assert kept.starts[0] == 0 and kept.starts == sorted(set(kept.starts))


EDIT = st.tuples(st.floats(0, 1), st.integers(0, 6), TEXT)


def _apply(text: str, edit) -> str:
    where, removed, inserted = edit
    at = int(where * len(text))
    return text[:at] + inserted[:4] + text[at + removed:]


@pytest.mark.parametrize("tokenize", TOKENIZERS, ids=lambda f: f.__name__)
@given(text=TEXT, edits=st.lists(EDIT, min_size=1, max_size=8))
@settings(max_examples=200, deadline=None)
def test_kept_tokens_after_edits_are_the_whole_texts_tokens(tokenize, text, edits):
    kept = KeptTokens(tokenize)
    before = kept.get(text)
    for edit in edits:
        text = _apply(text, edit)
        after = kept.get(text)
        assert after.tokens == tokenize(text)
        change = after.changed_from(before)
        if change is not None and change != (0, 0, 0):
            start, old_end, new_end = change
            # outside the change, the tokens are the kept ones (the same objects)
            assert after.tokens[:start] == before.tokens[:start]
            assert after.tokens[new_end:] == before.tokens[old_end:]
            assert len(after.tokens) - new_end == len(before.tokens) - old_end
        before = after


def test_an_edit_retokenises_only_the_blocks_around_it(monkeypatch):
    monkeypatch.setattr(token_blocks, "BLOCK", 1_024)
    calls = []

    def tokenize(text: str) -> list[str]:
        calls.append(len(text))
        return text.split()

    text = "word " * 20_000  # 100k characters: about a hundred blocks
    kept = KeptTokens(tokenize)
    first = kept.get(text)
    assert len(first.starts) > 50
    calls.clear()
    edited = text[:50_000] + "x" + text[50_000:]
    second = kept.get(edited)
    assert second.tokens == edited.split()
    assert sum(calls) < 3 * 1_100  # the edited block (and a neighbour), not 100k characters
    assert second.changed_from(first) == (10_000, 10_001, 10_001)  # "word" became "xword"
