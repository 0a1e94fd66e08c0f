"""The labels sidecar: `DATA.labels.csv` beside a dataset, one line per human change.

Columns: `row` (1 = the first data row, as the table's `#`), `id` (the dataset's id column,
when it has one), `variant` (the actual column the human judged; empty = every variant),
`label` (`pass`, `fail`, or empty = no label), `note`, `time` (ISO 8601, UTC).

A plain CSV so a person can read, diff or hand-edit it, and so `matchlens calibrate --labels`
and a spreadsheet read it too. Written through `atomic_writer`: a crash mid-write leaves the
previous file whole. `locked` serialises the read-merge-write of two windows (or processes)
labelling the same dataset, so neither's changes are lost. Pure Python, no Qt.
"""

from __future__ import annotations

import contextlib
import csv
import io
import os
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from matchlens.core.atomic import atomic_writer
from matchlens.core.bounded import InputBoundError, read_bytes
from matchlens.core.datasets import parse_label
from matchlens.core.errors import DatasetError, OutputError

SUFFIX = ".labels.csv"
FIELDS = ("row", "id", "variant", "label", "note", "time")
PASS, FAIL, NONE = 1, 0, -1
LABEL_TEXT = {PASS: "pass", FAIL: "fail", NONE: ""}


@dataclass(frozen=True)
class Entry:
    """One row's human label for one variant. `row` is 0-based; `label` PASS, FAIL or NONE."""

    row: int
    id: str
    variant: str
    label: int
    note: str = ""
    time: str = ""


def sidecar_path(data: str | Path) -> Path:
    """`qa.csv` -> `qa.csv.labels.csv`: the full name is kept so `qa.csv` and `qa.jsonl`
    beside each other never share a sidecar."""
    data = Path(data)
    return data.with_name(data.name + SUFFIX)


def now_text() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def read_sidecar(path: str | Path) -> list[Entry]:
    """Every entry of a labels file; DatasetError (file, line, column) for anything unreadable."""
    path = Path(path)
    try:
        text = read_bytes(path, str(path)).decode("utf-8-sig")
    except FileNotFoundError:
        raise DatasetError("no such labels file", file=str(path)) from None
    except InputBoundError as err:
        raise DatasetError(str(err), file=str(path)) from None
    except UnicodeDecodeError:
        raise DatasetError("is not UTF-8 text (a labels file is a UTF-8 CSV)",
                           file=str(path)) from None
    except OSError as err:
        raise DatasetError(f"cannot be read ({err.strerror or err})", file=str(path)) from None
    try:
        reader = csv.DictReader(io.StringIO(text, newline=""), strict=True)
        header = reader.fieldnames or []
        missing = [name for name in ("row", "label") if name not in header]
        if missing:
            raise DatasetError(f"has no {' and no '.join(repr(m) for m in missing)} column "
                               f"(a labels file has the columns {', '.join(FIELDS)})",
                               file=str(path), row=1)
        return [_entry(record, path, reader.line_num) for record in reader]
    except csv.Error as err:
        raise DatasetError(f"is not valid CSV ({err})", file=str(path)) from None


def _entry(record: dict, path: Path, line: int) -> Entry:
    if None in record:  # more cells than header names
        raise DatasetError("has more cells than the header has names", file=str(path), row=line)
    row_text = (record.get("row") or "").strip()
    try:
        row = int(row_text)
    except ValueError:
        row = 0
    if row < 1:
        raise DatasetError(f"is not a row number (1 = the first data row): {row_text!r}",
                           file=str(path), row=line, column="row")
    label_text = (record.get("label") or "").strip()
    value = parse_label(label_text) if label_text else None
    if label_text and value is None:
        raise DatasetError(f"is neither pass nor fail: {label_text!r}",
                           file=str(path), row=line, column="label")
    return Entry(row=row - 1, id=(record.get("id") or "").strip(),
                 variant=record.get("variant") or "",
                 label=NONE if value is None else int(value), note=record.get("note") or "",
                 time=record.get("time") or "")


def write_entries(path: str | Path, entries: list[Entry]) -> None:
    """Replace `path` atomically with these entries (sorted by row, then variant)."""
    ordered = sorted(entries, key=lambda e: (e.row, e.variant))
    try:
        with atomic_writer(path, newline="") as handle:
            writer = csv.writer(handle, lineterminator="\n")
            writer.writerow(FIELDS)
            for e in ordered:
                writer.writerow([e.row + 1, e.id, e.variant, LABEL_TEXT[e.label], e.note,
                                 e.time])
    except OSError as err:
        raise OutputError(f"{path}: cannot be written ({err.strerror or err})") from None


def set_aside(path: Path) -> Path:
    """Rename an unreadable sidecar out of the way (never overwrite what a person made)."""
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    target = path.with_name(f"{path.name}.unreadable-{stamp}")
    n = 1
    while target.exists():
        n += 1
        target = path.with_name(f"{path.name}.unreadable-{stamp}-{n}")
    path.rename(target)
    return target


_LOCK_NAME = ".matchlens-labels.lock"  # only where the folder has no directory locks (Windows)


@contextlib.contextmanager
def locked(path: Path) -> Iterator[None]:
    """Hold an exclusive lock for the labels file `path` while re-reading and rewriting it.

    On POSIX the lock is flock(2) on the folder itself (no extra file beside the user's data;
    released by the kernel if the process dies). Elsewhere a lock file in the folder is locked
    with msvcrt. A folder that cannot be opened or locked gives no lock: saving still works,
    as before, with last-writer-wins between windows."""
    folder = path.parent
    if sys.platform == "win32":  # pragma: no cover - exercised on Windows only
        import msvcrt

        try:
            handle = open(folder / _LOCK_NAME, "a+b")  # noqa: SIM115 - closed below
        except OSError:
            yield
            return
        with handle:
            with contextlib.suppress(OSError):
                msvcrt.locking(handle.fileno(), msvcrt.LK_LOCK, 1)
            try:
                yield
            finally:
                with contextlib.suppress(OSError):
                    handle.seek(0)
                    msvcrt.locking(handle.fileno(), msvcrt.LK_UNLCK, 1)
        return
    import fcntl

    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        yield
        return
    try:
        with contextlib.suppress(OSError):
            fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # releases the lock
