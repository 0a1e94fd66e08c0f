"""`matchlens score --html/--markdown/--junit` (cli.md § Reports) on the shipped sample: the
three files in the same run as the table, their numbers the command's own, provenance without
a key, one sentence for a bad --id/--label or a folder."""

from __future__ import annotations

import hashlib
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
