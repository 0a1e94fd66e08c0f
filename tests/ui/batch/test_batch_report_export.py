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


def _section(path, heading="Against the baseline"):
    """The text of every element from the h2 `heading` to the next h2, in document order, and
    the ids of the regressed rows it shows (each row's head)."""
    tree = html5lib.parse(path.read_text(encoding="utf-8"), treebuilder="etree",
                          namespaceHTMLElements=False)
    parent = next(p for p in tree.iter() for h in p if h.tag == "h2"
                  and "".join(h.itertext()) == heading)
    children = list(parent)
    start = next(i for i, h in enumerate(children) if h.tag == "h2"
                 and "".join(h.itertext()) == heading)
    stop = next((i for i in range(start + 1, len(children)) if children[i].tag == "h2"),
                len(children))
    part = children[start:stop]
    cells = [["".join(td.itertext()) for td in tr.iter("td")]
             for element in part for tr in element.iter("tr")]
    heads = [" ".join("".join(e.itertext()).split()) for element in part
             for e in element.iter("div") if e.get("class") == "row"]
    texts = [" ".join("".join(e.itertext()).split()) for e in part]
    return texts, cells, heads


@pytest.mark.parametrize("suffix", [".html", ".md"])
def test_a_joined_runs_report_has_the_baseline_section_of_score_baseline(qtbot, tmp_path,
                                                                          capsys, suffix):
    """File ▸ Export ▸ Report of a run joined with references and a baseline: its baseline
    section (counts per metric, mean Δ with its interval, the sign test, the regressed rows
    worst first with their three texts) is the one `matchlens score --baseline --html`
    (`--markdown`) writes for the same files and thresholds."""
    from matchlens.main import main
    from matchlens.ui.batch.run_joins import Join
    from matchlens.ui.config_model import ConfigModel
    from tests.ui.batch.test_batch_runs_view import _files

    today, refs, base = _files(tmp_path, seed=5)
    cli_out, window_out = tmp_path / f"cli{suffix}", tmp_path / f"window{suffix}"
    flag = "--html" if suffix == ".html" else "--markdown"
    code = main([str(a) for a in ("score", today, "--id", "id", "--actual", "$.result",
                                  "--references", refs, "--expected", "$.answer",
                                  "--baseline", base, "--baseline-actual", "$.result",
                                  "-o", tmp_path / "scored.csv", flag, cli_out)])
    capsys.readouterr()
    assert code in (0, 1), code
    tab = make_tab(qtbot, ConfigModel())
    load(qtbot, tab, today, actuals=["$.result"], id_spec="id",
         joins=(Join("reference", refs, None, "$.answer"),
                Join("baseline", base, None, "$.result")))
    tab.exports.export_report(window_out)
    wait_idle(qtbot, tab)
    assert "Wrote the report" in tab.message.text(), tab.message.text()
    if suffix == ".md":
        cli_text = cli_out.read_text(encoding="utf-8")
        mine = window_out.read_text(encoding="utf-8")
        start = cli_text.index("## Against the baseline")
        assert mine[mine.index("## Against the baseline"):].split("\n## ")[0] == \
            cli_text[start:].split("\n## ")[0]
        return
    texts, cells, heads = _section(window_out)
    cli_texts, cli_cells, cli_heads = _section(cli_out)
    assert heads and heads == cli_heads  # the same regressed rows, in the same order
    assert cells == cli_cells  # counts, mean delta, interval, rows compared, sign test
    assert texts == cli_texts  # and every sentence and text of the section
