"""The batch runner: same numbers as the single-pair path, missing rows, dedup, cancel."""

from __future__ import annotations

import numpy as np
import pytest

from matchlens.core.metrics import evaluate, get_metric
from matchlens.core.metrics.registry import (
    STATUS_INVALID,
    STATUS_MISSING,
    STATUS_SCORED,
    local_metric_ids,
)
from matchlens.core.scoring.batch import Chunk, MetricJob, Progress
from matchlens.core.scoring.parallel import run_to_completion
from matchlens.core.scoring.pipeline import score_chunks

PAIRS = [
    ("Paris", "Paris"),
    ("Paris", "paris"),
    ("The quick brown fox", "The quick brown dog"),
    ('{"a": 1}', '{"a": 2}'),
    ('{"a": 1}', "not json"),
    ("kitten", "sitting"),
    ("Paris", "Paris"),  # a duplicate pair: scored once, reported twice
]


def job(metric_id: str, **options) -> MetricJob:
    spec = get_metric(metric_id)
    return MetricJob(spec, spec.default_threshold, spec.resolve_options(options))


@pytest.mark.parametrize("metric_id", local_metric_ids())
def test_batch_scores_equal_single_pair_scores(metric_id):
    expected = [e for e, _ in PAIRS]
    actual = [a for _, a in PAIRS]
    result = run_to_completion(expected, {"out": actual}, [job(metric_id)], chunk_size=3)
    for i, (e, a) in enumerate(PAIRS):
        single = evaluate(get_metric(metric_id), e, a)
        got = result.scores[("out", metric_id)][i]
        if single.score is None:
            assert np.isnan(got)
            assert result.status[("out", metric_id)][i] == STATUS_INVALID
            assert result.messages[("out", metric_id)][i] == single.explanation
        else:
            assert got == single.score
            verdict = result.verdicts("out", metric_id)[i]
            assert verdict == {True: 1, False: 0, None: -1}[single.passed]


def test_missing_values_are_counted_not_scored():
    result = run_to_completion(["a", None, "c"], {"out": ["a", "b", None]}, [job("exact_match")])
    assert result.status[("out", "exact_match")].tolist() == [
        STATUS_SCORED, STATUS_MISSING, STATUS_MISSING]
    summary = result.summary("out", "exact_match")
    assert (summary.rows, summary.scored, summary.missing) == (3, 1, 2)
    # the one scored row passes, but the pass rate is over all rows: errors never inflate it
    assert summary.passed == 1 and summary.pass_rate == pytest.approx(1 / 3)


def test_invalid_rows_do_not_leave_the_average_silently():
    result = run_to_completion(['{"a":1}', '{"a":1}', "{"], {"o": ['{"a":1}', '{"a":3}', "{}"]},
                               [job("json_distance")])
    s = result.summary("o", "json_distance")
    # distances 0 and 1 over the 2 valid rows -> mean 0.5; the invalid row is counted apart
    assert (s.scored, s.invalid, s.mean) == (2, 1, 0.5)


def test_progress_and_chunks_cover_every_row_in_order():
    n = 25
    items = list(score_chunks(["x"] * n, {"o": ["y"] * n}, [job("jaccard")], chunk_rows=10))
    chunks = [i for i in items if isinstance(i, Chunk)]
    progress = [i for i in items if isinstance(i, Progress)]
    assert [(c.start, c.stop) for c in chunks] == [(0, 10), (10, 20), (20, 25)]
    assert [p.done for p in progress] == [0, 10, 20, 25]
    assert progress[-1].total == n


def test_cancel_stops_promptly():
    calls = {"n": 0}

    def cancel() -> bool:
        calls["n"] += 1
        return calls["n"] > 2  # allow two metric runs, then stop

    items = list(score_chunks(["x"] * 100, {"o": ["y"] * 100}, [job("jaccard")],
                              chunk_rows=10, cancel=cancel))
    chunks = [i for i in items if isinstance(i, Chunk)]
    assert len(chunks) == 2  # stopped at the third chunk, not after all ten


def test_several_variants_and_row_passes():
    expected = ["Paris", "Rome"]
    result = run_to_completion(expected, {"a": ["Paris", "Milan"], "b": ["Paris", "Rome"]},
                               [job("exact_match"), job("levenshtein_distance")])
    assert result.row_passes("a").tolist() == [True, False]
    assert result.row_passes("b").tolist() == [True, True]
    # levenshtein_distance has no threshold, so it does not take part in row_passes
    assert result.verdicts("a", "levenshtein_distance").tolist() == [-1, -1]
    # a threshold given at query time (the histogram drag) without re-scoring
    assert result.verdicts("a", "levenshtein_distance", 1).tolist() == [1, 0]


def test_empty_dataset():
    result = run_to_completion([], {"o": []}, [job("jaccard")])
    assert result.summary("o", "jaccard").mean is None


def test_fast_csv_line_reads_back_as_the_formula_safe_cells():
    import csv
    import io

    from hypothesis import given, settings
    from hypothesis import strategies as st

    from matchlens.core.output.csv_text import csv_line, formula_safe

    @settings(max_examples=300, deadline=None)
    @given(st.lists(st.text(alphabet='ab,"\r\n =+-@\t1.', max_size=6), min_size=2, max_size=4))
    def check(row):
        # csv.writer leaves a bare '\r' unquoted (readers then split the row); we quote it.
        line = csv_line(row) + "\n"
        assert next(csv.reader(io.StringIO(line, newline=""))) == [formula_safe(c) for c in row]
        if not any("\r" in c for c in row):
            buffer = io.StringIO()
            csv.writer(buffer, lineterminator="\n").writerow([formula_safe(c) for c in row])
            assert line == buffer.getvalue()

    check()
