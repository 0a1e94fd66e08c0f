"""Human labels: the model over the data's label column, and its sidecar on disk."""

from __future__ import annotations

import hashlib
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from matchlens.core import atomic
from matchlens.core.errors import DatasetError, OutputError
from matchlens.core.labels.sidecar import read_sidecar, sidecar_path
from matchlens.core.labels.store import FAIL, NONE, PASS, Labels, next_unlabelled

IDS = ["a", "b", "c", "d", "e"]


def _data(tmp_path: Path) -> Path:
    path = tmp_path / "qa.csv"
    path.write_text("id,expected,actual\n" + "".join(f"{i},x,y\n" for i in IDS),
                    encoding="utf-8")
    return path


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_sidecar_round_trip_restores_labels_and_notes_and_never_touches_the_input(tmp_path):
    data = _data(tmp_path)
    before = _digest(data)
    labels, said = Labels.open(data, 5, ["actual"], ids=IDS)
    assert said == "" and not sidecar_path(data).exists()  # nothing written until a change
    labels.set(0, "actual", PASS)
    labels.set(3, "actual", FAIL, note="wrong year")
    labels.set(4, "actual", PASS)
    labels.set(4, "actual", NONE)  # cleared again: no line left for it
    assert sidecar_path(data) == tmp_path / "qa.csv.labels.csv"
    again, said = Labels.open(data, 5, ["actual"], ids=IDS)
    assert "Restored 2 label changes" in said
    assert again.codes("actual").tolist() == [PASS, NONE, NONE, FAIL, NONE]
    assert again.note(3, "actual") == "wrong year"
    assert again.counter_text("actual") == "2 of 5 labelled"
    assert _digest(data) == before
    lines = sidecar_path(data).read_text(encoding="utf-8").splitlines()
    assert lines[0] == "row,id,variant,label,note,time"
    assert [line.split(",")[:5] for line in lines[1:]] == [
        ["1", "a", "actual", "pass", ""], ["4", "d", "actual", "fail", "wrong year"]]


def test_the_label_column_is_the_start_and_the_sidecar_holds_only_changes(tmp_path):
    data = _data(tmp_path)
    base = np.array([PASS, FAIL, NONE, PASS, FAIL], np.int8)
    labels, _ = Labels.open(data, 5, ["actual"], base=base, ids=IDS)
    assert labels.labelled("actual") == 4
    labels.set(1, "actual", FAIL)  # what the column says already: no entry
    assert not sidecar_path(data).exists()
    labels.set(1, "actual", PASS)  # a change
    labels.set(0, "actual", NONE)  # the human removes the column's label: recorded too
    entries = read_sidecar(sidecar_path(data))
    assert [(e.row, e.label) for e in entries] == [(0, NONE), (1, PASS)]
    labels.set(1, "actual", FAIL)  # back to the column's value: the entry goes
    assert [(e.row, e.label) for e in read_sidecar(sidecar_path(data))] == [(0, NONE)]
    again, _ = Labels.open(data, 5, ["actual"], base=base, ids=IDS)
    assert again.codes("actual").tolist() == [NONE, FAIL, NONE, PASS, FAIL]


def test_labels_follow_the_ids_when_rows_move_and_unmatched_lines_are_kept(tmp_path):
    data = _data(tmp_path)
    labels, _ = Labels.open(data, 5, ["actual"], ids=IDS)
    labels.set(0, "actual", PASS)  # id a
    labels.set(4, "actual", FAIL)  # id e
    # The file is re-sorted and "e" is gone: "a" is now row 3; "e"'s line stays in the file.
    moved = ["d", "c", "a", "b"]
    again, said = Labels.open(data, 4, ["actual"], ids=moved)
    assert again.codes("actual").tolist() == [NONE, NONE, PASS, NONE]
    assert "1 of its lines matches no row" in said and "it is kept" in said
    again.set(0, "actual", PASS)  # saving keeps the foreign line
    rows = {(e.id, e.label) for e in read_sidecar(sidecar_path(data))}
    assert rows == {("d", PASS), ("a", PASS), ("e", FAIL)}


def test_variants_are_labelled_apart_and_a_line_without_variant_is_for_every_one(tmp_path):
    data = _data(tmp_path)
    sidecar_path(data).write_text("row,label\n2,pass\n", encoding="utf-8")  # hand-written
    labels, _ = Labels.open(data, 5, ["output_a", "output_b"])
    assert labels.label(1, "output_a") == labels.label(1, "output_b") == PASS
    labels.set(1, "output_b", FAIL)
    assert labels.label(1, "output_a") == PASS and labels.label(1, "output_b") == FAIL


def test_clear_all_and_its_undo(tmp_path):
    data = _data(tmp_path)
    labels, _ = Labels.open(data, 5, ["actual"], ids=IDS)
    labels.set(2, "actual", PASS, note="ok")
    before = sidecar_path(data).read_bytes()
    snapshot = labels.clear_all()
    assert labels.labelled("actual") == 0
    assert read_sidecar(sidecar_path(data)) == []
    labels.restore(snapshot)
    assert labels.state(2, "actual") == (PASS, "ok")
    assert sidecar_path(data).read_bytes() == before


def test_an_unreadable_sidecar_is_kept_aside_never_overwritten(tmp_path):
    data = _data(tmp_path)
    bad = sidecar_path(data)
    bad.write_text("row,label\n2,maybe\n", encoding="utf-8")
    labels, said = Labels.open(data, 5, ["actual"])
    assert "line 2" in said and "'label'" in said and "neither pass nor fail" in said
    kept = [p for p in tmp_path.iterdir() if p.name.startswith("qa.csv.labels.csv.unreadable-")]
    assert len(kept) == 1 and kept[0].read_text(encoding="utf-8") == "row,label\n2,maybe\n"
    labels.set(0, "actual", PASS)
    assert read_sidecar(bad)[0].label == PASS


def test_a_failed_write_leaves_the_previous_sidecar_whole(tmp_path, monkeypatch):
    data = _data(tmp_path)
    labels, _ = Labels.open(data, 5, ["actual"])
    labels.set(0, "actual", PASS)
    before = sidecar_path(data).read_bytes()

    def fail_rename(src, dst):  # the temporary file is complete; the rename fails
        assert Path(src).read_text(encoding="utf-8").count("\n") == 3  # header + 2 lines
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(atomic.os, "replace", fail_rename)
    with pytest.raises(OutputError, match="No space left on device.*kept in this window"):
        labels.set(1, "actual", FAIL)
    assert sidecar_path(data).read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["qa.csv", "qa.csv.labels.csv"]
    assert labels.label(1, "actual") == FAIL  # the window keeps what the person did


def test_a_crash_mid_write_leaves_the_previous_sidecar_whole(tmp_path):
    """A real crash: the process dies (os._exit) after the temporary file is written and
    synced, before the rename. The previous sidecar is intact and reopens."""
    data = _data(tmp_path)
    labels, _ = Labels.open(data, 5, ["actual"])
    labels.set(0, "actual", PASS)
    before = sidecar_path(data).read_bytes()
    script = textwrap.dedent(f"""
        import os
        from pathlib import Path
        from matchlens.core import atomic
        from matchlens.core.labels.store import Labels, FAIL
        atomic.os.replace = lambda src, dst: os._exit(9)
        labels, _ = Labels.open(Path({str(data)!r}), 5, ["actual"])
        labels.set(1, "actual", FAIL)
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, timeout=60,
                          env={"PYTHONPATH": str(Path(atomic.__file__).parents[2])})
    assert done.returncode == 9, done.stderr
    assert sidecar_path(data).read_bytes() == before
    leftovers = [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
    assert len(leftovers) == 1  # the dead process's temporary file, never read as labels
    again, _ = Labels.open(data, 5, ["actual"])
    assert again.codes("actual").tolist() == [PASS, NONE, NONE, NONE, NONE]


def test_export_writes_every_labelled_row_with_the_column_and_the_changes(tmp_path):
    data = _data(tmp_path)
    base = np.array([PASS, NONE, NONE, FAIL, NONE], np.int8)
    labels, _ = Labels.open(data, 5, ["actual"], base=base, ids=IDS)
    labels.set(2, "actual", PASS, note="paraphrase")
    out = tmp_path / "export.csv"
    assert labels.export(out) == 3
    assert [(e.id, e.label, e.note) for e in read_sidecar(out)] == [
        ("a", PASS, ""), ("c", PASS, "paraphrase"), ("d", FAIL, "")]


def test_bad_sidecar_lines_name_the_line_and_column(tmp_path):
    path = tmp_path / "x.labels.csv"
    path.write_text("row,label\n1,pass\nzero,fail\n", encoding="utf-8")
    with pytest.raises(DatasetError, match=r"x.labels.csv, line 3, column 'row'"):
        read_sidecar(path)
    path.write_text("id,verdict\n", encoding="utf-8")
    with pytest.raises(DatasetError, match="has no 'row' and no 'label' column"):
        read_sidecar(path)


def test_next_unlabelled_follows_the_view_order_wraps_and_skips_hidden_rows():
    codes = np.array([PASS, NONE, FAIL, NONE, NONE], np.int8)
    order = np.array([4, 3, 2, 1, 0])  # sorted descending
    assert next_unlabelled(order, codes, 4) == 3
    assert next_unlabelled(order, codes, 3) == 1
    assert next_unlabelled(order, codes, 1) == 4  # wraps to the top
    failing = np.array([False, True, False, False, True])
    assert next_unlabelled(order, codes, 4, failing) == 1
    assert next_unlabelled(np.array([0, 2, 3]), codes, 1) == 3  # the current row is filtered out
    assert next_unlabelled(order, np.zeros(5, np.int8), 0) is None


def test_resetting_a_label_keeps_its_note(tmp_path):
    """Issue 28 survivor: a label set back to the column's value keeps the row's note (the
    entry stays, with NONE), and only clearing the note too removes the line."""
    data = _data(tmp_path)
    labels, _ = Labels.open(data, 5, ["actual"], ids=IDS)
    labels.set(2, "actual", FAIL, note="check the date")
    labels.set(2, "actual", NONE)  # note None: keep it
    assert labels.state(2, "actual") == (NONE, "check the date")
    assert [(e.row, e.label, e.note) for e in read_sidecar(sidecar_path(data))] == [
        (2, NONE, "check the date")]
    labels.set(2, "actual", NONE, note="")
    assert read_sidecar(sidecar_path(data)) == []


def test_a_repeated_id_matches_only_its_own_row_number_and_a_unique_one_follows_its_row(tmp_path):
    data = _data(tmp_path)
    labels, _ = Labels.open(data, 5, ["actual"], ids=IDS)
    labels.set(1, "actual", PASS)  # id b, row 1
    labels.set(3, "actual", FAIL)  # id d, row 3
    # Re-sorted: "b" is now on rows 0 and 1 (not unique: only row 1, its own number, has it),
    # "d" moved to row 4 and is the only one.
    again, _ = Labels.open(data, 5, ["actual"], ids=["b", "b", "a", "c", "d"])
    assert again.codes("actual").tolist() == [NONE, PASS, NONE, NONE, FAIL]
    # "b" repeated and on neither its old row number: it matches no row and is kept aside.
    other, said = Labels.open(data, 5, ["actual"], ids=["b", "a", "b", "c", "d"])
    assert other.codes("actual").tolist() == [NONE, NONE, NONE, NONE, FAIL]
    assert "1 of its lines matches no row" in said
