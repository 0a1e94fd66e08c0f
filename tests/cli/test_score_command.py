"""`matchlens score` against its contract (shared spec cli.md): the real command on real files.

Runs go through `matchlens.main.main([...])` in this process; output files and real processes
are in test_score_files_and_processes.py.
"""

from __future__ import annotations

import contextlib
import json
import statistics

import pytest

from matchlens.core.metrics import evaluate, get_metric, local_metric_ids
from tests.cli.conftest import (
    DEFAULT_METRICS,
    as_written,
    assert_one_line_error,
    read_jsonl_file,
    score_columns,
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
