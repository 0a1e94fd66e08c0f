"""Incremental chrF / BLEU statistics equal sacrebleu's, edit after edit."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sacrebleu.metrics import BLEU, CHRF
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

from matchlens.core.metrics import incremental_ngrams, sacrebleu_sentence
from matchlens.core.metrics.incremental_ngrams import blocks, common_affixes, tokens_13a
from matchlens.core.metrics.sacrebleu_sentence import bleu_metric, chrf_metric, sentence_score

_PIECES = st.sampled_from(list("ab1 .,-\n&;<>'\"([{Aé日") + [
    "<skipped>", "&quot;", "&amp;", "-\n", " A", " 1", " (", " the", " cat", "photosynthesis"])
_TEXT = st.lists(_PIECES, max_size=80).map("".join)


@pytest.fixture
def tiny_thresholds(monkeypatch):
    """Incremental from 8 elements and blocks from 4 characters, so short texts exercise it."""
    monkeypatch.setattr(incremental_ngrams, "MIN_INCREMENTAL", 8)
    monkeypatch.setattr(sacrebleu_sentence, "MIN_INCREMENTAL", 8)
    monkeypatch.setattr(incremental_ngrams, "_BLOCK", 4)


def _naive_affixes(a, b):
    p = 0
    while p < min(len(a), len(b)) and a[p] == b[p]:
        p += 1
    s = 0
    while s < min(len(a), len(b)) - p and a[len(a) - 1 - s] == b[len(b) - 1 - s]:
        s += 1
    return p, s


@given(_TEXT, _TEXT)
@settings(max_examples=300, deadline=None)
def test_common_affixes(a, b):
    assert common_affixes(a, b) == _naive_affixes(a, b)
    assert common_affixes(a.split(), b.split()) == _naive_affixes(a.split(), b.split())


@given(_TEXT)
@settings(max_examples=500, deadline=None)
def test_13a_tokens_of_blocks_are_the_tokens_of_the_whole(text):
    text = text.rstrip()
    original = incremental_ngrams._BLOCK
    incremental_ngrams._BLOCK = 3
    try:
        assert "".join(blocks(text)) == text
        assert tokens_13a(Tokenizer13a(), text) == Tokenizer13a()(text).split()
    finally:
        incremental_ngrams._BLOCK = original


_EDIT = st.tuples(st.sampled_from(["insert", "delete", "replace"]), st.floats(0, 1), _TEXT)


def _apply(text: str, edit) -> str:
    kind, where, piece = edit
    i = int(where * len(text))
    if kind == "insert":
        return text[:i] + piece + text[i:]
    if kind == "delete":
        return text[:i] + text[i + len(piece):]
    return text[:i] + piece + text[i + len(piece):]


@given(_TEXT, _TEXT, st.lists(_EDIT, min_size=1, max_size=6))
@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])  # constants only
def test_incremental_scores_equal_sacrebleu_after_every_edit(tiny_thresholds, reference,
                                                             hypothesis, edits):
    bleu, chrf = BLEU(effective_order=True), CHRF()
    for edit in [None, *edits]:
        if edit is not None:
            hypothesis = _apply(hypothesis, edit)
        if not hypothesis.strip() or not reference.strip():
            continue
        got = sentence_score(bleu_metric(), hypothesis, reference)
        want = bleu.sentence_score(hypothesis, [reference])
        assert (got.score, got.counts, got.totals, got.sys_len, got.ref_len) == \
            (want.score, want.counts, want.totals, want.sys_len, want.ref_len)
        assert sentence_score(chrf_metric(), hypothesis, reference).score == \
            chrf.sentence_score(hypothesis, [reference]).score


def test_a_keystroke_in_a_long_text_recounts_only_its_window():
    text = "The capital of France is Paris. " * 400  # 12,800 characters
    tally = incremental_ngrams.NgramTally(2, [{}, {}], tokens=False)
    tally.update(text)
    counts_before = sum(tally.counts[0].values())
    edited = text[:6000] + "X" + text[6000:]
    recounted = []
    original = tally._key

    def spy(seq, i, n):
        recounted.append(i)
        return original(seq, i, n)

    tally._key = spy
    tally.update(edited)
    # order 1: the old character at 6000 out, two new ones in; order 2: two out, three in
    assert len(recounted) <= 8
    assert sum(tally.counts[0].values()) == counts_before + 1
    assert tally.counts[0]["X"] == 1
