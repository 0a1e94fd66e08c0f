"""`read_table` and `iter_tables`: which reader of the format registry a file needs (by
`--format`, its extension, or its first bytes), and standard input, pipes and FIFOs made
readable by every reader. Importing this registers every format (`formats`).
A device (`/dev/zero`) is refused, a FIFO nobody writes to is waited for with a sentence, and
a stream's copy stops at a limit (`core.bounded`).

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

from matchlens.core.bounded import InputBoundError, copy_stream, open_input
from matchlens.core.datasets import parquet, spreadsheet  # noqa: F401 - register their formats
from matchlens.core.datasets.formats import (
    FORMATS,
    Format,
    Request,
    by_magic,
    by_suffix,
    is_dataset_name,  # noqa: F401 - the window's import path
    open_filter,
)
from matchlens.core.datasets.source import why_unreachable
from matchlens.core.datasets.table import Table
from matchlens.core.datasets.textformats import in_pieces, read_text, text_pieces
from matchlens.core.errors import DatasetError

# The Open dialog's filter and what the drop target takes (the window offers what it reads).
OPEN_FILTER = open_filter()
STDIN = "-"


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
    try:
        handle = open_input(path, name) if stream is None else contextlib.nullcontext(stream)
    except InputBoundError as exc:
        raise DatasetError(str(exc), file=name) from None
    except OSError as exc:
        raise DatasetError(f"cannot be read ({exc.strerror or exc})", file=name) from None
    with handle as source:
        if _is_terminal(source):
            raise DatasetError("is a terminal, not data: pipe a file in "
                               "(`… | matchlens score - …`) or give its path", file=name)
        with open(copy, "wb") as out:
            try:
                copy_stream(source, out)
            except InputBoundError as exc:
                raise DatasetError(str(exc), file=name) from None


def _is_terminal(handle) -> bool:
    try:
        return os.isatty(handle.fileno())
    except (AttributeError, OSError, ValueError):
        return False


def choose_format(real: Path, name: str, fmt: str | None) -> Format | None:
    """The format: `--format`, else the extension, else standard input's default (CSV), else
    the first bytes (None: decide from the decoded text)."""
    if fmt is not None:
        if fmt not in FORMATS:
            raise DatasetError(f"unknown --format {fmt!r} (one of {', '.join(FORMATS)})",
                               file=name)
        return FORMATS[fmt]
    found = by_suffix(name)
    if found is not None:
        return found
    if name == "<stdin>":
        return FORMATS["csv"]
    try:
        with open(real, "rb") as handle:
            head = handle.read(8)
    except OSError:
        return None  # open_source says why, in its words
    return by_magic(head)


def read_table(path: str | os.PathLike, *, encoding: str | None = None,
               delimiter: str | None = None, records: str | None = None,
               sheet: str | None = None, format: str | None = None,  # noqa: A002 - the CLI's name
               cancel: Callable[[], bool] | None = None) -> Table:
    """Read a whole data file: .csv, .tsv, .jsonl, .json, .parquet, .xlsx/.xls/.ods (other
    extensions: sniffed from the content); `-` is standard input (CSV unless `format` says).

    Raises DatasetError (one sentence naming the file, line and column) for any bad input, and
    Cancelled when `cancel()` returns True (it is polled every few thousand rows).
    """
    with local_file(path) as (real, name):
        fmt = choose_format(real, name, format)
        _check_options(fmt, name, records, sheet)
        request = Request(real, Path(os.fspath(path)), name, encoding, delimiter, records,
                          sheet, cancel)
        return read_text(request, None) if fmt is None else fmt.read(request)


def iter_tables(path: str | os.PathLike, *, chunk_rows: int = 50_000,
                encoding: str | None = None, delimiter: str | None = None,
                records: str | None = None, sheet: str | None = None,
                format: str | None = None,  # noqa: A002
                growing: bool = False) -> Iterator[Table]:
    """The same file as `read_table`, as tables of about `chunk_rows` rows each (same columns,
    absolute line numbers): CSV, TSV, JSON Lines and Parquet are never held whole; a .json
    document and a spreadsheet are read whole and then handed out in pieces. `growing`: a
    piece's columns may be fewer than the file's (JSON Lines: the keys seen so far, read in
    one pass); the last piece has them all."""
    with local_file(path) as (real, name):
        fmt = choose_format(real, name, format)
        _check_options(fmt, name, records, sheet)
        request = Request(real, Path(os.fspath(path)), name, encoding, delimiter, records, sheet,
                          growing=growing)
        if fmt is None:
            yield from text_pieces(request, chunk_rows, None)
        elif fmt.pieces is not None:
            yield from fmt.pieces(request, chunk_rows)
        else:
            yield from in_pieces(fmt.read(request), chunk_rows)


def _check_options(fmt: Format | None, name: str, records: str | None, sheet: str | None) -> None:
    if records is not None and not (fmt is None or fmt.records):
        raise DatasetError("--records picks the rows inside a .json file; this input is "
                           f"{fmt.id.upper()}", file=name)
    if sheet is not None and not (fmt is not None and fmt.sheets):
        raise DatasetError("--sheet picks a sheet of a spreadsheet (.xlsx, .xls, .ods); this "
                           f"input is {(fmt.id if fmt else 'text').upper()}", file=name)
