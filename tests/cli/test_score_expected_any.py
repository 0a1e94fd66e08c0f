"""`matchlens score --expected-any SPEC`: several references per row, `<metric>_ref` columns."""

from __future__ import annotations

import csv
import json

import pytest

from tests.cli.conftest import assert_one_line_error, read_csv_file, run_in_process


@pytest.fixture
def cli(capsys):
    return lambda *args: run_in_process(capsys, "score", *args)


def write_csv(path, rows):
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerows(rows)
    return path


def test_csv_cells_holding_json_arrays(cli, tmp_path):
    data = write_csv(tmp_path / "qa.csv", [
        ["answers", "output"],
        # squad: "the broncos" -> "broncos" equals reference 1 ("The Broncos" -> "broncos")
        [json.dumps(["Denver Broncos", "The Broncos"]), "the Broncos!"],
        # an empty list is a missing reference
        ["[]", "anything"],
        # a plain cell is one reference: "Paris" vs "paris": squad-equal, index 0
        ["Paris", "paris."],
    ])
    out = tmp_path / "scored.csv"
    run = cli(data, "--expected-any", "answers", "--actual", "output", "--normalise", "squad",
              "--metrics", "exact_match,token_f1", "-o", out)
    assert run.code == 0, run.err
    header, rows = read_csv_file(out)
    assert header == ["answers", "output", "exact_match", "exact_match_pass", "exact_match_ref",
                      "token_f1", "token_f1_pass", "token_f1_ref"]
    records = [dict(zip(header, row, strict=True)) for row in rows]
    assert [r["exact_match"] for r in records] == ["1.0", "", "1.0"]
    assert [r["exact_match_ref"] for r in records] == ["1", "", "0"]
    assert "line 3" in run.err and "no reference answers (an empty list)" in run.err
    sidecar = tmp_path / "scored.csv.matchlens.toml"
    assert 'expected = "any:answers"' in sidecar.read_text("utf-8")
    # the sidecar as --config scores the same references again, with no column flags
    again = tmp_path / "again.csv"
    assert cli(data, "--config", sidecar, "-o", again).code == 0
    assert read_csv_file(again) == read_csv_file(out)


def test_jsonl_with_a_jsonpath_and_two_variants(cli, tmp_path):
    data = tmp_path / "qa.jsonl"
    data.write_text("\n".join(json.dumps(r) for r in [
        {"answers": {"text": ["7", "seven"]}, "a": "#### 7", "b": "seven"},
    ]) + "\n", encoding="utf-8")
    out = tmp_path / "scored.jsonl"
    run = cli(data, "--expected-any", "$.answers.text", "--actual", "a", "--actual", "b",
              "--set", "exact_match.normalise=extract_regex:(\\w+)$", "--metrics",
              "exact_match", "-o", out)
    assert run.code == 0, run.err
    record = json.loads(out.read_text("utf-8"))
    # a: "#### 7" -> last word "7" equals reference 0; b: "seven" equals reference 1
    assert record["exact_match_ref@a"] == 0 and record["exact_match_ref@b"] == 1
    assert record["exact_match@a"] == record["exact_match@b"] == 1.0


def test_one_reference_flag_only(cli, tmp_path):
    data = write_csv(tmp_path / "qa.csv", [["e", "o"], ["x", "x"]])
    run = cli(data, "--expected", "e", "--expected-any", "e", "--actual", "o")
    assert_one_line_error(run, "give --expected or --expected-any, not both")
    run = cli(data, "--expected-any", "nope", "--actual", "o")
    assert_one_line_error(run, "no column 'nope'")


def test_numbers_keep_the_text_they_were_written_with(cli, tmp_path):
    """Issue 28 item 4: `[1e400]` against "1e400" is equal, `[1.10]` is "1.10" (not "1.1"),
    and a JSONL input column holding `[1e23]` is written back as `[1e23]`."""
    data = write_csv(tmp_path / "qa.csv", [
        ["answers", "output"], ["[1e400]", "1e400"], ["[1.10]", "1.10"], ["[1.10]", "1.1"],
        ["[7, 1e23]", "1e23"]])
    out = tmp_path / "scored.csv"
    run = cli(data, "--expected-any", "answers", "--actual", "output", "--metrics",
              "exact_match", "-o", out)
    assert run.code == 0, run.err
    header, rows = read_csv_file(out)
    assert [row[2] for row in rows] == ["1.0", "1.0", "0.0", "1.0"]
    assert [row[0] for row in rows] == ["[1e400]", "[1.10]", "[1.10]", "[7, 1e23]"]
    lines = tmp_path / "qa.jsonl"
    lines.write_text('{"answers": [1e23, 1.10], "output": "1.10"}\n', encoding="utf-8")
    out = tmp_path / "scored.jsonl"
    run = cli(lines, "--expected-any", "answers", "--actual", "output", "--metrics",
              "exact_match", "-o", out)
    assert run.code == 0, run.err
    text = out.read_text("utf-8")
    assert '"answers": [1e23, 1.10]' in text and '"exact_match_ref": 1' in text


def test_a_deeply_nested_cell_names_its_line_and_column(cli, tmp_path):
    data = write_csv(tmp_path / "qa.csv", [["answers", "output"], ["[" * 100_000, "x"],
                                           ['["x"]', "x"]])
    run = cli(data, "--expected-any", "answers", "--actual", "output", "--metrics",
              "exact_match")
    assert run.code == 0, run.err
    assert "qa.csv, line 2, column 'answers'" in run.err and "nested too deeply" in run.err
