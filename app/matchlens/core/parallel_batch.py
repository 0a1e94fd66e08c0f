"""Scoring a whole batch at once (no cancel): each distinct pair once, shared with a forked
copy of this process where it pays. `run_to_completion` (core.batch) calls `score_whole`.
"""

from __future__ import annotations

import contextlib
import gc
import mmap
import os
import pickle
import signal
import sys
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, BinaryIO

import numpy as np

from matchlens.core.datasets.source import gc_paused
from matchlens.core.metrics.registry import STATUS_MISSING, sharing_work, threads_per_process
from matchlens.core.pair_dedup import Pairs, as_list, score_unique, unique_pairs

if TYPE_CHECKING:
    from matchlens.core.batch import BatchResult

# --- two processes ---------------------------------------------------------------------------
# Most of the work per row is Python (word sets, hashing, list building) and holds the GIL, so
# threads cannot use a second core; a forked child can, and it sees the texts without copying.

PARALLEL_MIN_ROWS = 100_000
PARALLEL_CHUNK_ROWS = 25_000  # smaller chunks than score_pairs': the two processes end together


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


def score_whole(result: BatchResult, expected, actuals, jobs, chunk_size: int) -> None:
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
            sources[variant] = unique_pairs(expected, values)
        else:
            sources[variant] = Pairs(as_list(expected), as_list(values), None, len(expected))
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
            pairs = unique_pairs(source.expected[start:stop], source.actual[start:stop])
            with sharing_work():  # folded texts, edit distances: once for all the metrics
                for job in jobs:
                    key = (variant, job.id)
                    scores[key][start:stop], status[key][start:stop], found = \
                        score_unique(job, pairs, start)
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
