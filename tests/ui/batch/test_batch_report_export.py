"""The batch tab's Export ▸ Report (HTML)…: the report of what is on screen — the thresholds
as they are now, every variant — written off the GUI thread, the same file `score --html`
writes."""

from __future__ import annotations

import html5lib
import pytest

from tests.ui.batch_support import load, make_tab, small_dataset, wait_idle


@pytest.fixture
def tab(qtbot, config, tmp_path):
    tab = make_tab(qtbot, config)
    load(qtbot, tab, small_dataset(tmp_path / "small.csv"))
    yield tab
    tab.shutdown()


def test_report_uses_the_thresholds_on_screen(qtbot, tab, config, tmp_path):
    action = next(a for a in tab.top.export_button.menu().actions()
                  if a.text() == "Report (HTML)…")
    assert action.isEnabled()
    config.set_threshold("levenshtein_similarity", 0.9)  # changed after scoring
    out = tmp_path / "report.html"
    tab.exports.export_report(out)
    wait_idle(qtbot, tab)
    assert "Wrote the report" in tab.message.text()
    tree = html5lib.parse(out.read_text(encoding="utf-8"), treebuilder="etree",
                          namespaceHTMLElements=False)
    headings = ["".join(h.itertext()) for h in tree.iter("h3")]
    assert any(h.startswith("output_a") for h in headings)
    assert any(h.startswith("output_b") for h in headings)
    cells = [["".join(td.itertext()) for td in tr.iter("td")] for tr in tree.iter("tr")]
    similarity = [c for c in cells if c and c[0] == "levenshtein_similarity"]
    # the summary's row per variant comes first (then the calibration table's, the dataset
    # having a label column, whose "current" column shows the same threshold)
    assert [c[1] for c in similarity[:2]] == ["≥ 0.90", "≥ 0.90"]
    assert [c[9] for c in similarity[2:]] == ["≥ 0.90", "≥ 0.90"]


def test_file_export_report_without_a_run_is_a_sentence(qtbot):
    from matchlens.ui.config_model import ConfigModel
    from matchlens.ui.main_window import MainWindow

    win = MainWindow(ConfigModel(), restore=False)
    qtbot.addWidget(win)
    try:
        file_menu = next(a.menu() for a in win.menuBar().actions() if a.text() == "&File")
        export = next(a.menu() for a in file_menu.actions() if a.text() == "&Export")
        report = next(a for a in export.actions() if a.text() == "&Report (HTML)…")
        report.trigger()
        if win.batch_tab is not None:
            assert win.tabs.currentWidget() is win.batch_tab
            assert win.batch_tab.message.text() == "Score a dataset first."
    finally:
        win.shutdown()
