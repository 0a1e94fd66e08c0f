"""Which reader a file needs (by extension, `--format`, or its first bytes), and standard
input, pipes and FIFOs made readable by every reader.

The text readers open a file more than once (a sample to choose the encoding, the read, a
rescan naming the line of a bad byte) and Parquet and spreadsheets need to seek: a pipe would
give its bytes to the first open only, and the second waits forever. So input that is not a
regular file (`-`, `/dev/stdin`, a FIFO, `<(…)`) is first copied, in blocks, to a private
temporary file that is removed when reading ends: constant memory, and never a hang.
"""

from __future__ import annotations

import contextlib
import os
import stat
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

from matchlens.core.datasets.delimited import (
    check_delimiter,
    iter_delimited,
    read_delimited,
    sniff_delimiter,
)
from matchlens.core.datasets.jsonfiles import iter_jsonl, read_json, read_jsonl
from matchlens.core.datasets.source import Source, open_source, why_unreachable
from matchlens.core.datasets.table import Table
from matchlens.core.errors import DatasetError

FORMATS = ("csv", "tsv", "jsonl", "json", "parquet", "xlsx", "xls", "ods")
SPREADSHEETS = ("xlsx", "xls", "ods")
KIND_BY_SUFFIX = {".csv": "csv", ".tsv": "tsv", ".tab": "tsv", ".jsonl": "jsonl",
                  ".ndjson": "jsonl", ".json": "json", ".parquet": "parquet",
                  ".pq": "parquet", ".xlsx": "xlsx", ".xlsm": "xlsx", ".xls": "xls",
                  ".ods": "ods"}
# The Open dialog's filter and what the drop target takes (the window offers what it reads).
OPEN_FILTER = ("Datasets (" + " ".join(f"*{suffix}" for suffix in KIND_BY_SUFFIX)
               + ");;All files (*)")
STDIN = "-"


def is_dataset_name(name: str) -> bool:
    """True for a name whose extension is a format read here (or none: sniffed)."""
    suffix = Path(name).suffix.lower()
    return suffix in KIND_BY_SUFFIX or suffix in ("", ".txt")
_COPY_BYTES = 1 << 20


@contextlib.contextmanager
def local_file(path: str | os.PathLike) -> Iterator[tuple[Path, str]]:
    """(a regular file to read, the name messages use). Standard input and other streams are
    copied to a temporary file first (see the module docstring)."""
    text = os.fspath(path)
    if text == STDIN:
        stream, name = sys.stdin.buffer, "<stdin>"
    else:
        real = Path(text)
        try:
            mode = os.stat(real).st_mode
        except OSError as exc:  # no such file, a symbolic link loop, …
            raise DatasetError(why_unreachable(real, exc), file=text) from None
        if stat.S_ISREG(mode) or stat.S_ISDIR(mode):
            yield real, text
            return
        stream, name = None, text
    import tempfile  # only for a pipe or standard input: with shutil, ~3 ms a run otherwise

    with tempfile.TemporaryDirectory(prefix="matchlens-input-") as folder:
        copy = Path(folder) / "input"
        _copies.add(folder)
        try:
            _copy_stream(stream, Path(text), copy, name)
            yield copy, name
        finally:
            _copies.discard(folder)


# The folders of the copies being read. A headless run stopped by Ctrl+C or SIGTERM leaves by
# os._exit from another thread (matchlens.cli.interrupts), so their `with` never ends there: it
# calls `discard_copies`, or a whole copy of the user's data would stay in the temp folder.
_copies: set[str] = set()


def discard_copies() -> None:
    """Remove every copy being read (from the interrupt watcher: os only, no import, no lock
    the main thread may hold)."""
    for folder in list(_copies):
        with contextlib.suppress(OSError):
            os.unlink(os.path.join(folder, "input"))
        with contextlib.suppress(OSError):
            os.rmdir(folder)


def _copy_stream(stream, path: Path, copy: Path, name: str) -> None:
    import shutil

    if stream is None:
        try:
            handle = open(path, "rb")  # noqa: SIM115 - closed below
        except OSError as exc:
            raise DatasetError(f"cannot be read ({exc.strerror or exc})", file=name) from None
    else:
        handle = contextlib.nullcontext(stream)
    with handle as source:
        if _is_terminal(source):
            raise DatasetError("is a terminal, not data: pipe a file in "
                               "(`… | matchlens score - …`) or give its path", file=name)
        with open(copy, "wb") as out:
            shutil.copyfileobj(source, out, _COPY_BYTES)


def _is_terminal(handle) -> bool:
    try:
        return os.isatty(handle.fileno())
    except (AttributeError, OSError, ValueError):
        return False


def choose_kind(real: Path, name: str, fmt: str | None, delimiter: str | None) -> str | None:
    """The format: `--format`, else the extension, else standard input's default (CSV), else
    the first bytes (None: decide from the decoded text)."""
    if fmt is not None:
        if fmt not in FORMATS:
            raise DatasetError(f"unknown --format {fmt!r} (one of {', '.join(FORMATS)})",
                               file=name)
        return fmt
    kind = KIND_BY_SUFFIX.get(Path(name).suffix.lower())
    if kind is not None:
        return kind
    if name == "<stdin>":
        return "csv"
    return _sniff_binary(real)


def _sniff_binary(real: Path) -> str | None:
    try:
        with open(real, "rb") as handle:
            head = handle.read(8)
    except OSError:
        return None  # open_source says why, in its words
    if head.startswith(b"PAR1"):
        return "parquet"
    if head.startswith(b"PK\x03\x04"):
        return "xlsx"  # a ZIP: xlsx or ods; calamine tells them apart itself
    if head.startswith(b"\xd0\xcf\x11\xe0"):
        return "xls"
    return None


def read_whole(path, *, encoding, delimiter, records, sheet, fmt,
               cancel: Callable[[], bool] | None = None) -> Table:
    with local_file(path) as (real, name):
        kind = choose_kind(real, name, fmt, delimiter)
        _check_options(kind, name, records, sheet)
        display = Path(os.fspath(path))
        if kind == "parquet":
            from matchlens.core.datasets.parquet import read_parquet

            return read_parquet(real, display, name, cancel)
        if kind in SPREADSHEETS:
            from matchlens.core.datasets.spreadsheet import read_sheet

            return read_sheet(real, display, name, kind, sheet, cancel)
        source = _open_text(real, name, encoding, cancel, delimiter)
        kind = _text_kind(source, kind, delimiter)
        if kind in ("csv", "tsv", "sniffed"):
            used = _delimiter(source, kind, delimiter)
            header, rows, lines = read_delimited(source, used)
            return _delimited_table(display, name, source, kind, used, header, rows, lines)
        if kind == "jsonl" and not source.head.lstrip().startswith("["):
            columns, rows, lines = read_jsonl(source)
            return Table(display, columns, rows, lines, "jsonl", None, source.encoding,
                         name=_name(display, name))
        # a .json, or a .jsonl that holds an array (its lines could never be objects)
        return read_json(source, display, _name(display, name), records)


def read_pieces(path, *, chunk_rows, encoding, delimiter, records, sheet,
                fmt) -> Iterator[Table]:
    with local_file(path) as (real, name):
        kind = choose_kind(real, name, fmt, delimiter)
        _check_options(kind, name, records, sheet)
        display = Path(os.fspath(path))
        if kind == "parquet":
            from matchlens.core.datasets.parquet import iter_parquet

            yield from iter_parquet(real, display, name, chunk_rows)
            return
        if kind not in SPREADSHEETS:
            source = _open_text(real, name, encoding, None, delimiter)
            kind = _text_kind(source, kind, delimiter)
            if kind in ("csv", "tsv", "sniffed"):
                used = _delimiter(source, kind, delimiter)
                for header, rows, lines in iter_delimited(source, used, chunk_rows):
                    yield _delimited_table(display, name, source, kind, used, header, rows,
                                           lines)
                return
            if kind == "jsonl" and not source.head.lstrip().startswith("["):
                for columns, rows, lines in iter_jsonl(source, chunk_rows):
                    yield Table(display, columns, rows, lines, "jsonl", None, source.encoding,
                                name=_name(display, name))
                return
        whole = read_whole(real, encoding=encoding, delimiter=delimiter, records=records,
                           sheet=sheet, fmt=kind)
        whole.path, whole.name = display, _name(display, name)
        for start in range(0, len(whole), chunk_rows):
            yield whole.piece(start, start + chunk_rows)


def _name(display: Path, name: str) -> str | None:
    return None if name == str(display) else name


def _check_options(kind: str | None, name: str, records: str | None, sheet: str | None) -> None:
    if records is not None and kind not in ("json", None):
        raise DatasetError("--records picks the rows inside a .json file; this input is "
                           f"{kind.upper()}", file=name)
    if sheet is not None and kind not in SPREADSHEETS:
        raise DatasetError("--sheet picks a sheet of a spreadsheet (.xlsx, .xls, .ods); this "
                           f"input is {(kind or 'text').upper()}", file=name)


def _open_text(real: Path, name: str, encoding, cancel, delimiter) -> Source:
    source = open_source(real, encoding, cancel, display=name)
    if delimiter is not None:
        check_delimiter(source, delimiter)
    return source


def _text_kind(source: Source, kind: str | None, delimiter: str | None) -> str:
    if kind is not None:
        return kind
    if delimiter is None:
        first = source.head.lstrip()[:1]
        if first == "[":
            return "json"
        if first == "{":
            return "jsonl"
    return "sniffed"  # delimited text: CSV or TSV by the delimiter found


def _delimiter(source: Source, kind: str, delimiter: str | None) -> str:
    return delimiter or sniff_delimiter(source.head, "\t" if kind == "tsv" else ",")


def _delimited_table(display, name, source, kind, used, header, rows, lines) -> Table:
    if kind not in ("csv", "tsv"):
        kind = "tsv" if used == "\t" else "csv"
    return Table(display, header.names, rows, lines, kind, used, source.encoding,
                 notes=[f"{name}: {header.note}"] if header.note else [], repeated=header.repeated,
                 header_line=header.line, name=_name(display, name))
