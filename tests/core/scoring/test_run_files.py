"""core.scoring.run_files: a file read narrow, piece by piece, holds what the whole table
gives (ids, values, reasons, lines), bad ids are one sentence naming the file and the rows
wherever the pieces break, a message names the file's own options, and `Texts` reads as the
list it stands for."""

from __future__ import annotations

import json

import numpy as np
import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from matchlens.core.datasets import read_table, resolve_column
from matchlens.core.errors import DatasetError
from matchlens.core.scoring.run_files import Texts, narrow, read_keyed


def _jsonl(path, rows):
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


ROWS = [{"id": 1, "out": {"text": "a"}}, {"id": "2", "out": {"text": None}},
        {"id": 3, "out": {}}, {"id": 4, "out": {"text": "d"}}, {"id": 5, "out": {"text": 7}}]


@pytest.mark.parametrize("chunk_rows", [1, 2, 100])
def test_pieces_hold_what_the_whole_table_gives(tmp_path, chunk_rows):
    path = _jsonl(tmp_path / "run.jsonl", ROWS)
    keyed = read_keyed(path, "id", ["$.out.text"], chunk_rows=chunk_rows)
    whole = read_table(path)
    column = resolve_column(whole, "$.out.text")
    assert keyed.ids.to_pylist() == ["1", "2", "3", "4", "5"]  # numbers as the text written
    assert keyed.values["$.out.text"].to_pylist() == column.values == \
        ["a", None, None, "d", "7"]
    assert keyed.reasons["$.out.text"] == column.reasons  # the same sentences, same rows
    assert keyed.lines.tolist() == whole.lines == [1, 2, 3, 4, 5]
    same = narrow(whole, "id", ["$.out.text"])
    assert keyed.ids.equals(same.ids) and keyed.reasons == same.reasons
    assert keyed.values["$.out.text"].equals(same.values["$.out.text"])


@pytest.mark.parametrize("chunk_rows", [1, 2, 100])
def test_a_repeated_id_in_another_piece_names_both_lines(tmp_path, chunk_rows):
    path = _jsonl(tmp_path / "refs.jsonl", [*ROWS, {"id": 3, "out": {}}])
    with pytest.raises(DatasetError) as err:
        read_keyed(path, "id", [], chunk_rows=chunk_rows)
    # id 3 is on lines 3 and 6 (one object a line)
    assert str(err.value) == (f"{path}: the id '3' (--id id) is on two rows, line 3 and "
                              "line 6; each row of a joined file needs its own id")


def test_a_row_without_id_in_a_later_piece(tmp_path):
    path = _jsonl(tmp_path / "refs.jsonl", [{"id": 1}, {"id": 2}, {"key": 3}])
    with pytest.raises(DatasetError, match=r"refs\.jsonl, line 3 has no id at id"):
        read_keyed(path, "id", [], chunk_rows=1)


def test_a_path_matching_nothing_in_any_piece(tmp_path):
    path = _jsonl(tmp_path / "base.jsonl", ROWS)
    with pytest.raises(DatasetError, match=r"base\.jsonl.*\$\.out\.nope matches nothing in any of "
                                           r"the 5 rows"):
        read_keyed(path, "id", ["$.out.nope"], chunk_rows=2)
    # an optional SPEC the file cannot resolve is null throughout, no error
    keyed = read_keyed(path, "id", [], ["nope"], chunk_rows=2)
    assert keyed.values["nope"].null_count == 5


def test_messages_name_the_files_own_options(tmp_path):
    path = tmp_path / "refs.json"
    path.write_text(json.dumps({"a": [{"id": 1}], "b": [{"id": 2}]}), encoding="utf-8")
    with pytest.raises(DatasetError) as err:
        read_keyed(path, "id", [], option_prefix="references")
    assert "--references-records" in str(err.value)
    assert "--records " not in str(err.value).replace("--references-records", "")
    assert len(read_keyed(path, "id", [], reading={"records": "$.b"})) == 1


def test_a_sheet_for_a_text_file_names_the_option(tmp_path):
    path = _jsonl(tmp_path / "base.jsonl", ROWS)
    with pytest.raises(DatasetError, match=r"base\.jsonl: --baseline-sheet picks a sheet"):
        read_keyed(path, "id", [], reading={"sheet": "x"}, option_prefix="baseline")


@settings(max_examples=80, deadline=None)
@given(values=st.lists(st.one_of(st.none(), st.text(max_size=3)), max_size=20),
       data=st.data())
def test_texts_read_as_the_list_they_stand_for(values, data):
    rows = np.array(data.draw(st.lists(st.integers(-1, max(len(values) - 1, -1)),
                                       max_size=20)), dtype=np.int64)
    if not values:
        rows = np.full(len(rows), -1, dtype=np.int64)
    array = pa.array(values, pa.string())
    as_list = [None if r < 0 else values[r] for r in rows.tolist()]
    texts = Texts(array, rows)
    assert list(texts) == as_list and len(texts) == len(as_list)
    assert texts == as_list
    assert [texts[i] for i in range(-len(as_list), len(as_list))] == as_list + as_list \
        if as_list else True
    start, stop = data.draw(st.integers(0, 25)), data.draw(st.integers(0, 25))
    assert texts[start:stop] == as_list[start:stop]
    assert texts.nulls().tolist() == [v is None for v in as_list]
    plain = Texts(array)
    assert list(plain) == values
    other = Texts(pa.array(list(reversed(as_list)), pa.string()))
    assert texts.same_as(other).tolist() == [
        a is not None and a == b for a, b in zip(as_list, reversed(as_list), strict=True)]
    with pytest.raises(IndexError):
        texts[len(as_list)]


def test_a_keyed_read_stops_between_pieces_when_cancelled(tmp_path):
    """The window's Cancel while it reads a joined file: Cancelled before the next piece."""
    from matchlens.core.datasets import Cancelled
    from matchlens.core.scoring.run_files import read_keyed

    path = tmp_path / "refs.jsonl"  # JSON Lines comes in pieces of chunk_rows rows
    path.write_text("".join(json.dumps({"id": f"q{i}", "answer": f"a{i}"}) + "\n"
                            for i in range(50)), encoding="utf-8")
    asked = []

    def cancel():
        asked.append(1)
        return len(asked) > 2  # the first two pieces are read, the third is not

    with pytest.raises(Cancelled):
        read_keyed(path, "id", ["answer"], chunk_rows=10, cancel=cancel)
    assert len(asked) == 3
    assert len(read_keyed(path, "id", ["answer"], chunk_rows=10, cancel=lambda: False)) == 50
