"""token_f1 (SQuAD F1) and wer / cer (jiwer 4) against hand-derived values, a plain reference
written here, and jiwer itself."""

from __future__ import annotations

import collections
import math
import re

import jiwer
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from matchlens.core.metrics import evaluate, get_metric
from matchlens.core.metrics.error_rates import wer_units
from matchlens.core.results import Label
from tests.core.text.test_normalise import squad_normalize_answer


def squad_f1(prediction: str, ground_truth: str) -> float:
    """SQuAD v2.0 evaluate script's compute_f1, as published (get_tokens + the empty rule)."""
    pred_toks = squad_normalize_answer(prediction).split()
    gold_toks = squad_normalize_answer(ground_truth).split()
    common = collections.Counter(gold_toks) & collections.Counter(pred_toks)
    num_same = sum(common.values())
    if len(gold_toks) == 0 or len(pred_toks) == 0:
        return float(gold_toks == pred_toks)
    if num_same == 0:
        return 0.0
    precision = 1.0 * num_same / len(pred_toks)
    recall = 1.0 * num_same / len(gold_toks)
    return (2 * precision * recall) / (precision + recall)


def result(metric_id, expected, actual, **options):
    return evaluate(get_metric(metric_id), expected, actual, options=options or None)


def many(metric_id, expected, actual, **options):
    spec = get_metric(metric_id)
    return spec.many(expected, actual, spec.resolve_options(options))


@pytest.mark.parametrize(("expected", "actual", "want"), [
    # squad: both "eiffel tower" -> 2 shared of 2 and 2 -> P = R = 1 -> F1 1
    ("The Eiffel Tower.", "eiffel tower", 1.0),
    # "eiffel tower" vs "eiffel tower in paris": shared 2, P = 2/4, R = 2/2 -> 2·.5·1/1.5 = 2/3
    ("The Eiffel Tower", "the Eiffel tower in Paris", 2 / 3),
    # multiset: expected "a b b" -> "b b" (a is an article!), actual "b c": shared 1 (one b),
    # P = 1/2, R = 1/2 -> 0.5
    ("a b b", "b c", 0.5),
    # nothing shared -> 0
    ("red", "blue", 0.0),
    # v2.0 empty rule: both empty after squad ("The" and "." vanish) -> 1; one empty -> 0
    ("The.", "", 1.0),
    ("", "an answer", 0.0),
    ("Paris", "   ", 0.0),
    # ’ is not ASCII punctuation: "it’s" stays one token, "its" differs -> 0 shared
    ("it’s", "its", 0.0),
])
def test_token_f1_by_hand(expected, actual, want):
    assert result("token_f1", expected, actual).score == pytest.approx(want, abs=1e-12)
    assert many("token_f1", [expected], [actual]).scores[0] == pytest.approx(want, abs=1e-12)


def test_token_f1_contract_defaults():
    spec = get_metric("token_f1")
    assert spec.direction == "max" and spec.default_threshold is None
    assert result("token_f1", "a cat", "cat").label is Label.SCORED
    # normalise may be switched off: then "Cat" and "cat" are different tokens -> 0
    assert result("token_f1", "Cat", "cat", normalise=[]).score == 0.0


TOKENS = st.sampled_from(["the", "The", "a", "an", "cat", "Cat.", "dog", "it’s", "it's",
                          "—", "«x»", "1", "ﬁ", "İ", "\t", "\n", " ", "  ", "!", ""])
TEXT = st.lists(TOKENS, max_size=10).map(" ".join)


@settings(max_examples=300, deadline=None)
@given(TEXT, TEXT)
def test_token_f1_equals_squad_reference(expected, actual):
    want = squad_f1(actual, expected)
    assert result("token_f1", expected, actual).score == want
    assert many("token_f1", [expected], [actual]).scores[0] == want


# --- wer / cer ----------------------------------------------------------------------------

@pytest.mark.parametrize(("metric", "expected", "actual", "want", "explanation"), [
    # one inserted word over 3 reference words -> 1/3
    ("wer", "the cat sat", "the cat sat down", 1 / 3,
     "1 error over 3 reference words: 1 insertion"),
    # cat->dog substituted, "sat" deleted: 2 errors / 3 words
    ("wer", "the cat sat", "the dog", 2 / 3,
     "2 errors over 3 reference words: 1 substitution, 1 deletion"),
    # runs of 2+ spaces collapse, ends are stripped: identical words -> 0
    ("wer", "  the   cat ", "the cat", 0.0, "No errors over 2 reference words"),
    # a lone tab is not a word delimiter in jiwer: "a\tb" is one word -> 1 sub + 1 ins over 1
    ("wer", "a\tb", "a b", 2.0, "2 errors over 1 reference word: 1 substitution, 1 insertion"),
    # cer: "abc" -> "abd": 1 substitution over 3 chars
    ("cer", "abc", "abd", 1 / 3, "1 error over 3 reference characters: 1 substitution"),
    # cer keeps inner spaces as characters and strips only the ends: " a b " -> "a b" vs "ab"
    ("cer", " a b ", "ab", 1 / 3, "1 error over 3 reference characters: 1 deletion"),
    # empty reference and empty output: 0
    ("cer", "", "  ", 0.0, "Both texts are empty: no characters, no errors"),
])
def test_error_rates_by_hand(metric, expected, actual, want, explanation):
    got = result(metric, expected, actual)
    assert got.score == pytest.approx(want, abs=1e-12)
    assert got.explanation == explanation
    assert many(metric, [expected], [actual]).scores[0] == pytest.approx(want, abs=1e-12)


@pytest.mark.parametrize("metric", ["wer", "cer"])
def test_empty_reference_with_output_is_invalid(metric):
    got = result(metric, "   ", "something")
    assert got.score is None and got.label is Label.INVALID
    assert "undefined for an empty reference" in got.explanation
    out = many(metric, ["", "a"], ["x", "a"])
    assert math.isnan(out.scores[0]) and out.status.tolist() == [1, 0]
    assert "undefined for an empty reference" in out.messages[0]


# texts with only " " as whitespace take wer_units' split() path; a tab, newline, NBSP, \x1c or
# U+2028 sends them through the regex
WORDS = st.sampled_from(["a", "b", "cat", "Cat", "é", "", " ", "  ", "\t", "\n", "x\ty",
                         "\u00a0", "x\u00a0y", "\x1c", "\u2028", "\u3000"])
SENTENCE = st.lists(WORDS, max_size=12).map(" ".join)


@settings(max_examples=300, deadline=None)
@given(SENTENCE, SENTENCE)
def test_wer_and_cer_equal_jiwer(expected, actual):
    for metric, fn, out in (("wer", jiwer.wer, jiwer.process_words),
                            ("cer", jiwer.cer, jiwer.process_characters)):
        got = result(metric, expected, actual)
        batch = many(metric, [expected], [actual]).scores[0]
        if not expected.strip():
            continue  # jiwer refuses an empty reference; our rule is tested above
        want = fn(expected, actual)
        assert got.score == pytest.approx(want, abs=1e-12), (metric, expected, actual)
        assert batch == pytest.approx(want, abs=1e-12)
        counts = out(expected, actual)
        for n, noun in ((counts.substitutions, "substitution"), (counts.deletions, "deletion"),
                        (counts.insertions, "insertion")):
            if n:
                assert f"{n} {noun}" in got.explanation


def test_wer_batch_path_handles_many_rows_and_words():
    # the word -> character vocabulary spans the surrogate block: 60k distinct words
    words = [f"w{i}" for i in range(60_000)]
    expected = [" ".join(words[i:i + 3]) for i in range(0, 60_000, 3)]
    actual = [" ".join(words[i + 1:i + 3]) for i in range(0, 60_000, 3)]  # first word dropped
    # each row: 1 deletion over 3 words
    assert set(many("wer", expected, actual).scores.tolist()) == {1 / 3}


def test_the_only_printable_whitespace_is_the_space():
    # wer_units' fast path (split() on a printable text) equals jiwer's regex only if so
    assert [c for c in range(0x110000) if chr(c).isspace() and chr(c).isprintable()] == [32]


@settings(max_examples=300, deadline=None)
@given(SENTENCE)
def test_wer_units_fast_path_equals_jiwer_transform(text):
    # jiwer 4's default word transforms: collapse \s\s+ to " ", strip, split on " "
    collapsed = re.sub(r"\s\s+", " ", text).strip()
    assert wer_units(text) == (collapsed.split(" ") if collapsed else [])
