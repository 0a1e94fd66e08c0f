"""Parquet cells that are not strings are read as the text a person sees and written back
unchanged (issue 28, items 1, 2, 13): real Parquet files written with pyarrow, scored by the
real CLI in-process."""

from __future__ import annotations

import datetime as dt
import json
from decimal import Decimal

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from matchlens.core.datasets import read_table, resolve_column
from matchlens.core.datasets.arrow_cells import iso_duration, plain
from matchlens.core.datasets.json_numbers import JsonNumber
from matchlens.core.errors import DatasetError
from tests.cli.conftest import read_csv_file, read_jsonl_file, run_in_process


def _typed(path):
    table = pa.table({
        "expected": ["Paris", "2024-01-02", "1.10", "03:04:05"],
        "actual": pa.array([b"Paris", b"caf\xc3\xa9", b"\xff", None], pa.binary()),
        "day": pa.array([dt.date(2024, 1, 2)] * 4),
        "at": pa.array([dt.datetime(2024, 1, 2, 3, 4, 5, tzinfo=dt.UTC)] * 4,
                       pa.timestamp("s", tz="UTC")),
        "clock": pa.array([dt.time(3, 4, 5)] * 4),
        "price": pa.array([Decimal("1.10")] * 4, pa.decimal128(5, 2)),
        "took": pa.array([dt.timedelta(days=1, seconds=4, microseconds=500000)] * 4),
        "x": [float("nan"), float("inf"), 1.5, None],
        "nested": [{"b": b"Rome", "d": dt.date(2020, 5, 6)}] * 4,
    })
    pq.write_table(table, path)
    return path


def test_non_string_cells_read_as_the_text_a_person_sees(tmp_path):
    table = read_table(_typed(tmp_path / "t.parquet"))
    assert resolve_column(table, "actual").values == ["Paris", "café", "\\xff", None]
    assert table.cell_text(0, "day") == "2024-01-02"
    assert table.cell_text(0, "at") == "2024-01-02T03:04:05+00:00"
    assert table.cell_text(0, "clock") == "03:04:05"
    assert table.cell_text(0, "price") == "1.10"  # the decimal's digits, not 1.1
    assert table.cell_text(0, "took") == "P1DT0H0M4.5S"
    # NaN and inf are missing, as the Python API treats NaN; 1.5 stays a number
    assert [table.cell_text(i, "x") for i in range(4)] == [None, None, "1.5", None]
    assert json.loads(table.cell_text(0, "nested")) == {"b": "Rome", "d": "2020-05-06"}


def test_bytes_score_as_their_text_and_are_written_back_unchanged(tmp_path, capsys):
    data = _typed(tmp_path / "t.parquet")
    out = tmp_path / "out.csv"
    run = run_in_process(capsys, "score", str(data), "--expected", "expected", "--actual",
                         "actual", "--metrics", "exact_match", "-o", str(out))
    assert run.code == 0, run.err
    header, rows = read_csv_file(out)
    got = [dict(zip(header, row, strict=True)) for row in rows]
    assert got[0]["exact_match"] == "1.0"  # b"Paris" against "Paris"
    assert [r["actual"] for r in got] == ["Paris", "café", "\\xff", ""]
    assert {r["price"] for r in got} == {"1.10"} and {r["day"] for r in got} == {"2024-01-02"}
    assert [r["x"] for r in got] == ["", "", "1.5", ""]


def test_jsonl_output_keeps_decimal_digits_bare(tmp_path, capsys):
    data = _typed(tmp_path / "t.parquet")
    out = tmp_path / "out.jsonl"
    run = run_in_process(capsys, "score", str(data), "--expected", "expected", "--actual",
                         "actual", "--metrics", "exact_match", "-o", str(out))
    assert run.code == 0, run.err
    assert '"price": 1.10' in out.read_text()
    first = read_jsonl_file(out)[0]
    assert first["x"] is None and first["at"] == "2024-01-02T03:04:05+00:00"


def test_two_fields_of_the_same_name_is_a_sentence_like_csv(tmp_path, capsys):
    path = tmp_path / "dup.parquet"
    pq.write_table(pa.Table.from_arrays([pa.array(["a"]), pa.array(["a"]), pa.array(["b"])],
                                        names=["expected", "actual", "actual"]), path)
    run = run_in_process(capsys, "score", str(path), "--expected", "expected", "--actual",
                         "actual")
    assert run.code == 2
    assert "dup.parquet, column 'actual'" in run.err and "ambiguous" in run.err
    # the repeat itself is usable under its new name
    run = run_in_process(capsys, "score", str(path), "--expected", "expected", "--actual",
                         "actual (2)", "--metrics", "exact_match")
    assert run.code == 0 and run.records()[0]["exact_match"] == "0.0"


def test_a_date_python_cannot_hold_is_a_sentence_naming_row_and_column(tmp_path, capsys):
    path = tmp_path / "far.parquet"
    seconds = pa.array([0, 0, 10**15], pa.int64()).view(pa.timestamp("s"))
    pq.write_table(pa.table({"expected": ["x"] * 3, "actual": ["x"] * 3, "when": seconds}),
                   path)
    with pytest.raises(DatasetError, match=r"far\.parquet, row 3, column 'when'.*years 1"):
        read_table(path)
    run = run_in_process(capsys, "score", str(path), "--expected", "expected", "--actual",
                         "actual")
    assert run.code == 2 and "row 3" in run.err and "Traceback" not in run.err


def test_plain_values_and_durations():
    assert plain(Decimal("1E+3")) == JsonNumber("1E+3")
    assert plain(float("-inf")) is None and plain(2.5) == 2.5
    assert plain([(b"k", 1)]) == [["k", 1]]
    assert iso_duration(dt.timedelta(seconds=-90)) == "-P0DT0H1M30S"
    assert iso_duration(dt.timedelta(days=2, hours=3, minutes=4, seconds=5)) == "P2DT3H4M5S"
