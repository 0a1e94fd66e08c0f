"""core.metrics.incremental_words: each word metric typed into equals its whole computation.

rouge_l (the LCS in the band of the last one), token_f1 (squad and plain tokens), jaccard (case
sensitive or not) and wer (its words as strings through edit_script's splice) are computed
after every edit of a random sequence, on either side, with the kept state (MIN_CHARS 0,
blocks of 3 characters) and without it; the outcomes (score and explanation) must be equal.
wer's explanation splits its errors into substitutions, deletions and insertions by a minimal
script; a spliced script is minimal (its edit count is the exact distance) but where minimal
scripts tie it may split differently from rapidfuzz's whole one, as cer's and the highlight's
already do (core.text.edit_script): for wer the score and the error count must be equal, and
the split one of a minimal script.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from matchlens.core.diff.pair import metric_outcome
from matchlens.core.metrics import incremental_words
from matchlens.core.text import edit_script, token_blocks

_PIECES = st.sampled_from([
    "a", "b", "The", "an", "the", "cat", "Cat", "sat", "Σ", "İ", "é", "1", ".", ",", "'",
    " ", " ", "  ", "\n", "\t", "\u00a0", " the ", " a. ", " Paris, ", " cat sat "])
TEXT = st.lists(_PIECES, max_size=50).map("".join)
EDIT = st.tuples(st.booleans(), st.floats(0, 1), st.integers(0, 6), TEXT)

CASES = [("rouge_l", {}), ("token_f1", {}), ("token_f1", {"normalise": []}),
         ("jaccard", {"case_sensitive": True}), ("jaccard", {"case_sensitive": False}),
         ("wer", {})]


def _apply(text: str, where: float, removed: int, inserted: str) -> str:
    at = int(where * len(text))
    return text[:at] + inserted[:5] + text[at + removed:]


def _whole(metric: str, expected: str, actual: str, options: dict):
    kept = incremental_words.MIN_CHARS
    incremental_words.MIN_CHARS = 10**12
    try:
        return metric_outcome(metric, expected, actual, options)
    finally:
        incremental_words.MIN_CHARS = kept


@pytest.fixture(autouse=True)
def tiny_thresholds(monkeypatch):
    monkeypatch.setattr(incremental_words, "MIN_CHARS", 0)
    monkeypatch.setattr(token_blocks, "BLOCK", 3)
    monkeypatch.setattr(edit_script, "SPLICE_MIN_CHARS", 0)  # wer's words spliced too


@pytest.mark.parametrize(("metric", "options"), CASES, ids=lambda c: str(c))
@given(expected=TEXT, actual=TEXT, edits=st.lists(EDIT, min_size=1, max_size=10))
@settings(max_examples=150, deadline=None)
def test_typed_into_equals_the_whole_computation(metric, options, expected, actual, edits):
    _assert_equal(metric, expected, actual, options)
    for on_expected, where, removed, inserted in edits:
        if on_expected:
            expected = _apply(expected, where, removed, inserted)
        else:
            actual = _apply(actual, where, removed, inserted)
        _assert_equal(metric, expected, actual, options)


def _assert_equal(metric: str, expected: str, actual: str, options: dict) -> None:
    """The kept state (left by earlier examples too) against the whole computation."""
    got = metric_outcome(metric, expected, actual, options)
    want = _whole(metric, expected, actual, options)
    if metric == "wer":
        _assert_same_errors(got, want, expected, actual)
    else:
        assert got == want, (expected, actual)


def _counts(explanation: str) -> dict[str, int]:
    words = explanation.replace(",", "").replace(":", "").split()
    return {noun.rstrip("s"): int(n) for n, noun in zip(words, words[1:], strict=False)
            if n.isdigit()}


def _assert_same_errors(got, want, expected: str, actual: str) -> None:
    from matchlens.core.metrics.error_rates import wer_units

    assert (got.score, got.label) == (want.score, want.label)
    g, w = _counts(got.explanation), _counts(want.explanation)
    assert g.get("error", 0) == w.get("error", 0)
    subs, dels, ins = (g.get(k, 0) for k in ("substitution", "deletion", "insertion"))
    assert subs + dels + ins == g.get("error", 0)
    if got.score is not None:  # a script from one word list to the other
        assert dels - ins == len(wer_units(expected)) - len(wer_units(actual))


def test_the_lcs_is_computed_in_the_band_of_the_last_one(monkeypatch):
    """One typed word lowers the bound by at most one token per removed token: rapidfuzz is
    asked for an LCS of at least the last one minus that (and so answers in the band)."""
    asked = []
    real = incremental_words.LCSseq.similarity

    def similarity(a, b, score_cutoff=None):
        asked.append(score_cutoff)
        return real(a, b, score_cutoff=score_cutoff)

    monkeypatch.setattr(incremental_words.LCSseq, "similarity", similarity)
    expected = " ".join(f"w{i}" for i in range(500))
    actual = expected.replace("w7 ", "")
    first = incremental_words.lcs(str.split, expected, actual)
    assert first == (499, 500, 499)  # every word but w7 in common
    second = incremental_words.lcs(str.split, expected, actual.replace("w300", "w300x"))
    # w300 removed (one token) and w300x added: the bound is 499 - 1, the answer 498
    assert asked[-1] == 498 and second == (498, 500, 499)
