"""Spreadsheets (.xlsx, .xls, .ods) read with python-calamine: one sheet, the first unless
`--sheet NAME` picks another.

calamine (Rust) reads all three formats with one API; openpyxl reads only .xlsx (and .ods
would need odfpy besides), both pure Python, and is not installed here to compare:
benchmarks/bench_streaming.py measures calamine's rows/s and memory on a 1M-row .xlsx. Cells become the text a person sees: 5 not 5.0, TRUE
and FALSE, dates as ISO 8601, an error cell as its error (`#DIV/0!`), every cell of a merged
range as the merged value, serial date 60 as Excel's 1900-02-29, the same in all three formats
(what calamine does not say is read by `xlsx_scan`, `xls_scan` and `ods_scan`). An .xlsx
sheet's extent is checked before calamine allocates it (`xlsx_scan`). Blank rows are skipped like a CSV's blank
lines; row numbers are the sheet's own (`unit` "row"), so a message points at the row Excel
shows.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

from matchlens.core.datasets.formats import Request, data_format
from matchlens.core.datasets.headers import unique_header
from matchlens.core.datasets.ods_scan import scan_ods
from matchlens.core.datasets.source import Cancelled, gc_paused, settle
from matchlens.core.datasets.table import Table
from matchlens.core.datasets.xls_scan import scan_xls
from matchlens.core.datasets.xlsx_scan import SheetFacts, scan_sheet
from matchlens.core.errors import DatasetError, first_line

_CANCEL_EVERY = 4096


def read_sheet(real: Path, display: Path, name: str, kind: str, sheet: str | None,
               cancel: Callable[[], bool] | None = None) -> Table:
    from python_calamine import CalamineWorkbook

    try:
        book = CalamineWorkbook.from_path(str(real))
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as exc:  # noqa: BLE001 - calamine's errors, and a Rust panic (pyo3's
        # PanicException derives from BaseException) for a damaged file: one sentence
        raise DatasetError(f"is not a spreadsheet python-calamine can read ({first_line(exc)})",
                           file=name) from None
    names = list(book.sheet_names)
    if sheet is None:
        if not names:
            raise DatasetError("has no sheets", file=name)
        sheet = names[0]
    elif sheet not in names:
        shown = ", ".join(repr(n) for n in names)
        raise DatasetError(f"has no sheet {sheet!r} (its sheets: {shown})", file=name)
    facts = scan_sheet(real, sheet, names.index(sheet), name) if kind == "xlsx" else None
    try:
        loaded = book.get_sheet_by_name(sheet)
        cells = loaded.to_python(skip_empty_area=False)
        merged = list(loaded.merged_cell_ranges or [])
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as exc:  # noqa: BLE001 - any failure, a Rust panic too, is a sentence
        raise DatasetError(f"sheet {sheet!r} cannot be read ({first_line(exc)})",
                           file=name) from None
    if kind == "xls":
        facts = scan_xls(real, sheet) if _may_hide_errors(cells) else None
    elif kind == "ods" or facts is None:  # a ZIP named .xlsx may be an .ods: calamine said so
        facts = scan_ods(real, sheet)
    if facts is not None:
        merged.extend(facts.merged)
    _as_excel_shows(cells, facts, merged)
    where = f"{name} (sheet {sheet!r})" if len(names) > 1 else name
    header = None
    header_line = 0
    rows: list[list[str]] = []
    lines: list[int] = []
    with gc_paused():
        for number, raw in enumerate(cells, 1):
            if not any(cell != "" and cell is not None for cell in raw):
                continue
            texts = [_text(cell) for cell in raw]
            if header is None:
                header, header_line = unique_header(texts), number
                continue
            rows.append(texts)
            lines.append(number)
            if cancel is not None and not len(rows) % _CANCEL_EVERY and cancel():
                raise Cancelled(f"loading {name} was cancelled")
        settle(rows)
    others = "" if len(names) == 1 else \
        f" (its sheets: {', '.join(repr(n) for n in names)}; --sheet picks one)"
    if header is None:
        raise DatasetError(f"sheet {sheet!r} is empty{others}", file=name)
    if not rows:
        raise DatasetError(f"sheet {sheet!r} has a header but no data rows{others}", file=name,
                           row=header_line, unit="row")
    notes = [f"{where}: {header.note}"] if header.note else []
    if len(names) > 1:
        notes.append(f"{name}: read sheet {sheet!r} of {len(names)} "
                     f"({', '.join(repr(n) for n in names)}); --sheet picks another")
    return Table(display, header.names, rows, lines, kind, None, kind, notes=notes,
                 repeated=header.repeated, header_line=header_line,
                 name=None if name == str(display) else name, unit="row")


def _as_excel_shows(cells: list[list[Any]], facts: SheetFacts | None,
                    merged: list[tuple[tuple[int, int], tuple[int, int]]]) -> None:
    """Error cells as their error, serial 60 as 1900-02-29, merged ranges filled (in place)."""
    def put(row: int, column: int, value: Any) -> None:
        if 0 <= row < len(cells) and 0 <= column < len(cells[row]):
            cells[row][column] = value

    if facts is not None:
        for (row, column), error in facts.errors.items():
            put(row, column, error)
        for (row, column), _ in facts.sixty.items():
            if 0 <= row < len(cells) and 0 <= column < len(cells[row]):
                shown = _text(cells[row][column])
                if shown.startswith("1900-02-28"):  # calamine's reading of serial 60
                    cells[row][column] = "1900-02-29" + shown[len("1900-02-28"):]
    for (top, left), (bottom, right) in merged:
        if not (0 <= top < len(cells) and 0 <= left < len(cells[top])):
            continue
        value = cells[top][left]
        for row in range(top, min(bottom, len(cells) - 1) + 1):
            for column in range(left, right + 1):
                if (row, column) != (top, left):
                    put(row, column, value)


def _may_hide_errors(cells: list[list[Any]]) -> bool:
    """Whether calamine's reading of an .xls sheet has an empty cell (an error cell reads as
    one) or a 1900-02-28 (serial 59 or 60): only then is the sheet parsed again by xlrd, which
    takes about twice as long as calamine (benchmarks/bench_xls_scan.py)."""
    import datetime as dt

    for row in cells:
        for cell in row:
            if cell == "" or cell is None or (isinstance(cell, dt.date) and (
                    cell.year, cell.month, cell.day) == (1900, 2, 28)):
                return True
    return False


@cache
def _date_types() -> tuple[type, ...]:
    import datetime as dt  # only once a sheet is read: every run registers this module

    return dt.datetime, dt.date, dt.time


def _text(cell: Any) -> str:
    """What the cell shows, as text."""
    if cell is None:
        return ""
    if isinstance(cell, str):
        return cell
    if isinstance(cell, bool):
        return "TRUE" if cell else "FALSE"
    if isinstance(cell, float):
        if cell.is_integer() and abs(cell) < 1e15:
            return str(int(cell))
        return repr(cell)
    if isinstance(cell, _date_types()):
        return cell.isoformat()
    return str(cell)


def _sheet_reader(kind: str) -> Callable[[Request], Table]:
    def read(request: Request) -> Table:
        return read_sheet(request.real, request.display, request.name, kind, request.sheet,
                          request.cancel)
    return read


# A ZIP is xlsx or ods: calamine tells them apart itself.
data_format(id="xlsx", label="Excel", order=60, suffixes=(".xlsx", ".xlsm"),
            magic=(b"PK\x03\x04",), sheets=True)(_sheet_reader("xlsx"))
data_format(id="xls", label="Excel 97-2003", order=70, suffixes=(".xls",),
            magic=(b"\xd0\xcf\x11\xe0",), sheets=True)(_sheet_reader("xls"))
data_format(id="ods", label="OpenDocument spreadsheet", order=80, suffixes=(".ods",),
            sheets=True)(_sheet_reader("ods"))
