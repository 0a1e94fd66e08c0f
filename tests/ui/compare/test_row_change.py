"""The row bar's change label (ui/compare/row_bar.py, fed by ui/batch_rows.py and
core/scoring/row_change.py): for a run compared with a baseline, the row's label on the Runs
view's metric is core's (the Runs view's counts, `score --baseline`'s `<id>_change`), when
stepping rows, choosing another metric and moving a threshold."""

from __future__ import annotations

import numpy as np
import pytest

from matchlens.core.scoring.run_summary import LABELS
from matchlens.ui.batch.runs_view import label_codes
from tests.ui.compare.test_baseline_pane import window  # noqa: F401 - the fixture

pytestmark = pytest.mark.qt_log_ignore("propagateSizeHints")


def _core_labels(tab, metric_id):
    """Core's labels of every row of the table's variant (what the Runs view counts)."""
    _rows, metrics = label_codes(tab.joined, tab.result, tab.model.variant(), tab.thresholds(),
                                 lambda: False)
    return [LABELS[int(c)] for c in metrics[metric_id]]


def _shown(win):
    bar = win.compare_tab.row_bar
    return bar.change_label.text().strip() if bar.change_action.isVisible() else None


def test_the_row_bar_says_cores_change_label_for_every_row(qtbot, window):  # noqa: F811
    tab = window.batch_tab
    metric_id = tab.variants.metric.currentData()
    spec_label = tab.variants.metric.currentText()
    want = _core_labels(tab, metric_id)
    ids = list(tab.prepared.ids)
    # hand-derived from run_files: q1 only today (new), q2 Milan vs the baseline's exact Rome
    # (a pass lost: regressed under a default threshold), q5 only in the baseline (gone)
    by_id = dict(zip(ids, want, strict=True))
    assert by_id["q1"] == "new" and by_id["q5"] == "gone"
    assert by_id["q2"] in ("regressed", "worse")
    window.open_batch_row(0)
    seen = []
    for _ in range(len(ids)):
        row = window.rows.row
        assert _shown(window) == f"{want[row]} on {spec_label}"
        seen.append(row)
        window.rows.step(1)
    assert sorted(set(seen)) == list(range(len(ids)))


def test_another_metric_and_a_moved_threshold_relabel_the_open_row(qtbot, window):  # noqa: F811
    tab = window.batch_tab
    row = tab.prepared.ids.index("q3")  # reference Oslo, baseline Olso, this run Oslo
    window.open_batch_row(row)
    combo = tab.variants.metric
    for index in range(combo.count()):
        combo.setCurrentIndex(index)
        metric_id = combo.currentData()
        assert _shown(window) == f"{_core_labels(tab, metric_id)[row]} on {combo.currentText()}"
    metric_id = combo.currentData()
    spec = next(job.spec for job in tab.result.jobs if job.id == metric_id)
    before = tab.result.scores[(tab.model.baseline(), metric_id)][row]
    after = tab.result.scores[(tab.model.variant(), metric_id)][row]
    assert not np.isnan(before) and not np.isnan(after) and before != after
    # a threshold between the two scores: the verdict flips (improved); no threshold: no
    # verdict to flip, the score moved the good way (better)
    middle = (before + after) / 2
    window.config.set_threshold(metric_id, float(middle))
    assert _shown(window) == f"improved on {spec.label}" == \
        f"{_core_labels(tab, metric_id)[row]} on {spec.label}"
    window.config.set_threshold(metric_id, None)
    assert _shown(window) == f"better on {spec.label}" == \
        f"{_core_labels(tab, metric_id)[row]} on {spec.label}"


def test_no_baseline_no_change_label(qtbot, window):  # noqa: F811
    tab = window.batch_tab
    window.open_batch_row(0)
    assert _shown(window) is not None
    tab.table_bar.variant.setCurrentText("baseline")
    window.open_batch_row(0)
    assert _shown(window) is None
