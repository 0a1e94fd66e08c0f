"""core.scoring.run_summary: the change labels on a hand-derived table, the row labels, and the
paired test being the Variants view's own."""

from __future__ import annotations

import numpy as np

from matchlens.core.config import Config
from matchlens.core.datasets import table_from_columns
from matchlens.core.results import Direction
from matchlens.core.scoring import plan
from matchlens.core.scoring.mapping import ColumnMapping
from matchlens.core.scoring.run_scoring import RunFiles, score_runs
from matchlens.core.scoring.run_summary import (
    LABELS,
    metric_codes,
    row_codes,
)
from matchlens.core.scoring.variants import paired_comparison

nan = np.nan


def _labels(codes):
    return [LABELS[c] for c in codes]


def test_metric_labels_hand_derived_higher_is_better():
    # threshold 0.5 on a similarity (higher is better); verdict = score >= 0.5, -1 without one
    before = np.array([0.9, 0.2, 0.6, 0.6, 0.7, 0.7, nan, 0.3, nan, 0.8, 0.4])
    after = np.array([0.3, 0.9, 0.8, 0.55, 0.7, nan, 0.6, 0.1, nan, 0.9, 0.1])
    vb = np.array([1, 0, 1, 1, 1, 1, -1, 0, -1, 1, 0])
    va = np.array([0, 1, 1, 1, 1, -1, 1, 0, -1, 1, 0])
    in_base = np.array([1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1], dtype=bool)
    in_run = np.array([1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0], dtype=bool)
    got = _labels(metric_codes(before, after, vb, va, Direction.MAX, in_base, in_run))
    assert got == [
        "regressed",  # 0.9 pass -> 0.3 fail
        "improved",   # 0.2 fail -> 0.9 pass
        "better",     # passes both, 0.6 -> 0.8
        "worse",      # passes both, 0.6 -> 0.55
        "same",       # 0.7 both
        "regressed",  # passed, has no score now (a row without a score does not pass)
        "improved",   # no score before, passes now
        "worse",      # fails both, 0.3 -> 0.1
        "same",       # neither has a score
        "new",        # not in the baseline
        "gone",       # not in this run
    ]


def test_metric_labels_lower_is_better_without_threshold():
    # a distance: lower is better; no threshold, so no regressed/improved
    before = np.array([3.0, 3.0, 3.0, nan, 2.0])
    after = np.array([1.0, 5.0, 3.0, 4.0, nan])
    both = np.ones(5, dtype=bool)
    got = _labels(metric_codes(before, after, None, None, Direction.MIN, both, both))
    # 3 -> 1 better; 3 -> 5 worse; equal same; a score gained better; a score lost worse
    assert got == ["better", "worse", "same", "better", "worse"]


def test_row_labels():
    passed = np.array([1, 0, 1, 0, 1, 0], dtype=bool)
    passes = np.array([0, 1, 1, 0, 1, 1], dtype=bool)
    in_base = np.array([1, 1, 1, 1, 0, 1], dtype=bool)
    in_run = np.array([1, 1, 1, 1, 1, 0], dtype=bool)
    got = _labels(row_codes(passed, passes, in_base, in_run))
    assert got == ["regressed", "improved", "same", "same", "new", "gone"]
    # no thresholded metric: nothing regresses
    assert _labels(row_codes(None, None, in_base, in_run)) == [
        "same", "same", "same", "same", "new", "gone"]


def test_the_paired_test_is_the_variants_views():
    rng = np.random.default_rng(3)
    words = ["alpha beta", "alpha", "beta gamma", "gamma", "delta alpha"]
    n = 60
    keys = [f"k{i}" for i in range(n)]
    refs = table_from_columns({"id": keys, "e": [words[i % 5] for i in range(n)]}, "refs")
    run = table_from_columns({"id": keys[::-1],
                              "a": [words[j] for j in rng.integers(0, 5, n)]}, "run")
    base = table_from_columns({"id": keys, "b": [words[j] for j in rng.integers(0, 5, n)]},
                              "base")
    jobs = plan.make_plan(Config(), None).jobs
    runs = score_runs(RunFiles(run, "id", refs, base, "b"), ColumnMapping("e", ("a",)), jobs)
    change = runs.changes[0].metrics["jaccard"]
    direct = paired_comparison(runs.baseline.scores[("baseline", "jaccard")],
                               runs.result.scores[("a", "jaccard")], Direction.MAX,
                               names=("baseline", "a"))
    assert change.comparison == direct
    counts = change.counts
    assert sum(counts.values()) == n
    assert counts["worse"] + counts["regressed"] == direct.a_better
