"""Scoring a whole batch at once (no cancel): each distinct pair once, shared with a forked
copy of this process where it pays. `run_to_completion` scores one; `begin_to_completion` starts
one, so the pipeline (pipeline.py) can read and write other pieces while it is scored. The
forked process and the sharing of chunks with it: forked.py.
"""

from __future__ import annotations

import mmap
from collections.abc import Callable

import numpy as np

from matchlens.core.datasets.source import gc_paused
from matchlens.core.metrics.fast.loading import kernels_due, load_kernels
from matchlens.core.metrics.registry import STATUS_MISSING, sharing_work
from matchlens.core.scoring.batch import BatchResult, score_unique
from matchlens.core.scoring.forked import SharedChunks, can_fork, reap_workers, share_chunks
from matchlens.core.scoring.pair_dedup import Pairs, as_list, unique_pairs

# --- two processes ---------------------------------------------------------------------------
# Most of the work per row is Python (word sets, hashing, list building) and holds the GIL, so
# threads cannot use a second core; a forked child can, and it sees the texts without copying.

# A fork pays once the batch holds this much work, in microseconds of one core: forking, the
# child's copy-on-write faults and sending its messages back cost a few milliseconds.
PARALLEL_MIN_WORK = 60_000
PARALLEL_CHUNK_ROWS = 10_000  # small chunks: the two processes end together (work is taken
# chunk by chunk), even when this process first reads and writes other pieces of the file

# Each metric's cost per distinct pair is its MetricSpec.batch_cost_us; this for one without.
_OTHER_COST_US = 5.0
_PAIR_COST_US = 0.7  # finding the distinct pairs of a chunk: hashing both texts


def estimated_work(rows: int, variants: int, jobs) -> float:
    """Microseconds of one core to score `rows` rows of `variants` variants with `jobs`."""
    per_row = _PAIR_COST_US + sum(_OTHER_COST_US if job.spec.batch_cost_us is None
                                  else job.spec.batch_cost_us for job in jobs)
    return rows * variants * per_row


def worth_forking(rows: int, variants: int, jobs) -> bool:
    return estimated_work(rows, variants, jobs) >= PARALLEL_MIN_WORK


def _shared_full(n: int, dtype, fill) -> np.ndarray:
    """An array in memory shared with forked children (an anonymous MAP_SHARED mapping)."""
    dtype = np.dtype(dtype)
    array = np.frombuffer(mmap.mmap(-1, max(1, n * dtype.itemsize)), dtype=dtype, count=n)
    array.fill(fill)
    return array


def run_to_completion(expected, actuals, jobs, chunk_size: int | None = None) -> BatchResult:
    """Score a whole batch (on two processes where it pays) and return its BatchResult."""
    try:
        return begin_to_completion(expected, actuals, jobs, chunk_size).finish()
    finally:
        reap_workers()


def begin_to_completion(expected, actuals, jobs, chunk_size: int | None = None,
                        run_rows: int | None = None) -> WholeBatch:
    """`run_to_completion` in steps: its `finish()` gives the BatchResult; in between, the
    caller may read or write other pieces while a forked worker already scores this batch
    (the pipeline). `finish()` is `join()` (every score is in: the worker is done) then
    `complete()` (the result filled in). `abort()` instead stops the worker. A batch worth
    less than a fork is scored by this process alone, in `join()`. Chunks of `chunk_size`
    rows (PARALLEL_CHUNK_ROWS when None). `run_rows`: the rows of the run so far, this batch's
    included (a piece of a file: the compiled kernels pay from a run's size); this batch's by
    default."""
    result = BatchResult.empty(len(expected), list(actuals), jobs)
    return WholeBatch(result, expected, actuals, jobs,
                      PARALLEL_CHUNK_ROWS if chunk_size is None else chunk_size,
                      len(expected) if run_rows is None else run_rows)


class WholeBatch:
    """A batch being scored whole, each distinct (expected, actual) pair once; every row then
    gets its pair's scores.

    When a sample of rows repeats pairs, the distinct pairs of the whole batch are found first
    (a dataset that repeats itself costs what its distinct pairs cost); otherwise each chunk is
    deduplicated on its own. With enough work the chunks are shared with a forked child, which
    starts on them at once (`begin_to_completion`): the caller may do other work (read and
    write other pieces of a file) before `finish`, where this process takes the chunks the
    child has not taken yet. The chunk numbers wait in a pipe and each process reads the next one (a 4-byte
    read from a pipe is atomic), so neither waits for the other; scores and status go straight
    into shared arrays, and the child sends which chunks it did and their messages when it is
    done. If it dies, the chunks it did not report are scored here.
    """

    def __init__(self, result: BatchResult, expected, actuals, jobs, chunk_size: int,
                 run_rows: int) -> None:
        self.result = result
        self.jobs = jobs
        self.sources = {}
        for variant, values in actuals.items():
            if _repeats(expected, values):
                self.sources[variant] = unique_pairs(expected, values)
            else:
                self.sources[variant] = Pairs(as_list(expected), as_list(values), None,
                                              len(expected))
        sizes = {variant: len(p.expected) for variant, p in self.sources.items()}
        self.work = [(variant, start, stop) for variant, size in sizes.items()
                     for start, stop in _spans(size, chunk_size)]
        # A network metric stays in one process: two would send the same texts twice, each
        # before the other's answer reached the shared cache.
        parallel = worth_forking(sum(sizes.values()), 1, jobs) and \
            2 <= len(self.work) <= 8192 and not any(job.spec.network for job in jobs) and \
            can_fork()
        make = _shared_full if parallel else _full
        self.keys = result.keys()
        self.scores = {key: make(sizes[key[0]], np.float64, np.nan) for key in self.keys}
        self.status = {key: make(sizes[key[0]], np.int8, STATUS_MISSING) for key in self.keys}
        specs = [job.spec for job in jobs]
        if kernels_due(specs, 0):  # needed from the first row: loaded once, the child inherits
            load_kernels(specs)
        self.forked = _score_forked(len(self.work), self.score) if parallel else None
        if kernels_due(specs, run_rows):  # from here on: loaded while the child starts
            load_kernels(specs)

    def score(self, i: int, messages: dict) -> None:
        variant, start, stop = self.work[i]
        source = self.sources[variant]
        with gc_paused():
            pairs = unique_pairs(source.expected[start:stop], source.actual[start:stop])
            with sharing_work():  # folded texts, edit distances: once for all the metrics
                for job in self.jobs:
                    key = (variant, job.id)
                    self.scores[key][start:stop], self.status[key][start:stop], found = \
                        score_unique(job, pairs, start)
                    if found:
                        messages.setdefault(key, {}).update(found)

    def finish(self) -> BatchResult:
        """Score what is left (everything, without a child), wait for the child, and fill
        the result."""
        self.join()
        return self.complete()

    def join(self) -> None:
        """Score what is left here and wait for the child's scores: every score is in. A
        pipeline may start the next batch's child before `complete`."""
        self.messages: dict = {}
        done: set[int] = set()
        if self.forked is not None:
            done = self.forked.finish(self.messages)
            self.forked = None
        for i in range(len(self.work)):
            if i not in done:  # everything, in one process; or the chunks a failed child left
                self.score(i, self.messages)

    def complete(self) -> BatchResult:
        """After `join`: every row gets its pair's scores."""
        for key in self.keys:
            _scatter(self.result, key, self.sources[key[0]].inverse, self.scores[key],
                     self.status[key], self.messages.get(key, {}))
        self.result.done = self.result.rows
        return self.result

    def abort(self) -> None:
        """Stop: the child is killed and waited for (after an error, or when the caller
        stops before `finish`)."""
        if self.forked is not None:
            self.forked.abort()
            self.forked = None


def _spans(size: int, chunk: int) -> list[tuple[int, int]]:
    """[start, stop) of the chunks of `size` rows: `chunk` rows each, then smaller ones at the
    end (half the rows left, down to a quarter of a chunk). The two processes take chunks in
    turn, so the one that finishes first waits for at most the other's last chunk."""
    spans = []
    start, least = 0, max(1, chunk // 4)
    while start < size:
        left = size - start
        step = chunk if left > 2 * chunk else max(least, -(-left // 2))
        if left - step < least:  # no sliver of a chunk at the very end
            step = left
        spans.append((start, start + step))
        start += step
    return spans


# 2,000 rows of a 50,000-row piece: a file that repeats a good share of its pairs shows dozens
# of repeats in it; the sample's texts are hashed for the first time here (10,000 rows cost
# ~12 ms a piece, a quarter of a second a million rows, on the critical path before the fork).
_SAMPLE_ROWS = 2_000


def _repeats(expected, actual) -> bool:
    """True when evenly spread sample rows repeat a pair: then finding the distinct pairs of
    the whole batch first pays (it takes a hash of every text, 0.5 s a million rows)."""
    step = max(1, len(expected) // _SAMPLE_ROWS)
    sample = list(zip(expected[::step], actual[::step], strict=True))
    return len(set(sample)) < len(sample)


def _full(n: int, dtype, fill) -> np.ndarray:
    return np.full(n, fill, dtype=dtype)


def _score_forked(count: int, score: Callable[[int, dict], None]) -> SharedChunks:
    """Chunks 0..count-1 scored by this process and a forked child, the child started now."""
    return share_chunks(count, score)


def _scatter(result: BatchResult, key, inverse: np.ndarray | None, scores: np.ndarray,
             status: np.ndarray, messages: dict[int, str]) -> None:
    """Each row gets the scores of its distinct pair (rows with a missing value keep none)."""
    if inverse is None:  # row i is pair i
        result.scores[key][:] = scores
        result.status[key][:] = status
        result.messages[key] = dict(sorted(messages.items()))
        return
    present = inverse >= 0
    where = inverse[present]
    result.scores[key][present] = scores[where]
    result.status[key][present] = status[where]
    out: dict[int, str] = {}
    if messages:
        with_message = np.zeros(len(scores) + 1, dtype=bool)
        with_message[list(messages)] = True
        for row in np.flatnonzero(with_message[inverse]).tolist():  # -1 -> the False at the end
            out[row] = messages[int(inverse[row])]
    result.messages[key] = out
