"""A file read into the column store (stored_table.py, column_store.py) gives what read_table
gives: the same rows (key order included), line numbers, columns, notes and errors, and the
same resolved column values and reasons."""

from __future__ import annotations

import csv
import io
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from matchlens.core.datasets import Cancelled, read_table, resolve_column, stored_table
from matchlens.core.datasets.column_store import StoredRows, TextColumn
from matchlens.core.datasets.stored_table import read_stored
from matchlens.core.errors import DatasetError


def _outcome(read, path):
    try:
        return read(path), None
    except DatasetError as exc:
        return None, str(exc)


def _same(path) -> None:
    """read_stored(path) equals read_table(path) in every way a caller sees."""
    whole, error = _outcome(read_table, path)
    stored, stored_error = _outcome(read_stored, path)
    assert stored_error == error
    if whole is None:
        return
    assert isinstance(stored.rows, StoredRows)
    rows = whole.rows
    assert list(stored.rows) == rows
    assert [list(r) if isinstance(r, dict) else r for r in stored.rows] == \
        [list(r) if isinstance(r, dict) else r for r in rows]  # dict key order too
    assert [stored.rows[i] for i in range(len(rows))] == rows
    assert stored.rows[1:-1] == rows[1:-1] and stored.rows[::2] == rows[::2]
    assert stored.rows[-1] == rows[-1]
    assert list(stored.lines) == whole.lines
    assert all(type(line) is int for line in stored.lines)  # as messages and reports use them
    assert (stored.columns, stored.kind, stored.delimiter, stored.encoding, stored.notes,
            stored.repeated, stored.header_line, stored.unit) == \
        (whole.columns, whole.kind, whole.delimiter, whole.encoding, whole.notes,
         whole.repeated, whole.header_line, whole.unit)
    for name in whole.columns:
        if name in whole.repeated:
            continue
        want, got = resolve_column(whole, name), resolve_column(stored, name)
        assert list(got.values) == want.values
        assert got.values[1:] == want.values[1:]
        assert [got.values[i] for i in range(len(rows))] == want.values
        assert got.reasons == want.reasons


# Cells with everything a CSV quotes or trips on: delimiters, quotes, line breaks, a lone CR,
# non-ASCII, astral characters, a NUL (refused alike by both), and the empty cell.
CELL = st.text(alphabet=st.sampled_from(list('ab ,;\t"\'\n\r\\é€😀\x00')) | st.characters(),
               max_size=12)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(header=st.lists(st.sampled_from(["id", "expected", "output", "label", "x"]),
                       min_size=1, max_size=4),
       body=st.lists(st.lists(CELL, min_size=0, max_size=5), max_size=12),
       piece=st.integers(1, 4), tsv=st.booleans())
def test_delimited_files_read_into_the_store_as_read_table_reads_them(tmp_path, monkeypatch,
                                                                    header, body, piece, tsv):
    monkeypatch.setattr(stored_table, "PIECE_ROWS", piece)  # several pieces, a short last one
    out = io.StringIO(newline="")
    csv.writer(out, delimiter="\t" if tsv else ",").writerows([header, *body])
    path = tmp_path / ("data.tsv" if tsv else "data.csv")
    path.write_bytes(out.getvalue().encode("utf-8", "surrogatepass"))
    before = path.read_bytes()
    _same(path)
    assert path.read_bytes() == before  # never writes to the user's file


# lone surrogates ("\ud800" in JSON) included
# (st.text leaves surrogates out whatever the alphabet: joined from characters instead)
TEXT = st.lists(st.characters() | st.sampled_from(["\udc80", "\ud800", "é", "\n", '"']),
                max_size=8).map("".join)
JSON_SCALAR = (st.none() | st.booleans() | st.integers(-10**20, 10**20)
               | st.floats(allow_nan=False, allow_infinity=False) | TEXT)
JSON_VALUE = st.recursive(JSON_SCALAR, lambda inner: st.lists(inner, max_size=3)
                          | st.dictionaries(st.sampled_from("ab"), inner, max_size=2), max_leaves=6)
# mostly texts (a column piece of texts is a buffer), now and then any JSON value
CELL_VALUE = st.integers(0, 9).flatmap(lambda k: JSON_VALUE if k == 0 else TEXT)
ROW = st.dictionaries(st.sampled_from(["id", "expected", "output", "label", "é"]), CELL_VALUE,
                      max_size=5)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rows=st.lists(ROW, min_size=1, max_size=12), piece=st.integers(1, 4),
       # now and then a blank line, a line that is no object, an empty object
       odd=st.sampled_from([None] * 6 + ["  ", "[1]", "{}", '"x"']), at=st.integers(0, 12))
def test_json_lines_read_into_the_store_as_read_table_reads_them(tmp_path, monkeypatch, rows,
                                                               piece, odd, at):
    monkeypatch.setattr(stored_table, "PIECE_ROWS", piece)
    lines = [json.dumps(r) for r in rows]
    if odd is not None:
        lines.insert(at, odd)
    path = tmp_path / "data.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    _same(path)


def test_a_json_document_and_text_without_an_extension_are_stored_too(tmp_path, monkeypatch):
    monkeypatch.setattr(stored_table, "PIECE_ROWS", 2)
    array = tmp_path / "data.json"
    array.write_text(json.dumps([{"expected": "a", "output": "b"}, {"output": 1, "expected": None},
                                 {"expected": "c"}]), encoding="utf-8")
    _same(array)
    sniffed = tmp_path / "data"
    sniffed.write_text("expected\toutput\na\tb\nc\td\ne\tf\n", encoding="utf-8")
    _same(sniffed)


def test_parquet_is_stored_piece_by_piece(tmp_path, monkeypatch):
    pa = pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    monkeypatch.setattr(stored_table, "PIECE_ROWS", 3)
    path = tmp_path / "data.parquet"
    pq.write_table(pa.table({"expected": ["a", None, "c", "d", "é"],
                             "output": ["a", "b", None, "d", "\U0001F600"],
                             "n": [1, 2, None, 4, 5]}), path)
    _same(path)


def test_a_column_of_numbers_is_kept_as_its_objects():
    # more than OBJECT_SHARE of a piece's cells are not text: a plain list, values as read
    rows = StoredRows(["n", "t"], as_lists=False)
    rows.add([{"n": 1.5, "t": "x"}, {"n": 2, "t": "y"}, {"t": "z"}])
    assert list(rows) == [{"n": 1.5, "t": "x"}, {"n": 2, "t": "y"}, {"t": "z"}]
    assert type(rows.part(0, 0)) is list and type(rows.part(0, 1)) is not list


def test_rows_of_other_shapes_are_kept_as_they_came():
    rows = StoredRows(["a", "b"], as_lists=True)
    ragged = [["1", "2"], ["3"]]
    rows.add(ragged)
    rows.add([["4", "5"]])
    assert list(rows) == [["1", "2"], ["3"], ["4", "5"]]
    assert rows.part(0, 0) is None and rows.column("b")[2] == "5"
    with pytest.raises(IndexError):
        rows[3]


def test_a_text_column_replaces_only_its_overrides():
    column = TextColumn(["a", "", "c", "d"], {1: None, 3: "[1]"})
    assert list(column) == ["a", None, "c", "[1]"] == column[:] == [column[i] for i in range(4)]
    assert column[-1] == "[1]" and column[1:3] == [None, "c"]


def test_reading_stops_when_cancelled(tmp_path, monkeypatch):
    monkeypatch.setattr(stored_table, "PIECE_ROWS", 5)
    path = tmp_path / "data.csv"
    # the CSV reader hands out blocks of rows (at least ~20,000): 60,000 rows are 3
    path.write_text("expected,output\n" + "".join(f"{i},{i}\n" for i in range(60_000)),
                    encoding="utf-8")
    calls = []
    with pytest.raises(Cancelled):
        read_stored(path, cancel=lambda: calls.append(1) or len(calls) > 2)
    assert len(calls) == 3
