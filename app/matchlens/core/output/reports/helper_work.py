"""The report helper's own side (report_helper.py starts it): what a piece sent to it holds
(`Piece`, with its ids `JoinedIds`), and `serve`, the helper process's loop — each piece's
JUnit testcases and the input's SHA-256, worked out in the time the run leaves idle.

How (NightWork): the work is done by a thread of the helper niced to 19, which the kernel runs
when a core would otherwise be idle, so the run's own processes (which share the scoring) are
not slowed; the helper's main thread, at the run's priority, takes over between two steps once
the run waits for the files, or pieces pile up — a niced thread alone starved on a busy machine
(166 s instead of 15 s beside two busy loops). Measured at 1M rows (bench_reports.py, each
run against the runs alone around it): +5% with the night thread, +12% with the same work at
the run's priority, +20% waiting for idle cores by looking at the kernel's counters (the work
put off to the end, where the run waits for all of it); beside two busy loops +7%.
"""

from __future__ import annotations

import array
import collections
import contextlib
import hashlib
import mmap
import os
import pickle
import socket
import threading
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO

import numpy as np

from matchlens.core.atomic import together
from matchlens.core.errors import MatchLensError, OutputError
from matchlens.core.scoring.batch import BatchResult, MetricJob
from matchlens.core.text.redact import remember

if TYPE_CHECKING:
    from matchlens.core.output.reports.junit_feed import JunitFeed

MAX_PENDING = 64 << 20  # bytes of pieces sent and not yet worked off, before the run waits
# what a packet is (its first byte): a piece, the finish (then the commit) from the run; an
# ack or a reply from the helper
PIECE, FINISH, COMMIT, ACK, REPLY = b"p", b"f", b"c", b"a", b"r"
_FD_SPACE = socket.CMSG_LEN(array.array("i").itemsize)  # one descriptor a packet


def sha256_of(path: Path | None) -> str | None:
    """The file's SHA-256, or None for standard input or a file that cannot be read."""
    if path is None:
        return None
    try:
        with open(path, "rb") as handle:
            return hashlib.file_digest(handle, "sha256").hexdigest()
    except OSError:
        return None


@dataclass(frozen=True)
class JoinedIds:
    """A piece's ids as one UTF-8 string, NUL between them: one object to send, where a list
    of 50,000 strings takes longer to pickle than the rest of the piece — and the bytes of the
    helper's column of names (junit.joined_names), with no Python work a row."""

    data: bytes
    count: int

    def split(self) -> list[str]:
        return self.data.decode("utf-8").split("\0") if self.count else []


def joined_ids(cells: Iterable[str], count: int) -> JoinedIds | None:
    """`count` ids joined (None when one holds a NUL or a lone surrogate, or is not a string:
    send the list)."""
    try:
        text = "\0".join(cells)
        data = text.encode("utf-8")
    except (TypeError, UnicodeEncodeError):
        return None
    if text.count("\0") != max(count - 1, 0):
        return None
    return JoinedIds(data, count)


@dataclass
class Piece:
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


def _take(sock: socket.socket, items: list[tuple[bytes, list[int]]], wait: bool) -> None:
    """Every packet that has come (with `wait`, at least one) appended to `items` with its
    descriptors; EOFError: the run is gone."""
    flags = 0 if wait else socket.MSG_DONTWAIT
    while True:
        try:  # not socket.recv_fds: Python 3.11's ignores its flags (it always waits)
            packet, extra, _flags, _addr = sock.recvmsg(1 << 16, _FD_SPACE, flags)
        except BlockingIOError:
            return
        fds = array.array("i")
        for level, kind, data in extra:
            if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
                fds.frombytes(data[:len(data) - len(data) % fds.itemsize])
        if not packet:
            raise EOFError
        items.append((packet, fds.tolist()))
        flags = socket.MSG_DONTWAIT


NIGHT_NICE = 19  # the night thread's niceness: it runs when a core would be idle
HASH_BLOCK = 1 << 20  # bytes hashed a step


class NightWork:
    """The helper's work in order — each piece's testcases (an ack each), then the input's
    SHA-256 a block at a time — done by a thread niced to NIGHT_NICE, so that it takes only
    the time the run's own processes leave, until `step` is called by the helper's main
    thread (the run's priority): once the run waits for the files, or pieces pile up. A niced
    thread alone could starve on a busy machine; taking over between two steps, the main
    thread waits at most for the step under way (a piece: ~25 ms of CPU)."""

    def __init__(self, sock: socket.socket, feed: JunitFeed | None, jobs: list[MetricJob],
                 input_path: Path | None) -> None:
        self.sock, self.feed, self.jobs = sock, feed, jobs
        self.fds: collections.deque[tuple[int, int]] = collections.deque()  # (fd, bytes)
        self.size = 0  # bytes of the pieces waiting
        self.error: str | None = None
        self.digest: str | None = None
        self._hash = hashlib.sha256()
        self._input: BinaryIO | None = None
        if input_path is not None:
            with contextlib.suppress(OSError):
                self._input = open(input_path, "rb")  # noqa: SIM115 - closed when read
        self._turn = threading.Lock()  # held while a step is worked
        self._more = threading.Condition()
        self._stopped = False
        self.thread = threading.Thread(target=self.run, name="matchlens-night", daemon=True)

    def add(self, fd: int) -> None:
        with self._more:
            size = os.fstat(fd).st_size
            self.fds.append((fd, size))
            self.size += size
            self._more.notify()

    def run(self) -> None:
        with contextlib.suppress(OSError, AttributeError):
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), NIGHT_NICE)
        while True:
            with self._more:
                while not self._stopped and not self.fds and self._input is None:
                    self._more.wait()
                if self._stopped:
                    return
            self.step()

    def step(self) -> bool:
        """Work the next piece, else the next block of the input; False when nothing is left
        (or the run is gone: its socket shut)."""
        with self._turn:
            with self._more:
                fd, size = self.fds.popleft() if self.fds else (None, 0)
                self.size -= size
            try:
                if fd is not None:
                    piece = _read_piece(fd)
                    if self.error is None and self.feed is not None:
                        try:
                            _feed(self.feed, self.jobs, piece)
                        except Exception as err:  # noqa: BLE001 - said when the file is asked for
                            self.error = _said(err)
                    self.sock.send(ACK)
                    return True
                return self._hash_block()
            except OSError:  # the run is gone
                self.stop()
                return False

    def _hash_block(self) -> bool:
        if self._input is None:
            return False
        try:
            block = self._input.read(HASH_BLOCK)
        except OSError:
            block, self._hash = b"", None
        if block:
            self._hash.update(block)
            return True
        self.digest = self._hash.hexdigest() if self._hash is not None else None
        self._input.close()
        self._input = None
        return True

    def stop(self) -> None:
        """The night thread leaves after its step under way (then the caller steps)."""
        with self._more:
            self._stopped = True
            self._more.notify()

    def close(self) -> None:
        self.stop()
        with self._turn:
            if self._input is not None:
                self._input.close()
                self._input = None
            while self.fds:
                os.close(self.fds.popleft()[0])


def serve(sock: socket.socket, input_path: Path | None,
          junit: tuple[list[str], str] | None, jobs: list[MetricJob]) -> None:
    """The helper's loop: receive each piece and hand it to the night thread (NightWork: the
    testcases and the input's hash in idle time); at the finish work off what is left at the
    run's priority, answer the digest, write the file (its temporary) and say so, and once the
    run commits, rename it into place and answer the outcome. The run gone before it commits:
    the temporary is removed."""
    # pyarrow's modules imported here, in the helper: the run's own process never needs them
    from matchlens.core.output.reports.junit import JunitWriter
    from matchlens.core.output.reports.junit_feed import JunitFeed

    items: list[tuple[bytes, list[int]]] = []
    writer = JunitWriter(*junit) if junit is not None else None
    feed = JunitFeed(writer, jobs) if writer is not None else None
    night = NightWork(sock, feed, jobs, input_path)
    night.thread.start()
    try:
        while True:
            _take(sock, items, wait=not items)
            while items and items[0][0][:1] == PIECE:
                night.add(items.pop(0)[1][0])
            while night.size >= MAX_PENDING // 2 and night.step():
                pass  # pieces pile up: the run will soon wait for them
            if not items:
                continue
            packet, _fds = items.pop(0)
            night.stop()
            while night.step():  # what is left, at the run's priority
                pass
            error = night.error
            path, timestamp = pickle.loads(packet[1:])
            sock.send(REPLY + pickle.dumps(("digest", night.digest)))
            try:
                with together():  # renamed into place once the run commits (its table is)
                    if error is None and feed is not None and writer is not None and \
                            path is not None:
                        try:
                            feed.finish()
                            writer.write(path, timestamp,
                                         properties=feed.properties(writer.variants))
                        except Exception as err:  # noqa: BLE001 - sent to the run, which says it
                            error = _said(err)
                    sock.send(REPLY + pickle.dumps(("written", error)))
                    while not items:
                        _take(sock, items, wait=True)  # EOFError: no commit, the file discarded
                    if items[0][0][:1] != COMMIT:
                        raise EOFError
            except OutputError as err:  # the rename
                error = str(err)
            sock.send(REPLY + pickle.dumps(("done", error)))
            return
    except (EOFError, OSError):
        return  # the run is gone (its socket shut): nothing to write for it
    finally:
        night.close()
        for _packet, fds in items:
            for fd in fds:
                os.close(fd)
        if writer is not None:
            writer.close()


def _read_piece(fd: int) -> Piece:
    try:
        size = os.fstat(fd).st_size
        with mmap.mmap(fd, size, prot=mmap.PROT_READ) as data:
            return pickle.loads(data)
    finally:
        os.close(fd)


def _feed(feed: JunitFeed, jobs: list[MetricJob], piece: Piece) -> None:
    for secret in piece.secrets:
        remember(secret)
    result = BatchResult(piece.rows, [piece.variant], jobs,
                         scores={(piece.variant, k): v for k, v in piece.scores.items()},
                         status={(piece.variant, k): v for k, v in piece.status.items()})
    from matchlens.core.output.reports.junit import joined_names  # pyarrow: in the helper

    texts = piece.texts
    ids = piece.ids
    if isinstance(ids, JoinedIds):
        ids = joined_names(ids.data, ids.count)
        if ids is None:  # an empty id (named `row N`): the list
            ids = piece.ids.split()
    feed.add(piece.variant, result, piece.start, _PieceTable(piece.unit, piece.lines), ids,
             lambda _variant, row: texts[row][0], _Actuals(texts), piece.regressed)


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
