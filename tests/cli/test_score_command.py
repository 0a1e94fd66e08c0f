"""`matchlens score` against its contract (shared spec cli.md): the real command on real files.

Most runs go through `matchlens.main.main([...])` in this process; the last section runs
`python -m matchlens` and the installed `matchlens` script as real processes.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import statistics
import subprocess
import tomllib

import pytest

from matchlens.core import scored_table
from matchlens.core.metrics import evaluate, get_metric, local_metric_ids
from tests.cli.conftest import (
    DEFAULT_METRICS,
    MATCHLENS_SCRIPT,
    as_written,
    assert_one_line_error,
    read_csv_file,
    read_jsonl_file,
    run_process,
    score_columns,
    sha256,
    snapshot,
)

PASS_TEXT = {"true": True, "false": False, "": None}

# The config file exactly as the contract (cli.md, "Config file (TOML)") shows it.
CONTRACT_TOML = """\
[metrics.levenshtein_similarity]
threshold = 0.8
case_sensitive = false

[metrics.json_distance]
threshold = 0
ignore_keys = ["id", "timestamp"]

[openai]
base_url = "http://localhost:11434/v1"   # optional
model = "text-embedding-3-small"
"""


def assert_agrees(record: dict[str, str], column: str, metric_id: str, expected: str,
                  actual: str, **kwargs) -> None:
    """The score and _pass cells equal core.metrics.evaluate on the same pair."""
    result = evaluate(get_metric(metric_id), expected, actual, **kwargs)
    cell, verdict = record[column], record[column.replace(metric_id, f"{metric_id}_pass", 1)]
    if result.score is None:
        assert cell == "", (column, expected, actual, cell)
    else:
        assert cell != "" and float(cell) == result.score, (column, expected, actual, cell)
    assert PASS_TEXT[verdict] == result.passed, (column, expected, actual, verdict)


def thresholded_pass_rate(records: list[dict[str, str]], suffix: str = "") -> float:
    """Share of rows whose every non-empty-able `_pass` column (one with any verdict) is true."""
    gated = [c for c in records[0] if c.endswith("_pass" + suffix)
             and any(r[c] for r in records)]
    return sum(all(r[c] == "true" for c in gated) for r in records) / len(records)


# --- columns, order, cells --------------------------------------------------------------------

def test_default_run_keeps_every_input_cell_and_adds_score_and_pass_columns(
        cli, sample_csv, sample_rows):
    run = cli("score", sample_csv, "--expected", "expected", "--actual", "output_a")
    assert run.code == 0, run.err
    header, rows = run.table()
    input_header = list(sample_rows[0])
    assert header == input_header + score_columns(DEFAULT_METRICS)
    assert len(rows) == len(sample_rows) == 200
    for row, original in zip(rows, sample_rows, strict=True):
        assert row[:len(input_header)] == [as_written(original[c]) for c in input_header]
    records = run.records()
    for metric in DEFAULT_METRICS:
        assert {r[f"{metric}_pass"] for r in records} <= {"true", "false", ""}
    # levenshtein_distance has no default threshold: never a verdict; its score is an integer
    assert {r["levenshtein_distance_pass"] for r in records} == {""}
    assert all(r["levenshtein_distance"].isdigit() for r in records)
    # the thresholded ones give both verdicts on this sample
    assert {r["exact_match_pass"] for r in records} == {"true", "false"}


def test_sample_formula_cells_are_escaped_and_plain_numbers_stay(cli, sample_csv):
    run = cli("score", sample_csv, "--expected", "expected", "--actual", "output_a")
    by_id = {r["id"]: r for r in run.records()}
    # qa-016 / qa-033 / qa-048 / qa-103 of the sample (README: "+1", "-40", "===")
    assert by_id["qa-016"]["expected"] == "+1"
    assert by_id["qa-033"]["expected"] == "-40"
    assert by_id["qa-048"]["expected"] == "'-273.15 °C"
    assert by_id["qa-103"]["expected"] == "'==="
    assert by_id["qa-103"]["output_b"] == "'="


def test_formula_safety_on_hand_made_cells(cli, tmp_path):
    cells = ["=1+1", "+SUM(A1:A9)", "-2+3", "@cmd", "=HYPERLINK(\"http://x\")", "-3.5", "+1",
             "-40", "1e5", "-1.5E-3", "-inf", "+nan", "-1_000", "-", "=", "plain", "", " =x"]
    path = tmp_path / "f.csv"
    lines = ["expected,actual"] + [f'"{c.replace(chr(34), chr(34) * 2)}",x' for c in cells]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    run = cli("score", path, "--expected", "expected", "--actual", "actual")
    assert run.code == 0, run.err
    written = [r["expected"] for r in run.records()]
    assert written == [
        "'=1+1", "'+SUM(A1:A9)", "'-2+3", "'@cmd", "'=HYPERLINK(\"http://x\")",
        "-3.5", "+1", "-40", "1e5", "-1.5E-3",  # numbers a spreadsheet reads as numbers stay
        "'-inf", "'+nan", "'-1_000",  # float() takes these, a spreadsheet runs them (#NAME?)
        "'-", "'=", "plain", "", " =x"]
    # a header cell is a text cell too
    header_file = tmp_path / "h.csv"
    header_file.write_text("expected,=cmd|' /C calc'!A0\nParis,Paris\n", encoding="utf-8")
    header, _ = cli("score", header_file, "--expected", "expected", "--actual", "expected").table()
    assert header[:2] == ["expected", "'=cmd|' /C calc'!A0"]
    # JSONL is not a spreadsheet: the same cells go out untouched
    out = tmp_path / "f.jsonl"
    assert cli("score", path, "--expected", "expected", "--actual", "actual", "-o", out).code == 0
    assert [r["expected"] for r in read_jsonl_file(out)] == cells


def test_metrics_option_sets_columns_in_the_given_order(cli, sample_csv):
    run = cli("score", sample_csv, "--expected", "expected", "--actual", "output_a",
              "--metrics", "levenshtein_similarity,contains")
    assert run.code == 0, run.err
    header, _ = run.table()
    assert header[7:] == score_columns(["levenshtein_similarity", "contains"])


def test_several_actuals_are_suffixed_with_their_column(cli, sample_csv):
    run = cli("score", sample_csv, "--expected", "expected", "--actual", "output_a",
              "--actual", "output_b", "--metrics", "jaccard,exact_match")
    assert run.code == 0, run.err
    header, _ = run.table()
    assert header[7:] == [
        "jaccard@output_a", "jaccard_pass@output_a", "exact_match@output_a",
        "exact_match_pass@output_a", "jaccard@output_b", "jaccard_pass@output_b",
        "exact_match@output_b", "exact_match_pass@output_b"]
    assert "[output_a]" in run.err and "[output_b]" in run.err


def test_metrics_all_is_every_local_metric(cli, sample_csv):
    run = cli("score", sample_csv, "--expected", "expected", "--actual", "output_b",
              "--metrics", "all")
    assert run.code == 0, run.err
    header, _ = run.table()
    local = local_metric_ids()
    assert header[7:] == score_columns(local)
    assert {"json_distance", "bleu", "chrf", "rouge_l", *DEFAULT_METRICS} <= set(local)
    assert "semantic_similarity" not in local  # needs the network


def test_unknown_metric_exits_2_listing_the_valid_ids(cli, sample_csv):
    run = cli("score", sample_csv, "--expected", "expected", "--actual", "output_a",
              "--metrics", "exact_match,levenstein")
    line = assert_one_line_error(run, "levenstein")
    for metric_id in local_metric_ids():
        assert metric_id in line
    assert run.out == ""


# --- the scores themselves --------------------------------------------------------------------

def test_qa_001_by_hand(cli, sample_csv):
    """'Paris' vs "It's Paris.": derived from the metric definitions, not read off the tool."""
    run = cli("score", sample_csv, "--expected", "expected", "--actual", "output_a")
    row = run.records()[0]
    assert (row["id"], row["expected"], row["output_a"]) == ("qa-001", "Paris", "It's Paris.")
    assert (row["exact_match"], row["exact_match_pass"]) == ("0.0", "false")  # differ
    assert (row["contains"], row["contains_pass"]) == ("1.0", "true")  # "Paris" is inside
    # insert "It's " (5) and "." (1): 6 edits; similarity round(1 - 6/11, 2) = 0.45 < 0.7
    assert row["levenshtein_distance"] == "6"
    assert (row["levenshtein_similarity"], row["levenshtein_similarity_pass"]) == ("0.45", "false")
    # words {"Paris"} and {"It's", "Paris."} share none: 0/3
    assert (row["jaccard"], row["jaccard_pass"]) == ("0.0", "false")


def test_every_score_agrees_with_core_evaluate_on_the_sample(cli, sample_csv, sample_rows):
    run = cli("score", sample_csv, "--expected", "expected", "--actual", "output_a",
              "--actual", "output_b", "--metrics", "all")
    assert run.code == 0, run.err
    records = run.records()
    for record, original in zip(records, sample_rows, strict=True):
        for variant in ("output_a", "output_b"):
            for metric_id in local_metric_ids():
                assert_agrees(record, f"{metric_id}@{variant}", metric_id,
                              original["expected"], original[variant])


def test_expected_literal_is_the_reference_for_every_row(cli, sample_csv, sample_rows):
    run = cli("score", sample_csv, "--expected-literal", "Paris", "--actual", "output_b",
              "--metrics", "exact_match,levenshtein_similarity")
    assert run.code == 0, run.err
    records = run.records()
    for record, original in zip(records, sample_rows, strict=True):
        assert record["expected"] == as_written(original["expected"])  # the column is untouched
        for metric_id in ("exact_match", "levenshtein_similarity"):
            assert_agrees(record, metric_id, metric_id, "Paris", original["output_b"])
    assert sum(r["exact_match_pass"] == "true" for r in records) >= 1  # qa-001 answers Paris


# --- output files -----------------------------------------------------------------------------

def test_output_csv_file_matches_stdout_and_has_a_sidecar_config(cli, sample_csv, tmp_path):
    args = ["score", sample_csv, "--expected", "expected", "--actual", "output_a"]
    to_stdout = cli(*args)
    out = tmp_path / "scored.csv"
    to_file = cli(*args, "-o", out)
    assert to_file.code == 0 and to_file.out == ""
    assert out.read_bytes() == to_stdout.out.encode("utf-8")
    assert to_file.err == to_stdout.err  # the same summary
    sidecar = tmp_path / "scored.csv.matchlens.toml"
    data = tomllib.loads(sidecar.read_text(encoding="utf-8"))
    assert data["matchlens"]["metrics"] == list(DEFAULT_METRICS)
    assert data["matchlens"]["actual"] == ["output_a"]
    assert set(data["metrics"]) == set(DEFAULT_METRICS)
    assert "api_key" not in sidecar.read_text(encoding="utf-8")


def test_sidecar_is_usable_as_config_and_reproduces_the_verdicts(cli, sample_csv, tmp_path):
    first, second = tmp_path / "first.csv", tmp_path / "second.csv"
    tuned = cli("score", sample_csv, "--expected", "expected", "--actual", "output_a",
                "--set", "levenshtein_similarity.threshold=0.9",
                "--set", "exact_match.case_sensitive=false",
                "--set", "contains.threshold=none", "-o", first)
    assert tuned.code == 0, tuned.err
    again = cli("score", sample_csv, "--expected", "expected", "--actual", "output_a",
                "--config", tmp_path / "first.csv.matchlens.toml", "-o", second)
    assert again.code == 0, again.err
    assert second.read_bytes() == first.read_bytes()
    plain = cli("score", sample_csv, "--expected", "expected", "--actual", "output_a")
    assert plain.out.encode("utf-8") != first.read_bytes()  # the settings did change something
    _, rows = read_csv_file(first)
    header, _ = read_csv_file(first)
    assert {row[header.index("contains_pass")] for row in rows} == {""}  # threshold unset


def test_jsonl_output_keeps_nested_values_and_json_types(cli, sample_jsonl, tmp_path):
    out = tmp_path / "scored.jsonl"
    run = cli("score", sample_jsonl, "--expected", "$.reference.answer",
              "--actual", "$.output_a.answer", "--metrics", "all", "-o", out)
    assert run.code == 0, run.err
    assert run.out == ""
    originals = read_jsonl_file(sample_jsonl)
    scored = read_jsonl_file(out)
    assert len(scored) == len(originals) == 200
    added = score_columns(local_metric_ids())
    for record, original in zip(scored, originals, strict=True):
        assert list(record) == list(original) + added
        assert {k: record[k] for k in original} == original  # nested objects, not text
        for metric_id in local_metric_ids():
            score, verdict = record[metric_id], record[f"{metric_id}_pass"]
            kind = int if get_metric(metric_id).integer else float  # counts are integers
            assert score is None or type(score) is kind, (metric_id, score)
            assert verdict is None or type(verdict) is bool
    assert isinstance(scored[120]["reference"]["answer"], dict)  # ex-001: an object
    # json_distance on the QA rows: invalid, so null and no verdict
    assert scored[0]["json_distance"] is None and scored[0]["json_distance_pass"] is None
    assert (tmp_path / "scored.jsonl.matchlens.toml").is_file()


def test_csv_input_to_jsonl_output_keeps_cells_as_text(cli, sample_csv, sample_rows, tmp_path):
    out = tmp_path / "scored.jsonl"
    assert cli("score", sample_csv, "--expected", "expected", "--actual", "output_a",
               "-o", out).code == 0
    scored = read_jsonl_file(out)
    for record, original in zip(scored, sample_rows, strict=True):
        assert {k: record[k] for k in original} == original  # '-273.15 °C' not escaped here


# --- config and overrides ---------------------------------------------------------------------

def test_contract_example_config_changes_verdicts_and_gates_json_distance(
        cli, sample_csv, sample_rows, tmp_path):
    config = tmp_path / "matchlens.toml"
    config.write_text(CONTRACT_TOML, encoding="utf-8")
    default = cli("score", sample_csv, "--expected", "expected", "--actual", "output_a")
    tuned = cli("score", sample_csv, "--expected", "expected", "--actual", "output_a",
                "--config", config)
    assert tuned.code == 0, tuned.err
    header, _ = tuned.table()
    # json_distance has a threshold in the file, so it joins the default metrics
    assert header[7:] == score_columns([*DEFAULT_METRICS, "json_distance"])
    flipped = 0
    for before, after, original in zip(default.records(), tuned.records(), sample_rows,
                                       strict=True):
        assert_agrees(after, "levenshtein_similarity", "levenshtein_similarity",
                      original["expected"], original["output_a"], threshold=0.8)
        assert_agrees(after, "json_distance", "json_distance", original["expected"],
                      original["output_a"], threshold=0,
                      options={"ignore_keys": ["id", "timestamp"]})
        flipped += before["levenshtein_similarity_pass"] != after["levenshtein_similarity_pass"]
    assert flipped > 0  # rows scoring in [0.7, 0.8) pass by default, fail at 0.8


def test_set_overrides_threshold_and_option(cli, sample_csv, sample_rows):
    run = cli("score", sample_csv, "--expected", "expected", "--actual", "output_a",
              "--set", "levenshtein_similarity.threshold=0.9",
              "--set", "exact_match.case_sensitive=false")
    assert run.code == 0, run.err
    default = cli("score", sample_csv, "--expected", "expected", "--actual", "output_a")
    changed = {"levenshtein_similarity": 0, "exact_match": 0}
    for record, before, original in zip(run.records(), default.records(), sample_rows,
                                        strict=True):
        e, a = original["expected"], original["output_a"]
        assert_agrees(record, "levenshtein_similarity", "levenshtein_similarity", e, a,
                      threshold=0.9)
        assert_agrees(record, "exact_match", "exact_match", e, a,
                      options={"case_sensitive": False})
        for metric_id in changed:
            changed[metric_id] += record[f"{metric_id}_pass"] != before[f"{metric_id}_pass"]
    # both overrides changed verdicts (the sample has case slips like 'paris', 'ANKARA')
    assert all(changed.values()), changed


def test_a_config_threshold_on_bleu_adds_bleu_to_the_default_metrics(
        cli, sample_csv, sample_rows, tmp_path):
    config = tmp_path / "bleu.toml"
    config.write_text("[metrics.bleu]\nthreshold = 0.3\n", encoding="utf-8")
    run = cli("score", sample_csv, "--expected", "expected", "--actual", "output_a",
              "--config", config)
    assert run.code == 0, run.err
    header, _ = run.table()
    assert header[7:] == score_columns([*DEFAULT_METRICS, "bleu"])
    for record, original in zip(run.records(), sample_rows, strict=True):
        assert_agrees(record, "bleu", "bleu", original["expected"], original["output_a"],
                      threshold=0.3)
    # the same through --set
    via_set = cli("score", sample_csv, "--expected", "expected", "--actual", "output_a",
                  "--set", "bleu.threshold=0.3")
    assert via_set.out == run.out


def test_config_given_before_the_subcommand_is_used(cli, sample_csv, tmp_path):
    config = tmp_path / "bleu.toml"
    config.write_text("[metrics.bleu]\nthreshold = 0.3\n", encoding="utf-8")
    after = cli("score", sample_csv, "--expected", "expected", "--actual", "output_a",
                "--config", config)
    before = cli("--config", config, "score", sample_csv, "--expected", "expected",
                 "--actual", "output_a")
    assert before.code == 0 and before.out == after.out


# --- the gate ---------------------------------------------------------------------------------

def test_fail_under_exits_1_below_the_rate_and_0_at_or_above(cli, sample_csv):
    args = ["score", sample_csv, "--expected", "expected", "--actual", "output_a"]
    rate = thresholded_pass_rate(cli(*args).records())
    assert 0 < rate < 1
    at = cli(*args, "--fail-under", repr(rate))
    assert at.code == 0, at.err  # equal is not below
    assert cli(*args, "--fail-under", "0").code == 0
    below = cli(*args, "--fail-under", f"{rate + 0.01:.4f}")
    assert below.code == 1
    gate = [line for line in below.err_lines if "--fail-under" in line]
    assert len(gate) == 1 and "below" in gate[0] and f"{rate:.1%}" in gate[0]
    assert below.out == at.out  # the table is still written
    assert "overall" in below.err  # and the summary


def test_fail_under_with_two_variants_fails_when_one_is_below(cli, sample_csv):
    args = ["score", sample_csv, "--expected", "expected", "--actual", "output_a",
            "--actual", "output_b"]
    records = cli(*args).records()
    rate_a = thresholded_pass_rate(records, "@output_a")
    rate_b = thresholded_pass_rate(records, "@output_b")
    assert rate_a < rate_b  # README: variant B is better on average
    assert cli(*args, "--fail-under", f"{(rate_a + rate_b) / 2:.4f}").code == 1
    assert cli(*args, "--fail-under", repr(rate_a)).code == 0


@pytest.mark.parametrize("extra", [
    ["--metrics", "levenshtein_distance,bleu"],
    ["--metrics", "levenshtein_similarity", "--set", "levenshtein_similarity.threshold=none"],
])
def test_fail_under_without_a_thresholded_metric_exits_2(cli, sample_csv, extra):
    run = cli("score", sample_csv, "--expected", "expected", "--actual", "output_a",
              "--fail-under", "0.5", *extra)
    assert_one_line_error(run, "threshold")
    assert run.out == ""


# --- JSONPath ---------------------------------------------------------------------------------

def test_jsonpath_on_the_jsonl_sample_agrees_with_the_csv_run(cli, sample_jsonl, sample_csv,
                                                              sample_rows):
    """QA rows hold the same texts in both files, so their scores must be the same cells;
    json_distance parses both sides, so it agrees on every row, extraction rows included."""
    as_jsonl = cli("score", sample_jsonl, "--expected", "$.reference.answer",
                   "--actual", "$.output_a.answer", "--actual", "$.output_b.answer",
                   "--metrics", "all")
    as_csv = cli("score", sample_csv, "--expected", "expected", "--actual", "output_a",
                 "--actual", "output_b", "--metrics", "all")
    assert as_jsonl.code == 0 and "missing" not in as_jsonl.err, as_jsonl.err
    for j, c, original in zip(as_jsonl.records(), as_csv.records(), sample_rows, strict=True):
        for variant in ("a", "b"):
            for metric_id in local_metric_ids():
                for name in (metric_id, f"{metric_id}_pass"):
                    ours = j[f"{name}@$.output_{variant}.answer"]
                    if original["task"] == "qa" or metric_id == "json_distance":
                        assert ours == c[f"{name}@output_{variant}"], (original["id"], name)


def test_jsonpath_into_a_csv_cell_holding_json(cli, sample_csv, sample_rows):
    """`$.expected.name` matches only the person rows: the others are empty and 'missing'."""
    run = cli("score", sample_csv, "--expected", "$.expected.name",
              "--actual", "$.output_b.name", "--metrics", "exact_match,levenshtein_similarity")
    assert run.code == 0, run.err
    records = run.records()
    missing = 0
    for record, original in zip(records, sample_rows, strict=True):
        names = []
        for column in ("expected", "output_b"):
            with contextlib.suppress(ValueError):
                value = json.loads(original[column])
                if isinstance(value, dict) and isinstance(value.get("name"), str):
                    names.append(value["name"])
        if len(names) == 2:
            for metric_id in ("exact_match", "levenshtein_similarity"):
                assert_agrees(record, metric_id, metric_id, *names)
        if original["task"] == "qa":
            assert record["exact_match"] == record["exact_match_pass"] == ""
        missing += record["exact_match"] == ""
    scored = len(records) - missing
    assert 0 < scored < missing
    summary_line = next(line for line in run.err_lines if line.strip().startswith("exact_match"))
    assert f"{scored} scored, {missing} missing" in summary_line
    # the rows without a value are explained: grouped, counted, the first one located
    why = [line for line in run.err_lines if line.strip().startswith("why:")]
    assert why and sample_csv.name in why[0] and "line" in why[0], why
    assert sum(int(line.split()[1]) for line in why) >= missing, why  # every row counted


def test_jsonpath_missing_in_some_rows_scores_the_rest(cli, tmp_path):
    path = tmp_path / "partial.jsonl"
    rows = [{"ref": "Paris", "out": {"answer": "Paris"}},
            {"ref": "Rome", "out": {"other": "Rome"}},
            {"ref": "Oslo", "out": "not json at all"},
            {"ref": "Bern", "out": {"answer": "bern"}}]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    run = cli("score", path, "--expected", "ref", "--actual", "$.out.answer")
    assert run.code == 0, run.err
    records = run.records()
    assert [r["exact_match"] for r in records] == ["1.0", "", "", "0.0"]
    assert [r["exact_match_pass"] for r in records] == ["true", "", "", "false"]
    assert all(r[c] == "" for r in records[1:3] for c in score_columns(DEFAULT_METRICS))
    assert "2 scored, 2 missing" in run.err
    # rows without a value do not pass: 1 of 4 rows passes every thresholded metric
    assert "overall: 25.0%" in run.err


def test_invalid_json_gives_json_distance_no_score_and_counts_invalid(cli, tmp_path):
    path = tmp_path / "json.csv"
    path.write_text('expected,actual\n'
                    '"{""a"": 1}","{""a"": 1}"\n'
                    '"{""a"": 1}","{""a"": 2, ""b"": 3}"\n'
                    '"{""a"": 1}","{""a"": 1"\n'
                    '"{""a"": 1}","{\'a\': 1}"\n', encoding="utf-8")
    run = cli("score", path, "--expected", "expected", "--actual", "actual",
              "--metrics", "json_distance", "--set", "json_distance.threshold=0")
    assert run.code == 0, run.err
    records = run.records()
    # equal: 0; a 1 -> 2 plus key b missing on one side: 2; the last two do not parse
    assert [r["json_distance"] for r in records] == ["0", "2", "", ""]
    assert [r["json_distance_pass"] for r in records] == ["true", "false", "", ""]
    line = next(line for line in run.err_lines if line.strip().startswith("json_distance"))
    assert "2 scored, 2 invalid" in line


# --- the summary ------------------------------------------------------------------------------

def test_summary_has_mean_median_pass_rate_and_overall(cli, sample_csv):
    run = cli("score", sample_csv, "--expected", "expected", "--actual", "output_a",
              "--metrics", "all")
    assert run.code == 0
    records = run.records()
    assert sample_csv.name in run.err_lines[0] and "200" in run.err_lines[0]
    header = next(line for line in run.err_lines if line.split()[0] == "metric")
    assert "mean" in header
    assert "median" in header and "pass rate" in header
    for metric_id in local_metric_ids():
        line = next(line for line in run.err_lines if line.split()[0] == metric_id)
        values = [float(r[metric_id]) for r in records if r[metric_id] != ""]
        assert f"{statistics.mean(values):.3f}" in line, line
        median = statistics.median(values)
        if get_metric(metric_id).integer:
            assert f" {median:g} " in line, line
        else:
            assert f"{median:.3f}" in line, line
        verdicts = [r[f"{metric_id}_pass"] for r in records]
        if any(verdicts):  # pass rate over ALL rows
            assert f"{verdicts.count('true') / len(records):.1%}" in line, line
    overall = next(line for line in run.err_lines if "overall" in line)
    assert f"{thresholded_pass_rate(records):.1%}" in overall


def test_summary_says_there_is_no_overall_rate_without_thresholds(cli, sample_csv):
    run = cli("score", sample_csv, "--expected", "expected", "--actual", "output_a",
              "--metrics", "levenshtein_distance")
    assert run.code == 0
    overall = [line for line in run.err_lines if "overall" in line]
    assert len(overall) == 1 and "no metric has a threshold" in overall[0]


def test_quiet_prints_no_summary(cli, sample_csv):
    run = cli("score", sample_csv, "--expected", "expected", "--actual", "output_a", "--quiet")
    assert run.code == 0 and run.err == "" and run.out


# --- atomic output, input never touched -------------------------------------------------------

def output_args(sample_csv, out):
    return ["score", sample_csv, "--expected", "expected", "--actual", "output_a", "-o", out]


def test_output_in_a_missing_folder_leaves_nothing(cli, sample_csv, tmp_path):
    before = snapshot(tmp_path)
    run = cli(*output_args(sample_csv, tmp_path / "nope" / "out.csv"))
    assert_one_line_error(run, "out.csv")
    assert snapshot(tmp_path) == before


def test_output_that_is_a_folder_leaves_it_alone(cli, sample_csv, tmp_path):
    folder = tmp_path / "out.csv"
    folder.mkdir()
    before = snapshot(tmp_path)
    assert_one_line_error(cli(*output_args(sample_csv, folder)), "out.csv", "folder")
    assert snapshot(tmp_path) == before


def test_output_equal_to_the_input_is_refused(cli, sample_csv, tmp_path, monkeypatch):
    before = snapshot(tmp_path)
    monkeypatch.chdir(tmp_path)
    link = tmp_path / "link.csv"
    link.symlink_to(sample_csv)
    (tmp_path / "sub").mkdir()
    for out in (sample_csv, f"./{sample_csv.name}", f"sub/../{sample_csv.name}", link):
        run = cli("score", sample_csv.name, "--expected", "expected", "--actual", "output_a",
                  "-o", out)
        assert_one_line_error(run, "input")
    link.unlink()
    (tmp_path / "sub").rmdir()
    assert snapshot(tmp_path) == before


class _DiskFullAfter:
    """A text handle that writes `budget` characters and then fails like a full disk."""

    def __init__(self, handle, budget: int) -> None:
        self.handle, self.budget = handle, budget

    def write(self, text: str) -> int:
        if len(text) > self.budget:
            self.handle.write(text[: self.budget])
            self.handle.flush()
            raise OSError(errno.ENOSPC, "No space left on device")
        self.budget -= len(text)
        return self.handle.write(text)

    def writelines(self, lines) -> None:
        for line in lines:
            self.write(line)


@pytest.mark.parametrize("name", ["out.csv", "out.jsonl"])
def test_a_write_failing_midway_keeps_the_previous_output_and_no_temp_file(
        cli, sample_csv, tmp_path, monkeypatch, name):
    out = tmp_path / name
    out.write_bytes(b"previous results\n")
    before = snapshot(tmp_path)
    partial = []
    real = scored_table.atomic_writer

    @contextlib.contextmanager
    def failing_writer(path, **kwargs):
        with real(path, **kwargs) as handle:
            partial.append(path)
            yield _DiskFullAfter(handle, budget=5000)

    monkeypatch.setattr(scored_table, "atomic_writer", failing_writer)
    run = cli(*output_args(sample_csv, out))
    assert_one_line_error(run, name, "No space left")
    assert partial == [out]  # it did start writing (5000 characters) before failing
    assert snapshot(tmp_path) == before  # old output intact, no temp file, no sidecar


def test_unknown_output_extension_writes_nothing(cli, sample_csv, tmp_path):
    before = snapshot(tmp_path)
    assert_one_line_error(cli(*output_args(sample_csv, tmp_path / "out.xlsx")), "out.xlsx",
                          ".csv", ".jsonl")
    assert snapshot(tmp_path) == before


# --- real processes ---------------------------------------------------------------------------

def test_python_m_matchlens_gives_the_same_bytes_as_in_process(cli, sample_csv):
    args = ["score", sample_csv, "--expected", "expected", "--actual", "output_a",
            "--actual", "output_b"]
    process = run_process(*args)
    assert process.code == 0
    assert process.out == cli(*args).out
    assert "overall" in process.err


def test_installed_script_writes_jsonl_and_exits_0(sample_jsonl, tmp_path):
    assert MATCHLENS_SCRIPT.is_file()
    out = tmp_path / "o.jsonl"
    run = run_process("score", sample_jsonl, "--expected", "$.reference.answer",
                      "--actual", "$.output_b.answer", "-o", out, how="script")
    assert run.code == 0 and run.out == ""
    assert len(read_jsonl_file(out)) == 200


def test_installed_script_gate_and_bad_input_exit_codes(sample_csv, tmp_path):
    gate = run_process("score", sample_csv, "--expected", "expected", "--actual", "output_a",
                       "--fail-under", "0.99", how="script")
    assert gate.code == 1 and "--fail-under" in gate.err
    bad = run_process("score", sample_csv, "--expected", "expected", "--actual", "outptu_a",
                      how="script")
    assert_one_line_error(bad, sample_csv.name, "'outptu_a'", "did you mean 'output_a'")


def test_stdout_is_utf8_whatever_the_locale(sample_csv):
    """A Windows redirect is cp1252; simulate a non-UTF-8 stdout: the CSV must still come out
    (as UTF-8, like -o), not stop on the first non-Latin cell with a traceback."""
    run = run_process("score", sample_csv, "--expected", "expected", "--actual", "output_a",
                      env={"PYTHONIOENCODING": "latin-1"})
    assert run.code == 0
    assert "東京" in run.out  # qa-006 (run_process decodes stdout as UTF-8)


def test_reader_closing_the_pipe_early_is_not_an_error(tmp_path):
    """`matchlens score big.csv ... | head`: no BrokenPipeError traceback, summary and gate."""
    path = tmp_path / "big.csv"
    path.write_text("expected,actual\n" + "".join(f"answer {i},answer {i % 7}\n"
                                                  for i in range(20_000)), encoding="utf-8")
    before = sha256(path)
    process = subprocess.Popen(
        [str(MATCHLENS_SCRIPT), "score", str(path), "--expected", "expected",
         "--actual", "actual", "--fail-under", "0.99"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env={**os.environ})
    assert process.stdout.read(100).startswith(b"expected,actual,exact_match")
    process.stdout.close()  # like `head -c 100`
    err = process.stderr.read().decode("utf-8")
    code = process.wait(timeout=60)
    process.stderr.close()
    assert "Traceback" not in err and "Exception ignored" not in err, err
    assert code == 1 and "--fail-under" in err  # the gate still decides the exit code
    assert sha256(path) == before


def test_help_and_version_exit_0(cli):
    assert cli("score", "--help").code == 0
    assert cli("--version").code == 0
