"""score_stream as a pipeline: the forked worker of piece k scores while the caller writes
piece k-1 and piece k+1 is read; the results are those of one process scoring the pieces one
after the other, and no worker outlives an error or a caller that stops early."""

from __future__ import annotations

import os

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from matchlens.core.datasets import resolve_column, table_from_columns
from matchlens.core.metrics import get_metric, local_metric_ids
from matchlens.core.scoring import forked
from matchlens.core.scoring import parallel as parallel_batch
from matchlens.core.scoring.batch import MetricJob
from matchlens.core.scoring.mapping import ColumnMapping
from matchlens.core.scoring.parallel import run_to_completion
from matchlens.core.scoring.pipeline import score_stream
from matchlens.core.scoring.tally import Tally

METRICS = ["exact_match", "levenshtein_similarity", "jaccard", "json_distance", "chrf"]
needs_fork = pytest.mark.skipif(not parallel_batch.can_fork(), reason="needs fork, two cores")


def job(metric_id: str) -> MetricJob:
    spec = get_metric(metric_id)
    return MetricJob(spec, spec.default_threshold, spec.resolve_options({}))


def pieces(rows: int = 1200, size: int = 300):
    words = "Paris the a Ada 1815 {} [1] x y z".split()
    expected = [" ".join(words[(i + k) % len(words)] for k in range(i % 5)) for i in range(rows)]
    actual = [e if i % 3 else f"{e} {i}" for i, e in enumerate(expected)]
    actual[7] = None  # a missing value: a reason, no score
    table = table_from_columns({"expected": expected, "actual": actual})
    return [table.piece(start, start + size) for start in range(0, rows, size)]


def every_piece_forks(monkeypatch) -> None:
    monkeypatch.setattr(parallel_batch, "PARALLEL_MIN_WORK", 0)
    monkeypatch.setattr(parallel_batch, "PARALLEL_CHUNK_ROWS", 100)  # 3 chunks a piece


def scoring() -> bool:
    """A forked worker is scoring (not one that sent its scores and is exiting)."""
    return bool(forked._workers - forked._exiting)


def stream(tables, jobs):
    tally = Tally("<data>", ["actual"], jobs)
    return score_stream(tables, ColumnMapping("expected", ("actual",)), jobs, tally), tally


@needs_fork
def test_the_next_piece_is_scored_while_the_caller_writes_the_previous_one(monkeypatch):
    every_piece_forks(monkeypatch)
    jobs = [job(m) for m in METRICS]
    tables = pieces()
    busy, summing = [], []
    out, tally = stream(tables, jobs)
    real_add = tally.add
    tally.add = lambda *a: summing.append(scoring()) or real_add(*a)
    for _piece, _result in out:  # "writing" it: is a worker scoring the next piece now?
        busy.append(scoring())
    # pieces 0-2 are handed out, and summed up, while pieces 1-3 are scored; the last one
    # after its own scoring
    assert busy == [True, True, True, False]
    assert summing == [True, True, True, False]
    assert not forked._workers


@needs_fork
def test_the_pipeline_gives_what_one_process_gives_piece_by_piece(monkeypatch):
    jobs = [job(m) for m in METRICS]
    tables = pieces()
    one = [run_to_completion(resolve_column(t, "expected").values,
                             {"actual": resolve_column(t, "actual").values}, jobs)
           for t in tables]
    every_piece_forks(monkeypatch)
    forks = []
    real = parallel_batch._score_forked
    monkeypatch.setattr(parallel_batch, "_score_forked", lambda *a: forks.append(1) or real(*a))
    out, tally = stream(tables, jobs)
    got = list(out)
    assert len(forks) == len(tables)
    assert [piece for piece, _ in got] == tables
    for (_, result), want in zip(got, one, strict=True):
        for key in want.keys():  # noqa: SIM118 - a method, not a dict
            np.testing.assert_array_equal(result.scores[key], want.scores[key])
            np.testing.assert_array_equal(result.status[key], want.status[key])
            assert result.messages[key] == want.messages[key]
    assert tally.rows == 1200


def reaped(pids) -> bool:
    """True when every one of `pids` has been waited for (none is left running or a zombie)."""
    for pid in pids:
        try:
            os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:
            continue
        return False
    return True


@needs_fork
def test_a_caller_that_stops_early_leaves_no_worker(monkeypatch):
    every_piece_forks(monkeypatch)
    out, _ = stream(pieces(), [job(m) for m in METRICS])
    next(out)  # piece 0 handed out: piece 1's worker is running
    workers = set(forked._workers)
    assert workers
    out.close()  # what a `for` left by an exception (a full disk) does to the generator
    assert not forked._workers and reaped(workers)


@needs_fork
def test_a_piece_that_cannot_be_read_stops_the_worker_of_the_one_before(monkeypatch):
    every_piece_forks(monkeypatch)
    tables = pieces()

    workers = set()

    def reading():
        yield tables[0]
        yield tables[1]
        workers.update(forked._workers)  # piece 1 is being scored as piece 2 is read
        raise OSError("the disk went away")

    out, _ = stream(reading(), [job(m) for m in METRICS])
    with pytest.raises(OSError, match="went away"):
        list(out)
    assert workers and not forked._workers and reaped(workers)


def test_a_piece_forks_when_its_work_pays_not_from_a_row_count():
    # a piece of 20,000 rows (the last piece of a file, a small file): with every metric the
    # estimate is 20,000 x (0.7 + 52.6) us = 1.07 s of one core, worth a second process; with
    # exact_match alone 20,000 x (0.7 + 0.3) us = 20 ms, less than PARALLEL_MIN_WORK (60 ms)
    every = [job(m) for m in local_metric_ids()]  # their batch_cost_us add up to 52.6
    assert parallel_batch.worth_forking(20_000, 1, every)
    assert not parallel_batch.worth_forking(20_000, 1, [job("exact_match")])
    assert parallel_batch.worth_forking(60_000, 1, [job("exact_match")])  # 60 ms


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 5000), st.integers(1, 600))
def test_chunks_cover_every_row_once_and_shrink_at_the_end(size, chunk):
    spans = parallel_batch._spans(size, chunk)
    assert [row for start, stop in spans for row in range(start, stop)] == list(range(size))
    lengths = [stop - start for start, stop in spans]
    assert all(0 < n <= chunk for n in lengths)
    assert lengths == sorted(lengths, reverse=True)  # the small ones last
    if size > 2 * chunk:  # the last one is at most half a chunk (+1 for an odd remainder)
        assert lengths[-1] <= max(1, chunk // 4) * 2
