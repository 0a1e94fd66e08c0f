"""Issue 28 item 6 for .xls and .ods, as it is for .xlsx (test_spreadsheet_cells.py): an error
cell is the text the spreadsheet shows (`#DIV/0!`), never an empty reference that `contains`
passes; every cell of a merged range shows the merged value; serial date 60 is Excel's
1900-02-29. Real files: .xls written by xlwt (BIFF8, the format Excel 97-2003 writes), .ods
zipped by hand from the XML LibreOffice writes (its `calcext:value-type="error"` cells)."""

from __future__ import annotations

import zipfile

import pytest
import xlwt

from matchlens.core.datasets import read_table, resolve_column
from matchlens.core.datasets.ods_scan import scan_ods
from matchlens.core.datasets.xls_scan import scan_xls
from tests.cli.conftest import run_in_process


def write_xls(path, *, first_row=0):
    book = xlwt.Workbook()
    sheet = book.add_sheet("Sheet1")
    dates = xlwt.easyxf(num_format_str="yyyy-mm-dd")
    top = first_row
    for column, title in enumerate(["expected", "actual", "when"]):
        sheet.write(top, column, title)
    sheet.row(top + 1).set_cell_error(0, "#DIV/0!")
    sheet.write(top + 1, 1, "anything")
    sheet.row(top + 2).set_cell_error(0, 0x2A)  # #N/A (xlwt knows it by its BIFF code)
    sheet.write(top + 2, 1, "x")
    sheet.write_merge(top + 3, top + 4, 0, 0, "Paris")  # A:A merged over two rows
    sheet.write(top + 3, 1, "Paris")
    sheet.write(top + 4, 1, "Paris")
    for row, serial in enumerate((59, 60, 61, 60.5), top + 5):
        sheet.write(row, 0, "a")
        sheet.write(row, 1, "b")
        sheet.write(row, 2, serial, dates)
    book.save(str(path))
    return path


_NS = ('xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
       'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
       'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" '
       'xmlns:calcext="urn:org:documentfoundation:names:experimental:calc:xmlns:calcext:1.0"')


def _cell(text: str, extra: str = 'office:value-type="string"') -> str:
    return f"<table:table-cell {extra}><text:p>{text}</text:p></table:table-cell>"


def _row(*cells: str, extra: str = "") -> str:
    return f"<table:table-row {extra}>{''.join(cells)}</table:table-row>"


def ods_rows(first_row=0) -> list[str]:
    """The rows of the .xls above, as LibreOffice writes them in content.xml."""
    blank = [_row('<table:table-cell table:number-columns-repeated="3"/>',
                  extra=f'table:number-rows-repeated="{first_row}"')] if first_row else []
    return [*blank,
            _row(_cell("expected"), _cell("actual"), _cell("when")),
            # LibreOffice's =1/0: a float cell whose cached value is 0, marked as an error
            _row(_cell("#DIV/0!", 'table:formula="of:=1/0" office:value-type="float" '
                       'office:value="0" calcext:value-type="error"'), _cell("anything")),
            _row(_cell("#N/A", 'table:formula="of:=NA()" office:string-value="" '
                       'calcext:value-type="error"'), _cell("x")),
            _row(_cell("Paris", 'table:number-rows-spanned="2" office:value-type="string"'),
                 _cell("Paris")),
            _row("<table:covered-table-cell/>", _cell("Paris")),
            # an .ods holds dates as ISO text: Excel's 1900-02-29 is written as that
            _row(_cell("a"), _cell("b"), _cell("1900-02-29", 'office:value-type="date" '
                                                             'office:date-value="1900-02-29"'))]


def write_ods(path, rows: list[str], sheets=("Sheet1",)):
    tables = "".join(f'<table:table table:name="{name}">{"".join(rows)}</table:table>'
                     for name in sheets)
    content = (f'<?xml version="1.0" encoding="UTF-8"?><office:document-content {_NS} '
               f'office:version="1.2"><office:body><office:spreadsheet>{tables}'
               "</office:spreadsheet></office:body></office:document-content>")
    manifest = ('<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest='
                '"urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2">'
                '<manifest:file-entry manifest:full-path="/" manifest:media-type='
                '"application/vnd.oasis.opendocument.spreadsheet"/><manifest:file-entry '
                'manifest:full-path="content.xml" manifest:media-type="text/xml"/>'
                "</manifest:manifest>")
    with zipfile.ZipFile(path, "w") as book:
        book.writestr("mimetype", "application/vnd.oasis.opendocument.spreadsheet")
        book.writestr("META-INF/manifest.xml", manifest)
        book.writestr("content.xml", content, compress_type=zipfile.ZIP_DEFLATED)
    return path


def _book(tmp_path, kind, first_row=0):
    if kind == "xls":
        return write_xls(tmp_path / "s.xls", first_row=first_row)
    return write_ods(tmp_path / "s.ods", ods_rows(first_row))


@pytest.mark.parametrize("kind", ["xls", "ods"])
@pytest.mark.parametrize("first_row", [0, 2])
def test_error_cells_and_merged_ranges_as_the_spreadsheet_shows_them(tmp_path, kind, first_row):
    table = read_table(_book(tmp_path, kind, first_row))
    expected = resolve_column(table, "expected").values
    # errors are their text: neither empty (calamine's .xls) nor the cached 0 (its .ods)
    assert expected[:2] == ["#DIV/0!", "#N/A"]
    # both rows of the merged A range show "Paris"
    assert expected[2:4] == ["Paris", "Paris"]
    # the rows are the sheet's own: the header is on row first_row + 1
    assert table.lines[0] == first_row + 2


def test_xls_serial_sixty_reads_as_excel_shows_it(tmp_path):
    table = read_table(write_xls(tmp_path / "s.xls"))
    # serials 59, 60, 61 are 1900-02-28, 1900-02-29 (Excel's leap-year bug), 1900-03-01;
    # 60.5 is noon on that day
    assert resolve_column(table, "when").values[4:] == [
        "1900-02-28", "1900-02-29", "1900-03-01", "1900-02-29T12:00:00"]


def test_ods_date_is_its_iso_text(tmp_path):
    table = read_table(write_ods(tmp_path / "s.ods", ods_rows()))
    assert resolve_column(table, "when").values[4] == "1900-02-29"


@pytest.mark.parametrize("kind", ["xls", "ods"])
def test_an_error_reference_does_not_pass_contains(tmp_path, capsys, kind):
    run = run_in_process(capsys, "score", _book(tmp_path, kind), "--expected", "expected",
                         "--actual", "actual", "--metrics", "contains")
    assert run.code == 0, run.err
    contains = [r["contains"] for r in run.records()]
    # "#DIV/0!" is not in "anything", "#N/A" not in "x"; the merged "Paris" is in "Paris" twice
    assert contains[:4] == ["0.0", "0.0", "1.0", "1.0"]


def test_the_ods_scan_reads_only_the_chosen_sheet(tmp_path):
    rows = ods_rows()
    path = write_ods(tmp_path / "two.ods", rows, sheets=("First", "Second"))
    facts = scan_ods(path, "Second")
    # the same rows in both sheets: the second's facts start again at row 0, not after the first
    assert facts.errors == {(1, 0): "#DIV/0!", (2, 0): "#N/A"}
    assert facts.merged == [((3, 0), (4, 0))]
    assert scan_ods(path, "Third") is None


def test_repeated_rows_and_columns_are_counted_not_expanded(tmp_path):
    error = _cell("#VALUE!", 'office:value-type="string" calcext:value-type="error" '
                             'table:number-columns-repeated="2"')
    rows = [_row(_cell("h1"), _cell("h2"), _cell("h3")),
            _row('<table:table-cell table:number-columns-repeated="2"/>', error,
                 extra='table:number-rows-repeated="2"'),
            _row('<table:table-cell table:number-columns-repeated="3"/>',
                 extra='table:number-rows-repeated="1048572"'),
            _row(_cell("x", 'table:number-columns-spanned="2" office:value-type="string"'),
                 "<table:covered-table-cell/>")]
    facts = scan_ods(write_ods(tmp_path / "r.ods", rows), "Sheet1")
    # rows 1 and 2 (0-based), columns 2 and 3 (after two blank ones) hold the error; the last
    # row is 1 + 2 + 1048572
    assert facts.errors == {(r, c): "#VALUE!" for r in (1, 2) for c in (2, 3)}
    assert facts.merged == [((1_048_575, 0), (1_048_575, 1))]
    assert facts.rows == 1_048_576


@pytest.mark.parametrize("damage", [b"not a zip", b"PK\x03\x04broken"])
def test_a_file_the_scans_cannot_read_gives_none(tmp_path, damage):
    path = tmp_path / "bad.ods"
    path.write_bytes(damage)
    assert scan_ods(path, "Sheet1") is None
    assert scan_xls(path, "Sheet1") is None


def test_an_ods_with_broken_xml_gives_none(tmp_path):
    path = write_ods(tmp_path / "b.ods", ["<table:table-row>"])
    assert scan_ods(path, "Sheet1") is None


def test_xls_serial_sixty_alone_is_read_again(tmp_path):
    """No empty cell anywhere: the 1900-02-28 calamine gives for serial 60 is what sends the
    sheet to xlrd."""
    book = xlwt.Workbook()
    sheet = book.add_sheet("Sheet1")
    dates = xlwt.easyxf(num_format_str="yyyy-mm-dd")
    sheet.write(0, 0, "when")
    sheet.write(1, 0, 60, dates)
    book.save(str(tmp_path / "d.xls"))
    table = read_table(tmp_path / "d.xls")
    assert resolve_column(table, "when").values == ["1900-02-29"]


def test_an_xls_error_cell_alone_is_read_again(tmp_path):
    """No date anywhere: the empty cell calamine gives for #DIV/0! is what sends the sheet to
    xlrd (mutation 'xls: an empty cell does not send the sheet to xlrd')."""
    book = xlwt.Workbook()
    sheet = book.add_sheet("Sheet1")
    sheet.write(0, 0, "expected")
    sheet.row(1).set_cell_error(0, "#DIV/0!")
    book.save(str(tmp_path / "e.xls"))
    assert resolve_column(read_table(tmp_path / "e.xls"), "expected").values == ["#DIV/0!"]
