"""core.scoring.runs: the join by id under any order, with ids missing on either side, and
each bad id as one sentence naming the file and the rows."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from matchlens.core.datasets import table_from_columns
from matchlens.core.errors import DatasetError
from matchlens.core.scoring.run_files import narrow
from matchlens.core.scoring.runs import join_runs, take

ids = st.lists(st.sampled_from([f"q{i}" for i in range(12)] + ["7", "x y", ""]), unique=True,
               max_size=10)


def _table(keys, name):
    return table_from_columns({"id": keys, "value": [f"{name}:{k}" for k in keys]}, name)


@settings(max_examples=150, deadline=None)
@given(run=ids.filter(bool), refs=ids, base=ids, data=st.data())
def test_join_matches_every_id_whatever_the_order(run, refs, base, data):
    refs = data.draw(st.permutations(refs))
    base = data.draw(st.permutations(base))
    run_t, refs_t, base_t = _table(run, "run"), _table(refs, "refs"), _table(base, "base")
    common_refs = set(run) & set(refs)
    common_base = set(run) & set(base)
    if (refs and not common_refs) or (base and not common_base):
        with pytest.raises(DatasetError, match="none of the"):
            join_runs(run_t, "id", refs_t if refs else None, base_t if base else None)
        return
    joined = join_runs(run_t, "id", refs_t if refs else None, base_t if base else None)
    # one row per id of any file, never twice
    assert sorted(joined.ids) == sorted(set(run) | set(refs) | set(base))
    # the run's rows first, in the run's order; then the references' own, then the baseline's
    assert joined.ids[:len(run)] == run
    rest = [k for k in refs if k not in run] + [k for k in base if k not in run and k not in refs]
    assert joined.ids[len(run):] == rest
    for name, keys, rows in (("run", run, joined.run_rows), ("refs", refs, joined.reference_rows),
                             ("base", base, joined.baseline_rows)):
        if not keys and name != "run":
            assert rows is None
            continue
        table = _table(keys, name)
        values = take([table.cell_text(i, "value") for i in range(len(table))], rows)
        for key, value in zip(joined.ids, values, strict=True):
            # each file's value lands on its own id, and only files holding the id give one
            assert value == (f"{name}:{key}" if key in keys else None)


def test_numbers_and_strings_are_one_id():
    # JSON Lines 7 and a CSV's "7" are both the text "7"
    run = table_from_columns({"id": [7, 8], "a": ["x", "y"]}, "run.jsonl")
    refs = table_from_columns({"id": ["8", "7"], "e": ["Y", "X"]}, "refs.csv")
    joined = join_runs(run, "id", refs)
    assert joined.reference_rows.tolist() == [1, 0]


def test_a_repeated_id_names_it_and_both_rows():
    table = table_from_columns({"id": ["a", "b", "c", "b"]}, "today.jsonl")
    with pytest.raises(DatasetError) as err:
        narrow(table, "id")
    # table_from_columns numbers rows from 1: "b" is rows 2 and 4
    assert str(err.value) == ("today.jsonl: the id 'b' (--id id) is on two rows, row 2 and "
                              "row 4; each row of a joined file needs its own id")


def test_a_missing_id_column_names_the_file():
    run = table_from_columns({"id": ["a"], "out": ["x"]}, "today.jsonl")
    refs = table_from_columns({"key": ["a"], "ans": ["x"]}, "refs.jsonl")
    with pytest.raises(DatasetError, match=r"^refs\.jsonl: .*'id'.*--id"):
        join_runs(run, "id", refs)


def test_a_row_without_id():
    table = table_from_columns({"id": ["a", None]}, "today.jsonl")
    with pytest.raises(DatasetError, match=r"today\.jsonl, row 2 has no id at id"):
        narrow(table, "id")


def test_no_id_in_common_is_the_contract_sentence():
    run = table_from_columns({"id": [f"t{i}" for i in range(400)]}, "today.jsonl")
    refs = table_from_columns({"id": ["r1"]}, "refs.jsonl")
    with pytest.raises(DatasetError, match=r"^none of the 400 ids of today\.jsonl is in "
                                           r"refs\.jsonl"):
        join_runs(run, "id", refs)
