"""Two windows labelling one dataset (issue 28 item 3): each save merges with what the other
saved, so no label is lost. Two real processes, started together, each label 60 rows."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import time
from pathlib import Path

from matchlens.core.labels.sidecar import read_sidecar, sidecar_path
from matchlens.core.labels.store import FAIL, NONE, PASS, Labels

ROWS = 120

_WINDOW = textwrap.dedent("""
    import sys, time
    from pathlib import Path
    from matchlens.core.labels.store import Labels, PASS, FAIL
    data, start, ready, go = Path(sys.argv[1]), int(sys.argv[2]), Path(sys.argv[3]), Path(sys.argv[4])
    ids = [f"id{i}" for i in range(120)]
    labels, _ = Labels.open(data, 120, ["actual"], ids=ids)  # both open before either saves
    ready.touch()
    while not go.exists():
        time.sleep(0.01)
    for row in range(start, 120, 2):
        labels.set(row, "actual", PASS if row % 3 else FAIL, note=f"by {start}")
""")


def _data(tmp_path: Path) -> Path:
    path = tmp_path / "qa.csv"
    path.write_text("id,expected,actual\n" + "".join(f"id{i},x,y\n" for i in range(ROWS)),
                    encoding="utf-8")
    return path


def test_two_processes_labelling_at_once_lose_nothing(tmp_path):
    data = _data(tmp_path)
    go = tmp_path / "go"
    procs, ready = [], []
    for start in (0, 1):
        flag = tmp_path / f"ready{start}"
        ready.append(flag)
        procs.append(subprocess.Popen([sys.executable, "-c", _WINDOW, str(data), str(start),
                                       str(flag), str(go)]))
    while not all(flag.exists() for flag in ready):  # an event, not a time limit
        assert all(p.poll() is None for p in procs), "a labelling process ended early"
        time.sleep(0.01)
    go.touch()
    assert [p.wait(timeout=120) for p in procs] == [0, 0]
    entries = read_sidecar(sidecar_path(data))
    assert sorted(e.row for e in entries) == list(range(ROWS))  # all 120, none lost
    assert all(e.note == f"by {e.row % 2}" for e in entries)
    # a window opened now sees both windows' work
    labels, said = Labels.open(data, ROWS, ["actual"], ids=[f"id{i}" for i in range(ROWS)])
    assert "Restored 120 label changes" in said
    assert labels.label(3, "actual") == FAIL and labels.label(4, "actual") == PASS


def test_a_save_shows_the_other_windows_labels_and_a_removal_travels(tmp_path):
    data = _data(tmp_path)
    ids = [f"id{i}" for i in range(ROWS)]
    first, _ = Labels.open(data, ROWS, ["actual"], ids=ids)
    second, _ = Labels.open(data, ROWS, ["actual"], ids=ids)
    first.set(0, "actual", PASS)
    second.set(1, "actual", FAIL)  # merged: row 0 from the first window stays
    assert second.label(0, "actual") == PASS
    first.set(0, "actual", NONE)  # the first window clears its label; row 1 arrives
    assert first.label(1, "actual") == FAIL and first.label(0, "actual") == NONE
    assert [(e.row, e.label) for e in read_sidecar(sidecar_path(data))] == [(1, FAIL)]
    # the same row changed in both: the later save wins for that row only
    first.set(5, "actual", PASS, note="first")
    second.set(5, "actual", FAIL, note="second")
    again, _ = Labels.open(data, ROWS, ["actual"], ids=ids)
    assert again.state(5, "actual") == (FAIL, "second") and again.label(1, "actual") == FAIL


def test_clear_all_in_one_window_keeps_what_the_other_added_since(tmp_path):
    data = _data(tmp_path)
    ids = [f"id{i}" for i in range(ROWS)]
    first, _ = Labels.open(data, ROWS, ["actual"], ids=ids)
    second, _ = Labels.open(data, ROWS, ["actual"], ids=ids)
    first.set(0, "actual", PASS)
    second.set(2, "actual", PASS)
    # clears what the first window had when it last saved (row 0), not the other's row 2
    before = first.clear_all()
    assert [e.row for e in read_sidecar(sidecar_path(data))] == [2]
    assert first.label(2, "actual") == PASS  # and it now shows the other's label
    second.set(3, "actual", FAIL)
    first.restore(before)  # undo: row 0 comes back; rows 2 and 3 of the other stay
    assert sorted(e.row for e in read_sidecar(sidecar_path(data))) == [0, 2, 3]
