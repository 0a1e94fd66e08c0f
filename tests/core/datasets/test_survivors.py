"""Behaviours a hand mutation round found unpinned (issue 28, "tests that let bugs through"):
each test here failed with its mutation in place."""

from __future__ import annotations

import codecs

import pytest

from matchlens.core.datasets import read_table, resolve_column
from matchlens.core.errors import DatasetError
from matchlens.core.scoring.references import parse_references


def test_a_utf32_bom_is_read_before_the_utf16_bom_it_starts_with(tmp_path):
    # UTF-32-LE's BOM is FF FE 00 00: read as UTF-16 it would be "\ufeff\x00" + garbage
    path = tmp_path / "u32.csv"
    path.write_bytes(codecs.BOM_UTF32_LE + "expected,actual\nà,b\n".encode("utf-32-le"))
    table = read_table(path)
    assert table.encoding == "utf-32" and table.columns == ["expected", "actual"]
    assert resolve_column(table, "expected").values == ["à"]


def test_encoding_utf8_on_a_jsonl_with_a_bom_drops_the_bom(tmp_path):
    path = tmp_path / "bom.jsonl"
    path.write_bytes(codecs.BOM_UTF8 + b'{"expected": "a", "actual": "b"}\n')
    table = read_table(path, encoding="utf-8")
    assert table.columns == ["expected", "actual"]  # not "\ufeffexpected"... nor an error
    assert resolve_column(table, "expected").values == ["a"]


def test_a_tsv_prefers_tabs_even_when_cells_hold_commas(tmp_path):
    path = tmp_path / "x.tsv"
    path.write_text("expected\tactual,x\na\tb,c\n", encoding="utf-8")
    table = read_table(path)
    assert table.delimiter == "\t" and table.columns == ["expected", "actual,x"]
    path = tmp_path / "y.tsv"  # more commas than tabs, still a .tsv
    path.write_text("expected,actual\ta\nb,c\td\n", encoding="utf-8")
    table = read_table(path)
    assert table.delimiter == "\t" and table.columns == ["expected,actual", "a"]


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le"])
def test_the_headers_bom_goes_with_an_explicit_utf16_encoding(tmp_path, encoding):
    path = tmp_path / "u16.csv"
    path.write_bytes(codecs.BOM_UTF16_LE + "expected,actual\na,b\n".encode("utf-16-le"))
    table = read_table(path, encoding=encoding)
    assert table.columns == ["expected", "actual"]  # no U+FEFF glued to "expected"


def test_a_jsonl_error_names_the_line_and_the_character(tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_text('{"expected": "a", "actual": "b"}\n{"expected": "a", "actual": "b"\n',
                    encoding="utf-8")
    # line 2 is 32 characters long; the missing "}" is expected after its last character
    with pytest.raises(DatasetError, match=r"bad\.jsonl, line 2 .*at character 32\)"):
        read_table(path)


def test_whitespace_before_the_bracket_is_still_a_list_of_references():
    assert parse_references('  \n["Paris", "paris"]') == ["Paris", "paris"]
    assert parse_references("Paris [France]") == ["Paris [France]"]  # a text, not a list


def test_made_up_names_take_the_next_free_suffix():
    from matchlens.core.datasets.headers import unique_header

    # the second "v" would be "v (2)", which the file has, and so has "v (2) (2)": the next
    # free suffix is (3); the third "v" is "v (3)"
    names = unique_header(["v", "v", "v (2)", "v (2) (2)", "v"]).names
    assert names == ["v", "v (2) (3)", "v (2)", "v (2) (2)", "v (3)"]


def test_only_promptfoos_shape_is_taken_for_promptfoo():
    from matchlens.core.datasets.promptfoo import is_promptfoo

    assert is_promptfoo({"results": {"results": [{"testIdx": 0, "promptIdx": 0}]}})
    assert not is_promptfoo({"results": {"results": []}})  # nothing to pivot
    assert not is_promptfoo({"results": {"results": [{"testIdx": 0}]}})  # no promptIdx
    assert not is_promptfoo({"results": {"results": ["a"]}})
    assert not is_promptfoo({"results": "x"})
