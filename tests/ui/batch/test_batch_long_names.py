"""Long column names (promptfoo's CSV names columns with whole JSON objects) are cut in the
middle in the histogram legends and the variant comparison, whole on hover, and no panel grows
past its cell of the grid."""

from __future__ import annotations

import json

from tests.ui.batch_support import load, make_tab, write_csv

LONG_A = "output " + json.dumps({"provider": "openai:gpt-4o-mini", "prompt": "Answer the "
                                 "question in one word, no punctuation, as the reference does "
                                 "it: variant A with a long tail of words"})
LONG_B = LONG_A.replace("variant A", "variant B")


def test_long_variant_names_are_elided_and_panels_stay_in_their_cells(qtbot, config, tmp_path):
    rows = [[f"r{i}", "q", ans, ans if i % 2 else "x", ans if i % 3 else "y"]
            for i, ans in enumerate(["Paris", "Rome", "Oslo", "Bern", "Lima", "Kyiv"])]
    path = write_csv(tmp_path / "promptfoo.csv", rows,
                     header=["id", "question", "expected", LONG_A, LONG_B])
    tab = make_tab(qtbot, config)
    try:
        load(qtbot, tab, path, expected="expected", actuals=[LONG_A, LONG_B])
        grid = tab.histograms
        room = grid.viewport().width()
        assert grid.widget().width() <= room  # the grid never scrolls sideways
        for panel in grid.panels.values():
            title = panel.title.text()
            assert LONG_A not in title and "…" in title  # cut, in the middle
            assert "variant A with a long tail of words" not in title
            assert LONG_A in panel.title.toolTip() and LONG_B in panel.title.toolTip()
            assert panel.geometry().right() <= grid.widget().width()
            assert panel.width() <= room
            lines = panel.title.height() / panel.title.fontMetrics().lineSpacing()
            assert lines <= 4, lines  # name/threshold line + a legend line or two, not three
        variants = tab.variants
        variants.set_complete()
        qtbot.waitUntil(lambda: variants.comparison is not None, timeout=20_000)
        sentence = variants.sentence.text()
        assert LONG_A not in sentence and "…" in sentence
        assert LONG_A in variants.sentence.toolTip()
    finally:
        tab.shutdown()
