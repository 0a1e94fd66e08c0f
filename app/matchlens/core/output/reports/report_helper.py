"""`ReportHelper`: the part of a `score` run's reports that needs no more than each piece's
scores — the input file's SHA-256 and every JUnit testcase — done by a forked helper process,
so the run's own process (which reads the file, writes the scored table and hands the
scoring to its workers: the run's critical path) only sends it each piece's arrays.

Measured at 1M rows (benchmarks/bench_reports.py): in the run's process, the JUnit testcases
and their first readable diffs cost ~1.5 s of CPU and the hash 0.3 s, all of it added to the
run's time, while the second core still had idle time beside the scoring worker.

The helper is forked when the reports start (before any thread: `can_fork`) and works off
the pieces in the time the run leaves idle (helper_work.py: a niced thread, and its main
thread once the run waits). Each piece (`JunitRemote.add`: the thresholded metrics' scores and
status, the ids, the line numbers of
rows without a score, and the texts of the rows that still get a readable diff) goes in a
memory file whose descriptor is passed over a UNIX socket, so the run never waits on the
helper — unless MAX_PENDING bytes of pieces wait for it, which bounds the memory. The helper
acks each piece it has worked off and feeds the very `JunitFeed` the run would have fed, so
the file is the same, byte for byte (test_junit_same_bytes). `finish` is sent as soon as the
last piece is (ReportOutputs.pieces_done): the helper writes the JUnit file and flushes it to
disk while the run flushes its own scored table; the run then asks for the digest and, once
the HTML and Markdown are rendered, for the outcome. A helper that fails or dies is one
sentence naming the JUnit file; without fork (macOS, Windows, a thread
running, one core) the run does all of it itself (outputs.py).
"""

from __future__ import annotations

import contextlib
import os
import pickle
import socket
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, BinaryIO

import numpy as np

from matchlens.core.atomic import remove_stale_temporaries
from matchlens.core.errors import OutputError
from matchlens.core.output.reports import failing_codes
from matchlens.core.output.reports.failing_codes import failing_rows, scored_rows
from matchlens.core.output.reports.helper_work import (
    ACK,
    COMMIT,
    FINISH,
    MAX_PENDING,
    PIECE,
    REPLY,
    JoinedIds,
    Piece,
    serve,
)
from matchlens.core.scoring.batch import BatchResult, MetricJob
from matchlens.core.scoring.forked import ForkedWorker, reap_workers
from matchlens.core.text.redact import known_secrets


class JunitRemote:
    """JunitFeed's interface, the work sent to the helper: `add` one piece's testcases,
    `wants_texts` while a variant's failing rows still get readable diffs."""

    def __init__(self, helper: ReportHelper, jobs: list[MetricJob]) -> None:
        self.helper = helper
        self.jobs = list(jobs)
        self.thresholded = [job for job in self.jobs if job.threshold is not None]
        self._left: dict[str, int] = {}  # variant -> readable diffs still to give

    def wants_texts(self, variant: str) -> bool:
        return self._left.get(variant, failing_codes.JUNIT_DIFFS) > 0

    def add(self, variant: str, result: BatchResult, start: int, table: Any,
            ids: list | JoinedIds | None, expected: Callable[[str, int], str | None], actual: list | None,
            regressed: np.ndarray | None = None) -> None:
        """As JunitFeed.add; the texts are read for the rows that may get a diff (the first
        failing rows, and rows that regressed, until the variant's diffs are all given)."""
        judged = self.thresholded or self.jobs
        scored = scored_rows(result, variant, judged)
        named = np.flatnonzero(~scored)
        if regressed is not None and regressed.any():
            named = np.union1d(named, np.flatnonzero(regressed))
        texts: dict[int, tuple[str | None, str | None]] = {}
        left = self._left.get(variant, failing_codes.JUNIT_DIFFS)
        if left > 0:
            failing = failing_rows(
                (result.verdicts(variant, job.id) for job in self.thresholded), scored)
            due = np.flatnonzero(failing)
            others = np.zeros(0, dtype=np.int64) if regressed is None else \
                np.flatnonzero(regressed & ~failing)
            for row in [*due[:left].tolist(), *others[:left].tolist()]:
                texts[row] = (expected(variant, row), None if actual is None else actual[row])
            self._left[variant] = max(0, left - int(due.size) - int(others.size))
        lines = table.lines
        self.helper.send(Piece(
            variant, result.rows, start, table.unit,
            {job.id: result.scores[(variant, job.id)] for job in judged},
            {job.id: result.status[(variant, job.id)] for job in judged},
            ids,
            {row: lines[row] for row in named.tolist()}, texts, regressed,
            known_secrets()))


class ReportHelper:
    """The forked helper of one run's reports (see the module docstring). `junit`: the
    variants and source the JUnit file is written for, or None for none."""

    def __init__(self, input_path: Path | None, junit: tuple[list[str], str] | None,
                 jobs: list[MetricJob]) -> None:
        self.failed: str | None = None  # why the helper cannot finish its work, once known
        self._digest: str | None = None
        self._answered = self._closed = self._finished = False
        self._junit_path: Path | None = None  # asked for by `finish`
        self._pending: list[int] = []  # sizes of the pieces sent and not yet worked off
        self._sock, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        try:
            self.worker = ForkedWorker(_helper_task(theirs, self._sock, input_path, junit,
                                                    list(jobs)))
        finally:
            theirs.close()
        self.remote = JunitRemote(self, jobs) if junit is not None else None

    @property
    def started(self) -> bool:
        return self.worker.pid is not None

    def send(self, piece: Piece) -> None:
        """One piece, in a memory file handed over with its descriptor: never a wait for the
        helper, unless MAX_PENDING bytes of pieces are waiting for it."""
        if self.failed is not None:
            return
        data = pickle.dumps(piece, protocol=pickle.HIGHEST_PROTOCOL)
        fd = os.memfd_create("matchlens-report-piece", os.MFD_CLOEXEC)
        try:
            view, done = memoryview(data), 0
            while done < len(data):
                done += os.write(fd, view[done:])
            socket.send_fds(self._sock, [PIECE], [fd])
            self._pending.append(len(data))
            self._take_acks(wait=sum(self._pending) > MAX_PENDING)
        except OSError:  # the helper is gone: said when its file is asked for
            self.failed = "the process writing it stopped"
        finally:
            os.close(fd)

    def _take_acks(self, wait: bool) -> None:
        """Forget the pieces the helper says it worked off (each ack a packet); with `wait`,
        wait until they are fewer than MAX_PENDING bytes."""
        while self._pending:
            try:
                flags = 0 if wait else socket.MSG_DONTWAIT
                packet = self._sock.recv(16, flags)
            except BlockingIOError:
                return
            if not packet:
                raise OSError("the helper is gone")
            self._pending.pop(0)
            wait = wait and sum(self._pending) > MAX_PENDING

    def finish(self, junit_path: Path | None, timestamp: str) -> None:
        """Ask for the digest and the JUnit file (to `junit_path`), written from now on; the
        pieces are all sent. Once: a second call does nothing."""
        if self._finished:
            return
        self._finished = True
        self._junit_path = junit_path
        if self.failed is None:
            try:
                self._sock.send(FINISH + pickle.dumps((junit_path, timestamp)))
            except OSError:
                self.failed = "the process writing it stopped"

    def digest(self) -> str | None:
        """The input file's SHA-256 (None if it could not be read, or the helper failed);
        after `finish`."""
        if not self._answered:
            self._answered = True
            reply = self._reply()
            if reply is not None and reply[0] == "digest":
                self._digest = reply[1]
        return self._digest

    def result(self, junit_path: Path | None) -> None:
        """Put the JUnit file in place (it was written from `finish` on) and wait for it;
        OutputError (one sentence) if it could not be."""
        self.digest()
        reply = self._reply()
        if reply is not None and reply[0] == "written":
            try:
                self._sock.send(COMMIT)
                reply = self._reply()
            except OSError:
                reply = None
        error = reply[1] if reply is not None and reply[0] == "done" else \
            (self.failed or "the process writing it stopped")
        self.worker.sent = reply is not None
        self.close()
        if error and junit_path is not None:
            raise OutputError(error if error.startswith(str(junit_path)) else
                              f"{junit_path}: not written ({error})")

    def _reply(self) -> tuple | None:
        """The helper's next answer (the acks before it skipped), None if it is gone."""
        if self.failed is not None:
            return None
        try:
            while (packet := self._sock.recv(1 << 16)) == ACK:
                continue
            if packet[:1] == REPLY:
                return pickle.loads(packet[1:])
        except (OSError, EOFError, pickle.UnpicklingError):
            pass
        self.failed = "the process writing it stopped"  # never waited for again
        return None

    def close(self) -> None:
        """Let the helper go; once. One that has not said everything is told the run is gone
        (its socket shut: it removes the JUnit file's temporary) and given EXIT_GRACE_S to
        leave before it is killed; a temporary it leaves then is removed here."""
        if self._closed:
            return
        self._closed = True
        left = not self.worker.sent and self.worker.pid is not None
        if left:
            with contextlib.suppress(OSError):
                self._sock.shutdown(socket.SHUT_RDWR)
            _await_exit(self.worker.pid, EXIT_GRACE_S)
        self.worker.__exit__(None if self.worker.sent else RuntimeError, None, None)
        self._sock.close()
        reap_workers()  # waited for: its exit is near, and its CPU time is the run's
        if left and self._junit_path is not None:
            # killed while it wrote: its temporary (named with its PID, now gone) removed
            remove_stale_temporaries(self._junit_path)


EXIT_GRACE_S = 0.5  # a run ending early waits this long for its helper to clean up


def _await_exit(pid: int, seconds: float) -> None:
    """Until process `pid` has exited (not reaped) or `seconds` have passed."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None:
                return
        except ChildProcessError:
            return
        time.sleep(0.01)


def _helper_task(own: socket.socket, runs: socket.socket, input_path: Path | None,
                 junit: tuple[list[str], str] | None, jobs: list[MetricJob]
                 ) -> Callable[[BinaryIO], None]:
    """The forked child's work: its own end of the socket kept, the run's end closed."""
    def task(_stream: BinaryIO) -> None:
        runs.close()
        serve(own, input_path, junit, jobs)
    return task


