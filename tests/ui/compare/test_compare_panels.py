"""Score panels: every local metric updates as the user types, thresholds re-judge live."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from matchlens.core.metrics.registry import all_metrics, evaluate, get_metric
from matchlens.core.results import Label
from tests.ui.conftest import set_pair, wait_done


def _expected_results(config, expected: str, actual: str) -> dict:
    out = {}
    for spec in all_metrics():
        if spec.network:
            continue
        settings = config.settings(spec.id)
        out[spec.id] = evaluate(spec, expected, actual, threshold=settings.threshold,
                                options=settings.options)
    return out


def _assert_panels_match(tab, config, expected: str, actual: str) -> None:
    want = _expected_results(config, expected, actual)
    assert set(want) <= set(tab.panels)
    for metric_id, result in want.items():
        got = tab.panels[metric_id].result()
        assert got is not None, metric_id
        assert (got.score, got.label, got.explanation) == (
            result.score, result.label, result.explanation), metric_id


def test_one_panel_per_registered_metric(compare_tab) -> None:
    assert list(compare_tab.panels) == [spec.id for spec in all_metrics()]
    for metric_id, panel in compare_tab.panels.items():
        assert panel.toolTip() == get_metric(metric_id).definition


def test_typing_updates_every_panel(qtbot, compare_tab, config) -> None:
    set_pair(qtbot, compare_tab, "The quick brown fox", "The quick brown")
    editor = compare_tab.editor("actual")
    editor.setFocus()
    editor.moveCursor(editor.textCursor().MoveOperation.End)
    qtbot.keyClicks(editor, " dog")
    wait_done(qtbot, compare_tab)
    assert compare_tab.texts() == ("The quick brown fox", "The quick brown dog")
    _assert_panels_match(compare_tab, config, *compare_tab.texts())
    # The worked example of the contract: f→d, x→g = 2 edits over 19 chars -> 1 - 2/19 = 0.89.
    assert compare_tab.panels["levenshtein_similarity"].result().score == 0.89
    assert compare_tab.panels["levenshtein_similarity"].score_label.text() == "0.89"
    assert compare_tab.panels["levenshtein_distance"].score_label.text() == "2"


def test_non_ascii_input_scores_like_core(qtbot, compare_tab, config) -> None:
    set_pair(qtbot, compare_tab, "Café 😀 naïve", "Cafe")
    editor = compare_tab.editor("actual")
    editor.moveCursor(editor.textCursor().MoveOperation.End)
    editor.insertPlainText(" 😀 naive\u00a0")  # no keyClicks: non-ASCII kills offscreen Qt
    wait_done(qtbot, compare_tab)
    assert compare_tab.texts()[1] == "Cafe 😀 naive\u00a0"  # the NBSP survives (raw text)
    _assert_panels_match(compare_tab, config, *compare_tab.texts())


def test_threshold_controls_change_the_verdict_without_recomputing(qtbot, compare_tab,
                                                                   config) -> None:
    set_pair(qtbot, compare_tab, "The quick brown fox", "The quick brown dog")
    panel = compare_tab.panels["levenshtein_similarity"]
    assert panel.result().label is Label.PASS  # 0.89 >= default 0.70
    calls = []
    compare_tab.scheduler.sig_result.connect(lambda name, _p: calls.append(name))

    panel.threshold.spin.setValue(0.9)  # 0.89 < 0.90
    assert config.settings("levenshtein_similarity").threshold == 0.9
    assert panel.result().label is Label.FAIL
    assert panel.badge.text() == "fail"
    assert panel.rule_label.text() == "passes when ≥ 0.90"

    panel.threshold.slider.setValue(80)  # slider 80 of 100 on 0..1 -> 0.80
    assert config.settings("levenshtein_similarity").threshold == 0.8
    assert panel.threshold.spin.value() == pytest.approx(0.8)
    assert panel.result().label is Label.PASS

    panel.threshold.enabled_box.setChecked(False)
    assert config.settings("levenshtein_similarity").threshold is None
    assert panel.result().label is Label.SCORED
    assert panel.rule_label.text() == "no threshold"
    panel.threshold.enabled_box.setChecked(True)
    assert config.settings("levenshtein_similarity").threshold == 0.8
    assert calls == []  # verdicts were re-judged; nothing was recomputed


def test_distance_threshold_reads_lower_is_better(qtbot, compare_tab, config) -> None:
    set_pair(qtbot, compare_tab, "The quick brown fox", "The quick brown dog")
    panel = compare_tab.panels["levenshtein_distance"]
    assert panel.result().label is Label.SCORED  # no default threshold
    panel.threshold.enabled_box.setChecked(True)
    panel.threshold.spin.setValue(1)  # distance 2 > 1
    assert panel.result().label is Label.FAIL
    assert panel.threshold.spin.text() == "≤ 1"
    panel.threshold.spin.setValue(2)  # 2 <= 2
    assert panel.result().label is Label.PASS


def test_threshold_set_elsewhere_shows_in_the_panel(qtbot, compare_tab, config) -> None:
    set_pair(qtbot, compare_tab, "abc", "abd")
    config.set_threshold("jaccard", 0.25)  # e.g. dragged in the batch tab's histogram
    panel = compare_tab.panels["jaccard"]
    assert panel.threshold.spin.value() == pytest.approx(0.25)
    assert panel.result().label is Label.FAIL  # "abc" vs "abd": no shared word -> 0.0


def test_option_widgets_recompute_through_the_config(qtbot, compare_tab, config) -> None:
    set_pair(qtbot, compare_tab, "Paris is big", "paris is big")
    panel = compare_tab.panels["exact_match"]
    assert panel.result().score == 0.0
    panel.option_widgets["case_sensitive"].setChecked(False)
    wait_done(qtbot, compare_tab)
    assert config.settings("exact_match").options["case_sensitive"] is False
    assert panel.result().score == 1.0

    json_panel = compare_tab.panels["json_distance"]
    edit = json_panel.option_widgets["ignore_keys"]
    edit.setText("id, ts")
    edit.editingFinished.emit()
    assert config.settings("json_distance").options["ignore_keys"] == ["id", "ts"]


def test_explanations_and_badges_are_shown(qtbot, compare_tab) -> None:
    set_pair(qtbot, compare_tab, '{"a": 1}', "not json")
    panel = compare_tab.panels["json_distance"]
    assert panel.result().label is Label.INVALID
    assert panel.badge.text() == "invalid"
    assert panel.score_label.text() == "—"
    assert panel.explanation.text().startswith("actual is not valid JSON")


def test_network_panel_computes_only_on_demand(qtbot, config, monkeypatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-only-demand-0000")  # else: "No API key"
    spec = next((s for s in all_metrics() if s.network), None)
    if spec is None:
        pytest.importorskip("matchlens.embeddings.metric")
        spec = next(s for s in all_metrics() if s.network)
    from matchlens.ui.compare.compare_tab import CompareTab

    tab = CompareTab(config)
    qtbot.addWidget(tab)
    try:
        set_pair(qtbot, tab, "a", "b")
        panel = tab.panels[spec.id]
        qtbot.waitUntil(lambda: panel.has_key() is not None)  # the key check is off-thread
        assert panel.result() is None  # typing never calls the network
        assert panel.compute_button.text() == "Compute"
        assert not panel.auto_box.isChecked()
        assert panel.explanation.text().startswith("Press Compute")
    finally:
        tab.shutdown()


def test_big_score_in_integers_for_integer_metrics(qtbot, compare_tab) -> None:
    set_pair(qtbot, compare_tab, "kitten", "sitting")
    # kitten -> sitting: k→s, e→i, +g = 3 edits (the textbook example)
    assert compare_tab.panels["levenshtein_distance"].score_label.text() == "3"
    assert compare_tab.panels["levenshtein_distance"].threshold.spin.decimals() == 0
    assert compare_tab.panels["jaccard"].threshold.slider.orientation() == Qt.Orientation.Horizontal
