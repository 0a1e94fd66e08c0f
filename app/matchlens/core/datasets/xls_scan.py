"""What calamine does not say about an .xls (Excel 97-2003) sheet, read with xlrd.

- Error cells (`#DIV/0!`, `#N/A`): calamine gives them as empty cells, which then passed
  `contains`. xlrd gives their error code, read here as the text Excel shows.
- Serial date 60: Excel shows 1900-02-29 (Lotus's leap-year bug, kept by Excel); calamine gives
  1900-02-28, the same as serial 59. xlrd gives the serial itself.

Merged ranges calamine reports for .xls itself. xlrd is the maintained pure-Python reader of the
BIFF format (it reads .xls only since 2.0); it parses the sheet a second time, after calamine,
so a file xlrd cannot read keeps calamine's reading (nothing here raises).
"""

from __future__ import annotations

from pathlib import Path

from matchlens.core.datasets.xlsx_scan import SheetFacts

_ERROR = 5  # xlrd.XL_CELL_ERROR
_DATE = 3  # xlrd.XL_CELL_DATE


def scan_xls(path: Path, sheet: str) -> SheetFacts | None:
    """The error cells and serial-60 dates of sheet `sheet`, or None when xlrd cannot read it."""
    import xlrd

    try:
        book = xlrd.open_workbook(str(path), on_demand=True, logfile=_Quiet())
    except Exception:  # noqa: BLE001 - xlrd's errors on a file calamine read: calamine's stands
        return None
    try:
        found = book.sheet_by_name(sheet)
        facts = SheetFacts(rows=found.nrows, columns=found.ncols)
        for row in range(found.nrows):
            types = found.row_types(row)
            if _ERROR not in types and _DATE not in types:
                continue
            values = found.row_values(row)
            for column, (kind, value) in enumerate(zip(types, values, strict=False)):
                if kind == _ERROR:
                    facts.errors[(row, column)] = xlrd.error_text_from_code.get(
                        value, f"#ERR{value}")
                elif kind == _DATE and book.datemode == 0 and 60 <= value < 61:
                    facts.sixty[(row, column)] = repr(value)
        return facts
    except Exception:  # noqa: BLE001 - as above
        return None
    finally:
        book.release_resources()


class _Quiet:
    """xlrd's log (warnings about odd records) goes nowhere: calamine already read the file."""

    def write(self, text: str) -> int:
        return len(text)

    def flush(self) -> None:
        """Nothing kept."""
