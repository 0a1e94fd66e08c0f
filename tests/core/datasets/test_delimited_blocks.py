"""The block-wise CSV reader gives what the csv module read row by row gives: the same rows,
the same physical line numbers and the same error sentence, wherever the blocks are cut."""

from __future__ import annotations

import csv

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from matchlens.core.datasets import delimited, read_table
from matchlens.core.datasets.headers import unique_header
from matchlens.core.datasets.source import open_source
from matchlens.core.errors import DatasetError


def reference(path, delimiter: str):
    """The reader as it was: csv.reader over the file, one Python step per row."""
    source = open_source(path, None)
    delimited._allow_huge_cells()
    rows, lines, start = [], [], 1
    with source.open_text() as handle:
        reader = csv.reader(handle, delimiter=delimiter, strict=True)
        try:
            header = None
            for row in reader:
                if row:
                    header, header_line = row, start
                    start = reader.line_num + 1
                    break
                start = reader.line_num + 1
            if header is None:
                source.fail("is empty (only blank lines)")
            width = len(header)
            for row in reader:
                if len(row) == width:
                    rows.append(row)
                    lines.append(start)
                elif row:
                    delimited._ragged(source, row, start, width, header_line, delimiter)
                start = reader.line_num + 1
        except csv.Error as exc:
            delimited._malformed(source, exc, start)
    if header[0].startswith("\ufeff"):
        header[0] = header[0][1:]
    if not rows:
        source.fail("has a header but no data rows", row=header_line)
    return unique_header(header).names, rows, lines


def outcome(read):
    try:
        return read()
    except DatasetError as err:
        return str(err)


PIECES = ["a", "b", "ab", ",", ";", '"', '""', "\n", "\r\n", "\r", " ", "", "x\ny", "é", "="]


@settings(max_examples=400, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(PIECES), max_size=40), st.sampled_from([1, 2, 3, 5, 8, 64]),
       st.sampled_from([",", ";"]))
def test_blocks_read_like_the_csv_module(tmp_path, monkeypatch, pieces, block, delimiter):
    monkeypatch.setattr(delimited, "_BLOCK_CHARS", block)
    monkeypatch.setattr(delimited, "_MAX_CARRY", 4 * block)
    path = tmp_path / "data.csv"
    path.write_bytes(("h1,h2\n" + "".join(pieces)).encode("utf-8"))
    want = outcome(lambda: reference(path, delimiter))
    got = outcome(lambda: read_table(path, delimiter=delimiter))
    if isinstance(got, str) or isinstance(want, str):
        assert got == want
    else:
        assert (got.columns, got.rows, got.lines) == want


@pytest.mark.parametrize("block", [4, 16, 1 << 21])
def test_quoted_cells_across_blocks_and_crlf(tmp_path, monkeypatch, block):
    monkeypatch.setattr(delimited, "_BLOCK_CHARS", block)
    rows = [["id", "text"]] + [[str(i), f"line {i}\r\nsecond, \"q\"" if i % 3 == 0 else f"t{i}"]
                               for i in range(50)]
    path = tmp_path / "data.csv"
    with open(path, "w", newline="", encoding="utf-8") as handle:
        csv.writer(handle).writerows(rows)
    table = read_table(path)
    header, want_rows, want_lines = reference(path, ",")
    assert (table.columns, table.rows, table.lines) == (header, want_rows, want_lines)
