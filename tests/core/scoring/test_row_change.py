"""core/scoring/row_change.py: one row's labels equal run_summary.compare_with_baseline's (the
rules `score --baseline` writes) for every row, metric, threshold and presence (Hypothesis)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from matchlens.core.metrics.registry import get_metric
from matchlens.core.scoring.batch import BatchResult, MetricJob
from matchlens.core.scoring.row_change import RowChange, row_change
from matchlens.core.scoring.run_summary import compare_with_baseline

# a similarity (higher is better) and a distance (lower is better)
METRICS = ("levenshtein_similarity", "levenshtein_distance")
score = st.one_of(st.just(float("nan")), st.sampled_from([0.0, 0.25, 0.5, 0.75, 1.0, 3.0]))


@settings(max_examples=150, deadline=None)
@given(rows=st.integers(1, 6).flatmap(lambda n: st.lists(
           st.tuples(score, score, score, score, st.booleans(), st.booleans()),
           min_size=n, max_size=n)),
       limits=st.tuples(st.sampled_from([None, 0.5, 0.75]), st.sampled_from([None, 1.0, 3.0])))
def test_each_row_is_labelled_as_the_whole_run_labels_it(rows, limits):
    jobs = [MetricJob(get_metric(m), limit, {}) for m, limit in zip(METRICS, limits,
                                                                     strict=True)]
    n = len(rows)
    cols = np.array([r[:4] for r in rows], dtype=float).T  # base sim, run sim, base dist, run dist
    in_base = np.array([r[4] for r in rows])
    in_run = np.array([r[5] for r in rows])
    both = BatchResult(n, ["baseline", "run"], jobs, done=n)
    both.scores = {("baseline", METRICS[0]): cols[0], ("run", METRICS[0]): cols[1],
                   ("baseline", METRICS[1]): cols[2], ("run", METRICS[1]): cols[3]}
    run = BatchResult(n, ["run"], jobs, done=n)
    run.scores = {("run", m): both.scores[("run", m)] for m in METRICS}
    base = BatchResult(n, ["baseline"], jobs, done=n)
    base.scores = {("baseline", m): both.scores[("baseline", m)] for m in METRICS}
    [whole] = compare_with_baseline(run, base, "baseline", in_base, in_run)
    for row in range(n):
        for metric_id in METRICS:
            got = row_change(both, "baseline", "run", row, metric_id, {}, bool(in_base[row]),
                             bool(in_run[row]))
            assert got.metric == whole.metrics[metric_id].labels()[row]
            assert got.row == whole.labels()[row]


def test_bad_arguments_are_sentences():
    jobs = [MetricJob(get_metric(METRICS[0]), 0.5, {})]
    result = BatchResult.empty(2, ["baseline", "run"], jobs)
    with pytest.raises(ValueError, match="outside"):
        row_change(result, "baseline", "run", 2, METRICS[0], {}, True, True)
    with pytest.raises(ValueError, match="not scored"):
        row_change(result, "baseline", "run", 0, "bleu", {}, True, True)
    with pytest.raises(ValueError, match="change label"):
        RowChange("x", "fine", "same", 0.0, 0.0)
