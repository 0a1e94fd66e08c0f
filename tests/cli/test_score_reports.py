"""`matchlens score --html/--markdown/--junit` (cli.md § Reports) on the shipped sample: the
three files in the same run as the table, their numbers the command's own, provenance without
a key, one sentence for a bad --id/--label or a folder."""

from __future__ import annotations

import hashlib
import json
import re

import html5lib

from tests.cli.conftest import assert_one_line_error

FLAGS = ("--expected", "expected", "--actual", "output_a", "--actual", "output_b",
         "--set", "levenshtein_similarity.threshold=0.7", "--set", "exact_match.threshold=1")


def test_the_three_reports_beside_the_table(cli, sample_csv, tmp_path, monkeypatch):
    key = "sk-test-abcdefghijklmnop1234"
    monkeypatch.setenv("OPENAI_API_KEY", key)
    out = tmp_path / "out.csv"
    run = cli("score", str(sample_csv), *FLAGS, "--label", "label", "--worst", "3",
              "--base-url", f"https://user:{key}@example.invalid/v1", "-o", str(out),
              "--html", str(tmp_path / "r.html"), "--markdown", str(tmp_path / "s.md"),
              "--junit", str(tmp_path / "j.xml"))
    assert run.code == 0, run.err
    html = (tmp_path / "r.html").read_text(encoding="utf-8")
    md = (tmp_path / "s.md").read_text(encoding="utf-8")
    xml = (tmp_path / "j.xml").read_text(encoding="utf-8")
    for text in (html, md, xml):
        assert key not in text
    assert "example.invalid" in html  # the URL is there (options, command), its key is not
    # provenance: the input's SHA-256 and row count
    assert hashlib.sha256(sample_csv.read_bytes()).hexdigest() in html
    # the summary's overall line, as the command printed it on stderr
    printed = re.findall(r"overall: (\d+\.\d%) of the 200 rows", run.err)
    assert len(printed) == 2
    for rate in printed:
        assert f"<b>Overall: {rate}</b> of the 200 rows" in html
        assert f"**{rate}** of the 200 rows" in md
    tree = html5lib.parse(html, treebuilder="etree", namespaceHTMLElements=False)
    headings = ["".join(h.itertext()) for h in tree.iter("h2")]
    assert "Calibration against the labels" in headings
    # --worst 3: three rows per thresholded metric (exact_match, contains,
    # levenshtein_similarity, jaccard carry a threshold) and variant
    rows = [d for d in tree.iter("div") if d.get("class") == "row"]
    assert len(rows) == 3 * 4 * 2
    assert xml.count("<testcase ") == 400  # 200 rows x 2 variants
    assert 'name="qa-001"' in xml  # the id column, guessed


def test_bad_id_column_is_one_sentence(cli, sample_csv, tmp_path):
    run = cli("score", str(sample_csv), *FLAGS, "-o", str(tmp_path / "o.csv"), "--html",
              str(tmp_path / "r.html"), "--id", "nope")
    assert_one_line_error(run, "'nope'", "--id")
    assert not (tmp_path / "r.html").exists() and not (tmp_path / "o.csv").exists()


def test_report_path_that_is_a_folder(cli, sample_csv, tmp_path):
    run = cli("score", str(sample_csv), *FLAGS, "-o", str(tmp_path / "o.csv"), "--junit",
              str(tmp_path))
    assert_one_line_error(run, str(tmp_path), "folder", "--junit")


def _json_rows(tmp_path):
    """Three JSON outputs; `$.age` is wrong in rows a and b, right in c; `$.name` always right."""
    rows = [("a", {"name": "Ada", "age": 36}, {"name": "Ada", "age": 37}),
            ("b", {"name": "Bob", "age": 40}, {"name": "Bob", "age": 41}),
            ("c", {"name": "Cy", "age": 22}, {"name": "Cy", "age": 22})]
    path = tmp_path / "json.jsonl"
    path.write_text("".join(json.dumps({"id": i, "expected": json.dumps(e),
                                        "output": json.dumps(a)}) + "\n"
                            for i, e, a in rows), encoding="utf-8")
    return path


def _fields_table(html: str) -> dict[str, list[str]] | None:
    """The report's JSON fields table as {path: its cells}, or None when it has none."""
    tree = html5lib.parse(html, treebuilder="etree", namespaceHTMLElements=False)
    body = list(tree.iter("body"))[0]
    children = list(body.iter())
    heads = [k for k, el in enumerate(children)
             if el.tag == "h2" and "".join(el.itertext()) == "JSON fields"]
    if not heads:
        return None
    table = next(el for el in children[heads[0]:] if el.tag == "table")
    header = ["".join(th.itertext()) for th in table.iter("th")]
    out = {}
    for tr in table.find("tbody").iter("tr"):
        cells = dict(zip(header, ("".join(td.itertext()) for td in tr.iter("td")), strict=True))
        out[cells.pop("path")] = cells
    return out


def test_json_fields_table_in_the_reports(cli, tmp_path):
    data = _json_rows(tmp_path)
    run = cli("score", str(data), "--expected", "expected", "--actual", "output",
              "--metrics", "json_distance,exact_match", "-o", str(tmp_path / "o.csv"),
              "--html", str(tmp_path / "r.html"), "--markdown", str(tmp_path / "r.md"))
    assert run.code == 0, run.err
    table = _fields_table((tmp_path / "r.html").read_text(encoding="utf-8"))
    assert table is not None
    # $.age: in the reference of all 3 rows, equal in c only, differs in a and b -> 1/3
    assert table["$.age"] == {"variant": "output", "expected": "3", "equal": "1",
                              "differs": "2", "missing": "0", "extra": "0",
                              "accuracy": "33.3%"}
    assert table["$.name"]["equal"] == "3" and table["$.name"]["accuracy"] == "100.0%"
    assert list(table) == ["$.age", "$.name"]  # worst accuracy first
    md = (tmp_path / "r.md").read_text(encoding="utf-8")
    assert "| $.age | 3 | 1 | 2 | 0 | 0 | 33.3% |" in md


def test_no_fields_table_without_json_distance(cli, tmp_path):
    data = _json_rows(tmp_path)
    run = cli("score", str(data), "--expected", "expected", "--actual", "output",
              "--metrics", "exact_match", "-o", str(tmp_path / "o.csv"),
              "--html", str(tmp_path / "r.html"), "--markdown", str(tmp_path / "r.md"))
    assert run.code == 0, run.err
    assert _fields_table((tmp_path / "r.html").read_text(encoding="utf-8")) is None
    assert "JSON fields" not in (tmp_path / "r.md").read_text(encoding="utf-8")


def test_number_columns_are_right_aligned(cli, tmp_path):
    data = _json_rows(tmp_path)
    run = cli("score", str(data), "--expected", "expected", "--actual", "output",
              "--metrics", "json_distance,exact_match", "-o", str(tmp_path / "o.csv"),
              "--html", str(tmp_path / "r.html"), "--markdown", str(tmp_path / "r.md"))
    assert run.code == 0, run.err
    html = (tmp_path / "r.html").read_text(encoding="utf-8")
    tree = html5lib.parse(html, treebuilder="etree", namespaceHTMLElements=False)
    for table in tree.iter("table"):
        head = [th for th in table.iter("th")]
        names = ["".join(th.itertext()) for th in head]
        if "path" not in names and "mean" not in names:
            continue
        for tr in table.find("tbody").iter("tr"):
            for th, td in zip(head, tr.iter("td"), strict=True):
                name = "".join(th.itertext())
                # the text columns: left; every count, score, rate and threshold: right
                left = name in ("variant", "path", "metric")
                assert (td.get("class") == "n") is not left, (name, "".join(td.itertext()))
                assert (th.get("class") == "n") is not left, name
    md = (tmp_path / "r.md").read_text(encoding="utf-8")
    # the fields table: path left, the five counts and the accuracy right
    assert "| path | expected | equal | differs | missing | extra | accuracy |\n" \
           "|---|---:|---:|---:|---:|---:|---:|" in md
    assert "| metric | threshold | mean | median | pass rate | scored | missing |\n" \
           "|---|---:|---:|---:|---:|---:|---:|" in md
