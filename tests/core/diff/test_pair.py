"""core.diff.pair: the one comparison of a pair behind the window, `matchlens diff` and
`matchlens.compare` (the diff follows DISTANCE_METRIC's case, a raising metric is its error)."""

from __future__ import annotations

from dataclasses import replace

from rapidfuzz.distance import Levenshtein

from matchlens.core.config import Config
from matchlens.core.diff import pair as pair_module
from matchlens.core.diff.pair import DISTANCE_METRIC, compare_pair, metric_outcome, run_task
from matchlens.core.diff.span_table import ALIGN_TASK
from matchlens.core.metrics.registry import evaluate, get_metric
from matchlens.core.results import Label

EXPECTED, ACTUAL = "The quick brown fox", "The Quick brown dog"


def _broken(monkeypatch, metric_id: str) -> None:
    """`metric_id` raises ZeroDivisionError, as seen by core.diff.pair."""
    real = pair_module.get_metric

    def boom(expected, actual, options):
        raise ZeroDivisionError("no room")

    def patched(name: str):
        spec = real(name)
        return replace(spec, compute=boom) if name == metric_id else spec

    monkeypatch.setattr(pair_module, "get_metric", patched)


def test_metric_outcome_is_the_metrics_own_compute():
    for metric_id in ("levenshtein_distance", "exact_match", "chrf"):
        spec = get_metric(metric_id)
        assert metric_outcome(metric_id, EXPECTED, ACTUAL, {}) == spec.compute(
            EXPECTED, ACTUAL, spec.resolve_options({}))


def test_a_raising_metric_is_its_own_error(monkeypatch):
    _broken(monkeypatch, "exact_match")
    outcome = metric_outcome("exact_match", EXPECTED, ACTUAL, {})
    assert outcome.score is None and outcome.label is Label.ERROR
    assert outcome.explanation == (f"{get_metric('exact_match').label} failed: "
                                   "ZeroDivisionError: no room")
    # the window's metric task is the same function
    assert run_task("exact_match", EXPECTED, ACTUAL, {}) == outcome


def test_compare_pair_judges_every_metric_as_evaluate_does():
    config = Config()
    ids = ["levenshtein_similarity", "exact_match", "levenshtein_distance"]
    compared = compare_pair(EXPECTED, ACTUAL, config, ids)
    assert list(compared.results) == ids
    for metric_id in ids:
        settings = config.settings(metric_id)
        direct = evaluate(get_metric(metric_id), EXPECTED, ACTUAL,
                          threshold=settings.threshold, options=settings.options)
        assert compared.results[metric_id] == direct
        assert compared.thresholds[metric_id] == settings.threshold
    # "q"->"Q" and "fox"->"dog": 1 + 2 edits, the distance metric's own score
    assert compared.diff.distance == 3 == compared.results[DISTANCE_METRIC].score


def test_a_raising_metric_leaves_the_others_scored(monkeypatch):
    _broken(monkeypatch, "exact_match")
    compared = compare_pair(EXPECTED, ACTUAL, Config(), ["exact_match", "levenshtein_distance"])
    assert compared.results["exact_match"].label is Label.ERROR
    assert compared.results["levenshtein_distance"].score == 3


def test_the_diff_follows_the_distance_metrics_case_option():
    config = Config().with_override(f"{DISTANCE_METRIC}.case_sensitive=false")
    compared = compare_pair(EXPECTED, ACTUAL, config, [DISTANCE_METRIC])
    # case ignored: only "fox" -> "dog" (2 edits: f->d, x->g) is left
    assert compared.diff.distance == 2 == compared.results[DISTANCE_METRIC].score
    assert not compared.diff.case_sensitive
    assert compare_pair(EXPECTED, ACTUAL, Config(), []).diff.distance == Levenshtein.distance(
        EXPECTED, ACTUAL) == 3


def test_words_reaches_the_readable_diff():
    e, a = "recieve the parcel", "receive the parcel"
    by_char = compare_pair(e, a, Config(), [], compiled=False).diff
    by_word = compare_pair(e, a, Config(), [], words=True, compiled=False).diff
    # a typo is drawn by character ("ie" -> "ei" at 3..5: r0 e1 c2 i3 e4), unless every
    # change is whole words (the word "recieve", 0..7)
    assert [c.op for c in by_char.changes()] == ["replace"]
    assert by_char.changes()[0][1:] == (3, 5, 3, 5)
    assert by_word.changes()[0][1:] == (0, 7, 0, 7)


def test_the_align_task_is_the_span_table_the_view_asks_for():
    table = run_task(ALIGN_TASK, EXPECTED, ACTUAL,
                     {"case_sensitive": True, "granularity": "char", "view": "exact"})
    assert table.distance == 3 and table.view == "exact"
