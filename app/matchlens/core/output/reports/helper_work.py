"""The report helper's own side (report_helper.py starts it): what a piece sent to it holds
(`Piece`, with its ids `JoinedIds`), and `serve`, the helper process's loop — the input's
SHA-256 (on a thread of its own: hashing lets the GIL go) and each piece's JUnit testcases,
worked off as the pieces come.

At the run's priority and at once, not niced nor waiting for idle cores: the scoring shares
its pieces between the run and its worker, so whatever CPU the helper takes costs the run
about half of it in time, while work put off until the run waits for it costs all of it
(measured: waiting for idle time left the hash and the last pieces to the end, 0.3-0.9 s of a
1M-row run), and a niced helper starved on a busy machine (166 s instead of 15 s beside two
busy loops).
"""

from __future__ import annotations

import array
import hashlib
import mmap
import os
import pickle
import socket
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

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


def serve(sock: socket.socket, input_path: Path | None,
          junit: tuple[list[str], str] | None, jobs: list[MetricJob]) -> None:
    """The helper's loop: hash the input (a thread), feed each piece to a JunitFeed as it
    comes (an ack for each); at the finish answer the digest, write the file (its temporary)
    and say so, and once the run commits, rename it into place and answer the outcome. The
    run gone before it commits: the temporary is removed."""
    # pyarrow's modules imported here, in the helper: the run's own process never needs them
    from matchlens.core.output.reports.junit import JunitWriter
    from matchlens.core.output.reports.junit_feed import JunitFeed

    items: list[tuple[bytes, list[int]]] = []
    writer = JunitWriter(*junit) if junit is not None else None
    feed = JunitFeed(writer, jobs) if writer is not None else None
    hashing = ThreadPoolExecutor(max_workers=1, thread_name_prefix="matchlens-hash")
    digest = hashing.submit(sha256_of, input_path)
    error: str | None = None
    try:
        while True:
            _take(sock, items, wait=not items)
            packet, fds = items.pop(0)
            if packet[:1] == PIECE:
                piece = _read_piece(fds[0])
                if error is None and feed is not None:
                    try:
                        _feed(feed, jobs, piece)
                    except Exception as err:  # noqa: BLE001 - said when the file is asked for
                        error = _said(err)
                sock.send(ACK)
                continue
            path, timestamp = pickle.loads(packet[1:])
            sock.send(REPLY + pickle.dumps(("digest", digest.result())))
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
        hashing.shutdown(wait=False, cancel_futures=True)
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
