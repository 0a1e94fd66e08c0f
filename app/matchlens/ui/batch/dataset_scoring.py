"""Scoring a dataset for the batch window: `score_dataset` resolves the mapping and scores
chunk by chunk, in the calling worker thread or, from `PROCESS_ROWS` rows on, in a child process
(`ChildRun`, `score_in_child`) that can also rank the text columns for the table's sorts.
"""

from __future__ import annotations

import contextlib
import gc
import os
import subprocess
import threading
from collections.abc import Callable, Generator, Iterator
from typing import BinaryIO

import numpy as np

from matchlens.core.datasets import Table
from matchlens.core.errors import MatchLensError
from matchlens.core.scoring.batch import BatchResult, Chunk, MetricJob
from matchlens.core.scoring.mapping import ColumnMapping, Prepared, prepare
from matchlens.core.scoring.pipeline import score_chunks
from matchlens.core.scoring.stats import Final, finalize
from matchlens.workers.background import child_command, lower_priority
from matchlens.workers.frames import read_frame, write_frame

# From this many rows on, scoring runs in a child process (see score_child for why); below it a
# thread is quicker than starting a Python (~0.5 s) and the GIL is only shared briefly.
PROCESS_ROWS = 20_000
# Rows per request to the child (each column is pickled on its own, a ~3 ms GIL hold).
CHILD_CHUNK_ROWS = 10_000


class Started:
    """First thing a scoring run yields: the resolved values and the (empty) result arrays."""

    def __init__(self, prepared: Prepared, result: BatchResult) -> None:
        self.prepared = prepared
        self.result = result


class ChildRun:
    """The child process of one scoring run; the GUI thread kills it on Cancel."""

    def __init__(self) -> None:
        self.proc: subprocess.Popen[bytes] | None = None
        self.killed = False
        self.ranking = False  # asked for the kept columns' ranks; they wait in the pipe
        self._lock = threading.Lock()

    @staticmethod
    def available() -> bool:
        return os.environ.get("MATCHLENS_COMPUTE") != "thread"

    def start(self) -> subprocess.Popen[bytes]:
        with self._lock:
            if self.killed:
                raise MatchLensError("scoring was cancelled")
            self.proc = subprocess.Popen(child_command("matchlens.workers.score_child"),
                                         stdin=subprocess.PIPE, stdout=subprocess.PIPE)
            lower_priority(self.proc.pid)
            return self.proc

    def kill(self) -> None:
        with self._lock:
            self.killed = True
            proc = self.proc
            if proc is not None and proc.poll() is None:
                proc.kill()
                # Reaped off the GUI thread (no zombie when nobody reads its ranks any more).
                threading.Thread(target=proc.wait, daemon=True).start()

    def ranks(self, cancel: Callable[[], bool]) -> Iterator[tuple[str, np.ndarray]]:
        """(column key, ranks) for each column the child kept, then the child is stopped.

        Reading waits in the pipe without the GIL; unpickling a million-row array is a copy.
        """
        proc = self.proc
        try:
            while self.ranking and proc is not None and not cancel():
                message = read_frame(proc.stdout)
                if message is None or message[0] != "rank":
                    return  # done, killed, or an error while ranking: text sorts just take longer
                yield message[1], message[2]
        except OSError:
            return
        finally:
            self.ranking = False
            self.stop()

    def stop(self) -> None:
        """Let the child exit (or kill it), close the pipes, reap it."""
        proc = self.proc
        if proc is None:
            return
        with contextlib.suppress(OSError):
            write_frame(proc.stdin, ("exit",))
        for pipe in (proc.stdin, proc.stdout):
            with contextlib.suppress(OSError):
                pipe.close()
        try:
            proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def score_dataset(table: Table, mapping: ColumnMapping, jobs: list[MetricJob], chunk_size: int,
                  child: ChildRun | None, cancel: Callable[[], bool],
                  prepared: Prepared | None = None, rank_from: int | None = None
                  ) -> Generator[object, None, Final | None]:
    """Resolve the columns, then score chunk by chunk (the core pipeline's `score_chunks`);
    returns the sorted/swept arrays.

    The result arrays are filled here, in the worker thread; the GUI only reads them, and only
    up to the rows it has been told about (each Chunk arrives after its rows are written).
    From `rank_from` rows on, a scoring child also ranks the text columns (`child.ranks`).
    """
    if prepared is None:  # else resolved already (by the network cost check)
        prepared = prepare(table, mapping)
    gc.freeze()  # the resolved value lists: a million-item list each
    result = BatchResult.empty(prepared.rows, list(prepared.actuals), jobs)
    yield Started(prepared, result)
    # several references a row are scored in this worker
    if prepared.references is None and child is not None and child.available() and \
            prepared.rows >= PROCESS_ROWS:
        rank = rank_from is not None and prepared.rows >= rank_from
        items = score_in_child(prepared, jobs, min(chunk_size, CHILD_CHUNK_ROWS), child, cancel,
                               rank)
    else:
        items = score_chunks(prepared.expected, prepared.actuals, jobs, chunk_rows=chunk_size,
                             references=prepared.references, cancel=cancel)
    for item in items:
        if isinstance(item, Chunk):
            result.add(item)
        yield item
    if cancel():
        return None
    return finalize(result, prepared.labels)


def text_column_keys(prepared: Prepared) -> list[str]:
    """The table's text columns, named as the table model's ranks are."""
    keys = ["expected", *(f"actual:{v}" for v in prepared.actuals)]
    return keys + ["id"] if prepared.ids is not None else keys


def score_in_child(prepared: Prepared, jobs: list[MetricJob], chunk_size: int,
                   child: ChildRun, cancel: Callable[[], bool], rank: bool = False
                   ) -> Iterator[object]:
    """`score_chunks`' items, each chunk scored by the child process.

    With `rank`, the child keeps the texts and, after the last chunk, starts ranking them
    while the window finishes the run; it then lives on until `child.ranks` is read.
    """
    proc = child.start()
    try:
        if read_frame(proc.stdout) != ("ready",):
            if cancel() or child.killed:
                return
            raise MatchLensError("The scoring process could not start (see the terminal).")
        write_frame(proc.stdin, ("jobs", [(j.id, j.threshold, dict(j.options)) for j in jobs]))
        if rank:
            write_frame(proc.stdin, ("keep", text_column_keys(prepared)))
        ids = prepared.ids if rank else None

        def in_child(start: int, stop: int) -> Chunk | None:
            if cancel():
                return None
            try:
                send_chunk(proc.stdin, prepared, start, stop, ids)
                reply = read_frame(proc.stdout)
            except OSError:
                reply = None
            if reply is None:
                if cancel() or child.killed:
                    return None
                raise MatchLensError(f"The scoring process stopped unexpectedly "
                                     f"(exit code {proc.poll()}).")
            if reply[0] == "error":
                raise MatchLensError(reply[1])
            return reply[1]

        yield from score_chunks(prepared.expected, prepared.actuals, jobs,
                                chunk_rows=chunk_size, scorer=in_child)
        if rank and not cancel():
            with contextlib.suppress(OSError):  # a child gone now only costs the ranks
                write_frame(proc.stdin, ("ranks",))
                child.ranking = True
    finally:
        if not child.ranking:
            child.stop()


def send_chunk(stream: BinaryIO, prepared: Prepared, start: int, stop: int,
               ids: list[str | None] | None) -> None:
    """One chunk's texts, a frame per column: pickling is one C call holding the GIL, and
    10,000 rows of four columns took 10–17 ms in one; a column at a time lets the window in
    between."""
    write_frame(stream, ("chunk", start, list(prepared.actuals), ids is not None))
    write_frame(stream, prepared.expected[start:stop])
    for values in prepared.actuals.values():
        write_frame(stream, values[start:stop])
    if ids is not None:
        write_frame(stream, ids[start:stop])
