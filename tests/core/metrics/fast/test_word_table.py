"""The word table behind the batch paths of token_f1, wer and rouge_l (word_table, word_kernel):
the compiled split equals str.split(), the premises that let a metric tokenise each distinct
word instead of each text hold for every code point, and every batch path equals the
single-pair path (itself checked against SQuAD's script, jiwer and rouge-score) on chunks of
many rows, ASCII and not, with tabs, newlines, control characters and empty texts."""

from __future__ import annotations

import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from matchlens.core.metrics import evaluate, get_metric
from matchlens.core.metrics.error_rates import wer_units
from matchlens.core.metrics.fast import word_table
from matchlens.core.metrics.fast.word_kernel import split_words
from matchlens.core.metrics.fast.word_table import _build, space_table
from matchlens.core.metrics.registry import sharing_work
from matchlens.core.metrics.rouge import _rouge_tokens_fast, rouge_tokens
from matchlens.core.text.normalise import pipeline

# Word pieces: articles in several cases, ASCII and Unicode punctuation, the final sigma and
# İ (lower() looks at the sigma's neighbours; İ lowers to two characters), letters of other
# scripts, "_" (a word character that is not alphanumeric), digits, and control characters on
# both sides of str.split()'s line: \x1c-\x1f and \x85 are whitespace to it, \x00, \x07 and
# \x7f are not.
PIECES = ["the", "The", "a", "AN", "cat", "Cat.", "x1", "_", "it’s", "—", "ΣΑΣ", "ς", "Σ",
          "İ", "東京", "Zoë", ",", "-", "!", "\x00", "\x07", "\x7f", "ﬁ"]
SPACES = [" ", "  ", "\t", "\n", "\r\n", "\x1c", "\x1f", "\x85", "\u00a0", "\u3000", "\t\t"]
TEXT = st.lists(st.sampled_from(PIECES + SPACES), max_size=12).map("".join)
ASCII_TEXT = st.lists(st.sampled_from([p for p in PIECES + SPACES if p.isascii()]),
                      max_size=12).map("".join)


def _words_of(table, t):
    w = table.words
    return [w.vocabulary[i] for i in w.ids[w.starts[t]:w.ends[t]].tolist()]


@settings(max_examples=300, deadline=None)
@given(st.lists(TEXT, max_size=8) | st.lists(ASCII_TEXT, max_size=8))
def test_the_compiled_split_is_str_split(texts):
    # ASCII-only lists take the one-byte-per-character path, the others the code-point path
    table = _build(texts)
    assert [_words_of(table, t) for t in range(len(texts))] == [t.split() for t in texts]
    assert len(set(table.words.vocabulary)) == len(table.words.vocabulary)  # each word once
    # `lone` marks exactly the texts jiwer splits differently (a lone tab between two words)
    assert table.lone.tolist() == [wer_units(t) != t.split() for t in texts]
    # and with `glue` the table splits as jiwer does
    glued = _build(texts, glue=True)
    assert [_words_of(glued, t) for t in range(len(texts))] == list(map(wer_units, texts))


def test_many_distinct_words_grow_the_table():
    # 30,000 distinct words (the hash table starts with 4,096 slots and doubles), each in two
    # texts, plus words that share their first characters and lengths
    words = [f"w{i}" for i in range(30_000)] + ["ab", "ba", "abc", "acb"]
    texts = [" ".join(words[i:i + 5]) for i in range(0, len(words), 5)]
    table = _build(texts + texts)
    assert table.words.vocabulary == words
    assert [_words_of(table, t) for t in range(2 * len(texts))] == [t.split() for t in texts * 2]


@pytest.mark.parametrize("prime", [0, 1])
def test_words_with_equal_hashes_stay_apart(prime):
    # prime 0: every word hashes alike; prime 1: the hash is the XOR of the characters, equal
    # for anagrams and for words of different lengths ("ab" = "ba", "a" = "abb")
    texts = ["ab ba a abb", "abb ab", "ba ab a b", ""]
    joined = "".join(texts)
    chars = np.frombuffer(joined.encode("ascii"), dtype=np.uint8)
    ends = np.cumsum([len(t) for t in texts])
    ids, word_ends, first, length, _ = split_words(chars, ends, space_table(), np.uint64(prime), False)
    vocabulary = [joined[s:s + n] for s, n in zip(first, length, strict=True)]
    assert vocabulary == ["ab", "ba", "a", "abb", "b"]
    assert [vocabulary[i] for i in ids] == " ".join(texts).split()
    assert word_ends.tolist() == [4, 6, 10, 10]


def test_whitespace_stops_at_the_table():
    # the kernel's whitespace table stops at U+3000: str.isspace() holds for nothing above
    limit = len(space_table())
    assert [c for c in range(limit, sys.maxunicode + 1) if chr(c).isspace()] == []
    assert space_table().tolist() == [chr(c).isspace() for c in range(limit)]


def test_lower_case_never_looks_across_whitespace():
    # tokenising each word alone gives a text's tokens only if lower() of the text is lower()
    # of its pieces: whitespace lowers to itself, nothing else lowers to or into whitespace,
    # and the final-sigma rule (σ or ς by the cased letters around, skipping case-ignorable
    # ones) stops at whitespace: no whitespace character is cased or case-ignorable.
    spaces = [chr(c) for c in range(sys.maxunicode + 1) if chr(c).isspace()]
    assert all(w.lower() == w for w in spaces)
    assert [c for c in range(sys.maxunicode + 1)
            if not chr(c).isspace() and any(ch.isspace() for ch in chr(c).lower())] == []
    for w in spaces:
        # a cased or case-ignorable w would make this Σ medial (σ) instead of final (ς)
        assert ("aΣ" + w + "a").lower() == "aς" + w + "a"
        # and this Σ final (ς) instead of a capital standing alone after a space (σ)
        assert ("a" + w + "Σ").lower() == "a" + w + "σ"


@settings(max_examples=300, deadline=None)
@given(TEXT)
def test_squad_of_a_text_is_squad_of_its_words(text):
    # what token_f1's batch path relies on (its tokens are squad(text).split())
    squad = pipeline("squad").apply
    assert squad(text).split() == [t for w in text.split() for t in squad(w).split()]


@settings(max_examples=300, deadline=None)
@given(TEXT)
def test_rouge_tokens_of_a_text_are_those_of_its_words(text):
    # what rouge_l's batch path relies on
    assert rouge_tokens(text) == [t for w in text.split() for t in _rouge_tokens_fast(w)]


def _batch(metric_id, expected, actual, options):
    spec = get_metric(metric_id)
    with sharing_work():  # as in a batch chunk: the metrics share one table
        return spec.many(expected, actual, spec.resolve_options(options))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(TEXT, TEXT), min_size=1, max_size=10)
       | st.lists(st.tuples(ASCII_TEXT, ASCII_TEXT), min_size=1, max_size=10),
       st.sampled_from([{}, {"normalise": "squad"}, {"normalise": []},
                        {"normalise": ["lowercase"]}]))
def test_word_metrics_batch_equals_the_single_pair_path(pairs, options):
    # outputs equal to their reference and references repeated on other rows, as in real data
    pairs = pairs + [(e, e) for e, _ in pairs[:2]] + [(pairs[0][0], a) for _, a in pairs[-2:]]
    expected, actual = [e for e, _ in pairs], [a for _, a in pairs]
    for metric_id in ("token_f1", "wer", "rouge_l"):
        got = _batch(metric_id, expected, actual, options)
        single = [evaluate(get_metric(metric_id), e, a, options=options) for e, a in pairs]
        want = [np.nan if r.score is None else r.score for r in single]
        np.testing.assert_array_equal(got.scores, want, err_msg=metric_id)  # to the bit
        assert got.status.tolist() == [0 if r.score is not None else 1 for r in single]


def test_more_distinct_words_than_characters(monkeypatch):
    # past MAX_TOKENS distinct tokens a text cannot be one character per token: rapidfuzz
    # then gets lists of ids (lowered here so a small chunk goes past it)
    monkeypatch.setattr(word_table, "MAX_TOKENS", 2)
    expected = ["the cat sat", "a b c d", "x\ty z", ""]
    actual = ["the dog sat down", "d c b a", "x y z", "q"]
    assert isinstance(word_table.as_sequences(_build(expected).words)[0], list)
    for metric_id in ("wer", "rouge_l"):
        single = [evaluate(get_metric(metric_id), e, a).score for e, a in zip(expected, actual, strict=True)]
        got = _batch(metric_id, expected, actual, {}).scores
        np.testing.assert_array_equal(got, [np.nan if s is None else s for s in single])


@pytest.mark.parametrize("metric_id", ["token_f1", "wer", "rouge_l"])
def test_empty_chunk(metric_id):
    assert _batch(metric_id, [], [], {}).scores.tolist() == []
