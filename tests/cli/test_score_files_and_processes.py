"""`matchlens score`'s output files and real processes (shared spec cli.md): atomic writes that
never touch the input, and `python -m matchlens` / the installed `matchlens` script as real
processes. The rest of the command's contract is in test_score_command.py.
"""

from __future__ import annotations

import contextlib
import errno
import os
import subprocess
import tomllib

import pytest

from matchlens.core.metrics import get_metric, local_metric_ids
from matchlens.core.output import scored_table
from tests.cli.conftest import (
    DEFAULT_METRICS,
    MATCHLENS_SCRIPT,
    assert_one_line_error,
    read_csv_file,
    read_jsonl_file,
    run_process,
    score_columns,
    sha256,
    snapshot,
)


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
