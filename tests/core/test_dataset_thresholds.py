"""Where a dataset's thresholds live: beside it, or in the user's data folder when its folder is
read-only for real (tests/read_only.py), with the labels' rule (core.labels.location)."""

from __future__ import annotations

from matchlens.core.dataset_thresholds import (
    beside_path,
    kept_away_path,
    locate,
    saved_thresholds,
)
from matchlens.core.labels.location import away_path
from tests.read_only import read_only


def test_a_writable_folder_keeps_them_beside_the_data(tmp_path):
    data = tmp_path / "qa.csv"
    data.write_text("expected,actual\na,b\n", encoding="utf-8")
    home = locate(data)
    assert home.path == tmp_path / "qa.csv.thresholds.toml" and not home.away
    assert home.source() is None and saved_thresholds(data) is None
    home.path.write_text("[metrics.jaccard]\nthreshold = 0.4\n", encoding="utf-8")
    assert saved_thresholds(data) == home.path


def test_a_read_only_folder_keeps_them_away_starting_from_the_one_shipped(tmp_path):
    data = tmp_path / "shipped" / "qa.csv"
    data.parent.mkdir()
    data.write_text("expected,actual\na,b\n", encoding="utf-8")
    beside_path(data).write_text("[metrics.jaccard]\nthreshold = 0.4\n", encoding="utf-8")
    with read_only(data.parent):
        home = locate(data)
        assert home.away and home.seed == beside_path(data)
        assert home.source() == beside_path(data)  # read, never written
        # the labels' name and hash, in a folder of its own
        assert home.path == kept_away_path(data)
        assert home.path.parent.parent == away_path(data).parent.parent
        assert home.path.name.startswith(away_path(data).name.removesuffix(".labels.csv"))
        home.path.parent.mkdir(parents=True)
        home.path.write_text("[metrics.jaccard]\nthreshold = 0.3\n", encoding="utf-8")
    # once kept away, they stay away (the folder being writable again splits nothing)
    assert locate(data).path == home.path and saved_thresholds(data) == home.path


def test_standard_input_has_none():
    assert saved_thresholds("-") is None and saved_thresholds(None) is None


def test_a_symlink_loop_has_none_the_reader_names_it(tmp_path):
    (tmp_path / "a.csv").symlink_to(tmp_path / "b.csv")
    (tmp_path / "b.csv").symlink_to(tmp_path / "a.csv")
    assert saved_thresholds(tmp_path / "a.csv") is None
