"""Exports from the batch tab: thresholds round trip, the scored table, a plot as PNG."""

from __future__ import annotations

import tomllib

import numpy as np
import pytest
from PySide6.QtGui import QColor, QImage

from matchlens.core.config import load_config
from matchlens.core.datasets import read_table, resolve_column
from matchlens.core.metrics.registry import DEFAULT_METRICS, get_metric
from matchlens.core.output.scored_table import write_scored_table
from matchlens.core.scoring.batch import MetricJob
from matchlens.core.scoring.parallel import run_to_completion
from matchlens.ui.batch.colours import variant_colour
from matchlens.ui.batch.export import FIGURE_WIDTH, PLOT_HEIGHT
from tests.ui.batch_support import drag_line, load, make_tab, small_dataset, wait_idle


@pytest.fixture
def tab(qtbot, config, tmp_path):
    tab = make_tab(qtbot, config)
    load(qtbot, tab, small_dataset(tmp_path / "small.csv"))
    yield tab
    tab.shutdown()


def test_thresholds_round_trip(qtbot, tab, config, tmp_path):
    panel = tab.histograms.panels["jaccard"]
    drag_line(panel, 0.2, 0.333)  # dragged: stored as shown, at 2 decimals (0.33)
    config.set_threshold("levenshtein_distance", 3)
    path = tmp_path / "thresholds.toml"
    assert tab.exports.export_thresholds(path)
    loaded = load_config(path)
    for metric_id in DEFAULT_METRICS:
        assert loaded.settings(metric_id).threshold == config.settings(metric_id).threshold
    assert loaded.settings("jaccard").threshold == 0.33
    assert loaded.settings("levenshtein_distance").threshold == 3
    assert str(path) in tab.message.text()


def test_scored_table_is_what_the_cli_writes(qtbot, tab, config, tmp_path):
    source = tab.table.path
    before = source.read_bytes()
    config.set_threshold("levenshtein_similarity", 0.9)  # changed after scoring
    out = tmp_path / "scored.csv"
    tab.exports.export_table(out)
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
    tab.exports.export_table(source)  # refusing to overwrite the input is a sentence
    wait_idle(qtbot, tab)
    assert "refusing to overwrite the input" in tab.message.text()
    assert source.read_bytes() == before


def test_jsonl_export(qtbot, tab, tmp_path):
    out = tmp_path / "scored.jsonl"
    tab.exports.export_table(out)
    wait_idle(qtbot, tab)
    lines = out.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 8 and '"exact_match@output_a": 1.0' in lines[0]


def test_plot_png(qtbot, tab, tmp_path):
    names = dict(tab.exports.plot_names())
    assert "hist:jaccard" in names and "roc" in names and "delta" in names
    for key in ("hist:jaccard", "roc", "delta"):
        path = tmp_path / f"{key.replace(':', '-')}.png"
        assert tab.exports.export_plot(key, path)
        image = QImage(str(path))
        assert not image.isNull() and image.width() == 1200


def _has_colour(image: QImage, colour: QColor, top: int, bottom: int, tolerance: int = 40) -> bool:
    for y in range(top, bottom):
        for x in range(0, image.width(), 1):
            c = image.pixelColor(x, y)
            if abs(c.red() - colour.red()) + abs(c.green() - colour.green()) \
                    + abs(c.blue() - colour.blue()) <= tolerance:
                return True
    return False


def test_exported_plots_read_on_their_own(qtbot, tab, config, tmp_path):
    # A histogram: metric, direction, threshold, and each variant with its mean.
    path = tmp_path / "hist.png"
    assert tab.exports.export_plot("hist:jaccard", path)
    image = QImage(str(path))
    assert image.width() == 1200
    assert image.text("Title") == "Jaccard (words): distribution of scores"
    text = image.text("Description")
    assert "Threshold ≥ 0.50 (solid line), higher is better" in text  # the registry default
    for variant in ("output_a", "output_b"):
        mean = float(np.nanmean(tab.result.scores[(variant, "jaccard")]))
        assert f"{variant}: mean {mean:.3f}" in text
    assert "x axis: Jaccard (words) score (0–1, higher is better)" in text
    assert "y axis: rows" in text
    # The plot is drawn 1200/1000 = 1.2x its figure size; everything above it is the header,
    # where the legend's colour samples are drawn.
    header = image.height() - round(PLOT_HEIGHT * image.width() / FIGURE_WIDTH)
    assert header > 100  # a title, a sentence, and a legend line per variant
    palette = tab.histograms.panels["jaccard"].palette()
    for i in range(2):
        assert _has_colour(image, variant_colour(i, palette), 0, header)

    # The ROC curve names the metric, the variant, the AUC and the current point.
    path = tmp_path / "roc.png"
    assert tab.exports.export_plot("roc", path)
    image = QImage(str(path))
    labelled_rows, sw = tab.calibration.current()
    assert image.text("Title") == "ROC curve: Exact match on output_a against the human labels"
    text = image.text("Description")
    assert f"AUC {sw.auc():.3f}" in text
    assert "the current threshold ≥ 0.50: true positive rate" in text
    assert "x axis: false positive rate" in text and "y axis: true positive rate" in text

    # The B − A histogram says which difference it shows and what the test concluded.
    path = tmp_path / "delta.png"
    assert tab.exports.export_plot("delta", path)
    image = QImage(str(path))
    view = tab.variants
    label = view.metric.currentText()
    assert image.text("Title") == f"{label}: output_b − output_a, row by row"
    text = image.text("Description")
    assert view.comparison.sentence(label) in text
    assert f"x axis: output_b − output_a per row ({label} score)" in text
