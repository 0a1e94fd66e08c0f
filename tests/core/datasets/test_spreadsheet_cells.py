"""Spreadsheet cells as Excel shows them, and sheets that cannot be loaded as one sentence
(issue 28 items 6, 12): real .xlsx files written with xlsxwriter, damaged ones by editing their
XML, and the CLI run as a real process where the failure was the process's (an abort)."""

from __future__ import annotations

import zipfile

import pytest
import xlsxwriter

from matchlens.core.datasets import read_table, resolve_column
from matchlens.core.datasets.xlsx_scan import column_letters, column_number
from matchlens.core.errors import DatasetError
from tests.cli.conftest import run_process


def _book(path, far=None):
    book = xlsxwriter.Workbook(path)
    sheet = book.add_worksheet()
    dates = book.add_format({"num_format": "yyyy-mm-dd"})
    sheet.write_row(0, 0, ["expected", "actual", "when"])
    sheet.write_formula(1, 0, "=1/0", None, "#DIV/0!")  # Excel's cached result: the error
    sheet.write(1, 1, "anything")
    sheet.merge_range(2, 0, 3, 0, "Paris")  # A3:A4 merged, shown as one "Paris"
    sheet.write_row(2, 1, ["Paris", "x"])
    sheet.write(3, 1, "Paris")
    for row, serial in ((4, 59), (5, 60), (6, 61)):
        sheet.write_row(row, 0, ["a", "b"])
        sheet.write_number(row, 2, serial, dates)
    if far is not None:
        sheet.write(*far, "stray")
    book.close()
    return path


def test_error_cells_merged_ranges_and_serial_sixty_as_excel_shows_them(tmp_path):
    table = read_table(_book(tmp_path / "s.xlsx"))
    expected = resolve_column(table, "expected").values
    # an error is its text, not an empty reference that `contains` would pass
    assert expected[0] == "#DIV/0!"
    # the continuation of a merged range shows the merged value
    assert expected[1:3] == ["Paris", "Paris"]
    # Excel shows serial 59, 60, 61 as 1900-02-28, 1900-02-29 (its leap-year bug), 1900-03-01
    assert resolve_column(table, "when").values[3:6] == ["1900-02-28", "1900-02-29",
                                                       "1900-03-01"]


def test_an_error_reference_does_not_pass_contains(tmp_path, capsys):
    from tests.cli.conftest import run_in_process

    path = _book(tmp_path / "s.xlsx")
    run = run_in_process(capsys, "score", str(path), "--expected", "expected", "--actual",
                         "actual", "--metrics", "contains")
    assert run.code == 0, run.err
    assert run.records()[0]["contains"] == "0.0"  # "#DIV/0!" is not in "anything"
    assert run.records()[2]["contains"] == "1.0"  # the merged "Paris" is in "Paris"


def _rewrite(src, dst, old: bytes, new: bytes):
    with zipfile.ZipFile(src) as book, zipfile.ZipFile(dst, "w") as out:
        for name in book.namelist():
            data = book.read(name)
            if name == "xl/worksheets/sheet1.xml":
                assert old in data
                data = data.replace(old, new)
            out.writestr(name, data)
    return dst


@pytest.mark.parametrize("bad", [b"1A", b"A0", b"ZZZZZ1", b"A99999999999", b""])
def test_a_damaged_cell_reference_is_a_sentence(tmp_path, bad):
    path = _rewrite(_book(tmp_path / "s.xlsx"), tmp_path / "bad.xlsx", b'r="B2"',
                    b'r="' + bad + b'"')
    with pytest.raises(DatasetError, match=r"bad\.xlsx: sheet 'Sheet1' is damaged: .*cell at"):
        read_table(path)


def test_a_stray_far_cell_is_a_sentence_in_a_real_process(tmp_path):
    """The process used to abort (SIGABRT, 512 GiB asked for) on a 5 KB file."""
    path = _book(tmp_path / "far.xlsx", far=(1_048_575, 16_383))
    assert path.stat().st_size < 10_000
    run = run_process("score", str(path), "--expected", "expected", "--actual", "actual")
    assert run.code == 2, run.err
    assert "far.xlsx: sheet 'Sheet1' reaches cell XFD1048576" in run.err
    mid = _book(tmp_path / "mid.xlsx", far=(5_999, 16_383))
    with pytest.raises(DatasetError, match="reaches cell XFD6000"):
        read_table(mid)


def test_column_letters_round_trip():
    # A=1, Z=26, AA=27, XFD = 24*676 + 6*26 + 4 = 16384 (Excel's last column)
    for n, letters in ((1, "A"), (26, "Z"), (27, "AA"), (16384, "XFD")):
        assert column_number(letters.encode()) == n and column_letters(n) == letters


def test_a_merged_range_below_the_data_is_ignored(tmp_path):
    """A merged, empty area past the last value (formatting left behind) lies outside what
    calamine returns: it must not be filled, nor fail."""
    path = tmp_path / "m.xlsx"
    book = xlsxwriter.Workbook(path)
    sheet = book.add_worksheet()
    sheet.write_row(0, 0, ["expected", "actual"])
    sheet.write_row(1, 0, ["a", "b"])
    sheet.merge_range(5, 3, 7, 5, "")
    book.close()
    table = read_table(path)
    assert table.rows == [["a", "b"]]
