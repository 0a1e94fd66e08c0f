"""Where a secret could escape to, checked the same way by every test: any 8-character piece of
it in a stream, a file under a folder (sidecars, tables, the cache database, crash reports)."""

from __future__ import annotations

from pathlib import Path

PIECE = 8  # the masking promise: no run of 8 characters of a key, anywhere


def pieces(secret: str) -> set[str]:
    return {secret[i:i + PIECE] for i in range(len(secret) - PIECE + 1)}


def leaked(text: str | bytes, secret: str) -> set[str]:
    """The pieces of `secret` found in `text` (bytes are searched as UTF-8 and raw)."""
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    return {piece for piece in pieces(secret) if piece in text}


def assert_nothing_leaked(secret: str, *streams: str, folders: tuple[Path, ...] = ()) -> None:
    for stream in streams:
        assert not leaked(stream, secret), stream
    for folder in folders:
        for path in Path(folder).rglob("*"):
            if path.is_file():
                found = leaked(path.read_bytes(), secret)
                assert not found, (path, found)
