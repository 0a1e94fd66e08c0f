"""bleu, chrf (sacrebleu) and rouge_l, scaled to 0–1 and checked against the reference libraries."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from matchlens.core.metrics import evaluate, get_metric
from matchlens.core.metrics.rouge import rouge_l, rouge_tokens
from tests.core.reference import lcs_reference


def score(metric_id, expected, actual):
    return evaluate(get_metric(metric_id), expected, actual).score


def test_identical_one_word_answer_scores_one_with_effective_order():
    # Without effective order BLEU has no 2-,3-,4-grams here and scores ~0; sacrebleu also
    # returns 100.00000000000004 for a perfect match, which we clip to exactly 1.0.
    assert score("bleu", "Paris", "Paris") == 1.0
    assert score("chrf", "Paris", "Paris") == 1.0


def test_bleu_matches_sacrebleu_scaled():
    from sacrebleu.metrics import BLEU

    ref, hyp = "the cat sat on the mat", "the cat is on the mat"
    want = BLEU(effective_order=True).sentence_score(hyp, [ref]).score / 100
    assert score("bleu", ref, hyp) == pytest.approx(want)
    assert 0 < score("bleu", ref, hyp) < 1


def test_chrf_matches_sacrebleu_scaled():
    from sacrebleu.metrics import CHRF

    ref, hyp = "Ada Lovelace", "Ada Lovelance"
    want = CHRF().sentence_score(hyp, [ref]).score / 100
    assert score("chrf", ref, hyp) == pytest.approx(want)


@pytest.mark.parametrize("metric_id", ["bleu", "chrf", "rouge_l"])
def test_scores_stay_in_unit_range_and_have_no_threshold(metric_id):
    spec = get_metric(metric_id)
    assert spec.default_threshold is None
    for ref, hyp in [("", ""), ("a", ""), ("", "a"), ("x y z", "x y z"), ("a b", "c d")]:
        value = score(metric_id, ref, hyp)
        assert 0.0 <= value <= 1.0


def test_rouge_l_example():
    # LCS of [the, cat, sat] and [the, cat, sat, down] is 3: P = 3/4, R = 3/3,
    # F = 2·0.75·1 / 1.75 = 0.857142...
    assert score("rouge_l", "the cat sat", "the cat sat down") == pytest.approx(6 / 7)


def test_rouge_l_keeps_non_latin_words():
    assert rouge_tokens("Zoë  lives in São Paulo") == ["zoë", "lives", "in", "são", "paulo"]
    assert score("rouge_l", "東京 タワー", "東京 タワー") == 1.0


ASCII_WORDS = st.lists(st.sampled_from(["the", "cat", "Sat", "on", "mat", "a", "x1", "dog,"]),
                       max_size=8).map(" ".join)


@settings(max_examples=200, deadline=None)
@given(ASCII_WORDS, ASCII_WORDS)
def test_rouge_l_agrees_with_the_rouge_score_package(ref, hyp):
    from rouge_score import rouge_scorer

    ours = rouge_l(ref, hyp)[0]
    theirs = rouge_scorer.RougeScorer(["rougeL"]).score(ref, hyp)["rougeL"].fmeasure
    if not rouge_tokens(ref) and not rouge_tokens(hyp):
        assert ours == 1.0  # our choice: two empty texts are identical (rouge-score says 0)
    else:
        assert ours == pytest.approx(theirs)


@settings(max_examples=200, deadline=None)
@given(ASCII_WORDS, ASCII_WORDS)
def test_rouge_lcs_matches_the_slow_reference(ref, hyp):
    r, h = rouge_tokens(ref), rouge_tokens(hyp)
    _, lcs, _, _ = rouge_l(ref, hyp)
    assert lcs == (lcs_reference(r, h) if r and h else 0)


TEXT = st.text(alphabet=st.sampled_from("ab c.,é\n!"), max_size=40)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(TEXT, TEXT), min_size=1, max_size=6))
def test_cached_references_score_exactly_as_sacrebleu(pairs):
    """sentence_score keeps each reference's statistics; a run of pairs sharing references
    (as keystrokes in the compare tab do) still scores exactly as sacrebleu's own call."""
    from sacrebleu.metrics import BLEU, CHRF

    from matchlens.core.metrics.sacrebleu_sentence import bleu_metric, chrf_metric, sentence_score

    for hypothesis, reference in pairs + [(h + "x", r) for h, r in pairs]:
        for ours, theirs in ((bleu_metric(), BLEU(effective_order=True)), (chrf_metric(), CHRF())):
            got = sentence_score(ours, hypothesis, reference)
            want = theirs.sentence_score(hypothesis, [reference])
            assert got.score == want.score
