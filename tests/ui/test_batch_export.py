"""Exports from the batch tab: thresholds round trip, the scored table, a plot as PNG."""

from __future__ import annotations

import tomllib

import pytest
from PySide6.QtGui import QImage
from tests.ui.batch_support import load, make_tab, small_dataset, wait_idle

from matchlens.core.batch import MetricJob, run_to_completion
from matchlens.core.config import load_config
from matchlens.core.datasets import read_table, resolve_column
from matchlens.core.metrics.registry import DEFAULT_METRICS, get_metric
from matchlens.core.scored_table import write_scored_table


@pytest.fixture
def tab(qtbot, config, tmp_path):
    tab = make_tab(qtbot, config)
    load(qtbot, tab, small_dataset(tmp_path / "small.csv"))
    yield tab
    tab.shutdown()


def test_thresholds_round_trip(qtbot, tab, config, tmp_path):
    panel = tab.histograms.panels["jaccard"]
    panel.line.setValue(0.333)
    with qtbot.waitSignal(config.sig_changed):
        panel.line.sigPositionChangeFinished.emit(panel.line)
    config.set_threshold("levenshtein_distance", 3)
    path = tmp_path / "thresholds.toml"
    assert tab.export_thresholds(path)
    loaded = load_config(path)
    for metric_id in DEFAULT_METRICS:
        assert loaded.settings(metric_id).threshold == config.settings(metric_id).threshold
    assert loaded.settings("jaccard").threshold == 0.333
    assert loaded.settings("levenshtein_distance").threshold == 3
    assert str(path) in tab.message.text()


def test_scored_table_is_what_the_cli_writes(qtbot, tab, config, tmp_path):
    source = tab.table.path
    before = source.read_bytes()
    config.set_threshold("levenshtein_similarity", 0.9)  # changed after scoring
    out = tmp_path / "scored.csv"
    tab.export_table(out)
    wait_idle(qtbot, tab)
    assert out.exists() and "Wrote" in tab.message.text()
    # The CLI's writer on the core's result with the same thresholds gives the same bytes.
    table = read_table(source)
    jobs = [MetricJob(get_metric(m), config.settings(m).threshold, config.settings(m).options)
            for m in DEFAULT_METRICS]
    result = run_to_completion(resolve_column(table, "expected").values,
                               {a: resolve_column(table, a).values
                                for a in ("output_a", "output_b")}, jobs)
    reference = tmp_path / "reference.csv"
    write_scored_table(reference, table, result)
    assert out.read_text(encoding="utf-8") == reference.read_text(encoding="utf-8")
    sidecar = tmp_path / "scored.csv.matchlens.toml"
    data = tomllib.loads(sidecar.read_text(encoding="utf-8"))
    assert data["metrics"]["levenshtein_similarity"]["threshold"] == 0.9
    assert data["matchlens"]["actual"] == ["output_a", "output_b"]
    assert source.read_bytes() == before  # the input is never touched
    tab.export_table(source)  # refusing to overwrite the input is a sentence
    wait_idle(qtbot, tab)
    assert "refusing to overwrite the input" in tab.message.text()
    assert source.read_bytes() == before


def test_jsonl_export(qtbot, tab, tmp_path):
    out = tmp_path / "scored.jsonl"
    tab.export_table(out)
    wait_idle(qtbot, tab)
    lines = out.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 8 and '"exact_match@output_a": 1.0' in lines[0]


def test_plot_png(qtbot, tab, tmp_path):
    names = dict(tab._plot_names())
    assert "hist:jaccard" in names and "roc" in names and "delta" in names
    for key in ("hist:jaccard", "roc", "delta"):
        path = tmp_path / f"{key.replace(':', '-')}.png"
        assert tab.export_plot(key, path)
        image = QImage(str(path))
        assert not image.isNull() and image.width() == 1200
