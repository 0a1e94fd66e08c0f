"""The window states both denominators, as the command does: the pass rate over all rows, the
mean over the scored rows (issue 12: MT-bench's reference on 39 of 80 rows)."""

from __future__ import annotations

import json
import re

from tests.ui.batch_support import load, make_tab


def test_stats_name_the_mean_and_pass_rate_denominators(qtbot, config, tmp_path):
    path = tmp_path / "mt.jsonl"
    rows = []
    for i in range(8):  # a reference on rows 0-4 only; rows 0-1 answered exactly
        row = {"id": f"q{i}", "output": f"answer {i}" if i < 2 else "other"}
        if i < 5:
            row["reference"] = f"answer {i}"
        rows.append(row)
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    tab = make_tab(qtbot, config)
    try:
        load(qtbot, tab, path, expected="reference", actuals=["output"])
        panel = tab.histograms.panels["exact_match"]
        text = re.sub(r"<[^>]+>", "", panel.stats.text()).replace("&nbsp;", " ")
        # 2 of the 8 rows pass (rows without a reference do not); the mean is over 5 rows
        assert "pass 25.0% (2/8)" in text, text
        assert "mean over 5 scored" in text and "missing 3" in text, text
    finally:
        tab.shutdown()
