"""`matchlens score --baseline/--references --id` with `--html/--markdown/--junit`
(cli.runs → cli.reports.write_run_reports → core.output.reports.regressions): the baseline's
section holds the summary's own counts, the regressed rows as reference / baseline output /
this output, worst first; provenance names the three files with their SHA-256; JUnit fails a
regressed row saying so."""

from __future__ import annotations

import hashlib
import json
import re
import xml.etree.ElementTree as ET

import html5lib
import pytest

from matchlens.core.diff.readable.chunks import readable_diff


def _jsonl(path, rows):
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


@pytest.fixture
def files(tmp_path):
    today = _jsonl(tmp_path / "today.jsonl", [
        {"id": 3, "result": "Paris"}, {"id": 1, "result": "Berlin"},
        {"id": 5, "result": "extra"}, {"id": 2, "result": "Lisbon, Portugal"},
        {"id": 7, "result": "Oslo is cold"}, {"id": 8, "result": "Roma <b>"}])
    refs = _jsonl(tmp_path / "refs.jsonl", [
        {"id": 1, "answer": "Berlin"}, {"id": 2, "answer": "Lisbon"},
        {"id": 3, "answer": "Paris"}, {"id": 4, "answer": "Rome"},
        {"id": 7, "answer": "Oslo"}, {"id": 8, "answer": "Roma"}])
    yesterday = _jsonl(tmp_path / "yesterday.jsonl", [
        {"id": 2, "result": "Lisbon"}, {"id": 1, "result": "Bern"},
        {"id": 3, "result": "Paris"}, {"id": 6, "result": "gone one"},
        {"id": 7, "result": "Oslo"}, {"id": 8, "result": "Roma"}])
    return today, refs, yesterday


def _run(cli, files, tmp_path, *extra):
    today, refs, yesterday = files
    return cli("score", str(today), "--id", "id", "--actual", "$.result", "--references",
               str(refs), "--expected", "$.answer", "--metrics",
               "exact_match,levenshtein_similarity", "--set",
               "levenshtein_similarity.threshold=0.7", "--set", "exact_match.threshold=1",
               "--baseline", str(yesterday), "--baseline-actual", "$.result",
               "-o", str(tmp_path / "out.csv"), "--html", str(tmp_path / "r.html"),
               "--markdown", str(tmp_path / "s.md"), "--junit", str(tmp_path / "j.xml"),
               *extra)


def _cells(table) -> list[list[str]]:
    return [["".join(td.itertext()) for td in tr.iter("td")]
            for tr in table.iter("tr") if list(tr.iter("td"))]


def test_the_baseline_section_holds_the_summarys_numbers(cli, files, tmp_path):
    run = _run(cli, files, tmp_path)
    assert run.code == 0, run.err
    html = (tmp_path / "r.html").read_text(encoding="utf-8")
    tree = html5lib.parse(html, treebuilder="etree", namespaceHTMLElements=False)
    assert "Against the baseline" in ["".join(h.itertext()) for h in tree.iter("h2")]
    table = next(t for t in tree.iter("table")
                 if "regressed" in ["".join(th.itertext()) for th in t.iter("th")])
    head = ["".join(th.itertext()) for th in table.iter("th")]
    by_metric = {row[0]: dict(zip(head, row, strict=True)) for row in _cells(table)}
    # the command's own summary lines: "  exact_match: 2 regressed, 1 improved, ..."
    printed = dict(re.findall(r"^  (\w+): (\d+ regressed, .* gone)$", run.err, re.M))
    assert set(printed) == set(by_metric) == {"exact_match", "levenshtein_similarity"}
    for metric, line in printed.items():
        counts = {label: n for n, label in re.findall(r"(\d+) (\w+)", line)}
        assert counts == {k: by_metric[metric][k] for k in counts}, metric
        sentence = re.search(r"mean \$\.result − baseline = (\S+) \(95% CI (\S+) to (\S+)\) "
                             r"over (\d+) rows.*?sign test (p [<=] [\d.]+)\)",
                             run.err.split(f"  {metric}:")[1]).groups()
        row = by_metric[metric]
        assert (row["mean Δ"], row["95% CI"], row["rows compared"], row["sign test"]) == (
            sentence[0], f"{sentence[1]} to {sentence[2]}", sentence[3], sentence[4])
    assert "3 rows regressed (passed before, fail now); 1 improved" in run.err
    md = (tmp_path / "s.md").read_text(encoding="utf-8")
    assert "**3 rows regressed** (passed before, fail now); 1 improved." in md
    assert "| exact\\_match | 3 | 1 |" in md


def test_regressed_rows_three_ways_worst_first(cli, files, tmp_path):
    assert _run(cli, files, tmp_path).code == 0
    html = (tmp_path / "r.html").read_text(encoding="utf-8")
    tree = html5lib.parse(html, treebuilder="etree", namespaceHTMLElements=False)
    section = html.split("<h2>Against the baseline</h2>")[1].split("<h2>")[0]
    part = html5lib.parse(section, treebuilder="etree", namespaceHTMLElements=False)
    rows = [d for d in part.iter("div") if d.get("class") == "row"]
    # against a baseline equal to the reference (similarity 1), ids 2 ("Lisbon, Portugal":
    # 1 - 10/16 = 0.375), 7 ("Oslo is cold": 1 - 8/12 = 0.333) and 8 ("Roma <b>": 1 - 4/8 =
    # 0.5) flipped both metrics; exact_match dropped 1 on each, so levenshtein_similarity's
    # drop orders them: 7 (0.667), 2 (0.625), 8 (0.5)
    names = [next(r.iter("b")).text for r in rows]
    assert names == ["7", "2", "8"]
    first = rows[1]
    diffs = [d for d in first.iter("div") if d.get("class") == "diff"]
    labels = ["".join(d.itertext()) for d in first.iter("div") if d.get("class") == "muted"]
    assert labels == ["reference", "baseline output (against the reference)",
                      "this output (against the reference)"]
    assert ["".join(d.itertext()) for d in diffs] == ["Lisbon", "Lisbon", "Lisbon, Portugal"]
    # the chunks are `diff --json`'s: the inserted text of this output against the reference
    chunks = readable_diff("Lisbon", "Lisbon, Portugal").chunks
    inserted = ["Lisbon, Portugal"[c.act_start:c.act_end] for c in chunks if c.op == "insert"]
    assert [i.text for i in diffs[2].iter("ins")] == inserted
    assert list(diffs[1].iter("ins")) == [] and list(diffs[1].iter("del")) == []
    # user text is text: "<b>" of id 8's output is not an element
    assert [b.text for b in tree.iter("b")].count(" <b>") == 0
    assert "Roma &lt;b&gt;" in html or "Roma<ins> &lt;b&gt;</ins>" in html


def test_worst_caps_the_regressed_rows_and_says_so(cli, files, tmp_path):
    assert _run(cli, files, tmp_path, "--worst", "1").code == 0
    html = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert "the worst 1 of 3 (--worst 1), worst first" in html
    md = (tmp_path / "s.md").read_text(encoding="utf-8")
    assert "Worst 1 of 3 regressed rows" in md


def test_provenance_names_the_three_files(cli, files, tmp_path):
    assert _run(cli, files, tmp_path).code == 0
    html = (tmp_path / "r.html").read_text(encoding="utf-8")
    tree = html5lib.parse(html, treebuilder="etree", namespaceHTMLElements=False)
    table = next(t for t in tree.iter("table")
                 if "SHA-256" in ["".join(th.itertext()) for th in t.iter("th")])
    got = [(row[0], row[2], row[3]) for row in _cells(table)]
    today, refs, yesterday = files
    want = [(role, hashlib.sha256(path.read_bytes()).hexdigest(), "6")
            for role, path in (("run", today), ("references", refs), ("baseline", yesterday))]
    assert got == want


def test_junit_fails_a_regressed_row_saying_so(cli, files, tmp_path):
    assert _run(cli, files, tmp_path).code == 0
    root = ET.parse(tmp_path / "j.xml").getroot()
    cases = {c.get("name"): c for c in root.iter("testcase")}
    # 8 joined ids: 3 1 5 2 7 8 (the run), 4 (a reference only), 6 (gone)
    assert list(cases) == ["3", "1", "5", "2", "7", "8", "4", "6"]
    failure = cases["2"].find("failure")
    assert failure.get("message").startswith("regressed: passed every thresholded metric "
                                             "in the baseline; ")
    assert "exact_match 0 < 1" in failure.get("message")
    assert "levenshtein_similarity 0.38 < 0.70" in failure.get("message")
    assert failure.text == "Lisbon{+, Portugal+}"
    assert cases["1"].find("failure") is None  # improved: passes now
    assert cases["6"].find("skipped") is not None  # gone: no score now, and no pass before


def test_expected_any_each_output_against_its_best_reference(cli, tmp_path):
    refs = _jsonl(tmp_path / "refs.jsonl", [{"id": 1, "answers": ["Lisbon", "Lisboa"]}])
    today = _jsonl(tmp_path / "today.jsonl", [{"id": 1, "result": "Lisbonne, Portugal"}])
    before = _jsonl(tmp_path / "before.jsonl", [{"id": 1, "result": "Lisboa"}])
    run = cli("score", str(today), "--id", "id", "--actual", "$.result", "--references",
              str(refs), "--expected-any", "$.answers", "--metrics", "levenshtein_similarity",
              "--set", "levenshtein_similarity.threshold=0.7", "--baseline", str(before),
              "--baseline-actual", "$.result", "-o", str(tmp_path / "o.csv"),
              "--html", str(tmp_path / "r.html"))
    assert run.code == 0, run.err
    html = (tmp_path / "r.html").read_text(encoding="utf-8")
    section = html.split("<h2>Against the baseline</h2>")[1].split("<h2>")[0]
    part = html5lib.parse(section, treebuilder="etree", namespaceHTMLElements=False)
    (row,) = [d for d in part.iter("div") if d.get("class") == "row"]
    texts = ["".join(d.itertext()) for d in row.iter("div") if d.get("class") == "diff"]
    # this output is 12 edits from "Lisbon" and from "Lisboa" (a tie: the first reference
    # is its best); the baseline's output is "Lisboa" itself: each is diffed against its own
    # best reference, both shown
    assert texts == ["Lisbon", "Lisboa", "Lisboa", "Lisbonne, Portugal"]
