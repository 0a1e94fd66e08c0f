"""Opening a data file as text: encoding and BOM, NUL bytes, and where undecodable bytes sit.

Every byte-level problem becomes one `DatasetError` sentence naming the file, the physical line
and the byte offset. The file is only ever opened for reading.
"""

from __future__ import annotations

import codecs
import errno
import gc
import io
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import NoReturn

from matchlens.core.errors import DatasetError, MatchLensError

SAMPLE_BYTES = 64 * 1024
_READ_BYTES = 1 << 20
# Longest BOM first: the UTF-32-LE mark starts with the UTF-16-LE one.
_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32-le", "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32-be", "utf-32"),
    (codecs.BOM_UTF8, "utf-8", "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16-le", "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16-be", "utf-16"),
)


class Cancelled(MatchLensError):
    """The caller's `cancel()` returned True while a file was loading."""


class _NulByte(Exception):
    def __init__(self, offset: int) -> None:
        super().__init__(offset)
        self.offset = offset


class _GuardedFile(io.FileIO):
    """A read-only raw file that refuses NUL bytes (they mean binary, or UTF-16 without a BOM)."""

    def __init__(self, path: Path, skip: int, check_nul: bool) -> None:
        super().__init__(path, "r")
        self.seek(skip)
        self._offset = skip
        self._check_nul = check_nul

    def readinto(self, buffer) -> int | None:  # type: ignore[override]
        count = super().readinto(buffer)
        if count and self._check_nul:
            at = memoryview(buffer)[:count].tobytes().find(b"\0")
            if at >= 0:
                raise _NulByte(self._offset + at)
        self._offset += count or 0
        return count


@contextmanager
def gc_paused() -> Iterator[None]:
    """Building a million small lists triggers the cyclic GC over and over, for nothing (rows
    hold no cycles); pausing it cuts load time by about a third. Restored on exit."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


_FREEZE_ROWS = 50_000


def settle(rows: list) -> None:
    """Call while the GC is paused, with the rows just read: a big table's rows (a million lists
    or dicts, holding no cycles) are moved out of the cyclic GC's reach. Otherwise the first
    collections after the pause walk every one of them, generation after generation (0.5 s for
    a million rows), for nothing."""
    if len(rows) >= _FREEZE_ROWS:
        gc.freeze()


@dataclass
class Source:
    """A data file about to be read: how to decode it, and a decoded sample of its start."""

    path: Path
    encoding: str  # the name to report (and to pass back as --encoding)
    codec: str  # the codec actually used after the BOM, if any, is skipped
    skip: int  # BOM bytes skipped
    head: str  # the first ~64 KB decoded (BOM removed)
    cancel: Callable[[], bool] | None = None
    explicit: bool = False  # the encoding came from the caller (--encoding)
    display: str | None = None  # how messages name the input ("<stdin>"), when not by path

    @property
    def name(self) -> str:
        return self.display or str(self.path)

    def fail(self, message: str, row: int | None = None, column: str | None = None) -> NoReturn:
        raise DatasetError(message, file=self.name, row=row, column=column)

    def check_cancel(self) -> None:
        if self.cancel is not None and self.cancel():
            raise Cancelled(f"loading {self.name} was cancelled")

    @contextmanager
    def open_text(self) -> Iterator[io.TextIOWrapper]:
        """The decoded text, newlines untranslated (csv needs newline=""); byte errors become
        sentences even when raised midway through the caller's parsing."""
        raw = _GuardedFile(self.path, self.skip, check_nul=_is_8bit(self.codec))
        buffered = io.BufferedReader(raw, buffer_size=_READ_BYTES)
        handle = io.TextIOWrapper(buffered, encoding=self.codec, errors="strict", newline="")
        handle._CHUNK_SIZE = _READ_BYTES  # type: ignore[attr-defined]
        try:
            with handle, gc_paused():
                yield handle
        except UnicodeDecodeError as exc:
            raise_decode_error(self, exc)
        except _NulByte as exc:
            raise_nul_error(self, exc.offset)

    @contextmanager
    def text_blocks(self, size: int = _READ_BYTES) -> Iterator[Iterator[str]]:
        """The decoded text in blocks (one per `size` bytes read), without a TextIOWrapper:
        the same text and the same error sentences as `open_text` (the raw reads are the same
        1 MB pieces, each checked for NUL before it is decoded)."""
        raw = open(self.path, "rb", buffering=0)  # noqa: SIM115 - closed below
        check_nul = _is_8bit(self.codec)
        decoder = codecs.getincrementaldecoder(self.codec)("strict")

        def blocks() -> Iterator[str]:
            offset = self.skip
            raw.seek(offset)
            while True:
                data = _read_full(raw, size)
                if check_nul and b"\0" in data:
                    raise _NulByte(offset + data.index(b"\0"))
                offset += len(data)
                text = decoder.decode(data, final=not data)
                if text:
                    yield text
                if not data:
                    return

        try:
            with raw, gc_paused():
                yield blocks()
        except UnicodeDecodeError as exc:
            raise_decode_error(self, exc)
        except _NulByte as exc:
            raise_nul_error(self, exc.offset)


def _read_full(raw: io.FileIO, size: int) -> bytes:
    """`size` bytes (fewer only at the end of the file)."""
    data = raw.read(size) or b""
    while 0 < len(data) < size:
        more = raw.read(size - len(data))
        if not more:
            break
        data += more
    return data


def open_source(path: Path, encoding: str | None,
                cancel: Callable[[], bool] | None = None, display: str | None = None) -> Source:
    """Check the file exists and is readable, choose the encoding, decode a sample.
    `display` names the input in messages when `path` is a copy (of standard input, say)."""
    name = display or str(path)
    if not path.exists():
        raise DatasetError(why_unreachable(path), file=name)
    if path.is_dir():
        raise DatasetError("is a folder, not a data file", file=name)
    try:
        with open(path, "rb") as handle:
            head = handle.read(SAMPLE_BYTES)
    except PermissionError:
        raise DatasetError("cannot be read (permission denied)", file=name) from None
    except OSError as exc:
        raise DatasetError(f"cannot be read ({exc.strerror or exc})", file=name) from None
    if not head:
        raise DatasetError("is empty (0 bytes)", file=name)
    reported, codec, skip = _choose_encoding(head, encoding, name)
    source = Source(path, reported, codec, skip, "", cancel, explicit=encoding is not None,
                    display=display)
    if _is_8bit(codec) and b"\0" in head:
        raise_nul_error(source, head.index(b"\0"))
    decoder = codecs.getincrementaldecoder(codec)("strict")
    try:
        source.head = decoder.decode(head[skip:], final=len(head) < SAMPLE_BYTES)
    except UnicodeDecodeError as exc:
        raise_decode_error(source, exc)
    if source.head.startswith("\ufeff"):  # an explicit --encoding that keeps the mark
        source.head = source.head[1:]
    if len(head) < SAMPLE_BYTES and not source.head.strip():
        source.fail("is empty (only blank lines)" if source.head else "is empty (only a BOM)")
    return source


_LOOP = "is a symbolic link loop (the links point at each other), not a file"


def why_unreachable(path: Path, exc: OSError | None = None) -> str:
    """Why `path` cannot be opened, as the end of a sentence: no such file, a symbolic link
    loop (not "no such file"), a link to something missing, or the system's reason."""
    if exc is not None and exc.errno == errno.ELOOP:
        return _LOOP
    if path.is_symlink():
        try:
            path.resolve(strict=True)
        except RuntimeError:  # Python 3.11-3.12 say "Symlink loop"
            return _LOOP
        except OSError as err:
            if err.errno == errno.ELOOP:
                return _LOOP
        return f"is a symbolic link to {os.readlink(path)!r}, which does not exist"
    if exc is not None and not isinstance(exc, FileNotFoundError):
        return f"cannot be read ({exc.strerror or exc})"
    return "no such file"


def _choose_encoding(head: bytes, encoding: str | None, name: str) -> tuple[str, str, int]:
    """(name to report, codec to decode with, BOM bytes to skip)."""
    if encoding is None:
        for bom, codec, reported in _BOMS:
            if head.startswith(bom):
                return reported, codec, len(bom)
        return "utf-8", "utf-8", 0
    try:
        info = codecs.lookup(encoding)
    except LookupError:
        raise DatasetError(f"unknown encoding {encoding!r} given with --encoding "
                           "(try utf-8, utf-16, cp1252 or latin-1)", file=name) from None
    if not getattr(info, "_is_text_encoding", True):
        raise DatasetError(f"{encoding!r} is not a text encoding", file=name)
    family = {"utf-8": ("utf-8", "utf-8-sig"), "utf-8-sig": ("utf-8", "utf-8-sig"),
              "utf-16": ("utf-16",), "utf-32": ("utf-32",)}.get(info.name, ())
    for bom, codec, reported in _BOMS:
        if reported in family and head.startswith(bom):
            return reported, codec, len(bom)
    if info.name.startswith(("utf-16-", "utf-32-")) and head.startswith(codecs.BOM_UTF8):
        # A UTF-8 mark before UTF-16/32 text (an editor that added one to a file it did not
        # decode): skipped, so the --encoding the error message suggests does work.
        return info.name, info.name, len(codecs.BOM_UTF8)
    if info.name in ("utf-16", "utf-32"):  # Python's codec needs a BOM to know the byte order
        label = info.name.upper()
        raise DatasetError(f"--encoding {encoding} was given but the file does not start with a "
                           f"{label} byte-order mark; pass --encoding {info.name}-le or "
                           f"{info.name}-be if it is {label} without one", file=name)
    return info.name, info.name, 0


def _is_8bit(codec: str) -> bool:
    """True when a zero byte can only be the NUL character (not so in UTF-16/32)."""
    return not codecs.lookup(codec).name.startswith(("utf-16", "utf-32"))


def _count_newlines(data, last_cr: bool) -> int:
    """Physical line breaks as csv and file iteration see them: \\n, \\r\\n and a lone \\r."""
    if isinstance(data, bytes):
        n, r, rn, starts_n = data.count(b"\n"), data.count(b"\r"), data.count(b"\r\n"), \
            data.startswith(b"\n")
    else:
        n, r, rn, starts_n = data.count("\n"), data.count("\r"), data.count("\r\n"), \
            data.startswith("\n")
    return n + r - rn - (1 if last_cr and starts_n else 0)


def _line_of_byte(path: Path, offset: int) -> int:
    """The 1-based physical line holding byte `offset` (for ASCII-compatible encodings)."""
    line, done, last_cr = 1, 0, False
    with open(path, "rb") as handle:
        while done < offset:
            chunk = handle.read(min(_READ_BYTES, offset - done))
            if not chunk:
                break
            line += _count_newlines(chunk, last_cr)
            last_cr = chunk.endswith(b"\r")
            done += len(chunk)
    return line


def raise_nul_error(source: Source, offset: int) -> NoReturn:
    with open(source.path, "rb") as handle:
        head = handle.read(4096)
    line = _line_of_byte(source.path, offset)
    if head.startswith(b"PK\x03\x04"):
        source.fail("is a ZIP archive or a spreadsheet, not text; a workbook is read when "
                    "its name ends in .xlsx or .ods (or with --format xlsx)", row=line)
    marked = head.startswith(codecs.BOM_UTF8)
    if marked:  # the UTF-16 text starts after the 3-byte UTF-8 mark: count pairs from there
        head = head[len(codecs.BOM_UTF8):]
    pairs = max(1, len(head) // 2)
    odd_zeros = head[1::2].count(0) / pairs
    even_zeros = head[0::2].count(0) / pairs
    if odd_zeros > 0.3 and even_zeros < 0.05:
        guess = "utf-16-le"
    elif even_zeros > 0.3 and odd_zeros < 0.05:
        guess = "utf-16-be"
    else:
        source.fail(f"has a NUL byte (at byte offset {offset}), so it is a binary file, not "
                    "CSV or JSON text", row=line)
    if marked:
        source.fail(f"starts with a UTF-8 byte-order mark, but the text after it is "
                    f"{guess.upper()} (NUL bytes, the first at byte offset {offset}); pass "
                    f"--encoding {guess}", row=line)
    source.fail(f"has NUL bytes (the first at byte offset {offset}): it looks like UTF-16 text "
                f"without a byte-order mark; pass --encoding {guess}", row=line)


def raise_decode_error(source: Source, exc: UnicodeDecodeError) -> NoReturn:
    """Rescan the file to name the line and absolute byte offset of the first bad byte."""
    label = source.encoding.removesuffix("-sig")
    label = label.upper() if label.startswith("utf") else label
    found = _locate_decode_error(source.path, source.codec, source.skip)
    if found is None:  # cannot happen unless the file changed under us
        source.fail(f"is not valid {label} ({exc.reason})")
    offset, line, bad = found
    if source.explicit:
        advice = "the file is not in the encoding given with --encoding; try another one"
    elif source.codec == "utf-8":
        suggestion = "cp1252" if 0x80 <= bad <= 0x9F else "latin-1"
        advice = f"pass --encoding {suggestion} if that is the file's encoding"
    else:
        advice = "the file may be damaged or cut short"
    source.fail(f"byte 0x{bad:02x} (at byte offset {offset}) is not valid {label}; {advice}",
                row=line)


def _locate_decode_error(path: Path, codec: str, skip: int) -> tuple[int, int, int] | None:
    decoder = codecs.getincrementaldecoder(codec)("strict")
    offset, line, last_cr = skip, 1, False
    with open(path, "rb") as handle:
        handle.seek(skip)
        while True:
            chunk = handle.read(_READ_BYTES)
            try:
                text = decoder.decode(chunk, final=not chunk)
            except UnicodeDecodeError as exc:
                carried = max(0, len(exc.object) - len(chunk))  # bytes held from the last chunk
                prefix = exc.object[:exc.start].decode(codec, "replace")
                line += _count_newlines(prefix, last_cr)
                bad = exc.object[exc.start] if exc.start < len(exc.object) else 0
                return offset - carried + exc.start, line, bad
            line += _count_newlines(text, last_cr)
            if text:
                last_cr = text.endswith("\r")
            if not chunk:
                return None
            offset += len(chunk)
