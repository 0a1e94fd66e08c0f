"""Reading data files and mapping SPECs to values: real files in tmp_path, hostile ones too."""

from __future__ import annotations

import codecs
import csv
import json
import os

import pytest

from matchlens.core.datasets import (
    Cancelled,
    ColumnValues,
    guess_columns,
    literal_column,
    parse_label,
    read_table,
    resolve_column,
)
from matchlens.core.datasets import source as source_module
from matchlens.core.datasets.columns import _compile, _walk
from matchlens.core.datasets.delimited import sniff_delimiter
from matchlens.core.errors import DatasetError, MatchLensError


def write(folder, name: str, data: bytes | str):
    path = folder / name
    path.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
    return path


# --- round trips ----------------------------------------------------------------------------

def test_csv_round_trip_keeps_cells_exactly(tmp_path):
    rows = [["id", "expected", "output"],
            ["1", "Paris", 'He said "Paris", twice'],
            ["2", "São Paulo", "line one\nline two"],
            ["3", "", "=SUM(A1)"]]
    path = tmp_path / "data.csv"
    with open(path, "w", newline="", encoding="utf-8") as handle:
        csv.writer(handle).writerows(rows)
    table = read_table(path)
    assert (table.kind, table.delimiter, table.encoding) == ("csv", ",", "utf-8")
    assert table.columns == rows[0]
    assert table.rows == rows[1:]
    # csv.writer ends rows with \r\n; row 3 starts on line 4 because row 2 spans lines 3-4
    assert table.lines == [2, 3, 5]
    assert len(table) == 3
    assert table.cell_text(1, "output") == "line one\nline two"
    assert table.cell_text(2, "expected") == ""
    assert "rows" not in repr(table)


def test_tsv_round_trip(tmp_path):
    path = write(tmp_path, "data.tsv", "a\tb, with comma\n1\tx, y\n2\t\"q\"\n")
    table = read_table(path)
    assert (table.kind, table.delimiter) == ("tsv", "\t")
    assert table.columns == ["a", "b, with comma"]
    assert table.rows == [["1", "x, y"], ["2", "q"]]


def test_jsonl_round_trip_union_of_keys_and_cell_text(tmp_path):
    records = [{"id": 1, "output": {"entity": "東京"}},
               {"id": 2, "output": "plain", "label": True},
               {"id": 3, "extra": None, "score": 0.5}]
    text = "\n".join(json.dumps(r, ensure_ascii=False) for r in records)
    path = write(tmp_path, "data.jsonl", text.replace("\n", "\n\n", 1) + "\n")  # a blank line
    table = read_table(path)
    assert table.kind == "jsonl" and table.delimiter is None
    assert table.columns == ["id", "output", "label", "extra", "score"]  # first-seen order
    assert table.rows == records
    assert table.lines == [1, 3, 4]  # line 2 is blank
    assert table.cell_text(0, "output") == '{"entity": "東京"}'  # ensure_ascii=False
    assert table.cell_text(1, "output") == "plain"
    assert table.cell_text(1, "label") == "true"
    assert table.cell_text(2, "extra") == "null"
    assert table.cell_text(0, "label") is None  # missing key
    with pytest.raises(KeyError):
        table.cell_text(0, "nope")


def test_json_array_lines_are_where_each_object_opens(tmp_path):
    records = [{"a": "x", "b": [1, 2]}, {"a": "y"}, {"c": 3}]
    path = write(tmp_path, "data.json", json.dumps(records, indent=2))
    table = read_table(path)
    assert table.kind == "json" and table.rows == records
    assert table.columns == ["a", "b", "c"]
    # indent=2: "[" on line 1; object 1 spans lines 2-8 ("b" takes 4), object 2 lines 9-11
    assert table.lines == [2, 9, 12]
    one_line = read_table(write(tmp_path, "flat.json", json.dumps(records)))
    assert one_line.lines == [1, 1, 1]


def test_a_json_file_holding_json_lines_is_read_as_json_lines(tmp_path):
    path = write(tmp_path, "data.json", '{"a": 1}\n{"a": 2}\n')
    table = read_table(path)
    assert table.kind == "jsonl" and table.lines == [1, 2]


def test_a_jsonl_file_holding_an_array_is_read_as_json(tmp_path):
    path = write(tmp_path, "data.jsonl", '[\n  {"a": 1},\n  {"a": 2}\n]\n')
    table = read_table(path)
    assert table.kind == "json" and table.lines == [2, 3]


@pytest.mark.parametrize(("name", "text", "kind"), [
    ("data.txt", '[{"a": 1}]', "json"),
    ("data", '\n {"a": 1}\n{"a": 2}\n', "jsonl"),
    ("data.dat", "a;b\n1;2\n", "csv"),
    ("data.txt", "a\tb\n1\t2\n", "tsv"),
])
def test_other_extensions_are_sniffed(tmp_path, name, text, kind):
    assert read_table(write(tmp_path, name, text)).kind == kind


# --- delimiters --------------------------------------------------------------------------------

@pytest.mark.parametrize("delimiter", [",", ";", "\t", "|"])
def test_delimiter_detection_in_a_csv(tmp_path, delimiter):
    rows = [["id", "text", "n"], ["1", "a, b; c", "2"], ["2", "d | e", "3"]]
    path = tmp_path / "data.csv"
    with open(path, "w", newline="", encoding="utf-8") as handle:
        csv.writer(handle, delimiter=delimiter).writerows(rows)
    table = read_table(path)
    assert table.delimiter == delimiter
    assert table.rows == rows[1:]


def test_single_column_falls_back_to_the_default(tmp_path):
    assert read_table(write(tmp_path, "one.csv", 'text\n"a, b"\nc\n')).delimiter == ","
    assert sniff_delimiter("text\nabc\n", "\t") == "\t"


def test_delimiter_override(tmp_path):
    path = write(tmp_path, "data.csv", "a,b;c\n1,2;3\n")
    assert read_table(path).columns in (["a", "b;c"], ["a,b", "c"])  # sniffed either way
    assert read_table(path, delimiter=";").rows == [["1,2", "3"]]
    assert read_table(path, delimiter=",").rows == [["1", "2;3"]]


# --- encodings ---------------------------------------------------------------------------------

def test_utf8_bom_is_removed_from_the_first_header(tmp_path):
    path = write(tmp_path, "bom.csv", codecs.BOM_UTF8 + "id,out\n1,é\n".encode())
    table = read_table(path)
    assert table.columns == ["id", "out"] and table.rows == [["1", "é"]]
    assert table.encoding == "utf-8-sig"
    assert read_table(path, encoding="utf-8").columns == ["id", "out"]


@pytest.mark.parametrize("codec", ["utf-16", "utf-16-le", "utf-16-be"])
def test_utf16_with_a_bom_just_works(tmp_path, codec):
    # Excel's "Unicode text": UTF-16 with a BOM, tab-separated, CRLF, saved as .txt
    text = "id\texpected\r\n1\tZürich\r\n2\t東京\r\n"
    bom = {"utf-16": b"", "utf-16-le": codecs.BOM_UTF16_LE, "utf-16-be": codecs.BOM_UTF16_BE}
    path = write(tmp_path, "excel.txt", bom[codec] + text.encode(codec))
    table = read_table(path)
    assert table.kind == "tsv" and table.encoding == "utf-16"
    assert table.columns == ["id", "expected"]
    assert table.rows == [["1", "Zürich"], ["2", "東京"]]
    assert table.lines == [2, 3]


def test_explicit_encoding(tmp_path):
    path = write(tmp_path, "latin.csv", "a,b\n1,café “quoted”\n".encode("cp1252"))
    with pytest.raises(DatasetError, match="0xe9"):
        read_table(path)
    assert read_table(path, encoding="cp1252").rows == [["1", "café “quoted”"]]


# --- cells -------------------------------------------------------------------------------------

def test_crlf_inside_a_quoted_cell_is_kept_exactly(tmp_path):
    path = write(tmp_path, "crlf.csv", b'a,b\r\n1,"x\r\ny\nz\rw"\r\n2,3\r\n')
    table = read_table(path)
    assert table.rows[0][1] == "x\r\ny\nz\rw"
    assert table.lines == [2, 6]  # the quoted cell spans lines 2-5 (\r\n, \n, \r each end one)


def test_a_10_mb_cell(tmp_path):
    big = "x" * (10 * 1024 * 1024) + '"quoted"\n' + "y" * 100
    path = tmp_path / "big.csv"
    with open(path, "w", newline="", encoding="utf-8") as handle:
        csv.writer(handle).writerows([["id", "text"], ["1", big], ["2", "small"]])
    table = read_table(path)
    assert table.rows[0][1] == big and table.lines == [2, 4]


# --- column specs and JSONPath -----------------------------------------------------------------

def _json_cell_csv(tmp_path):
    rows = [["id", "output", "reference"],
            ["1", json.dumps({"entity": "Paris", "n": 3, "tags": ["a", "b"]}), "Paris"],
            ["2", '  {"entity": "Lyon"}', "Lyon"],
            ["3", '{"entity": ', "Nice"],  # broken JSON
            ["4", "just text", "Metz"],
            ["5", '{"other": 1}', "Caen"],
            ["6", '```json\n{"entity": "Brest"}\n```', "Brest"]]
    path = tmp_path / "cells.csv"
    with open(path, "w", newline="", encoding="utf-8") as handle:
        csv.writer(handle).writerows(rows)
    return read_table(path)


def test_jsonpath_into_a_json_holding_csv_cell_with_partial_misses(tmp_path):
    table = _json_cell_csv(tmp_path)
    got = resolve_column(table, "$.output.entity")
    assert got.values == ["Paris", "Lyon", None, None, None, "Brest"]
    assert set(got.reasons) == {2, 3, 4}
    broken, text, other = got.reasons[2], got.reasons[3], got.reasons[4]
    assert "cells.csv, line 4, column 'output'" in broken and "not valid JSON" in broken
    assert "line 5" in text and "text, not JSON" in text
    assert "line 6" in other and "has no key 'entity'" in other
    assert resolve_column(table, "$.output.n").values[0] == "3"  # non-strings as JSON text
    assert resolve_column(table, "$.output.tags").values[0] == '["a", "b"]'
    assert resolve_column(table, "$.output.tags[-1]").values[0] == "b"
    assert resolve_column(table, "$.output").values[1] == '  {"entity": "Lyon"}'  # as is
    assert resolve_column(table, "reference").values[0] == "Paris"


def test_jsonpath_into_jsonl_nested_objects(tmp_path):
    records = [
        {"reference": {"answer": "Paris"}, "output": {"items": [{"name": "a"}, {"name": "b"}]}},
        {"reference": {"answer": 42}, "output": {"items": []}},
        {"reference": {"answer": None}, "output": '{"items": [{"name": "c"}]}'},
        {"output": {"items": [{"name": "d", "ok": True}]}},
    ]
    path = write(tmp_path, "nested.jsonl", "\n".join(json.dumps(r) for r in records))
    table = read_table(path)
    answer = resolve_column(table, "$.reference.answer")
    assert answer.values == ["Paris", "42", None, None]
    assert "line 3, column 'reference'" in answer.reasons[2] and "null" in answer.reasons[2]
    assert "line 4" in answer.reasons[3] and "no 'reference'" in answer.reasons[3]
    first = resolve_column(table, "$.output.items[0].name")
    assert first.values == ["a", None, "c", "d"]  # row 3's string cell is parsed
    assert "0 items" in first.reasons[1]
    # paths that are not plain keys go through jsonpath-ng; several matches -> the first
    assert resolve_column(table, "$.output.items[*].name").values == ["a", None, "c", "d"]
    assert resolve_column(table, "$..name").values == ["a", None, "c", "d"]
    assert resolve_column(table, "$.output.items[?(@.ok == true)].name").values == [
        None, None, None, "d"]


def test_json_array_reasons_name_the_object(tmp_path):
    # indent=1: object 1 spans lines 2-6, object 2 opens on line 7
    path = write(tmp_path, "arr.json", json.dumps([{"a": {"b": "x"}}, {"a": {}}], indent=1))
    got = resolve_column(read_table(path), "$.a.b")
    assert got.values == ["x", None]
    assert "arr.json, line 7, column 'a': object 2" in got.reasons[1]


def test_plain_key_walk_agrees_with_jsonpath_ng():
    from jsonpath_ng.ext import parse as parse_jsonpath

    data = {"a": {"b": [{"c": 1}, {"c": "two"}], "d": None}, "e": "s"}
    for spec in ["$.a.b[0].c", "$.a.b[1].c", "$.a.b[-1]", "$.a.d", "$.a.x", "$.a.b[5]", "$.e.f"]:
        plan = _compile(spec)
        fast, _ = _walk(data[plan.first], plan.steps, "$")
        slow = parse_jsonpath(spec).find(data)  # what jsonpath-ng itself finds
        assert (fast if fast is not _walk.__globals__["MISSING"] else "miss") == (
            slow[0].value if slow else "miss"), spec


def test_column_names_win_over_jsonpath(tmp_path):
    table = read_table(write(tmp_path, "d.csv", "$weird,b\n1,2\n"))
    assert resolve_column(table, "$weird").values == ["1"]


def test_jsonl_column_by_name_missing_and_null(tmp_path):
    table = read_table(write(tmp_path, "d.jsonl", '{"a": "x"}\n{"a": null}\n{"b": 1}\n'))
    got = resolve_column(table, "a")
    assert got.values == ["x", None, None]
    assert "d.jsonl, line 2, column 'a'" in got.reasons[1]
    assert "line 3" in got.reasons[2]
    assert resolve_column(table, "b").values == [None, None, "1"]


def test_literal_column(tmp_path):
    table = read_table(write(tmp_path, "d.csv", "a\n1\n2\n"))
    assert literal_column(table, "yes") == ColumnValues(["yes", "yes"], {})


@pytest.mark.parametrize(("spec", "needles"), [
    ("outptu", ["no column 'outptu'", "did you mean 'output'", "'reference'"]),
    ("Output", ["did you mean 'output'"]),
    ("$.outptu.entity", ["no column 'outptu'", "did you mean 'output'"]),
    ("$.output[", ["'$.output['", "not a valid JSONPath"]),
    ("$.output.nothing", ["line 2, column 'output'", "matches nothing in any of the 6 rows"]),
    ("$.reference.x", ["column 'reference'", "text, not JSON"]),
])
def test_bad_specs_are_one_sentence(tmp_path, spec, needles):
    table = _json_cell_csv(tmp_path)
    with pytest.raises(DatasetError) as caught:
        resolve_column(table, spec)
    message = str(caught.value)
    assert "cells.csv" in message and "\n" not in message
    for needle in needles:
        assert needle in message


# --- labels and guesses ------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "value"), [
    ("true", True), (" TRUE ", True), ("1", True), ("pass", True), ("Yes", True), ("y", True),
    ("false", False), ("0", False), ("FAIL", False), ("no", False), ("N\n", False),
    ("maybe", None), ("", None), (None, None), ("2", None),
])
def test_parse_label(text, value):
    assert parse_label(text) is value


@pytest.mark.parametrize(("columns", "expected"), [
    (["id", "task", "question", "expected", "output_a", "output_b", "label"],
     {"expected": "expected", "actual": ["output_a", "output_b"], "label": "label", "id": "id"}),
    (["row_id", "reference", "response", "human"],
     {"expected": "reference", "actual": ["response"], "label": "human", "id": "row_id"}),
    (["uid", "gold_answer", "model_answer", "prediction", "verdict"],
     {"expected": "gold_answer", "actual": ["model_answer", "prediction"], "label": "verdict",
      "id": "uid"}),
    (["Answer", "Completion", "Judgement"],
     {"expected": "Answer", "actual": ["Completion"], "label": "Judgement", "id": None}),
    (["expected_output", "actualOutput", "target"],
     {"expected": "expected_output", "actual": ["actualOutput"], "label": None, "id": None}),
    (["question", "notes"], {"expected": None, "actual": [], "label": None, "id": None}),
])
def test_guess_columns(columns, expected):
    assert guess_columns(columns) == expected


# --- cancel --------------------------------------------------------------------------------------

@pytest.mark.parametrize(("name", "line"), [("d.csv", "{n},x\n"), ("d.jsonl", '{{"a": {n}}}\n')])
def test_cancel_stops_loading(tmp_path, name, line):
    header = "a,b\n" if name.endswith(".csv") else ""
    path = write(tmp_path, name, header + "".join(line.format(n=n) for n in range(20000)))
    calls = []

    def cancel():
        calls.append(1)
        return len(calls) > 2

    with pytest.raises(Cancelled, match="cancelled") as caught:
        read_table(path, cancel=cancel)
    assert isinstance(caught.value, MatchLensError) and name in str(caught.value)
    assert len(read_table(path, cancel=lambda: False)) == 20000


# --- hostile inputs --------------------------------------------------------------------------

_BIG_PREFIX = "a,b\n" + "".join(f"{n},some text to pass the sample\n" for n in range(5000))
HOSTILE = [
    # (file name, content, substrings of the message besides the file name)
    ("more.csv", "a,b\n1,2\n3,4,5\n", ["line 3", "3 cells", "2 columns"]),
    ("fewer.csv", "a,b,c\n1,2,3\n4,5\n", ["line 3", "2 cells", "3 columns"]),
    ("after_multiline.csv", 'a,b\n1,"x\ny"\n2\n', ["line 4", "1 cell,", "line break"]),
    ("header_only.csv", "a,b\r\n", ["line 1", "no data rows"]),
    ("unterminated.csv", 'a,b\n1,2\n3,"oops\n4,5\n', ["line 3", "never closed"]),
    ("junk_after_quote.csv", 'a,b\n1,2\n1,"x"y\n', ["line 3", "not valid CSV"]),
    ("latin1.csv", b"a,b\n1,2\n3,caf\xe9\n", ["line 3", "UTF-8", "0xe9", "--encoding latin-1"]),
    ("smart_quote.csv", b"a,b\n1,\x93hi\x94\n", ["line 2", "0x93", "--encoding cp1252"]),
    ("late_bad_byte.csv", (_BIG_PREFIX + "x,y\n").encode() + b"z,\xff\n",
     ["line 5003", "0xff"]),
    ("truncated.csv", b"a,b\n1,\xc3", ["line 2", "0xc3"]),
    ("nul.csv", b"a,b\n1,\x002\n", ["line 2", "NUL"]),
    ("late_nul.csv", _BIG_PREFIX.encode() + b"x,\x00\n", ["line 5002", "NUL"]),
    ("utf16_no_bom.csv", "a,b\n1,2\n".encode("utf-16-le"), ["line 1", "--encoding utf-16-le"]),
    ("sheet.csv", b"PK\x03\x04\x14\x00\x06\x00rest", ["line 1", "spreadsheet"]),
    ("bad_utf16.txt", codecs.BOM_UTF16_LE + "a\tb\n1\t2\n".encode("utf-16-le") + b"\x00\xd8",
     ["line 3", "UTF-16"]),
    ("ragged.tsv", "a\tb\n1\t2\t3\n", ["line 2", "3 cells"]),
    ("broken.jsonl", '{"a": 1}\n{"a": \n', ["line 2", "not valid JSON", "Expecting value"]),
    ("array_line.jsonl", '{"a": 1}\n[1, 2]\n', ["line 2", "an array", "must be a JSON object"]),
    ("string_line.jsonl", '{"a": 1}\n\n"x"\n', ["line 3", "a string"]),
    ("empty_objects.jsonl", "{}\n{}\n", ["line 1", "no columns"]),
    ("scalar.json", "\n42", ["line 2", "a number"]),
    ("no_rows.json", '\n{"a": 1, "b": [1, 2]}', ["line 2", "no array of objects"]),
    ("element.json", '[\n {"a": 1},\n 3\n]', ["line 3", "element 2", "a number"]),
    ("syntax.json", '[\n {"a": 1},\n {"a": 2\n]', ["line 4", "not valid JSON", "object 2"]),
    ("trailing_comma.json", '[\n {"a": 1},\n]', ["line 3", "comma after object 1"]),
    ("empty_array.json", "  []", ["line 1", "empty array"]),
    ("after_array.json", '[{"a": 1}]\nmore', ["line 2", "after the closing ]"]),
    ("missing_comma.json", '[{"a": 1}\n {"a": 2}]', ["line 2", "expected ',' or ']'"]),
]


@pytest.mark.parametrize(("name", "content", "needles"), HOSTILE, ids=[h[0] for h in HOSTILE])
def test_hostile_input_is_one_sentence_and_the_file_is_untouched(tmp_path, name, content,
                                                                  needles):
    path = write(tmp_path, name, content)
    before = path.read_bytes()
    stat = os.stat(path)
    with pytest.raises(DatasetError) as caught:
        read_table(path)
    message = str(caught.value)
    assert name in message and "\n" not in message, message
    for needle in needles:
        assert needle in message, message
    assert caught.value.row == int(needles[0].split()[1])
    assert path.read_bytes() == before and os.stat(path).st_mtime_ns == stat.st_mtime_ns


@pytest.mark.parametrize(("name", "content", "kwargs", "needle"), [
    ("empty.csv", b"", {}, "empty"),
    ("blank.csv", b"\n \r\n", {}, "empty"),
    ("bom_only.csv", codecs.BOM_UTF8, {}, "empty"),
    ("blank_lines.jsonl", b"\n\n" + b" " * 70000 + b"\n", {}, "empty"),
    ("enc.csv", b"a\n1\n", {"encoding": "klingon"}, "unknown encoding 'klingon'"),
    ("enc2.csv", b"a\n1\n", {"encoding": "rot13"}, "not a text encoding"),
    ("delim.csv", b"a\n1\n", {"delimiter": '"'}, "delimiter"),
])
def test_hostile_input_without_a_line(tmp_path, name, content, kwargs, needle):
    path = write(tmp_path, name, content)
    with pytest.raises(DatasetError, match=needle) as caught:
        read_table(path, **kwargs)
    assert name in str(caught.value)
    assert path.read_bytes() == content


def test_missing_file_and_folder(tmp_path):
    with pytest.raises(DatasetError, match=r"nothere\.csv: no such file"):
        read_table(tmp_path / "nothere.csv")
    (tmp_path / "folder.csv").mkdir()
    with pytest.raises(DatasetError, match=r"folder\.csv is a folder, not a data file"):
        read_table(tmp_path / "folder.csv")


def test_unreadable_file(tmp_path, monkeypatch):
    path = write(tmp_path, "locked.csv", "a\n1\n")

    def refuse(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    # chmod 000 does not stop root (CI containers), so refuse the open itself
    monkeypatch.setattr(source_module, "open", refuse, raising=False)
    with pytest.raises(DatasetError, match=r"locked\.csv cannot be read \(permission denied\)"):
        read_table(path)


def test_errors_read_as_sentences(tmp_path):
    # The place is the subject of a predicate ("line 3 is not valid JSON"), not "line 3: is ...".
    path = write(tmp_path, "bad.jsonl", '{"a": 1}\n{"a": 2}\n{"a": \n')
    with pytest.raises(DatasetError) as caught:
        read_table(path)
    assert f"{path}, line 3 is not valid JSON" in str(caught.value)
    assert ": is " not in str(caught.value)
