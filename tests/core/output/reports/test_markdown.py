"""core.output.reports.markdown: GitHub-flavoured, the summary table and the worst rows' ids,
always under 60,000 characters, cells inert."""

from __future__ import annotations

from matchlens.core.output.reports.markdown import LIMIT, cell, render_markdown
from tests.core.output.reports.runs import run_reports


def test_summary_table_and_worst_ids(tmp_path):
    data = run_reports(tmp_path, {"expected": ["Paris", "Canberra"], "actual": ["Paris", "Sydney"],
                                  "id": ["q1", "q|2"]}, id_column="id", html=False, junit=False)
    text = (tmp_path / "s.md").read_text(encoding="utf-8")
    assert text == render_markdown(data)
    assert "| exact\\_match | ≥ 1 | 0.500 |" in text  # one of two rows matches exactly
    assert "**50.0%** of the 2 rows pass every thresholded metric (1 pass)" in text
    assert "`q|2`" in text  # inside a code span, not a table: no escape needed


def test_stays_under_the_limit_at_any_size(tmp_path):
    # 30 variants x 3 metrics of 600 rows, long ids, --worst 600: far more than fits
    # (two thresholded metrics x 30 variants x ~4,000 characters of ids alone)
    n, variants = 600, [f"variant_{k}_" + "v" * 60 for k in range(30)]
    columns = {"expected": ["alpha beta"] * n,
               **{v: [f"alpha {k}" for k in range(n)] for v in variants},
               "id": [f"id-{k}-" + "x" * 200 for k in range(n)]}
    data = run_reports(tmp_path, columns, actual=tuple(variants), id_column="id", worst=600,
                       piece_rows=250, html=False, junit=False)
    text = render_markdown(data)
    assert len(text) < LIMIT
    assert "left out to stay under 60,000 characters" in text
    assert text.count("<details>") == text.count("</details>")  # no block cut in two


def test_cells_are_inert():
    assert cell("a|b\n<img src=x>") == "a\\|b &lt;img src=x&gt;"
    assert cell("\ud800") == ""
    assert len(cell("x" * 1_000)) == 80
