"""The report helper's own side (report_helper.py starts it): what a piece sent to it holds
(`Piece`, with its ids `JoinedIds`), and `serve`, the helper process's loop — the input's
SHA-256 and each piece's JUnit testcases, worked out in the time the run leaves a core idle.

Idle time, not a lower priority: a process may lower its own priority (`nice`) but never
raise it again, and a niced helper that the run waits for at its end starves on a machine
kept busy by other work (measured: 166 s instead of 15 s for a 1M-row run beside two busy
loops, where the plain run took 15 s). So the helper keeps the run's priority and waits
instead (`IdleGate`: the kernel's counters in /proc/stat say whether a core of this process's
has been about half idle over the last 50 ms) — until the run has asked for the files, or
half of MAX_PENDING bytes of pieces wait for it (the run waits at MAX_PENDING): then it works
at once.
"""

from __future__ import annotations

import array
import contextlib
import hashlib
import mmap
import os
import pickle
import socket
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from matchlens.core.errors import MatchLensError
from matchlens.core.output.reports.junit import JunitWriter
from matchlens.core.output.reports.junit_feed import JunitFeed
from matchlens.core.scoring.batch import BatchResult, MetricJob
from matchlens.core.text.redact import remember

MAX_PENDING = 64 << 20  # bytes of pieces sent and not yet worked off, before the run waits
PIECE, FINISH, ACK, REPLY = b"p", b"f", b"a", b"r"  # what a packet is (its first byte)
WINDOW_S = 0.05  # how long the helper looks at the cores before it decides
IDLE_CORES = 0.5  # idle time it takes, in cores (about half of one over the window)
HASH_BLOCK = 8 << 20  # bytes hashed between two looks at the cores
_FD_SPACE = socket.CMSG_LEN(array.array("i").itemsize)  # one descriptor a packet


def sha256_of(path: Path | None) -> str | None:
    """The file's SHA-256, or None for standard input or a file that cannot be read."""
    hashing = _Hashing(path)
    while not hashing.done:
        hashing.step()
    return hashing.digest


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


class IdleGate:
    """Whether the cores this process may run on have been idle lately: /proc/stat's jiffies
    (idle and iowait against all), read again at each look."""

    def __init__(self, path: str = "/proc/stat") -> None:
        self.path = path
        try:
            self.names = {f"cpu{n}".encode() for n in os.sched_getaffinity(0)}
        except (AttributeError, OSError):
            self.names = set()
        self._last = self.counts()

    def counts(self) -> tuple[int, int] | None:
        """(idle, all) jiffies of this process's cores since boot; None if not readable."""
        try:
            with open(self.path, "rb") as handle:
                lines = handle.read(1 << 16).splitlines()
        except OSError:
            return None
        idle = total = 0
        for line in lines:
            fields = line.split()
            if not fields or fields[0] not in self.names:
                continue
            values = [int(v) for v in fields[1:9]]
            idle += values[3] + (values[4] if len(values) > 4 else 0)
            total += sum(values)
        return (idle, total) if total else None

    def idle_cores(self) -> float | None:
        """Cores idle on average since the last look; None where it cannot be told."""
        now, last = self.counts(), self._last
        self._last = now
        if now is None or last is None or now[1] <= last[1]:
            return None
        return len(self.names) * (now[0] - last[0]) / (now[1] - last[1])

    def wait(self, go_on: Callable[[], bool]) -> None:
        """Until IDLE_CORES have been idle over a window, or `go_on()` says not to wait."""
        self.idle_cores()
        while not go_on():
            time.sleep(WINDOW_S)
            idle = self.idle_cores()
            if idle is None or idle >= IDLE_CORES:
                return


@dataclass
class _Packets:
    """The packets received and not yet worked off (a piece's memory file held open)."""

    sock: socket.socket
    items: list[tuple[bytes, list[int], int]]  # (packet, its descriptors, their bytes)
    size: int = 0  # bytes of the pieces held

    def take(self, wait: bool) -> None:
        """Every packet that has come (with `wait`, at least one); EOFError: the run is gone."""
        flags = 0 if wait else socket.MSG_DONTWAIT
        while True:
            try:  # not socket.recv_fds: Python 3.11's ignores its flags (it always waits)
                packet, extra, _flags, _addr = self.sock.recvmsg(1 << 16, _FD_SPACE, flags)
            except BlockingIOError:
                return
            fds = array.array("i")
            for level, kind, data in extra:
                if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
                    fds.frombytes(data[:len(data) - len(data) % fds.itemsize])
            if not packet:
                raise EOFError
            held = os.fstat(fds[0]).st_size if fds else 0
            self.items.append((packet, fds.tolist(), held))
            self.size += held
            flags = socket.MSG_DONTWAIT

    def urgent(self) -> bool:
        """The run waits (or soon will): it asked for the files, or pieces pile up."""
        self.take(wait=False)
        return self.size >= MAX_PENDING // 2 or any(p[:1] == FINISH for p, _, _ in self.items)


def serve(sock: socket.socket, input_path: Path | None,
          junit: tuple[list[str], str] | None, jobs: list[MetricJob]) -> None:
    """The helper's loop: hash the input, feed each piece to a JunitFeed (an ack for each),
    and at the finish answer the digest and then the outcome of writing the file; the work
    done in idle time (IdleGate) until the run waits for it."""
    gate, packets = IdleGate(), _Packets(sock, [])
    writer = JunitWriter(*junit) if junit is not None else None
    feed = JunitFeed(writer, jobs) if writer is not None else None
    hashing = _Hashing(input_path)
    error: str | None = None
    try:
        while True:
            if not hashing.done:
                gate.wait(packets.urgent)
                hashing.step()
                continue
            packets.take(wait=not packets.items)
            packet, fds, held = packets.items[0]
            if packet[:1] == PIECE:
                gate.wait(packets.urgent)
                packets.items.pop(0)
                packets.size -= held
                piece = _read_piece(fds[0])
                if error is None and feed is not None:
                    try:
                        _feed(feed, jobs, piece)
                    except Exception as err:  # noqa: BLE001 - said when the file is asked for
                        error = _said(err)
                sock.send(ACK)
                continue
            path, timestamp = pickle.loads(packet[1:])
            sock.send(REPLY + pickle.dumps(("digest", hashing.digest)))
            if error is None and feed is not None and writer is not None and path is not None:
                try:
                    feed.finish()
                    writer.write(path, timestamp, properties=feed.properties(writer.variants))
                except Exception as err:  # noqa: BLE001 - sent to the run, which says it
                    error = _said(err)
            sock.send(REPLY + pickle.dumps(("done", error)))
            return
    except EOFError:
        return  # the run is gone: nothing to write for it
    finally:
        hashing.close()
        if writer is not None:
            writer.close()


class _Hashing:
    """The input file's SHA-256, HASH_BLOCK bytes a step (None: standard input, unreadable)."""

    def __init__(self, path: Path | None) -> None:
        self.digest: str | None = None
        self._hash = hashlib.sha256()
        self._handle = None
        if path is not None:
            with contextlib.suppress(OSError):
                self._handle = open(path, "rb")  # noqa: SIM115 - closed when done

    @property
    def done(self) -> bool:
        return self._handle is None

    def step(self) -> None:
        try:
            block = self._handle.read(HASH_BLOCK)  # type: ignore[union-attr]
        except OSError:
            self.close()
            return
        if block:
            self._hash.update(block)
            return
        self.digest = self._hash.hexdigest()
        self.close()

    def close(self) -> None:
        if self._handle is not None:
            self._handle.close()
            self._handle = None


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
    texts = piece.texts
    ids = piece.ids.split() if isinstance(piece.ids, JoinedIds) else piece.ids
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
