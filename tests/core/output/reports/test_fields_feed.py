"""The reports' JSON fields table (reports.fields_feed): counted in the scoring pass with
json_distance's options, cut to a number of paths per variant and saying so."""

from __future__ import annotations

import json

from tests.core.output.reports.runs import run_reports

AGES = {"expected": [json.dumps({"name": n, "age": a}) for n, a in
                     (("Ada", 36), ("Bob", 40), ("Cy", 22))],
        "actual": [json.dumps({"name": n, "age": a}) for n, a in
                   (("Ada", 37), ("Bob", 41), ("Cy", 22))]}


def _table(data) -> dict[str, dict[str, str]]:
    assert data.fields is not None
    head = data.fields.header
    return {row[head.index("path")]: dict(zip(head, row, strict=True))
            for row in data.fields.rows}


def test_counts_across_pieces(tmp_path):
    # one row a piece: the tally carries across pieces; $.age differs in rows 1 and 2 of 3
    data = run_reports(tmp_path, AGES, metrics="json_distance", piece_rows=1, overrides=())
    age = _table(data)["$.age"]
    assert (age["expected"], age["equal"], age["differs"], age["accuracy"]) == (
        "3", "1", "2", "33.3%")
    assert "3 of 3 rows compared" in data.fields.note


def test_json_distance_options_apply(tmp_path):
    # numeric_tolerance 1: 37 vs 36 and 41 vs 40 are equal to json_distance, so to the table
    data = run_reports(tmp_path, AGES, metrics="json_distance",
                       overrides=("json_distance.numeric_tolerance=1",))
    assert _table(data)["$.age"]["equal"] == "3"


def test_paths_cut_per_variant_and_said(tmp_path):
    # 120 keys, each wrong in the one row: the 100 worst are shown, the note says 100 of 120
    expected = json.dumps({f"k{i:03}": i for i in range(120)})
    actual = json.dumps({f"k{i:03}": -1 for i in range(120)})
    data = run_reports(tmp_path, {"expected": [expected], "actual": [actual]},
                       metrics="json_distance", overrides=())
    assert len(data.fields.rows) == 100
    assert "worst 100 of 120 paths shown" in data.fields.note
    html = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert "worst 100 of 120 paths shown" in html


def test_not_json_is_counted_in_the_note(tmp_path):
    data = run_reports(tmp_path, {"expected": ['{"a": 1}', '{"a": 1}'],
                                  "actual": ['{"a": 1}', "sorry, no JSON"]},
                       metrics="json_distance", overrides=())
    assert "1 of 2 rows compared, 1 not compared (the output is not JSON" in data.fields.note
    assert _table(data)["$.a"]["expected"] == "1"  # only the valid pair is walked


def test_no_table_without_json_distance_or_drawn_report(tmp_path):
    assert run_reports(tmp_path, AGES, metrics="exact_match", overrides=()).fields is None
    junit_only = run_reports(tmp_path, AGES, metrics="json_distance", overrides=(),
                             html=False, markdown=False)
    assert junit_only.fields is None
