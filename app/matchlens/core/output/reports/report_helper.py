"""`ReportHelper`: the part of a `score` run's reports that needs no more than each piece's
scores — the input file's SHA-256 and every JUnit testcase — done by a forked helper process,
so the run's own process (which reads the file, writes the scored table and hands the
scoring to its workers: the run's critical path) only sends it each piece's arrays.

Measured at 1M rows (benchmarks/bench_reports.py): in the run's process, the JUnit testcases
and their first readable diffs cost ~1.5 s of CPU and the hash 0.3 s, all of it added to the
run's time, while the second core still had idle time between the scoring workers.

The helper is forked when the reports start (before any thread: `can_fork`) and runs at a
lower priority (`NICENESS`): it works in the time the run leaves a core idle. Each piece
(`JunitRemote.add`: the thresholded metrics' scores and status, the ids, the line numbers of
rows without a score, and the texts of the rows that still get a readable diff) goes in a
memory file whose descriptor is passed over a UNIX socket, so the run never waits on the
helper — unless MAX_PENDING bytes of pieces wait for it, which bounds the memory. The helper
acks each piece it has worked off and feeds the very `JunitFeed` the run would have fed, so
the file is the same, byte for byte. At the end `finish` asks for the digest, then for the
JUnit file, written while the run renders the HTML and Markdown. A helper that fails or
dies is one sentence naming the JUnit file; without fork (macOS, Windows, a thread
running, one core) the run does all of it itself (outputs.py).
"""

from __future__ import annotations

import contextlib
import hashlib
import mmap
import os
import pickle
import socket
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

import numpy as np

from matchlens.core.errors import MatchLensError, OutputError
from matchlens.core.metrics.registry import STATUS_SCORED
from matchlens.core.output.reports import junit_feed
from matchlens.core.output.reports.junit import JunitWriter
from matchlens.core.output.reports.junit_feed import ExpectedOf, JunitFeed
from matchlens.core.scoring.batch import BatchResult, MetricJob
from matchlens.core.scoring.forked import ForkedWorker, reap_workers
from matchlens.core.text.redact import known_secrets, remember

NICENESS = 19  # the helper's priority below the run's (os.nice): it works in the idle time
MAX_PENDING = 64 << 20  # bytes of pieces sent and not yet worked off, before the run waits
_PIECE, _FINISH, _ACK, _REPLY = b"p", b"f", b"a", b"r"  # what a packet is (its first byte)


def sha256_of(path: Path | None) -> str | None:
    """The file's SHA-256 (read in 1 MB blocks), or None for standard input."""
    if path is None:
        return None
    try:
        with open(path, "rb") as handle:
            return hashlib.file_digest(handle, "sha256").hexdigest()
    except OSError:
        return None


@dataclass(frozen=True)
class JoinedIds:
    """A piece's ids as one string, NUL between them: one object to send, where a list of
    50,000 strings takes longer to pickle than the rest of the piece."""

    text: str
    count: int

    def split(self) -> list[str]:
        return self.text.split("\0") if self.count else []


def joined_ids(cells: Iterable[str], count: int) -> JoinedIds | None:
    """`count` ids joined (None when one holds a NUL, or is not a string: send the list)."""
    try:
        text = "\0".join(cells)
    except TypeError:
        return None
    if text.count("\0") != max(count - 1, 0):
        return None
    return JoinedIds(text, count)


@dataclass
class _Piece:
    """What the helper needs of one piece and variant to write its testcases."""

    variant: str
    rows: int
    start: int
    unit: str
    scores: dict[str, np.ndarray]  # metric -> scores, for the metrics that judge a row
    status: dict[str, np.ndarray]
    ids: list | JoinedIds | None
    lines: dict[int, int]  # row -> line number, for the rows a sentence names
    texts: dict[int, tuple[str | None, str | None]]  # row -> (expected, actual): the diffs
    regressed: np.ndarray | None
    secrets: list[str]


@dataclass
class _PieceTable:
    """The piece's table as JunitFeed reads it: `lines[row]` for the rows sent."""

    unit: str
    lines: dict[int, int]


class JunitRemote:
    """JunitFeed's interface, the work sent to the helper: `add` one piece's testcases,
    `wants_texts` while a variant's failing rows still get readable diffs."""

    def __init__(self, helper: ReportHelper, jobs: list[MetricJob]) -> None:
        self.helper = helper
        self.jobs = list(jobs)
        self.thresholded = [job for job in self.jobs if job.threshold is not None]
        self._left: dict[str, int] = {}  # variant -> readable diffs still to give

    def wants_texts(self, variant: str) -> bool:
        return self._left.get(variant, junit_feed.JUNIT_DIFFS) > 0

    def add(self, variant: str, result: BatchResult, start: int, table: Any,
            ids: list | JoinedIds | None, expected: ExpectedOf, actual: list | None,
            regressed: np.ndarray | None = None) -> None:
        """As JunitFeed.add; the texts are read for the rows that may get a diff (the first
        failing rows, and rows that regressed, until the variant's diffs are all given)."""
        judged = self.thresholded or self.jobs
        scored = np.zeros(result.rows, dtype=bool)
        for job in judged:
            scored |= result.status[(variant, job.id)] == STATUS_SCORED
        named = np.flatnonzero(~scored)
        if regressed is not None and regressed.any():
            named = np.union1d(named, np.flatnonzero(regressed))
        texts: dict[int, tuple[str | None, str | None]] = {}
        left = self._left.get(variant, junit_feed.JUNIT_DIFFS)
        if left > 0:
            failing = np.zeros(result.rows, dtype=bool)
            for job in self.thresholded:
                failing |= result.verdicts(variant, job.id) == 0
            failing &= scored
            due = np.flatnonzero(failing)
            others = np.zeros(0, dtype=np.int64) if regressed is None else \
                np.flatnonzero(regressed & ~failing)
            for row in [*due[:left].tolist(), *others[:left].tolist()]:
                texts[row] = (expected(variant, row), None if actual is None else actual[row])
            self._left[variant] = max(0, left - int(due.size) - int(others.size))
        lines = table.lines
        self.helper.send(_Piece(
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
        self._answered = self._closed = False
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

    def send(self, piece: _Piece) -> None:
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
            socket.send_fds(self._sock, [_PIECE], [fd])
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
        """Ask for the digest and the JUnit file (to `junit_path`), written from now on."""
        if self.failed is None:
            try:
                self._sock.send(_FINISH + pickle.dumps((junit_path, timestamp)))
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
        """Wait until the JUnit file is written; OutputError (one sentence) if it could not be."""
        self.digest()
        reply = self._reply()
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
            while (packet := self._sock.recv(1 << 16)) == _ACK:
                continue
            return pickle.loads(packet[1:]) if packet[:1] == _REPLY else None
        except (OSError, EOFError, pickle.UnpicklingError):
            return None

    def close(self) -> None:
        """Let the helper go (killed when it has not said everything); once."""
        if self._closed:
            return
        self._closed = True
        self.worker.__exit__(None if self.worker.sent else RuntimeError, None, None)
        self._sock.close()
        reap_workers()  # waited for: its exit is near, and its CPU time is the run's


def _helper_task(own: socket.socket, runs: socket.socket, input_path: Path | None,
                 junit: tuple[list[str], str] | None, jobs: list[MetricJob]
                 ) -> Callable[[BinaryIO], None]:
    """The forked child's work: its own end of the socket kept, the run's end closed."""
    def task(_stream: BinaryIO) -> None:
        runs.close()
        serve(own, input_path, junit, jobs)
    return task


def serve(sock: socket.socket, input_path: Path | None,
          junit: tuple[list[str], str] | None, jobs: list[MetricJob]) -> None:
    """The helper's work: hash the input, feed each piece to a JunitFeed (an ack for each),
    and at the finish answer the digest and then the outcome of writing the file."""
    with contextlib.suppress(OSError):
        os.nice(NICENESS)  # the run's own process and its scoring first: this takes idle time
    digest = sha256_of(input_path)
    writer = JunitWriter(*junit) if junit is not None else None
    feed = JunitFeed(writer, jobs) if writer is not None else None
    error: str | None = None
    try:
        while True:
            packet, fds, _flags, _addr = socket.recv_fds(sock, 1 << 16, 1)
            if not packet:
                return  # the run is gone
            if packet[:1] == _PIECE:
                piece = _read_piece(fds[0])
                if error is None and feed is not None:
                    try:
                        _feed(feed, jobs, piece)
                    except Exception as err:  # noqa: BLE001 - said when the file is asked for
                        error = _said(err)
                sock.send(_ACK)
                continue
            path, timestamp = pickle.loads(packet[1:])
            sock.send(_REPLY + pickle.dumps(("digest", digest)))
            if error is None and feed is not None and writer is not None and path is not None:
                try:
                    feed.finish()
                    writer.write(path, timestamp, properties=feed.properties(writer.variants))
                except Exception as err:  # noqa: BLE001 - sent to the run, which says it
                    error = _said(err)
            sock.send(_REPLY + pickle.dumps(("done", error)))
            return
    finally:
        if writer is not None:
            writer.close()


def _read_piece(fd: int) -> _Piece:
    try:
        size = os.fstat(fd).st_size
        with mmap.mmap(fd, size, prot=mmap.PROT_READ) as data:
            return pickle.loads(data)
    finally:
        os.close(fd)


def _feed(feed: JunitFeed, jobs: list[MetricJob], piece: _Piece) -> None:
    for secret in piece.secrets:
        remember(secret)
    result = BatchResult(piece.rows, [piece.variant], jobs,
                         scores={(piece.variant, k): v for k, v in piece.scores.items()},
                         status={(piece.variant, k): v for k, v in piece.status.items()})
    texts = piece.texts
    ids = piece.ids.split() if isinstance(piece.ids, JoinedIds) else piece.ids
    feed.add(piece.variant, result, piece.start, _PieceTable(piece.unit, piece.lines), ids, lambda _variant, row: texts[row][0], _Actuals(texts), piece.regressed)


class _Actuals:
    """`actual[row]` of the rows whose texts were sent."""

    def __init__(self, texts: dict[int, tuple[str | None, str | None]]) -> None:
        self.texts = texts

    def __getitem__(self, row: int) -> str | None:
        return self.texts[row][1]


def _said(err: Exception) -> str:
    if isinstance(err, MatchLensError | OSError):
        return str(err)
    return f"{type(err).__name__}: {err}"
