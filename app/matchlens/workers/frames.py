"""Length-prefixed pickle frames between the window and its child processes (no Qt here: the
compare lanes and the batch scorer import this in a bare Python).

A frame is an 8-byte little-endian length, then a pickle. Only our own processes are on the
other end of the pipe, so unpickling is safe.
"""

from __future__ import annotations

import pickle
import struct
from typing import Any, BinaryIO

_HEADER = struct.Struct("<Q")


def write_frame(stream: BinaryIO, message: Any) -> None:
    data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    stream.write(_HEADER.pack(len(data)))
    stream.write(data)
    stream.flush()


def read_frame(stream: BinaryIO) -> Any:
    """The next message, or None when the other side has gone."""
    header = _read_exact(stream, _HEADER.size)
    if header is None:
        return None
    body = _read_exact(stream, _HEADER.unpack(header)[0])
    return None if body is None else pickle.loads(body)


def _read_exact(stream: BinaryIO, size: int) -> bytes | None:
    parts, left = [], size
    while left:
        part = stream.read(left)
        if not part:
            return None
        parts.append(part)
        left -= len(part)
    return b"".join(parts)
