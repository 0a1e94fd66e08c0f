"""`matchlens fields --id/--references/--baseline/--baseline-actual` (cli/fields.py over
core.scoring.fields_runs): rows of several files joined by id as `score` joins them, the
baseline's block beside this run's, and `matchlens.fields(...)` with the same arguments."""

from __future__ import annotations

import csv
import io
import json

import pandas as pd
import pytest

import matchlens
from tests.cli.conftest import assert_one_line_error

ITEMS = [{"sku": "a", "qty": 1}, {"sku": "b", "qty": 2}, {"sku": "c", "qty": 3}]
REF = {"phone": "555", "items": ITEMS}


def write_jsonl(path, rows):
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), "utf-8")
    return path


@pytest.fixture
def files(tmp_path):
    """References for ids 1-4 (all REF). Today, in another order: id 3 equal, id 2 without
    its phone, id 1 equal, no id 4. Yesterday: id 1 with phone 556, ids 2 and 4 equal, no
    id 3."""
    refs = write_jsonl(tmp_path / "refs.jsonl",
                       [{"id": i, "answer": json.dumps(REF)} for i in range(1, 5)])
    today = write_jsonl(tmp_path / "today.jsonl", [
        {"id": 3, "result": json.dumps(REF)},
        {"id": 2, "result": json.dumps({"items": ITEMS})},
        {"id": 1, "result": json.dumps(REF)}])
    yesterday = write_jsonl(tmp_path / "yesterday.jsonl", [
        {"id": 1, "result": json.dumps({"phone": "556", "items": ITEMS})},
        {"id": 2, "result": json.dumps(REF)},
        {"id": 4, "result": json.dumps(REF)}])
    return refs, today, yesterday


def blocks(text):
    out: dict[str, dict[str, dict]] = {}
    for row in csv.DictReader(io.StringIO(text)):
        out.setdefault(row["variant"], {})[row["path"]] = row
    return out


def test_references_and_baseline_are_joined_by_id_and_the_baseline_has_its_block(cli, files):
    refs, today, yesterday = files
    run = cli("fields", today, "--id", "id", "--actual", "$.result", "--references", refs,
              "--expected", "$.answer", "--baseline", yesterday, "--baseline-actual",
              "$.result")
    assert run.code == 0, run.err
    got = blocks(run.out)
    assert list(got) == ["$.result", "baseline"]  # this run's block, then the baseline's
    # today: ids 3, 2, 1 compared (the join pairs them by id, not by line): phone in 3
    # references, equal for ids 3 and 1, dropped for id 2 -> equal 2, missing 1
    phone = got["$.result"]["$.phone"]
    assert (phone["expected"], phone["equal"], phone["missing"], phone["differs"]) == \
        ("3", "2", "1", "0")
    # yesterday: ids 1, 2, 4 compared: 556 != 555 for id 1 -> equal 2, differs 1
    phone = got["baseline"]["$.phone"]
    assert (phone["expected"], phone["equal"], phone["missing"], phone["differs"]) == \
        ("3", "2", "0", "1")
    # 3 rows x 3 items, every sku equal on both sides
    assert got["baseline"]["$.items[*].sku"]["equal"] == "9"
    # the 4 references are the rows; each run lacks one of them (id 4 today, id 3 before)
    assert run.err_lines == ["$.result: 4 rows: 3 compared, 1 invalid (1 where the output is "
                             "missing)",
                             "baseline: 4 rows: 3 compared, 1 invalid (1 where the output is "
                             "missing)"]


def test_json_names_the_variants_and_the_baseline(cli, files):
    refs, today, yesterday = files
    run = cli("fields", today, "--id", "id", "--actual", "$.result", "--references", refs,
              "--expected", "$.answer", "--baseline", yesterday, "--baseline-actual",
              "$.result", "--json")
    doc = json.loads(run.out)
    assert doc["rows"] == 4
    # id 4 lacks today's output, id 3 yesterday's: 2 rows invalid in at least one variant
    assert doc["invalid"] == 2
    assert [v["variant"] for v in doc["variants"]] == ["$.result", "baseline"]


def test_a_baseline_written_by_score_is_read_through_its_sidecar(cli, files, tmp_path):
    refs, today, yesterday = files
    scored = tmp_path / "yesterday_scored.csv"
    done = cli("score", yesterday, "--id", "id", "--actual", "$.result", "--references", refs,
               "--expected", "$.answer", "--metrics", "exact_match", "-o", scored, "--quiet")
    assert done.code == 0, done.err
    # no --id and no --baseline-actual: the sidecar records both
    run = cli("fields", today, "--actual", "$.result", "--references", refs,
              "--expected", "$.answer", "--baseline", scored)
    assert run.code == 0, run.err
    got = blocks(run.out)
    # the scored table holds a row for id 3 with an empty output (its run did not answer it):
    # left out as no output, so the baseline counts as yesterday's file did
    assert got["baseline"]["$.phone"]["differs"] == "1"
    assert "baseline: 4 rows: 3 compared, 1 invalid (1 where the output is missing)" in \
        run.err_lines


def test_without_a_references_file_a_gone_row_takes_the_baseline_files_reference(cli, tmp_path):
    today = write_jsonl(tmp_path / "t.jsonl", [
        {"id": "a", "ref": '{"x": 1}', "out": '{"x": 1}'}])
    base = write_jsonl(tmp_path / "b.jsonl", [
        {"id": "a", "ref": '{"x": 1}', "out": '{"x": 2}'},
        {"id": "b", "ref": '{"x": 5}', "out": '{"x": 5}'}])
    run = cli("fields", today, "--id", "id", "--expected", "ref", "--actual", "out",
              "--baseline", base, "--baseline-actual", "out")
    got = blocks(run.out)
    # the baseline: id a 1 vs 2 differs; id b (only in the baseline) compared with ITS
    # reference 5: equal -> expected 2, equal 1, differs 1
    x = got["baseline"]["$.x"]
    assert (x["expected"], x["equal"], x["differs"]) == ("2", "1", "1")
    # this run: id a equal; id b has no output of today's run
    assert (got["out"]["$.x"]["expected"], got["out"]["$.x"]["equal"]) == ("1", "1")
    assert run.err_lines[0] == "out: 2 rows: 1 compared, 1 invalid (1 where the output is " \
                               "missing)"


def test_an_actual_column_called_baseline_keeps_its_name(cli, tmp_path):
    today = write_jsonl(tmp_path / "t.jsonl", [{"id": 1, "ref": "[1]", "baseline": "[1]"}])
    base = write_jsonl(tmp_path / "b.jsonl", [{"id": 1, "out": "[2]"}])
    run = cli("fields", today, "--id", "id", "--expected", "ref", "--actual", "baseline",
              "--baseline", base, "--baseline-actual", "out")
    assert list(blocks(run.out)) == ["baseline", "baseline (earlier run)"]


def test_join_mistakes_are_one_sentence(cli, files, tmp_path):
    refs, today, yesterday = files
    assert_one_line_error(cli("fields", today, "--actual", "$.result", "--references", refs,
                              "--expected", "$.answer"), "give --id SPEC")
    assert_one_line_error(cli("fields", today, "--id", "id", "--actual", "$.result",
                              "--baseline", yesterday, "--expected", "$.answer"),
                          "--baseline-actual")
    twice = write_jsonl(tmp_path / "twice.jsonl", [{"id": 1, "answer": "{}"},
                                                   {"id": 1, "answer": "{}"}])
    assert_one_line_error(cli("fields", today, "--id", "id", "--actual", "$.result",
                              "--references", twice, "--expected", "$.answer"),
                          "is on two rows")
    assert_one_line_error(cli("fields", today, "--id", "id", "--actual", "$.result",
                              "--references", refs, "--expected-any", "$.answer"),
                          "--expected-any")


def test_the_python_api_joins_paths_and_dataframes_alike(cli, files):
    refs, today, yesterday = files
    via_cli = blocks(cli("fields", today, "--id", "id", "--actual", "$.result",
                         "--references", refs, "--expected", "$.answer", "--baseline",
                         yesterday, "--baseline-actual", "$.result").out)
    frames = [pd.read_json(p, lines=True, dtype=False) for p in (today, refs, yesterday)]
    for data, references, baseline, actual, expected in (
            (today, refs, yesterday, "$.result", "$.answer"),
            (*frames, "result", "answer")):
        frame = matchlens.fields(data, expected=expected, actual=actual, id="id",
                                 references=references, baseline=baseline,
                                 baseline_actual=actual)
        assert list(frame.columns)[0] == "variant"
        assert list(dict.fromkeys(frame["variant"])) == [actual, "baseline"]
        for row in frame.to_dict("records"):
            mine = via_cli["$.result" if row["variant"] == actual else "baseline"][row["path"]]
            assert [str(row[c]) for c in ("equal", "differs", "missing", "extra")] == \
                [mine[c] for c in ("equal", "differs", "missing", "extra")]
        assert frame.attrs["matchlens"]["rows"] == 4


def test_fields_names_every_missing_column(cli, tmp_path):
    data = tmp_path / "d.jsonl"
    data.write_text('{"id": 1, "a": "{}", "b": "{}"}\n', encoding="utf-8")
    run = cli("fields", str(data), "--expected", "nope1", "--actual", "nope2")
    assert_one_line_error(run, "'nope1' and 'nope2'", "d.jsonl")


def test_score_refuses_an_id_column_that_is_not_there(cli, tmp_path):
    # --id is recorded in the sidecar for a later --baseline: a wrong one is said now
    data = tmp_path / "d.jsonl"
    data.write_text('{"id": 1, "a": "x", "b": "y"}\n', encoding="utf-8")
    run = cli("score", str(data), "--expected", "a", "--actual", "b", "--id", "nope",
              "-o", str(tmp_path / "o.csv"))
    assert_one_line_error(run, "no column 'nope' for --id", "d.jsonl")
    assert not (tmp_path / "o.csv").exists()


def test_the_references_file_takes_its_own_reading_options(cli, files, tmp_path):
    # the same references inside a .json holding two arrays: --references-records picks one,
    # as `score` reads it; without it the file is refused (several arrays), never guessed
    _, today, _ = files
    refs = tmp_path / "refs.json"
    refs.write_text(json.dumps({"meta": [{"x": 1}, {"x": 2}],
                                "rows": [{"id": i, "answer": json.dumps(REF)}
                                         for i in range(1, 5)]}), "utf-8")
    args = ["fields", today, "--id", "id", "--actual", "$.result", "--references", refs,
            "--expected", "$.answer"]
    picked = cli(*args, "--references-records", "$.rows")
    assert picked.code == 0, picked.err
    # ids 3 and 1 equal, id 2 without its phone; id 4 has no output, so it is counted in the
    # header's invalid rows, not in the fields: phone expected 3 times, equal 2, missing 1
    phone = {row["path"]: row for row in csv.DictReader(io.StringIO(picked.out))}["$.phone"]
    assert (phone["expected"], phone["equal"], phone["missing"]) == ("3", "2", "1")
    assert cli(*args).code == 2
