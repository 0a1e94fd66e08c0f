"""The streaming summary is exact: a Tally fed in pieces says what numpy says of all the scores
at once, and what a BatchResult's own summary says."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from matchlens.core.config import Config
from matchlens.core.metrics import get_metric
from matchlens.core.scoring import tally as tally_module
from matchlens.core.scoring.batch import MetricJob
from matchlens.core.scoring.parallel import run_to_completion
from matchlens.core.scoring.tally import Tally, ValueCounts

SCORES = st.lists(st.one_of(st.sampled_from([0.0, 1.0, 0.5, 0.25]),
                            st.floats(min_value=0, max_value=1, width=32)),
                  min_size=1, max_size=60)


@settings(max_examples=80, deadline=None)
@given(SCORES, st.lists(st.integers(min_value=1, max_value=9), min_size=1, max_size=8),
       st.sampled_from([1, 3, 1000]))
def test_value_counts_give_numpys_mean_and_median(scores, cuts, compact_at):
    tally_module._COMPACT_AT = compact_at  # merge after every piece, or rarely
    try:
        counts, start = ValueCounts(), 0
        for cut in [*cuts, len(scores)]:
            counts.add(np.asarray(scores[start:start + cut]))
            start += cut
        values = np.asarray(scores)
        assert counts.n == values.size
        assert counts.median() == float(np.median(values))
        assert np.isclose(counts.mean(), float(np.mean(values)), rtol=1e-12, atol=0)
    finally:
        tally_module._COMPACT_AT = 200_000


def test_a_tally_in_pieces_equals_the_whole_result():
    expected = [f"text {i % 7}" for i in range(50)]
    actual = [None if i % 9 == 4 else f"text {i % 5}" for i in range(50)]
    config = Config()
    jobs = [MetricJob(get_metric(m), t, config.settings(m).options) for m, t in
            (("exact_match", 0.5), ("levenshtein_distance", None), ("jaccard", 0.5))]
    whole = run_to_completion(expected, {"out": actual}, jobs)
    pieces = Tally("d", ["out"], jobs)
    for start in range(0, 50, 7):
        part = run_to_completion(expected[start:start + 7], {"out": actual[start:start + 7]},
                                 jobs)
        pieces.add(part, list(range(start + 2, start + 9)), {})
    for job in jobs:
        got, want = pieces.summary("out", job.id), whole.summary("out", job.id)
        # the mean of distinct values × counts may differ from numpy's pairwise sum in the last
        # bit (1e-16); every count, the median and the pass counts are equal
        assert np.isclose(got.mean, want.mean, rtol=1e-12, atol=0)
        got.mean = want.mean
        assert got == want
    rate = float(whole.row_passes("out").sum()) / 50  # rows with no value do not pass
    assert pieces.overall_pass_rate("out") == rate
