"""core.output.reports.html_report: every text from data is escaped — parsed by a real HTML5
parser (html5lib, as browsers parse), no element or attribute came from data — and the page
needs nothing from outside (offline, scripts disabled)."""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

import html5lib
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from matchlens.core.output.reports.html_report import SCRIPT, STYLE
from tests.core.output.reports.runs import run_joined_reports, run_reports

NS = "{http://www.w3.org/1999/xhtml}"
SVG = "{http://www.w3.org/2000/svg}"
# Every element and attribute the writer itself makes: anything else came from data
ELEMENTS = {NS + t for t in ("html", "head", "meta", "title", "style", "body", "h1", "h2", "h3",
                             "p", "b", "span", "div", "table", "thead", "tbody", "tr", "th",
                             "td", "ul", "li", "details", "summary", "del", "ins", "code", "pre",
                             "script", "label", "input", "i")}
ELEMENTS |= {SVG + t for t in ("svg", "g", "rect", "title", "line", "text")}
ATTRIBUTES = {"lang", "charset", "name", "content", "class", "data-sort", "id", "type", "style",
              "viewBox", "role", "aria-label", "x", "y", "width", "height", "fill",
              "fill-opacity", "x1", "x2", "y1", "y2", "text-anchor", "open",
              "{http://www.w3.org/2000/xmlns/}xmlns"}

HOSTILE = ["<script>alert(1)</script>", "</script><script>alert(2)</script>", "</style><b>",
           "<img src=x onerror=alert(3)>", '"><svg onload=alert(4)>', "' onmouseover='x",
           "<!--", "-->", "<![CDATA[", "]]>", "&amp;&lt;", "<iframe srcdoc='<p>'>",
           "\x00\x01\x1b[31m\x7f", "\ud800 lone \udfff", "<textarea>", "<plaintext>",
           "\u2028\u2029", "<x-evil data-v=1>", "{{7*7}}", "javascript:alert(5)",
           "api_key=sk-abcdefghijklmnopqrstuvwx"]

hostile_text = st.lists(st.one_of(st.sampled_from(HOSTILE), st.text(max_size=8)),
                        min_size=0, max_size=4).map("".join)


def check_no_element_from_data(document: str) -> None:
    tree = html5lib.parse(document, treebuilder="etree", namespaceHTMLElements=True)
    scripts = styles = 0
    for element in tree.iter():
        if not isinstance(element.tag, str):  # comments (none are written)
            raise AssertionError(f"a comment came from data: {element!r}")
        assert element.tag in ELEMENTS, f"<{element.tag}> came from data"
        for attribute in element.attrib:
            assert attribute in ATTRIBUTES, f"attribute {attribute} on <{element.tag}>"
            assert not attribute.lower().startswith("on")
        if element.tag == NS + "script":
            scripts += 1
            assert element.text == SCRIPT
        if element.tag == NS + "style":
            styles += 1
            assert element.text == STYLE
        if element.tag == NS + "input":
            assert element.attrib == {"type": "search"}
    assert (scripts, styles) == (1, 1)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(hostile_text, hostile_text, hostile_text), min_size=1, max_size=6),
       hostile_text)
@example([("<b>x</b>", "</script>", "\ud800")], "<script>")
def test_hostile_strings_never_become_elements(rows, variant):
    expected = [e for e, _, _ in rows]
    columns = {"expected": expected, variant or "actual": [a for _, a, _ in rows],
               "id": [i for _, _, i in rows]}
    if len(columns) < 3:  # the variant's name is one of the other columns' names
        return
    with tempfile.TemporaryDirectory() as folder:
        run_reports(Path(folder), columns, actual=(variant or "actual",), id_column="id",
                    markdown=False, junit=False)
        document = (Path(folder) / "r.html").read_text(encoding="utf-8")
    check_no_element_from_data(document)
    assert "sk-abcdefghijklmnopqrstuvwx" not in document  # scrubbed as everywhere else


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(hostile_text, hostile_text, hostile_text), min_size=1, max_size=5))
@example([("<b>x</b>", "</script>", "\ud800")])
def test_hostile_strings_in_the_baseline_section(rows):
    # every row passed in the baseline (its output is the reference) and most fail now, so
    # the hostile texts reach the regressed rows' three blocks
    # ids stay markup without lone surrogates: the join's ids go through pyarrow, which
    # refuses them (a separate bug of the runs join, reported)
    ids = [f"<i>{k}</i>{i.encode('utf-8', 'replace').decode()}"
           for k, (_, _, i) in enumerate(rows)]
    expected = [e for e, _, _ in rows]
    with tempfile.TemporaryDirectory() as folder:
        run_joined_reports(Path(folder), {"id": ids, "expected": expected,
                                          "actual": [a for _, a, _ in rows]},
                           {"id": ids, "expected": expected, "actual": expected},
                           markdown=False, junit=False)
        document = (Path(folder) / "r.html").read_text(encoding="utf-8")
    check_no_element_from_data(document)
    assert "sk-abcdefghijklmnopqrstuvwx" not in document


def test_a_megabyte_cell_is_cut_and_escaped(tmp_path):
    big = "<script>" + "x" * 1_000_000 + "</script>"
    data = run_reports(tmp_path, {"expected": ["a", big], "actual": [big, "b"]},
                       markdown=False, junit=False)
    document = (tmp_path / "r.html").read_text(encoding="utf-8")
    check_no_element_from_data(document)
    assert len(document) < 200_000  # two cells cut to rows.CELL_CHARS, not 2 MB
    assert any(row.cut for group in data.worst for row in group.rows)


def test_needs_nothing_from_outside(tmp_path):
    run_reports(tmp_path, {"expected": ["Paris", "Rome"], "actual": ["It's Paris.", "Rome"]})
    document = (tmp_path / "r.html").read_text(encoding="utf-8")
    # no fetch of any kind: no src/href, no <link>, no CSS url() or @import, no fonts
    assert not re.search(r"\b(src|href)\s*=|<link|url\(|@import|@font-face", document)
    assert "prefers-color-scheme:dark" in document and "@media print" in document


def test_the_worst_rows_show_their_diff_and_failing_metrics(tmp_path):
    run_reports(tmp_path, {"expected": ["Canberra"], "actual": ["Sydney"], "id": ["qa-2"]},
                id_column="id")
    tree = html5lib.parse((tmp_path / "r.html").read_text(encoding="utf-8"),
                          treebuilder="etree", namespaceHTMLElements=False)
    rows = [e for e in tree.iter("div") if e.get("class") == "row"]
    assert rows, "no worst row"
    diff = next(e for e in rows[0].iter("div") if e.get("class") == "diff")
    assert [d.text for d in diff.iter("del")] == ["Canberra"]
    assert [i.text for i in diff.iter("ins")] == ["Sydney"]
    text = "".join(rows[0].itertext())
    # Canberra/Sydney share almost nothing, so levenshtein_similarity is far below 0.70: the
    # row names the metric with its score (two decimals) and the threshold it missed
    assert "qa-2" in text and re.search(r"levenshtein_similarity 0\.\d\d < 0\.70", text)


@pytest.mark.parametrize("variants", [1, 3])
def test_distributions_overlay_every_variant(tmp_path, variants):
    names = [f"out_{k}" for k in range(variants)]
    columns = {"expected": ["a b c", "a b", "x"], **{n: ["a b c", "a", "y"] for n in names}}
    run_reports(tmp_path, columns, actual=tuple(names), markdown=False, junit=False)
    tree = html5lib.parse((tmp_path / "r.html").read_text(encoding="utf-8"),
                          treebuilder="etree", namespaceHTMLElements=True)
    svgs = [e for e in tree.iter(SVG + "svg")]
    assert len(svgs) == 3  # one per metric of the run
    for svg in svgs:
        assert len([g for g in svg.iter(SVG + "g")]) == variants
    thresholds = [e for e in tree.iter(SVG + "line") if e.get("class") == "threshold"]
    assert len(thresholds) == 2  # exact_match and levenshtein_similarity have one
