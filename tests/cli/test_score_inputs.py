"""`matchlens score` on what users have (issue 12): standard input, pipes and FIFOs, Parquet,
workbooks, promptfoo's output; the honest summary; a sidecar as --config; streaming."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
import xlsxwriter

from matchlens.cli import score as score_command
from tests.cli.conftest import PYTHON, assert_one_line_error, parse_csv, run_process
from tests.core.datasets.test_formats import PROMPTFOO_TESTS, promptfoo_output

CSV = "expected,actual\nParis,Paris\nRome,Roma\nOslo,oslo\n"
COLUMNS = ("--expected", "expected", "--actual", "actual")


def piped(*args, data: bytes, timeout: float = 60) -> subprocess.CompletedProcess:
    """`python -m matchlens ARGS` with `data` on its standard input. The timeout only turns a
    hang into a failure; it measures nothing."""
    return subprocess.run([str(PYTHON), "-m", "matchlens", *map(str, args)], input=data,
                          capture_output=True, timeout=timeout,
                          env={**os.environ, "PYTHONIOENCODING": "utf-8"})


# --- standard input, pipes, FIFOs ---------------------------------------------------------------

def test_standard_input_is_csv_by_default(tmp_path):
    done = piped("score", "-", *COLUMNS, data=CSV.encode())
    assert done.returncode == 0, done.stderr
    header, rows = parse_csv(done.stdout.decode())
    assert header[:3] == ["expected", "actual", "exact_match"]
    assert [r[2] for r in rows] == ["1.0", "0.0", "0.0"]
    assert done.stderr.decode().startswith("<stdin>: 3 rows: all scored")


def test_standard_input_with_format_jsonl(tmp_path):
    data = "".join(json.dumps({"e": e, "a": a}) + "\n" for e, a in [("x", "x"), ("y", "z")])
    done = piped("score", "-", "--format", "jsonl", "--expected", "e", "--actual", "a",
                 data=data.encode())
    assert done.returncode == 0, done.stderr
    assert [r[2] for r in parse_csv(done.stdout.decode())[1]] == ["1.0", "0.0"]


def test_dev_stdin_and_process_substitution(tmp_path):
    source = tmp_path / "data.csv"
    source.write_text(CSV, encoding="utf-8")
    done = piped("score", "/dev/stdin", *COLUMNS, data=CSV.encode())
    assert done.returncode == 0, done.stderr
    assert len(parse_csv(done.stdout.decode())[1]) == 3
    command = (f"{PYTHON} -m matchlens score <(cat {source}) --format csv "
               "--expected expected --actual actual")
    sub = subprocess.run(["bash", "-c", command], capture_output=True, timeout=60)
    assert sub.returncode == 0, sub.stderr
    assert len(parse_csv(sub.stdout.decode())[1]) == 3


def test_a_fifo_is_read_once_and_never_hangs(tmp_path):
    fifo = tmp_path / "data.csv"
    os.mkfifo(fifo)

    def feed() -> None:
        with open(fifo, "w", encoding="utf-8") as handle:  # blocks until the reader opens
            handle.write(CSV)

    writer = threading.Thread(target=feed, daemon=True)
    writer.start()
    run = run_process("score", fifo, *COLUMNS, timeout=60)
    writer.join(timeout=60)
    assert run.code == 0, run.err
    assert len(run.records()) == 3


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a pseudo-terminal")
def test_a_terminal_on_standard_input_is_a_sentence_not_a_wait():
    import pty

    parent, child = pty.openpty()
    try:
        done = subprocess.run([str(PYTHON), "-m", "matchlens", "score", "-", *COLUMNS],
                              stdin=child, capture_output=True, timeout=60)
    finally:
        os.close(parent)
        os.close(child)
    err = done.stderr.decode()
    assert done.returncode == 2 and "<stdin> is a terminal" in err and len(err.splitlines()) == 1


def test_empty_standard_input_is_named(tmp_path):
    done = piped("score", "-", *COLUMNS, data=b"")
    assert done.returncode == 2
    assert done.stderr.decode().strip() == "matchlens: <stdin> is empty (0 bytes)"


# --- formats through the command ----------------------------------------------------------------

def test_parquet_with_a_nested_column(cli, tmp_path):
    path = tmp_path / "d.parquet"
    pq.write_table(pa.table({"ref": ["Paris", "Rome"],
                             "out": [{"answer": "Paris"}, {"answer": "Roma"}]}), path)
    run = cli("score", path, "--expected", "ref", "--actual", "$.out.answer")
    assert run.code == 0, run.err
    records = run.records()
    assert [r["exact_match"] for r in records] == ["1.0", "0.0"]
    assert json.loads(records[0]["out"]) == {"answer": "Paris"}  # the struct as JSON


def test_xlsx_second_sheet(cli, tmp_path):
    path = tmp_path / "book.xlsx"
    book = xlsxwriter.Workbook(str(path))
    book.add_worksheet("Notes").write_row(0, 0, ["nothing here"])
    sheet = book.add_worksheet("Scores")
    sheet.write_row(0, 0, ["expected", "actual"])
    sheet.write_row(1, 0, ["Paris", "Paris"])
    book.close()
    run = cli("score", path, *COLUMNS, "--sheet", "Scores")
    assert run.code == 0, run.err
    assert run.records()[0]["exact_match"] == "1.0"
    first = cli("score", path, *COLUMNS)  # the first sheet holds no rows
    assert_one_line_error(first, "book.xlsx", "sheet 'Notes'", "no data rows",
                          "'Notes', 'Scores'; --sheet picks one")


def test_promptfoo_output_scores_every_prompt_without_actual(cli, tmp_path):
    path = tmp_path / "promptfoo.json"
    path.write_text(json.dumps(promptfoo_output(PROMPTFOO_TESTS)), encoding="utf-8")
    run = cli("score", path, "--expected", "expected", "--metrics", "exact_match")
    assert run.code == 0, run.err
    records = run.records()
    assert [r["exact_match@Answer: {{question}}"] for r in records] == ["1.0", "0.0"]
    assert [r["exact_match@Reply briefly: {{question}}"] for r in records] == ["0.0", ""]
    assert "[Reply briefly: {{question}}] 1 scored, 1 missing" in run.err


# --- the summary tells the truth ------------------------------------------------------------------

def test_mt_bench_shape_states_both_denominators(cli, tmp_path):
    """80 rows, a reference on 39 of them (MT-bench's shape): 39 scored, 41 missing."""
    path = tmp_path / "mt.jsonl"
    rows = []
    for i in range(80):
        reference = [f"answer {i}"] if i < 39 else []
        rows.append({"question_id": i, "reference": reference,
                     "choices": [{"turns": [f"answer {i}" if i < 10 else "other"]}]})
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    run = cli("score", path, "--expected", "$.reference[0]", "--actual",
              "$.choices[0].turns[0]", "--metrics", "exact_match")
    assert run.code == 0, run.err
    assert run.err_lines[0] == f"{path}: 80 rows: 39 scored, 41 missing (no reference at " \
                               "$.reference[0])"
    line = next(line for line in run.err_lines if line.split()[0] == "exact_match")
    # the mean over the 39 scored rows (10 equal), the pass rate over all 80 rows
    assert f"{10 / 39:.3f}" in line and f"{10 / 80:.1%}" in line and "39 scored, 41 missing" \
        in line
    assert "over the scored rows; pass rates over all 80 rows" in run.err
    why = [line for line in run.err_lines if "why:" in line]
    assert len(why) == 1 and why[0].startswith("  why: 41 rows have no reference at "
                                               "$.reference[0]; the first:")
    assert "line 40" in why[0] and "note:" not in run.err


def test_one_row_is_singular(cli, tmp_path):
    path = tmp_path / "one.csv"
    path.write_text("expected,actual\nParis,Paris\n", encoding="utf-8")
    run = cli("score", path, *COLUMNS)
    assert run.err_lines[0] == f"{path}: 1 row: all scored"
    assert "1 rows" not in run.err


def test_kaggle_header_is_one_note(cli, tmp_path):
    path = tmp_path / "spam.csv"
    path.write_text("v1,v2,,,\nham,ham,,,\nspam,ham,,,\n", encoding="utf-8")
    run = cli("score", path, "--expected", "v1", "--actual", "v2", "--metrics", "exact_match")
    assert run.code == 0, run.err
    notes = [line for line in run.err_lines if "note:" in line]
    assert len(notes) == 1 and "3 columns have no name" in notes[0]
    assert run.table()[0][:5] == ["v1", "v2", "column 3", "column 4", "column 5"]


# --- a sidecar as --config; streaming -------------------------------------------------------------

def test_a_sidecar_supplies_the_columns(cli, tmp_path):
    data = tmp_path / "d.csv"
    data.write_text("ref,out_a,out_b\nParis,Paris,Rome\nRome,Roma,Rome\n", encoding="utf-8")
    first = cli("score", data, "--expected", "ref", "--actual", "out_a", "--actual", "out_b",
                "-o", tmp_path / "out.csv")
    assert first.code == 0, first.err
    again = cli("score", data, "--config", tmp_path / "out.csv.matchlens.toml",
                "-o", tmp_path / "again.csv")
    assert again.code == 0, again.err
    assert (tmp_path / "again.csv").read_bytes() == (tmp_path / "out.csv").read_bytes()


def test_pieces_give_the_same_bytes_and_summary_as_one_piece(cli, tmp_path, monkeypatch):
    path = tmp_path / "d.jsonl"
    lines = []
    for i in range(53):
        row = {"e": f"text {i % 7}", "a": f"text {i % 5}"}
        if i % 11 == 0:
            row["late"] = i  # a key first seen late: still a column from the first row on
        if i % 9 == 4:
            del row["e"]
        lines.append(json.dumps(row))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    args = ("score", path, "--expected", "e", "--actual", "a", "--metrics", "all")
    whole = cli(*args)
    monkeypatch.setattr(score_command, "CHUNK_ROWS", 4)  # 14 pieces
    pieces = cli(*args)
    assert whole.code == pieces.code == 0, pieces.err
    assert pieces.out == whole.out and pieces.err == whole.err
    assert "late" in whole.table()[0]
