"""Equal cells made one string as a table is read (shared_cells.py): values never change."""

from __future__ import annotations

import csv
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from matchlens.core.datasets import Cancelled, read_table
from matchlens.core.datasets.shared_cells import CellSharer, read_shared


def _fresh(rows: list[list[str]]) -> list[list[str]]:
    """The same values, every cell its own str object (as a reader makes them)."""
    return [[cell[:1] + cell[1:] if len(cell) > 1 else cell for cell in row] for row in rows]


def _pieces(rows: list[list[str]], size: int) -> list[list[list[str]]]:
    return [rows[i:i + size] for i in range(0, len(rows), size)] or [[]]


@settings(max_examples=80, deadline=None)
@given(st.lists(st.lists(st.sampled_from(["pass", "fail", "Paris", "paris", "a b", ""]),
                         min_size=3, max_size=3), max_size=30),
       st.integers(1, 7))
def test_shared_pieces_hold_the_same_values_and_equal_cells_of_a_row_are_one_object(rows,
                                                                                   size):
    sharer = CellSharer()
    out = [row for piece in _pieces(_fresh(rows), size) for row in sharer.share(piece)]
    assert out == rows  # values and shape unchanged
    for row in out:
        for j, k in sharer.pairs:  # the pairs of columns it chose to share
            if row[j] == row[k]:
                assert row[j] is row[k]


def test_a_repeated_column_and_an_output_equal_to_its_expected_keep_one_string():
    # the first piece decides: column 2 ("pass"/"fail") repeats, columns 0 and 1 are equal in
    # some rows; ids (unique) are left alone
    rows = [[f"text {i % 3}", f"text {i % 3}" if i % 2 else f"other {i}", "pass" if i % 3
             else "fail", f"r{i}"] for i in range(12)]
    fresh = _fresh(rows)
    sharer = CellSharer()
    out = sharer.share(fresh[:6]) + sharer.share(fresh[6:])
    assert out == rows
    labels = {id(row[2]) for row in out}
    assert len(labels) == 2  # one "pass", one "fail" across both pieces
    assert all(row[0] is row[1] for row in out if row[0] == row[1])
    assert all(a[3] is b[3] for a, b in zip(out, fresh, strict=True))  # ids untouched


def test_rows_it_cannot_share_come_back_as_they_are():
    sharer = CellSharer()
    ragged = [["a", "a"], ["b"]]
    assert sharer.share(ragged) is ragged
    records = [{"x": "a"}, {"x": "a"}]
    assert sharer.share(records) is records
    numbers = [[1, 1], [2, 2]]
    assert sharer.share(numbers) is numbers
    assert sharer.share([]) == []


def _write_csv(path, rows, delimiter=","):
    with path.open("w", newline="", encoding="utf-8") as handle:
        csv.writer(handle, delimiter=delimiter).writerows(rows)


@pytest.mark.parametrize("suffix, delimiter", [(".csv", ","), (".tsv", "\t")])
def test_read_shared_reads_what_read_table_reads(tmp_path, suffix, delimiter, monkeypatch):
    from matchlens.core.datasets import shared_cells

    monkeypatch.setattr(shared_cells, "PIECE_ROWS", 7)  # several pieces, and a short last one
    rows = [["id", "expected", "output", "label"]]
    rows += [[f"r{i}", f"line {i % 4}\nsecond" if i % 5 == 0 else f"ans {i % 4}",
              f"ans {i % 4}", "pass" if i % 2 else "fail"] for i in range(40)]
    rows.insert(9, [])  # a blank line is skipped, and moves the line numbers after it
    path = tmp_path / f"data{suffix}"
    _write_csv(path, rows, delimiter)
    before = path.read_bytes()
    whole, shared = read_table(path), read_shared(path)
    assert shared.rows == whole.rows and list(shared.lines) == whole.lines
    assert all(type(line) is int for line in shared.lines)  # as messages and reports use them
    assert (shared.columns, shared.kind, shared.delimiter, shared.encoding, shared.notes) == \
        (whole.columns, whole.kind, whole.delimiter, whole.encoding, whole.notes)
    assert path.read_bytes() == before
    labels = {id(row[3]) for row in shared.rows}
    assert len(labels) == 2


def test_read_shared_reads_other_formats_whole_and_says_what_read_table_says(tmp_path):
    path = tmp_path / "data.jsonl"
    path.write_text("".join(json.dumps({"expected": "a", "output": "a"}) + "\n"
                            for _ in range(3)), encoding="utf-8")
    assert read_shared(path).rows == read_table(path).rows
    bad = tmp_path / "bad.csv"
    bad.write_text("a,b\n1,2\n3\n", encoding="utf-8")
    with pytest.raises(Exception) as whole:
        read_table(bad)
    with pytest.raises(type(whole.value)) as shared:
        read_shared(bad)
    assert str(shared.value) == str(whole.value)


def test_read_shared_stops_when_cancelled(tmp_path, monkeypatch):
    from matchlens.core.datasets import shared_cells

    monkeypatch.setattr(shared_cells, "PIECE_ROWS", 5)
    path = tmp_path / "data.csv"
    _write_csv(path, [["expected", "output"]] + [[str(i), str(i)] for i in range(60_000)])  # 3 blocks
    calls = []
    with pytest.raises(Cancelled):
        read_shared(path, cancel=lambda: calls.append(1) or len(calls) > 2)
    assert len(calls) == 3
