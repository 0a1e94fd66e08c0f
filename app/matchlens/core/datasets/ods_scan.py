"""What calamine does not say about an .ods (OpenDocument) sheet, read from its content.xml.

- Error cells: LibreOffice writes `#DIV/0!` as a formula cell whose cached value is a number
  (0) or an empty string, marked `calcext:value-type="error"`, its shown text in `<text:p>`.
  calamine gives the 0 or the empty string (an empty reference passed `contains`); they are
  read as the text the cell shows, as in .xlsx and .xls.
- Merged cells: a cell spanning rows/columns (`table:number-rows-spanned`,
  `table:number-columns-spanned`) covers the cells after it (`<table:covered-table-cell/>`),
  which calamine gives as empty and does not report as merged. The ranges are read here so
  every covered cell shows the merged value, as in the other two formats.

Dates need nothing: an .ods holds a date as ISO text (`office:date-value`), not a serial, so
there is no serial 60; a 1900-02-29 written by Excel is read as that text.

The XML is parsed as a stream (expat via iterparse), each row dropped once read, so memory
stays bounded whatever the sheet's size; repeated rows and columns are counted, not expanded.
"""

from __future__ import annotations

import zipfile
from pathlib import Path
from xml.etree import ElementTree

from matchlens.core.datasets.xlsx_scan import SheetFacts

_TABLE = "{urn:oasis:names:tc:opendocument:xmlns:table:1.0}"
_TEXT = "{urn:oasis:names:tc:opendocument:xmlns:text:1.0}"
_CALCEXT = "{urn:org:documentfoundation:names:experimental:calc:xmlns:calcext:1.0}"
_CELL, _COVERED = f"{_TABLE}table-cell", f"{_TABLE}covered-table-cell"
_ROW, _SHEET = f"{_TABLE}table-row", f"{_TABLE}table"
_MAX_REPEAT = 65_536  # an error cell repeated further than this is not recorded further


def scan_ods(path: Path, sheet: str) -> SheetFacts | None:
    """The error cells and merged ranges of sheet `sheet`, or None when its XML cannot be read
    (calamine's reading then stands)."""
    try:
        with zipfile.ZipFile(path) as book, book.open("content.xml") as handle:
            return _scan(handle, sheet)
    except (zipfile.BadZipFile, OSError, KeyError, EOFError, RuntimeError, ValueError,
            ElementTree.ParseError):
        return None


def _scan(handle, sheet: str) -> SheetFacts | None:
    facts = SheetFacts()
    inside = False
    row = 0
    for event, element in ElementTree.iterparse(handle, events=("start", "end")):
        if element.tag == _SHEET:
            if event == "start":
                inside = element.get(f"{_TABLE}name") == sheet
            elif inside:
                facts.rows = row
                return facts
            else:
                element.clear()
        elif event == "end" and element.tag == _ROW:
            repeat = _count(element, "number-rows-repeated")
            if inside:
                _read_row(element, row, min(repeat, _MAX_REPEAT), facts)
            row += repeat if inside else 0
            element.clear()
    return None


def _count(element, attribute: str) -> int:
    try:
        return max(1, int(element.get(f"{_TABLE}{attribute}", "1")))
    except ValueError:
        return 1


def _read_row(element, row: int, repeat: int, facts: SheetFacts) -> None:
    column = 0
    for cell in element:
        if cell.tag not in (_CELL, _COVERED):
            continue
        times = _count(cell, "number-columns-repeated")
        if cell.tag == _CELL:
            if cell.get(f"{_CALCEXT}value-type") == "error":
                shown = "\n".join("".join(p.itertext()) for p in cell.iter(f"{_TEXT}p"))
                for r in range(row, row + repeat):
                    for c in range(column, column + min(times, _MAX_REPEAT)):
                        facts.errors[(r, c)] = shown
            rows, columns = _count(cell, "number-rows-spanned"), \
                _count(cell, "number-columns-spanned")
            if rows > 1 or columns > 1:
                facts.merged.append(((row, column), (row + rows - 1, column + columns - 1)))
        column += times
    facts.columns = max(facts.columns, column)
