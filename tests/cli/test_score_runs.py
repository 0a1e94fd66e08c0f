"""`matchlens score --id --references --baseline --fail-on-regression` in a real process: the
joined table, the summary, the gate, and each bad input as one sentence (exit 2)."""

from __future__ import annotations

import json

import pytest

from tests.cli.conftest import assert_one_line_error, read_csv_file, run_process


def _jsonl(path, rows):
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


@pytest.fixture
def files(tmp_path):
    today = _jsonl(tmp_path / "today.jsonl", [
        {"id": 3, "result": "Paris"}, {"id": 1, "result": "Berlin"},
        {"id": 5, "result": "extra"}, {"id": 2, "result": "Lisbon, Portugal"}])
    refs = _jsonl(tmp_path / "refs.jsonl", [
        {"id": 1, "answer": "Berlin"}, {"id": 2, "answer": "Lisbon"},
        {"id": 3, "answer": "Paris"}, {"id": 4, "answer": "Rome"}])
    yesterday = _jsonl(tmp_path / "yesterday.jsonl", [
        {"id": 2, "result": "Lisbon"}, {"id": 1, "result": "Bern"},
        {"id": 3, "result": "Paris"}, {"id": 6, "result": "gone one"}])
    return today, refs, yesterday


BFCL = ["--id", "id", "--actual", "$.result", "--references", "{refs}", "--expected",
        "$.answer", "--metrics", "exact_match"]


def _args(files, *extra):
    today, refs, _ = files
    return ["score", today, *[a.format(refs=refs) for a in BFCL], *extra]


def test_the_spec_example(files, tmp_path):
    today, refs, yesterday = files
    out = tmp_path / "compared.csv"
    run = run_process(*_args(files, "--baseline", yesterday, "--baseline-actual", "$.result",
                             "-o", out, "--fail-on-regression"))
    # id 2: "Lisbon" passed exact_match yesterday, "Lisbon, Portugal" fails today
    assert run.code == 1, run.err
    assert "1 row regressed (passed before, fail now)" in run.err
    assert "exact_match: 1 regressed, 1 improved, 0 worse, 0 better, 2 same, 1 new, 1 gone" \
        in run.err
    assert "95% CI" in run.err and "sign test" in run.err
    header, rows = read_csv_file(out)
    assert header == ["id", "result", "reference", "baseline_output", "exact_match",
                      "exact_match_pass", "exact_match_baseline", "exact_match_delta",
                      "exact_match_change", "change"]
    by_id = {row[0]: dict(zip(header, row, strict=True)) for row in rows}
    # the run's order, then the reference no output answers, then the baseline's gone row
    assert [row[0] for row in rows] == ["3", "1", "5", "2", "4", "6"]
    assert by_id["1"]["exact_match_change"] == "improved"  # Bern -> Berlin
    assert by_id["2"]["change"] == "regressed"
    assert by_id["2"]["exact_match_delta"] == "-1.0"
    assert by_id["5"]["exact_match"] == "" and by_id["5"]["change"] == "new"  # no reference
    # a reference with no output: empty actual, no score, _pass false
    assert (by_id["4"]["result"], by_id["4"]["exact_match"],
            by_id["4"]["exact_match_pass"]) == ("", "", "false")
    assert by_id["6"]["baseline_output"] == "gone one" and by_id["6"]["change"] == "gone"
    assert (tmp_path / "compared.csv.matchlens.toml").exists()


def test_gate_allows_n_regressions(files):
    _, _, yesterday = files
    run = run_process(*_args(files, "--baseline", yesterday, "--baseline-actual", "$.result",
                             "--fail-on-regression", "1", "--quiet"))
    assert run.code == 0, run.err


def test_a_scored_table_as_baseline_via_its_sidecar(files, tmp_path):
    today, refs, _ = files
    first = tmp_path / "first.csv"
    assert run_process(*_args(files, "-o", first, "--quiet")).code == 0
    # no --id and no --baseline-actual: the sidecar records both
    run = run_process("score", today, "--actual", "$.result", "--references", refs,
                      "--expected", "$.answer", "--metrics", "exact_match", "--baseline", first,
                      "--fail-on-regression")
    assert run.code == 0, run.err
    assert "0 rows regressed" in run.err
    # the earlier table's unanswered reference (id 4) is no output of that run either
    assert "exact_match: 0 regressed, 0 improved, 0 worse, 0 better, 5 same, 0 new, 0 gone" \
        in run.err


def test_a_repeated_id(files, tmp_path):
    today, refs, _ = files
    _jsonl(today, [{"id": 1, "result": "a"}, {"id": 2, "result": "b"}, {"id": 1, "result": "c"}])
    assert_one_line_error(run_process(*_args(files)), "today.jsonl", "the id '1'", "line 1",
                          "line 3")


def test_an_id_column_missing_from_one_file(files):
    today, refs, _ = files
    _jsonl(refs, [{"key": 1, "answer": "Berlin"}])
    assert_one_line_error(run_process(*_args(files)), "refs.jsonl", "'id'")


def test_no_id_in_common(files, tmp_path):
    today, refs, _ = files
    _jsonl(today, [{"id": f"t{i}", "result": "x"} for i in range(400)])
    line = assert_one_line_error(run_process(*_args(files)))
    assert "none of the 400 ids of " in line and "today.jsonl is in " in line
    assert "refs.jsonl" in line


def test_a_baseline_sidecar_that_cannot_be_read(files, tmp_path):
    _, _, yesterday = files
    (tmp_path / "yesterday.jsonl.matchlens.toml").write_text("broken = [\n", encoding="utf-8")
    assert_one_line_error(run_process(*_args(files, "--baseline", yesterday)),
                          "yesterday.jsonl.matchlens.toml", "cannot be read")


def test_a_baseline_without_sidecar_or_spec(files):
    _, _, yesterday = files
    assert_one_line_error(run_process(*_args(files, "--baseline", yesterday)),
                          "yesterday.jsonl", "--baseline-actual")


def test_joining_without_an_id(files):
    today, refs, _ = files
    assert_one_line_error(run_process("score", today, "--actual", "$.result", "--references",
                                      refs, "--expected", "$.answer"), "--id")


def test_csv_and_jsonl_say_the_same(files, tmp_path):
    # the CSV cells are made column-wise from arrays, the JSON Lines values one record a row:
    # every cell of one must be the other's value as text
    today, refs, yesterday = files
    common = _args(files, "--baseline", yesterday, "--baseline-actual", "$.result",
                   "--metrics", "exact_match,levenshtein_distance,jaccard", "--quiet")
    common.remove("--metrics")
    common.remove("exact_match")
    assert run_process(*common, "-o", tmp_path / "a.csv").code == 0
    assert run_process(*common, "-o", tmp_path / "a.jsonl").code == 0
    header, rows = read_csv_file(tmp_path / "a.csv")
    records = [json.loads(line) for line in
               (tmp_path / "a.jsonl").read_text(encoding="utf-8").splitlines()]

    def text(value):
        if value is None:
            return ""
        if isinstance(value, bool):
            return "true" if value else "false"
        return str(value)

    assert len(rows) == len(records) == 6
    for row, record in zip(rows, records, strict=True):
        assert row == [text(record.get(name)) for name in header]


def test_a_streamed_run_writes_what_a_run_read_whole_writes(files, tmp_path):
    # a run file is read twice in pieces (narrow to join, again to write); standard input,
    # read once, is held whole: both tables must be the same bytes
    import subprocess

    from tests.cli.conftest import PYTHON

    today, refs, yesterday = files
    tail = [a.format(refs=refs) for a in BFCL[:-2]] + [
        "--baseline", str(yesterday), "--baseline-actual", "$.result", "--quiet"]
    for suffix in (".csv", ".jsonl"):
        streamed, whole = tmp_path / f"streamed{suffix}", tmp_path / f"whole{suffix}"
        assert run_process("score", today, *tail, "-o", streamed).code == 0
        done = subprocess.run([str(PYTHON), "-m", "matchlens", "score", "-", "--format",
                               "jsonl", *tail, "-o", str(whole)],
                              input=today.read_bytes(), capture_output=True, timeout=60)
        assert done.returncode == 0, done.stderr
        assert streamed.read_bytes() == whole.read_bytes()


def test_each_file_takes_its_own_reading_options(files, tmp_path):
    today, _, yesterday = files
    # references in a .json with two arrays of rows, in Latin-1
    refs = tmp_path / "refs.json"
    refs.write_bytes(json.dumps({"meta": [{"id": 0}], "rows": [
        {"id": 1, "answer": "Berlin"}, {"id": 2, "answer": "Lisboa\u0303"},
        {"id": 3, "answer": "Paris"}]}, ensure_ascii=False).encode("utf-8"))
    # the baseline: JSON Lines under a name that says nothing
    base = tmp_path / "yesterday.txt"
    base.write_bytes(yesterday.read_bytes())
    args = ["score", today, "--id", "id", "--actual", "$.result", "--references", refs,
            "--expected", "$.answer", "--metrics", "exact_match", "--baseline", base,
            "--baseline-actual", "$.result"]
    run = run_process(*args)
    assert_one_line_error(run, str(refs), "--references-records")
    run = run_process(*args, "--references-records", "$.rows", "--baseline-format", "csv")
    # read as CSV, its lines are no rows with an id column: the message names the baseline
    assert_one_line_error(run, str(base), "'id'")
    out = tmp_path / "out.csv"
    run = run_process(*args, "--references-records", "$.rows", "--baseline-format", "jsonl",
                      "-o", out)
    assert run.code == 0, run.err
    header, rows = read_csv_file(out)
    by_id = {row[0]: dict(zip(header, row, strict=True)) for row in rows}
    assert by_id["3"]["exact_match"] == "1.0" and by_id["3"]["change"] == "same"
    assert by_id["6"]["change"] == "gone"  # a baseline row this run lacks, from yesterday.txt


def test_the_references_encoding(files, tmp_path):
    today, _, _ = files
    refs = tmp_path / "refs.csv"
    refs.write_bytes("id,answer\n1,Berlin\n2,Lisboa\xe9\n3,Paris\n".encode("latin-1"))
    args = ["score", today, "--id", "id", "--actual", "$.result", "--references", refs,
            "--expected", "answer", "--metrics", "exact_match", "--quiet"]
    assert_one_line_error(run_process(*args), str(refs), "--references-encoding")
    out = tmp_path / "out.csv"
    assert run_process(*args, "--references-encoding", "latin-1", "-o", out).code == 0
    header, rows = read_csv_file(out)
    assert dict(zip(header, rows[3], strict=True))["reference"] == "Lisboa\xe9"  # id 2


def test_a_lone_surrogate_from_a_json_escape_is_read_not_a_traceback(tmp_path):
    # "\ud800" is valid JSON but no UTF-8 text: the join holds texts as Arrow strings, so it
    # reads as U+FFFD; the row is scored and the run's own cell is written back as it was read.
    today = tmp_path / "today.jsonl"
    today.write_text('{"id": 1, "result": "Paris \\ud800"}\n{"id": "\\udfff", "result": "x"}\n',
                     encoding="utf-8")
    refs = _jsonl(tmp_path / "refs.jsonl", [{"id": 1, "answer": "Paris \ufffd"}])
    out = tmp_path / "o.jsonl"
    run = run_process("score", today, "--id", "id", "--actual", "$.result", "--references",
                      refs, "--expected", "$.answer", "--metrics", "exact_match", "-o", out)
    assert run.code == 0, run.err
    rows = {r["id"]: r for r in map(json.loads, out.read_text(encoding="utf-8").splitlines())}
    assert rows[1]["exact_match"] == 1.0  # "Paris \ud800" read as "Paris \ufffd"
