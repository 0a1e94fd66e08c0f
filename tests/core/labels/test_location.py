"""Labels of a dataset whose folder cannot be written (the shipped sample in an installed app):
kept in the user's data folder, said once, found again on reopening. Real read-only folders
(tests/read_only.py), the real platformdirs data folder (XDG_DATA_HOME, private per test)."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from matchlens.core.labels.location import away_path, labels_folder, locate, saved_labels
from matchlens.core.labels.sidecar import read_sidecar, sidecar_path
from matchlens.core.labels.store import FAIL, NONE, PASS, Labels
from tests.read_only import read_only

IDS = ["a", "b", "c", "d", "e"]


def _data(folder: Path) -> Path:
    folder.mkdir(exist_ok=True)
    path = folder / "qa.csv"
    path.write_text("id,expected,actual\n" + "".join(f"{i},x,y\n" for i in IDS),
                    encoding="utf-8")
    return path


def _listing(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in folder.iterdir()}


def test_labels_beside_a_read_only_dataset_go_to_the_data_folder_and_come_back(tmp_path,
                                                                               private_dirs):
    data = _data(tmp_path / "shipped")
    before = _listing(data.parent)
    with read_only(data.parent):
        labels, said = Labels.open(data, 5, ["actual"], ids=IDS)
        assert said == ""  # nothing to say until there is a label to keep
        where = labels.set(1, "actual", FAIL)
        away = away_path(data)
        # Said once, naming the file and where its labels are.
        assert where == (f"The folder of qa.csv cannot be written, so your labels are saved "
                         f"in {away}.")
        assert labels.set(2, "actual", PASS) == ""
        assert away.parent == labels_folder()
        assert labels_folder().is_relative_to(private_dirs / "data")  # XDG_DATA_HOME
        assert [(e.row, e.id, e.label) for e in read_sidecar(away)] == [(1, "b", FAIL),
                                                                          (2, "c", PASS)]
        assert _listing(data.parent) == before  # nothing written beside the data
        # Reopening the same file restores them and says from where.
        again, said = Labels.open(data, 5, ["actual"], ids=IDS)
        assert again.codes("actual").tolist() == [NONE, FAIL, PASS, NONE, NONE]
        assert said.startswith(f"Restored 2 label changes from {away}.")
        assert again.set(0, "actual", PASS) == ""  # already said at opening
        assert saved_labels(data) == away


def test_a_labels_file_shipped_beside_read_only_data_is_the_start_and_stays_untouched(
        tmp_path):
    data = _data(tmp_path / "shipped")
    beside = sidecar_path(data)
    beside.write_text("row,id,variant,label\n1,a,,pass\n", encoding="utf-8")
    before = _listing(data.parent)
    with read_only(data.parent):
        labels, said = Labels.open(data, 5, ["actual"], ids=IDS)
        away = away_path(data)
        assert said == (f"Restored 1 label change from {beside}. The folder of qa.csv cannot "
                        f"be written: your changes are saved in {away}.")
        assert labels.set(4, "actual", FAIL) == ""  # said at opening
        assert [(e.row, e.label) for e in read_sidecar(away)] == [(0, PASS), (4, FAIL)]
        assert _listing(data.parent) == before
        assert locate(data).path == away  # from now on the labels live there


def test_a_folder_made_read_only_while_labelling_loses_nothing(tmp_path):
    data = _data(tmp_path / "share")
    labels, _ = Labels.open(data, 5, ["actual"], ids=IDS)
    assert labels.set(0, "actual", PASS) == ""  # beside the data, as ever: nothing to say
    beside = sidecar_path(data)
    assert read_sidecar(beside)[0].label == PASS
    with read_only(data.parent):
        where = labels.set(3, "actual", FAIL)
        away = away_path(data)
        assert where.startswith(f"{beside}: cannot write here")
        assert where.endswith(f"your labels are saved in {away} instead.")
        assert [(e.row, e.label) for e in read_sidecar(away)] == [(0, PASS), (3, FAIL)]
        assert [(e.row, e.label) for e in read_sidecar(beside)] == [(0, PASS)]
    # Reopened later (the folder writable again): the labels kept away are the ones read.
    again, _ = Labels.open(data, 5, ["actual"], ids=IDS)
    assert again.codes("actual").tolist() == [PASS, NONE, NONE, FAIL, NONE]


def test_the_place_away_is_keyed_by_the_absolute_path(tmp_path, monkeypatch):
    one, two = _data(tmp_path / "one"), _data(tmp_path / "two")
    assert away_path(one) != away_path(two)  # two qa.csv never share their labels
    assert away_path(one).name.startswith("qa.csv-")  # a person can tell whose they are
    monkeypatch.chdir(tmp_path)
    assert away_path(Path("one/qa.csv")) == away_path(one)  # relative or absolute
    link = tmp_path / "link.csv"
    os.symlink(one, link)
    assert away_path(link) == away_path(one)  # the same file through a link
    # Beside a writable file nothing changes: DATA.labels.csv, as the README says.
    assert locate(one).path == sidecar_path(one) and not locate(one).away
    assert saved_labels(one) is None
