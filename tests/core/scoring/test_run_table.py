"""core.scoring.run_table: the window's join (the command line's, over narrowed files) gives the rows, the scores and the
change labels `score --references --baseline` gives (run_scoring.score_runs), under random
orders with ids missing on either side; a bad id is one sentence naming the file."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from matchlens.core.config import Config
from matchlens.core.datasets import table_from_columns
from matchlens.core.errors import DatasetError
from matchlens.core.scoring import plan
from matchlens.core.scoring.mapping import ColumnMapping, prepare
from matchlens.core.scoring.pipeline import score_values
from matchlens.core.scoring.run_files import narrow
from matchlens.core.scoring.run_scoring import RunFiles, score_runs
from matchlens.core.scoring.run_summary import LABELS
from matchlens.core.scoring.run_table import JoinedFile, change_codes, changes, join_table

TEXTS = ["Paris", "paris", "Lisbon, Portugal", "Lisbon", "", "Bern", "Berlin"]
JOBS = plan.make_plan(Config(), None).jobs
THRESHOLDS = {job.id: job.threshold for job in JOBS}
keys = st.lists(st.sampled_from([f"q{i}" for i in range(15)]), unique=True, max_size=12)


def _file(name, ids, column, draw):
    texts = [draw(st.sampled_from(TEXTS)) for _ in ids]
    return table_from_columns({"id": ids, column: texts}, name)


def _join(run, id_spec, *files):
    """`run` joined with (table, id SPEC, value SPEC, role[, expected]) each."""
    return join_table(run, id_spec, [
        JoinedFile(narrow(table, key, [spec], [rest[0]] if rest and rest[0] in table.columns
                          else []), role, spec, *rest)
        for table, key, spec, role, *rest in files])


def _score(joined, expected, actuals):
    prepared = prepare(joined.table, ColumnMapping(expected, tuple(actuals), ("x",)))
    return score_values(prepared.expected, prepared.actuals, JOBS)


@settings(max_examples=60, deadline=None)
@given(run_ids=keys.filter(bool), data=st.data())
def test_the_same_rows_scores_and_labels_as_score_runs(run_ids, data):
    ref_ids = data.draw(st.permutations(
        data.draw(keys.filter(lambda k: set(k) & set(run_ids)))))
    base_ids = data.draw(st.permutations(
        data.draw(keys.filter(lambda k: set(k) & set(run_ids)))))
    run = _file("run.jsonl", run_ids, "out", data.draw)
    refs = _file("refs.jsonl", ref_ids, "ans", data.draw)
    base = _file("base.jsonl", base_ids, "old", data.draw)
    core = score_runs(RunFiles(run, "id", refs, base, "old"), ColumnMapping("ans", ("out",)),
                      JOBS)

    joined = _join(run, "id", (refs, "id", "ans", "reference"),
                   (base, "id", "old", "baseline", "reference"))
    assert [row["id"] for row in joined.table.rows] == core.joined.ids  # same rows, same order
    result = _score(joined, "reference", ["out", "baseline"])
    for job in JOBS:
        np.testing.assert_array_equal(result.scores[("out", job.id)],
                                      core.result.scores[("out", job.id)])
        np.testing.assert_array_equal(result.scores[("baseline", job.id)],
                                      core.baseline.scores[("baseline", job.id)])
    (mine,) = changes(joined, result, THRESHOLDS)
    (theirs,) = core.changes
    np.testing.assert_array_equal(mine.codes, theirs.codes)
    for metric_id, metric in theirs.metrics.items():
        np.testing.assert_array_equal(mine.metrics[metric_id].codes, metric.codes)
        np.testing.assert_array_equal(mine.metrics[metric_id].delta, metric.delta)
    # the window's cheap labels (no paired test) are the same arrays
    rows, metrics = change_codes(joined, result, "out", THRESHOLDS)
    np.testing.assert_array_equal(rows, theirs.codes)
    for metric_id, metric in theirs.metrics.items():
        np.testing.assert_array_equal(metrics[metric_id], metric.codes)


def test_a_hand_joined_table_and_its_labels():
    run = table_from_columns({"id": ["a", "b", "c"], "answer": ["Paris", "Rome", "Oslo"],
                              "out": ["Paris", "Milan", "Oslo!"]}, "today.jsonl")
    base = table_from_columns({"key": ["d", "b", "a"], "answer": ["Bern", "Rome", "Paris"],
                               "result": ["Bern", "Rome", "Pariss"]}, "yesterday.jsonl")
    joined = _join(run, "id", (base, "key", "result", "baseline", "answer"))
    # the run's rows in its order, then the baseline's id "d" the run lacks (gone), which
    # takes the baseline file's reference
    assert [r["id"] for r in joined.table.rows] == ["a", "b", "c", "d"]
    assert [r.get("baseline") for r in joined.table.rows] == ["Pariss", "Rome", None, "Bern"]
    assert joined.table.rows[3]["answer"] == "Bern" and "out" not in joined.table.rows[3]
    result = _score(joined, "answer", ["out", "baseline"])
    (change,) = changes(joined, result, {"exact_match": 1.0})
    # exact_match (threshold 1): a: fail "Pariss" -> pass "Paris" improved; b: pass "Rome" ->
    # fail "Milan" regressed; c: only the run has it, new; d: only the baseline, gone
    assert change.metrics["exact_match"].labels() == ["improved", "regressed", "new", "gone"]
    assert set(LABELS) >= set(change.labels())


def test_another_run_is_one_more_column_joined_by_its_own_id_spec():
    run = table_from_columns({"id": ["a", "b"], "answer": ["x", "y"], "out": ["x", "z"]},
                             "run.jsonl")
    other = table_from_columns({"qid": ["b", "a", "e"], "result": ["y", "x", "w"]},
                               "/data/tuesday.jsonl")
    joined = _join(run, "id", (other, "qid", "result", "run"))
    assert joined.runs == ("tuesday",)
    assert [r.get("tuesday") for r in joined.table.rows] == ["x", "y", "w"]
    assert joined.presence("tuesday").tolist() == [True, True, True]
    assert joined.presence("out").tolist() == [True, True, False]  # "e" is not the run's


def test_a_csv_run_keeps_its_columns_and_a_jsonpath_id_gets_a_column():
    from pathlib import Path

    from matchlens.core.datasets import Table

    table = Table(Path("run.csv"), ["meta", "out"], [['{"id": 1}', "x"], ['{"id": 2}', "y"]],
                  [2, 3], "csv", ",", "utf-8")
    joined = _join(table, "$.meta.id")
    assert joined.id_column == "id" and joined.table.columns == ["id", "meta", "out"]
    assert [r["id"] for r in joined.table.rows] == ["1", "2"]


def test_no_id_in_common_and_a_repeated_id_are_sentences_naming_the_files():
    run = table_from_columns({"id": ["a", "b"], "out": ["x", "y"]}, "today.jsonl")
    refs = table_from_columns({"id": ["z"], "ans": ["x"]}, "refs.jsonl")
    with pytest.raises(DatasetError, match=r"none of the 2 ids of today.jsonl is in refs.jsonl"):
        _join(run, "id", (refs, "id", "ans", "reference"))
    twice = table_from_columns({"id": ["a", "a"], "ans": ["x", "y"]}, "refs.jsonl")
    with pytest.raises(DatasetError, match=r"the id 'a' .* is on two rows"):
        _join(run, "id", (twice, "id", "ans", "reference"))
    with pytest.raises(DatasetError, match=r"no column 'key'"):
        _join(run, "id", (refs, "key", "ans", "reference"))


def test_the_rows_are_made_when_asked_for_and_agree_however_they_are_read(monkeypatch):
    """Index, slice and iteration (in blocks of 2 here, crossing the run's end) give the same
    dicts; a row past the run's own is its id and the joined values only."""
    from matchlens.core.scoring.run_table import JoinedRows

    monkeypatch.setattr(JoinedRows, "_BLOCK", 2)
    run = table_from_columns({"id": ["a", "b", "c"], "out": ["x", "y", "z"]}, "run.jsonl")
    base = table_from_columns({"id": ["e", "c", "a", "d"], "old": ["5", "3", "1", "4"]},
                              "base.jsonl")
    rows = _join(run, "id", (base, "id", "old", "baseline")).table.rows
    expected = [{"id": "a", "out": "x", "baseline": "1"}, {"id": "b", "out": "y"},
                {"id": "c", "out": "z", "baseline": "3"}, {"id": "e", "baseline": "5"},
                {"id": "d", "baseline": "4"}]  # the run's rows, then base's e and d in order
    assert list(rows) == expected
    assert [rows[i] for i in range(-5, 5)] == expected * 2
    assert rows[2:4] == expected[2:4] and rows[::2] == expected[::2]
    with pytest.raises(IndexError):
        rows[5]
    rows[0]["out"] = "changed"  # a new dict each time: the table is not changed
    assert rows[0]["out"] == "x"


def test_a_column_resolves_whole_as_it_does_row_by_row():
    """resolve_column over the joined table (the opened file's column, then the joined
    values; a joined column whole) gives the values and reasons the rows' dicts give."""
    from matchlens.core.datasets import resolve_column
    from matchlens.core.datasets.columns import ColumnValues

    run = table_from_columns({"id": ["a", "b", "c"], "out": ["x", None, "z"],
                              "answer": ["1", "2", None]}, "run.jsonl")
    base = table_from_columns({"id": ["e", "c", "a"], "old": ["5", "3", "1"],
                               "answer": ["9", "3", "1"]}, "base.jsonl")
    joined = _join(run, "id", (base, "id", "old", "baseline", "answer")).table
    rows = list(joined.rows)
    by_rows = type(joined)(joined.path, joined.columns, rows, joined.lines, "records", None,
                           "utf-8", name=joined.name, unit=joined.unit)  # the same dicts, listed
    for name in ("id", "out", "answer", "baseline"):
        whole, plain = resolve_column(joined, name), resolve_column(by_rows, name)
        assert isinstance(whole, ColumnValues)
        assert whole.values == plain.values and whole.reasons == plain.reasons, name
    # e is only the baseline's: its id and reference come from there ("9")
    assert resolve_column(joined, "answer").values == ["1", "2", None, "9"]


def test_the_joined_lines_are_held_as_the_opened_tables():
    """A CSV the window reads keeps its lines as array('q') (8 bytes a row): so does the join,
    and the window can empty it slice by slice (ui.batch.worker.release)."""
    from array import array

    run = table_from_columns({"id": ["a", "b"], "out": ["x", "y"]}, "run.csv")
    base = table_from_columns({"id": ["c", "a"], "old": ["z", "x"]}, "base.csv")
    for lines in (array("q", [2, 3]), [2, 3], np.array([2, 3])):
        run.lines = lines
        joined = _join(run, "id", (base, "id", "old", "baseline")).table.lines
        assert type(joined) is type(lines)
        # a, b from the run (lines 2, 3), then c from the baseline's row 1
        assert list(joined) == [2, 3, 1]


@pytest.mark.parametrize("suffix", ["jsonl", "csv"])
def test_a_stored_runs_column_is_answered_by_the_store_not_copied(tmp_path, monkeypatch, suffix):
    """The window reads the opened file into the column store (read_stored): a joined column
    is then the store's own column followed by the joined values (by_column.ByColumn), never a
    list of a string a row, and it gives what the rows' dicts give, however it is read (index,
    slice, iteration in blocks of 2 crossing the run's end)."""
    from matchlens.core.datasets import resolve_column
    from matchlens.core.datasets.by_column import ByColumn
    from matchlens.core.datasets.column_store import StoredColumn
    from matchlens.core.datasets.stored_table import read_stored
    from matchlens.core.scoring.run_table import JoinedColumn

    monkeypatch.setattr(JoinedColumn, "_BLOCK", 2)
    path = tmp_path / f"run.{suffix}"
    if suffix == "csv":
        path.write_text("id,out,answer\na,x,1\nb,,2\nc,z,\n")
    else:  # b's output null, c without an answer, a's answer a number
        path.write_text('{"id": "a", "out": "x", "answer": 1}\n{"id": "b", "out": null, '
                        '"answer": "2"}\n{"id": "c", "out": "z"}\n')
    run = read_stored(path)
    base = table_from_columns({"id": ["e", "c", "a", "d"], "old": ["5", "3", "1", "4"],
                               "answer": ["9", "3", "1", "8"]}, "base.jsonl")
    joined = _join(run, "id", (base, "id", "old", "baseline", "answer")).table
    assert isinstance(joined.rows, ByColumn)
    by_rows = type(joined)(joined.path, joined.columns, list(joined.rows), joined.lines,
                           "records", None, "utf-8", name=joined.name, unit=joined.unit)
    for name in ("id", "out", "answer", "baseline"):
        whole, plain = resolve_column(joined, name), resolve_column(by_rows, name)
        values = whole.values
        assert not isinstance(values, list), name  # a view over the store and the arrays
        assert list(values) == plain.values and whole.reasons == plain.reasons, name
        assert [values[i] for i in range(-5, 5)] == plain.values * 2
        assert values[1:4] == plain.values[1:4] and values[::2] == plain.values[::2]
    own = joined.rows.column("out").own
    assert isinstance(own, StoredColumn)  # the opened file's column is the store's
    # a, b, c from the run (a's answer 1 as JSON text; c none), then e and d from the baseline
    assert list(resolve_column(joined, "answer").values) == \
        ["1", "2", "" if suffix == "csv" else None, "9", "8"]
