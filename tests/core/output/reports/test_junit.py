"""core.output.reports.junit: JUnit XML valid against the schema CI systems read
(junit_subset.xsd, a subset of Jenkins' junit-10.xsd), one testsuite per variant, one
testcase per row, failures naming each failing metric, the readable diff as body."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.core.output.reports.runs import run_reports
from tests.core.output.reports.test_html_report import hostile_text

etree = pytest.importorskip("lxml.etree")
SCHEMA = etree.XMLSchema(etree.parse(str(Path(__file__).with_name("junit_subset.xsd"))))


def parse_valid(path: Path):
    document = etree.parse(str(path))
    SCHEMA.assertValid(document)
    return document.getroot()


def test_one_suite_per_variant_one_case_per_row(tmp_path):
    columns = {"expected": ["Paris", "Canberra", None, "Rome"],
               "a": ["Paris", "Sydney", "x", "Rome"], "b": ["Paris.", "Canberra", "y", None],
               "id": ["q1", "q2", "q3", ""]}
    run_reports(tmp_path, columns, actual=("a", "b"), id_column="id", html=False,
                markdown=False)
    root = parse_valid(tmp_path / "j.xml")
    suites = root.findall("testsuite")
    assert [s.get("name") for s in suites] == ["a", "b"]
    a = {c.get("name"): c for c in suites[0].findall("testcase")}
    assert list(a) == ["q1", "q2", "q3", "row 4"]  # an empty id: named by its place
    assert a["q1"].find("failure") is None and a["q1"].find("skipped") is None
    failure = a["q2"].find("failure")
    # exact_match 0 < 1 and levenshtein_similarity below 0.70 (Canberra vs Sydney)
    assert failure.get("message").startswith("exact_match 0 < 1; levenshtein_similarity 0.")
    assert failure.get("message").endswith(" < 0.70")
    assert failure.text == "[-Canberra-]{+Sydney+}"
    assert a["q3"].find("skipped") is not None  # no reference: no score
    assert suites[0].get("tests") == "4" and suites[0].get("failures") == "1"
    assert suites[0].get("skipped") == "1"
    b = {c.get("name"): c for c in suites[1].findall("testcase")}
    assert b["q1"].find("failure").text == "Paris{+.+}"
    assert b["row 4"].find("skipped") is not None  # no output
    assert root.get("tests") == "8"


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(hostile_text, hostile_text, hostile_text), min_size=1, max_size=5))
def test_hostile_text_stays_valid_xml(rows):
    with tempfile.TemporaryDirectory() as folder:
        run_reports(Path(folder), {"expected": [e for e, _, _ in rows],
                                   "actual": [a for _, a, _ in rows],
                                   "id": [i for _, _, i in rows]},
                    id_column="id", html=False, markdown=False)
        root = parse_valid(Path(folder) / "j.xml")
    assert len(root.find("testsuite").findall("testcase")) == len(rows)


def test_diffs_past_the_cap_say_where_to_look(tmp_path, monkeypatch):
    from matchlens.core.output.reports import failing_codes, junit_feed

    monkeypatch.setattr(failing_codes, "JUNIT_DIFFS", 1)  # the cap itself, made small
    run_reports(tmp_path, {"expected": ["ab", "cd", "ef", "gh"],
                           "actual": ["ax", "cx", "ef", "gx"]},
                html=False, markdown=False)
    suite = parse_valid(tmp_path / "j.xml").find("testsuite")
    cases = suite.findall("testcase")
    bodies = [c.find("failure").text if c.find("failure") is not None else None for c in cases]
    assert bodies[0] == "a[-b-]{+x+}"
    assert bodies[1] == bodies[3] == junit_feed.no_diff_text()
    assert "past the first 1 failing rows" in bodies[1]
    assert bodies[2] is None
    # the cut, said once per testsuite: 3 failing rows, 1 with a diff, 2 past the cut
    (prop,) = suite.find("properties").findall("property")
    assert prop.get("name") == "matchlens.diffs"
    assert prop.get("value").startswith("a readable diff in the first 1 of 3 failing testcases")
    assert "the other 2 say so" in prop.get("value")


def test_every_failing_row_has_its_diff_under_the_cap(tmp_path):
    run_reports(tmp_path, {"expected": ["ab", "cd", "ef"], "actual": ["ax", "cx", "ef"]},
                html=False, markdown=False)
    suite = parse_valid(tmp_path / "j.xml").find("testsuite")
    bodies = [c.find("failure").text for c in suite.findall("testcase")
              if c.find("failure") is not None]
    assert bodies == ["a[-b-]{+x+}", "c[-d-]{+x+}"]
    (prop,) = suite.find("properties").findall("property")
    assert prop.get("value") == "a readable diff in every failing testcase (2)"


def test_a_junit_file_that_cannot_be_written_is_the_runs_error(tmp_path):
    # the JUnit file is written on a thread beside the HTML: its error still reaches the caller
    from matchlens.core.errors import OutputError

    (tmp_path / "j.xml").mkdir()
    with pytest.raises(OutputError, match="j.xml"):
        run_reports(tmp_path, {"expected": ["a", "b"], "actual": ["a", "c"]}, markdown=False)
    assert (tmp_path / "r.html").is_file()  # rendered meanwhile
