"""Behaviours of the datasets readers that the second hand-mutation round (issue 28 item 5,
benchmarks/mutate_datasets.py) found unpinned: each test here failed with its mutation in place
(the mutation's name from that script is in the test's docstring)."""

from __future__ import annotations

import codecs
import json

import pytest

from matchlens.core.datasets import read_table, resolve_column
from matchlens.core.errors import DatasetError

_READ_BYTES = 1 << 20  # source.py reads a file in blocks of 1 MiB


def test_a_bad_byte_after_a_character_cut_by_a_block_edge_is_at_its_offset(tmp_path):
    """'decode error offset ignores carried bytes'."""
    head = b"expected,actual\n"
    line = b"a," + b"b" * (_READ_BYTES - len(head) - 3)  # ends at byte 1 MiB - 1
    data = head + line + "é".encode() + b"\n" + b"x,\xff\n"  # é's 2 bytes cross the edge
    (tmp_path / "d.csv").write_bytes(data)
    with pytest.raises(DatasetError) as caught:
        read_table(tmp_path / "d.csv")
    # the 0xFF byte: after the line of 1 MiB - 1 bytes, é (2), "\n" and "x," (3)
    assert data.index(b"\xff") == _READ_BYTES + 4
    assert f"byte 0xff (at byte offset {_READ_BYTES + 4:,}".replace(",", "") in \
        str(caught.value).replace(",", "")
    assert ", line 3:" in str(caught.value)


def test_a_json_with_a_bom_and_an_explicit_utf16_le_encoding(tmp_path):
    """'a .json's U+FEFF kept': utf-16-le keeps the mark the decoder does not drop."""
    path = tmp_path / "d.json"
    path.write_bytes(codecs.BOM_UTF16_LE + '[{"expected": "a"}]'.encode("utf-16-le"))
    table = read_table(path, encoding="utf-16-le")
    assert table.kind == "json" and resolve_column(table, "expected").values == ["a"]


def test_a_quote_is_no_delimiter(tmp_path):
    """'a quote accepted as the delimiter'."""
    path = tmp_path / "d.csv"
    path.write_text('a"b\n1"2\n', encoding="utf-8")
    with pytest.raises(DatasetError, match="cannot use '\"' as the delimiter"):
        read_table(path, delimiter='"')


def test_utf32_without_a_bom_names_the_byte_orders(tmp_path):
    """'--encoding utf-32 without a BOM not refused'."""
    path = tmp_path / "d.csv"
    path.write_bytes("a,b\n1,2\n".encode("utf-32-le"))
    with pytest.raises(DatasetError, match="utf-32-le or utf-32-be if it is UTF-32 without"):
        read_table(path, encoding="utf-32")


def test_a_one_column_tsv_keeps_its_commas(tmp_path):
    """'.tsv defaults to a comma': a header with neither tab nor comma takes the format's."""
    path = tmp_path / "one.tsv"
    path.write_text("text\nhello, world\n", encoding="utf-8")
    table = read_table(path)
    assert table.delimiter == "\t" and resolve_column(table, "text").values == ["hello, world"]


def test_only_whole_lines_are_sniffed(tmp_path):
    """'a partial last line sniffed': the sample ends at its last newline. Here the header and
    the first row say comma; the unfinished last line alone would make it a semicolon."""
    path = tmp_path / "d.csv"
    path.write_text("a;b,c\n1;2,3\n4,5,6,7,8,9;1", encoding="utf-8")
    with pytest.raises(DatasetError, match=r"d\.csv, line 3"):  # read with commas: 6 fields
        read_table(path)


def test_a_header_cell_of_spaces_is_a_blank_name(tmp_path):
    """'a header name of spaces kept'."""
    path = tmp_path / "d.csv"
    path.write_text("expected,  ,actual\na,b,c\n", encoding="utf-8")
    table = read_table(path)
    assert table.columns == ["expected", "column 2", "actual"]


def test_records_are_found_three_levels_down(tmp_path):
    """'record arrays searched one level deep'."""
    path = tmp_path / "d.json"
    path.write_text(json.dumps({"run": {"eval": {"rows": [{"e": "a"}, {"e": "b"}]}}}),
                    encoding="utf-8")
    assert resolve_column(read_table(path), "e").values == ["a", "b"]


def test_an_array_mixing_objects_and_texts_is_no_records(tmp_path):
    """'an array with one object counts as records'."""
    path = tmp_path / "d.json"
    path.write_text(json.dumps({"tags": ["x", {"a": 1}], "rows": [{"e": "a"}]}),
                    encoding="utf-8")
    assert resolve_column(read_table(path), "e").values == ["a"]  # the only array of objects


def test_when_the_sniffer_cannot_tell_the_default_in_the_header_wins():
    """'sniffer failure ignores the default' (the callers' defaults, comma and tab, come first
    or return earlier: only a direct call shows it)."""
    from matchlens.core.datasets.delimited import sniff_delimiter

    sample = "a,b;c\n1,2,3,4;5\n6;7;8,9\n"  # no delimiter is consistent: csv.Sniffer gives up
    assert sniff_delimiter(sample, ";") == ";"
    assert sniff_delimiter(sample, "|") == ","  # the default not in the header: its first


def test_spreadsheet_numbers_booleans_and_blank_rows(tmp_path):
    """'spreadsheet: big whole numbers as integers', 'TRUE/FALSE swapped', 'blank rows kept'."""
    import xlsxwriter

    book = xlsxwriter.Workbook(tmp_path / "n.xlsx")
    sheet = book.add_worksheet()
    sheet.write_row(0, 0, ["n", "flag"])
    sheet.write_row(1, 0, [123, True])
    sheet.write_row(2, 0, [2.5, False])
    sheet.write_row(4, 0, [999_999_999_999_999, True])  # row 4 (Excel's 5th) left blank
    sheet.write_row(5, 0, [1e15, False])
    book.close()
    table = read_table(tmp_path / "n.xlsx")
    # whole numbers below 1e15 as integers; from 1e15 on (past a double's exact integers'
    # comfortable range) Python's float text; booleans as Excel writes them
    assert table.rows == [["123", "TRUE"], ["2.5", "FALSE"], ["999999999999999", "TRUE"],
                          ["1000000000000000.0", "FALSE"]]
    assert table.lines == [2, 3, 5, 6]  # the blank row skipped, the sheet's own numbers kept


def test_a_utf8_mark_before_utf16_text_says_so_and_the_advice_works(tmp_path):
    """'a UTF-8 mark before UTF-16 text not skipped': an editor added a UTF-8 BOM to a UTF-16
    file; the sentence suggests --encoding utf-16-le, which must then read it."""
    path = tmp_path / "d.csv"
    path.write_bytes(codecs.BOM_UTF8 + "expected,actual\nà,b\n".encode("utf-16-le"))
    with pytest.raises(DatasetError, match="UTF-8 byte-order mark, but the text after it is "
                                           "UTF-16-LE .* pass --encoding utf-16-le"):
        read_table(path)
    table = read_table(path, encoding="utf-16-le")
    assert table.columns == ["expected", "actual"]
    assert resolve_column(table, "expected").values == ["à"]
