"""Scoring a dataset: a cancellable generator of progress and result chunks (no Qt)."""

from __future__ import annotations

import contextlib
import gc
import mmap
import os
import pickle
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import compress
from typing import Any, BinaryIO

import numpy as np

from matchlens.core.datasets.source import gc_paused
from matchlens.core.metrics.registry import (
    STATUS_ERROR,
    STATUS_INVALID,
    STATUS_MISSING,
    STATUS_SCORED,
    MetricSpec,
    sharing_work,
    threads_per_process,
)
from matchlens.core.results import passes


@dataclass(frozen=True)
class MetricJob:
    """A metric as configured for one run."""

    spec: MetricSpec
    threshold: float | None
    options: Mapping[str, Any]

    @property
    def id(self) -> str:
        return self.spec.id


@dataclass(frozen=True)
class Progress:
    done: int
    total: int
    elapsed: float

    @property
    def rate(self) -> float:
        return self.done / self.elapsed if self.elapsed > 0 else 0.0

    @property
    def remaining(self) -> float | None:
        """Seconds left at the current rate, None until there is a rate."""
        return (self.total - self.done) / self.rate if self.rate > 0 else None


@dataclass(frozen=True)
class Chunk:
    """Scores of rows [start, stop) for every (variant, metric)."""

    start: int
    stop: int
    scores: dict[tuple[str, str], np.ndarray]
    status: dict[tuple[str, str], np.ndarray]
    messages: dict[tuple[str, str], dict[int, str]]  # absolute row index -> sentence
    # several references per row (core.references): the winning reference's index per row
    refs: dict[tuple[str, str], np.ndarray] = field(default_factory=dict)


@dataclass
class MetricSummary:
    rows: int
    scored: int
    invalid: int
    errored: int
    missing: int
    mean: float | None
    median: float | None
    passed: int | None
    failed: int | None

    @property
    def pass_rate(self) -> float | None:
        """Share of ALL rows that passed: errored or missing rows count as not passing."""
        if self.passed is None or self.rows == 0:
            return None
        return self.passed / self.rows


@dataclass
class BatchResult:
    """Result arrays per (variant, metric); NaN where no score."""

    rows: int
    variants: list[str]
    jobs: list[MetricJob]
    scores: dict[tuple[str, str], np.ndarray] = field(default_factory=dict)
    status: dict[tuple[str, str], np.ndarray] = field(default_factory=dict)
    messages: dict[tuple[str, str], dict[int, str]] = field(default_factory=dict)
    done: int = 0  # rows scored so far (all rows once complete)
    # With several references per row (core.references): the index of the reference that won,
    # -1 where none scored; empty otherwise.
    refs: dict[tuple[str, str], np.ndarray] = field(default_factory=dict)

    @classmethod
    def empty(cls, rows: int, variants: Sequence[str], jobs: Sequence[MetricJob]) -> BatchResult:
        result = cls(rows, list(variants), list(jobs))
        for key in result.keys():  # noqa: SIM118 - a method, not a dict
            result.scores[key] = np.full(rows, np.nan)
            result.status[key] = np.full(rows, STATUS_MISSING, dtype=np.int8)
            result.messages[key] = {}
        return result

    def keys(self) -> list[tuple[str, str]]:
        return [(v, job.id) for v in self.variants for job in self.jobs]

    def job(self, metric_id: str) -> MetricJob:
        return next(job for job in self.jobs if job.id == metric_id)

    def add(self, chunk: Chunk) -> None:
        for key, values in chunk.scores.items():
            self.scores[key][chunk.start:chunk.stop] = values
            self.status[key][chunk.start:chunk.stop] = chunk.status[key]
            self.messages[key].update(chunk.messages[key])
        for key, values in chunk.refs.items():
            self.refs.setdefault(key, np.full(self.rows, -1, dtype=np.int64))
            self.refs[key][chunk.start:chunk.stop] = values
        self.done = max(self.done, chunk.stop)

    def verdicts(self, variant: str, metric_id: str, threshold: float | None | object = ...
                 ) -> np.ndarray:
        """1 pass, 0 fail, -1 no verdict (no threshold, or no score) for every row."""
        job = self.job(metric_id)
        limit = job.threshold if threshold is ... else threshold
        return verdict_array(self.scores[(variant, metric_id)], job.spec, limit)  # type: ignore[arg-type]

    def row_passes(self, variant: str, thresholds: Mapping[str, float | None] | None = None
                   ) -> np.ndarray:
        """True where a row passes every thresholded metric (a row with no score does not)."""
        ok = np.ones(self.rows, dtype=bool)
        for job in self.jobs:
            limit = (thresholds or {}).get(job.id, job.threshold)
            if limit is None:
                continue
            ok &= self.verdicts(variant, job.id, limit) == 1
        return ok

    def summary(self, variant: str, metric_id: str, threshold: float | None | object = ...
                ) -> MetricSummary:
        scores = self.scores[(variant, metric_id)][: self.done]
        status = self.status[(variant, metric_id)][: self.done]
        scored = scores[status == STATUS_SCORED]
        verdicts = self.verdicts(variant, metric_id, threshold)[: self.done]
        has_threshold = bool((verdicts != -1).any()) or self._threshold(metric_id, threshold) is not None
        return MetricSummary(
            rows=self.done,
            scored=int(scored.size),
            invalid=int((status == STATUS_INVALID).sum()),
            errored=int((status == STATUS_ERROR).sum()),
            missing=int((status == STATUS_MISSING).sum()),
            mean=float(scored.mean()) if scored.size else None,
            median=float(np.median(scored)) if scored.size else None,
            passed=int((verdicts == 1).sum()) if has_threshold else None,
            failed=int((verdicts == 0).sum()) if has_threshold else None,
        )

    def _threshold(self, metric_id: str, threshold: float | None | object) -> float | None:
        return self.job(metric_id).threshold if threshold is ... else threshold  # type: ignore[return-value]


def verdict_array(scores: np.ndarray, spec: MetricSpec, threshold: float | None) -> np.ndarray:
    out = np.full(scores.shape, -1, dtype=np.int8)
    if threshold is None:
        return out
    valid = ~np.isnan(scores)
    ok = passes(spec.direction, scores[valid], threshold)
    out[valid] = np.where(ok, 1, 0)
    return out


def score_pairs(
    expected: Sequence[str | None],
    actuals: Mapping[str, Sequence[str | None]],
    jobs: Sequence[MetricJob],
    *,
    chunk_size: int = 50_000,
    cancel: Callable[[], bool] | None = None,
    clock: Callable[[], float] = time.perf_counter,
) -> Iterator[Progress | Chunk]:
    """Yield a Chunk of scores and then a Progress for every `chunk_size` rows.

    Stops (returns) as soon as `cancel()` is true between metrics, so a chunk is the longest
    wait. Rows with a missing expected or actual value get STATUS_MISSING and no score.
    """
    total = len(expected)
    started = clock()
    yield Progress(0, total, 0.0)
    for start in range(0, total, chunk_size):
        stop = min(start + chunk_size, total)
        chunk = _score_chunk(expected, actuals, jobs, start, stop, cancel)
        if chunk is None:
            return
        yield chunk
        yield Progress(stop, total, clock() - started)


def _score_chunk(expected, actuals, jobs, start, stop, cancel) -> Chunk | None:
    scores, status, messages = {}, {}, {}
    exp_slice = expected[start:stop]
    # The work makes no reference cycles, and a cyclic collection would walk every row of a
    # big table again and again: paused while a chunk is scored.
    with gc_paused():
        for variant, actual in actuals.items():
            pairs = _unique_pairs(exp_slice, actual[start:stop])
            with sharing_work():  # folded texts, edit distances: once for all the metrics
                for job in jobs:
                    if cancel is not None and cancel():
                        return None
                    key = (variant, job.id)
                    scores[key], status[key], messages[key] = _score_unique(job, pairs, start)
    return Chunk(start, stop, scores, status, messages)


@dataclass(frozen=True)
class _Pairs:
    expected: list[str]
    actual: list[str]
    # row -> index into the unique pairs, -1 where a value is missing; None when every row
    # is present and distinct (row i is pair i)
    inverse: np.ndarray | None
    rows: int


def _unique_pairs(expected: Sequence[str | None], actual: Sequence[str | None]) -> _Pairs:
    """Identical (expected, actual) pairs are scored once; datasets repeat a lot.

    No Python loop over the rows (one cost 0.7 µs a row): pairs whose hash no other pair shares
    are distinct for certain, so only rows with an equal pair hash are compared, in a dict.
    """
    n = len(expected)
    if len(actual) != n:
        raise ValueError("expected and actual must have the same length")
    e_hash = np.fromiter(map(hash, expected), dtype=np.int64, count=n)
    a_hash = np.fromiter(map(hash, actual), dtype=np.int64, count=n)
    missing = _missing_rows(expected, actual, e_hash, a_hash)
    pair_hash = e_hash * 1_000_003 ^ a_hash
    in_order = np.sort(pair_hash)
    if missing is None and not (in_order[1:] == in_order[:-1]).any():
        return _Pairs(_as_list(expected), _as_list(actual), None, n)  # all distinct
    rep = np.arange(n)  # row -> the first row holding the same pair
    order = np.argsort(pair_hash)
    same_as_next = pair_hash[order[1:]] == pair_hash[order[:-1]]
    if same_as_next.any():
        shared_hash = np.zeros(n, dtype=bool)
        shared_hash[1:] |= same_as_next
        shared_hash[:-1] |= same_as_next
        candidates = np.sort(order[shared_hash]).tolist()
        keys = list(zip(map(expected.__getitem__, candidates),
                        map(actual.__getitem__, candidates), strict=True))
        first = dict(zip(reversed(keys), reversed(candidates), strict=True))
        rep[candidates] = np.fromiter(map(first.__getitem__, keys), dtype=np.int64,
                                      count=len(keys))
    if missing is not None:
        rep[missing] = -1
    keep = rep == np.arange(n)
    unique_rows = np.flatnonzero(keep)
    if unique_rows.size == n:  # every row present and distinct
        return _Pairs(_as_list(expected), _as_list(actual), None, n)
    inverse = np.searchsorted(unique_rows, rep)
    if missing is not None:
        inverse[missing] = -1
    kept = keep.tolist()
    return _Pairs(list(compress(expected, kept)), list(compress(actual, kept)), inverse, n)


def _missing_rows(expected, actual, e_hash: np.ndarray, a_hash: np.ndarray
                  ) -> np.ndarray | None:
    """A mask of the rows where either value is None, or None when there are none."""
    none_hash = hash(None)
    maybe = np.flatnonzero((e_hash == none_hash) | (a_hash == none_hash))
    if not maybe.size:
        return None
    missing = np.zeros(len(e_hash), dtype=bool)
    for i in maybe.tolist():
        missing[i] = expected[i] is None or actual[i] is None
    return missing if missing.any() else None


def _as_list(texts: Sequence[str | None]) -> list:
    return texts if isinstance(texts, list) else list(texts)


def _score_unique(job: MetricJob, pairs: _Pairs, offset: int):
    if pairs.inverse is None:  # every row present and distinct: the metric's arrays as they are
        if not pairs.expected:
            return np.full(0, np.nan), np.full(0, STATUS_MISSING, dtype=np.int8), {}
        many = job.spec.many(pairs.expected, pairs.actual, job.options)
        messages = {offset + i: text for i, text in many.messages.items()}
        return (np.asarray(many.scores, dtype=np.float64), many.status.astype(np.int8),
                messages)
    n = pairs.rows
    scores = np.full(n, np.nan)
    status = np.full(n, STATUS_MISSING, dtype=np.int8)
    messages: dict[int, str] = {}
    if not pairs.expected:
        return scores, status, messages
    many = job.spec.many(pairs.expected, pairs.actual, job.options)
    present = pairs.inverse >= 0
    where = pairs.inverse[present]
    scores[present] = many.scores[where]
    status[present] = many.status[where]
    if many.messages:
        for row in np.flatnonzero(present):
            message = many.messages.get(int(pairs.inverse[row]))
            if message is not None:
                messages[offset + int(row)] = message
    return scores, status, messages


def run_to_completion(expected, actuals, jobs, **kwargs) -> BatchResult:
    """Drive `score_pairs` to the end (the CLI's way); the window drives it from a worker.

    A big batch with nothing to cancel is scored whole (`_score_whole`): each distinct pair of
    the whole batch once, by this process and, where it pays, a forked copy of it together.
    """
    result = BatchResult.empty(len(expected), list(actuals), jobs)
    if kwargs.get("cancel") is None and len(expected) >= PARALLEL_MIN_ROWS:
        _score_whole(result, expected, actuals, jobs,
                     kwargs.get("chunk_size", _PARALLEL_CHUNK_ROWS))
        return result
    for item in score_pairs(expected, actuals, jobs, **kwargs):
        if isinstance(item, Chunk):
            result.add(item)
    return result


# --- two processes ---------------------------------------------------------------------------
# Most of the work per row is Python (word sets, hashing, list building) and holds the GIL, so
# threads cannot use a second core; a forked child can, and it sees the texts without copying.

PARALLEL_MIN_ROWS = 100_000
_PARALLEL_CHUNK_ROWS = 25_000  # smaller chunks than score_pairs': the two processes end together


def can_fork() -> bool:
    """True where a forked worker is safe and useful: Linux (macOS frameworks break after
    fork; Windows has none), called from the main thread with no other Python thread running
    (a lock another thread holds would stay locked in the child), and at least two cores for
    this process."""
    if not hasattr(os, "fork") or not sys.platform.startswith("linux"):
        return False
    if threading.get_ident() != threading.main_thread().ident:
        return False
    # a thread marked fork_safe (matchlens.interrupts' watcher) only waits in a read, no lock held
    others = [t for t in threading.enumerate()
              if t is not threading.current_thread() and not getattr(t, "fork_safe", False)]
    if others:
        return False
    try:
        return len(os.sched_getaffinity(0)) >= 2
    except OSError:
        return False


_workers: set[int] = set()  # pids of the forked workers running now
# Held from the fork until the child's pid is in _workers: a signal handled meanwhile by
# another thread (matchlens.interrupts) waits for it, so no worker escapes kill_workers.
_workers_lock = threading.Lock()


def kill_workers() -> None:
    """SIGKILL every forked worker, not waiting for them: for a process about to `os._exit`
    (matchlens.interrupts); init reaps them. Waiting took ~0.2 s (a big heap to tear down)."""
    with _workers_lock:
        for pid in list(_workers):
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)


class _ForkedWorker:
    """A forked copy of this process running `task(stream)`; the parent reads `stream`.

    `stream` is None when no child could be started. On leaving the block the child is waited
    for (killed first if the block raised); `ok` then says whether it finished its task.
    """

    def __init__(self, task: Callable[[BinaryIO], None]) -> None:
        self.pid: int | None = None
        self.stream: BinaryIO | None = None
        self.ok = False
        read_fd, write_fd = os.pipe()
        _workers_lock.acquire()
        try:
            pid = os.fork()
        except OSError:
            _workers_lock.release()
            os.close(read_fd)
            os.close(write_fd)
            return
        if pid != 0:
            _workers.add(pid)
            _workers_lock.release()
        if pid == 0:  # the child: do the task, never return into the caller's code
            code = 1
            try:
                os.close(read_fd)
                gc.disable()  # a collection would touch (and so copy) every page of the heap
                with open(write_fd, "wb") as out:
                    task(out)
                code = 0
            except BaseException:  # noqa: S110 - reported to the parent by the exit code
                pass
            finally:
                os._exit(code)
        os.close(write_fd)
        self.pid = pid
        self.stream = open(read_fd, "rb")  # noqa: SIM115 - closed in __exit__

    def __enter__(self) -> _ForkedWorker:
        return self

    def __exit__(self, exc_type, *_exc) -> None:
        if self.pid is None:
            return
        if exc_type is not None:
            with contextlib.suppress(OSError):
                os.kill(self.pid, signal.SIGKILL)
        self.stream.close()  # type: ignore[union-attr]
        _, status = os.waitpid(self.pid, 0)
        _workers.discard(self.pid)
        self.ok = exc_type is None and os.waitstatus_to_exitcode(status) == 0


def _shared_full(n: int, dtype, fill) -> np.ndarray:
    """An array in memory shared with forked children (an anonymous MAP_SHARED mapping)."""
    dtype = np.dtype(dtype)
    array = np.frombuffer(mmap.mmap(-1, max(1, n * dtype.itemsize)), dtype=dtype, count=n)
    array.fill(fill)
    return array


def _score_whole(result: BatchResult, expected, actuals, jobs, chunk_size: int) -> None:
    """Score the whole batch, each distinct (expected, actual) pair once, then give every row
    its pair's scores.

    When a sample of rows repeats pairs, the distinct pairs of the whole batch are found first
    (a dataset that repeats itself costs what its distinct pairs cost); otherwise each chunk is
    deduplicated on its own, in parallel. With enough pairs the work is shared with a forked
    child: the chunk numbers wait in a pipe and each process reads the next one (a 4-byte read
    from a pipe is atomic), so neither waits for the other; scores and status go straight into
    shared arrays, and the child sends which chunks it did and their messages when it is done.
    If it dies, the chunks it did not report are scored here.
    """
    sources = {}
    for variant, values in actuals.items():
        if _repeats(expected, values):
            sources[variant] = _unique_pairs(expected, values)
        else:
            sources[variant] = _Pairs(_as_list(expected), _as_list(values), None, len(expected))
    sizes = {variant: len(p.expected) for variant, p in sources.items()}
    work = [(variant, start, min(start + chunk_size, size))
            for variant, size in sizes.items() for start in range(0, size, chunk_size)]
    keys = result.keys()
    # A network metric stays in one process: two would send the same texts twice, each
    # before the other's answer reached the shared cache.
    parallel = sum(sizes.values()) >= PARALLEL_MIN_ROWS and 2 <= len(work) <= 8192 and \
        not any(job.spec.network for job in jobs) and can_fork()
    make = _shared_full if parallel else _full
    scores = {key: make(sizes[key[0]], np.float64, np.nan) for key in keys}
    status = {key: make(sizes[key[0]], np.int8, STATUS_MISSING) for key in keys}

    def score(i: int, messages: dict) -> None:
        variant, start, stop = work[i]
        source = sources[variant]
        with gc_paused():
            pairs = _unique_pairs(source.expected[start:stop], source.actual[start:stop])
            with sharing_work():  # folded texts, edit distances: once for all the metrics
                for job in jobs:
                    key = (variant, job.id)
                    scores[key][start:stop], status[key][start:stop], found = \
                        _score_unique(job, pairs, start)
                    if found:
                        messages.setdefault(key, {}).update(found)

    messages: dict = {}
    done: set[int] = set()
    if parallel:
        done = _score_forked(len(work), score, messages)
    for i in range(len(work)):
        if i not in done:  # everything, in one process; or the chunks a failed child left
            score(i, messages)
    for key in keys:
        _scatter(result, key, sources[key[0]].inverse, scores[key], status[key],
                 messages.get(key, {}))
    result.done = result.rows


_SAMPLE_ROWS = 10_000


def _repeats(expected, actual) -> bool:
    """True when evenly spread sample rows repeat a pair: then finding the distinct pairs of
    the whole batch first pays (it takes a hash of every text, 0.5 s a million rows)."""
    step = max(1, len(expected) // _SAMPLE_ROWS)
    sample = list(zip(expected[::step], actual[::step], strict=True))
    return len(set(sample)) < len(sample)


def _full(n: int, dtype, fill) -> np.ndarray:
    return np.full(n, fill, dtype=dtype)


def _score_forked(count: int, score: Callable[[int, dict], None], messages: dict) -> set[int]:
    """Chunks 0..count-1 scored by this process and a forked child; the numbers of the chunks
    whose scores are in (the child's only if it finished)."""
    queue_r, queue_w = os.pipe()
    try:
        os.write(queue_w, b"".join(i.to_bytes(4, "little") for i in range(count)))
    finally:
        os.close(queue_w)

    def next_chunk() -> int | None:
        data = os.read(queue_r, 4)
        return int.from_bytes(data, "little") if len(data) == 4 else None

    parent = os.getpid()

    def child_task(stream: BinaryIO) -> None:
        done: list[int] = []
        found: dict = {}
        # a parent killed (or gone on Ctrl+C) before it could kill us: stop after this chunk
        while os.getppid() == parent and (i := next_chunk()) is not None:
            score(i, found)
            done.append(i)
        pickle.dump((done, found), stream, protocol=pickle.HIGHEST_PROTOCOL)

    mine: list[int] = []
    theirs: tuple[list[int], dict] = ([], {})
    try:
        # one process per core: the C++ metrics use one thread each
        with threads_per_process(1), gc_paused(), _ForkedWorker(child_task) as child:
            while (i := next_chunk()) is not None:
                score(i, messages)
                mine.append(i)
            if child.stream is not None:
                try:
                    theirs = pickle.load(child.stream)
                except (EOFError, pickle.UnpicklingError, OSError):
                    theirs = ([], {})
        if not child.ok:
            theirs = ([], {})
    finally:
        os.close(queue_r)
    for key, rows in theirs[1].items():
        messages.setdefault(key, {}).update(rows)
    return {*mine, *theirs[0]}


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
