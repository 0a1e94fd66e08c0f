"""Outputs under faults: a full disk between the table and its sidecar, a failed rename, runs
writing the same -o at once, SIGTERM mid-run, killed runs' temporaries, file modes, standard
output that is full or closed, and an internal error (exit 70, a report, no traceback)."""

from __future__ import annotations

import contextlib
import errno
import os
import signal
import stat
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import pytest

from matchlens.core import atomic
from matchlens.core.output import scored_table
from tests.cli.conftest import (
    PYTHON,
    REPO,
    SAMPLE_CSV,
    SAMPLES,
    assert_no_traceback,
    assert_one_line_error,
    read_csv_file,
    run_in_process,
    snapshot,
)
from tests.embeddings.leaks import leaked

SECRET = "sk-test-0123456789abcdef"
COLUMNS = ("--expected", "expected", "--actual", "actual")


@pytest.fixture
def folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    rows = "".join(f"answer {i},answer {i % 3}\n" for i in range(50))
    (tmp_path / "data.csv").write_text("expected,actual\n" + rows, encoding="utf-8")
    return tmp_path


def _score(capsys, *more):
    return run_in_process(capsys, "score", "data.csv", *COLUMNS, *more)


def _previous_outputs(folder: Path) -> None:
    (folder / "out.csv").write_bytes(b"previous table\n")
    (folder / "out.csv.matchlens.toml").write_bytes(b"# previous sidecar\n")


class _FullDisk:
    def __init__(self, handle) -> None:
        self.handle = handle

    def write(self, text):
        self.handle.write(text[:10])
        raise OSError(errno.ENOSPC, "No space left on device")


def test_a_full_disk_at_the_sidecar_leaves_neither_new_file(folder, capsys, monkeypatch):
    _previous_outputs(folder)
    before = snapshot(folder)
    real = scored_table.atomic_writer

    @contextlib.contextmanager
    def sidecar_fails(path, **kwargs):
        with real(path, **kwargs) as handle:
            yield _FullDisk(handle) if str(path).endswith(".toml") else handle

    monkeypatch.setattr(scored_table, "atomic_writer", sidecar_fails)
    run = _score(capsys, "-o", "out.csv")
    assert_one_line_error(run, "out.csv.matchlens.toml", "No space left")
    assert snapshot(folder) == before  # the old table and sidecar, and no temporary


def test_a_failed_rename_puts_the_previous_table_back(folder, capsys, monkeypatch):
    _previous_outputs(folder)
    before = snapshot(folder)
    real = os.replace

    def replace(src, dst):
        if str(dst).endswith(".matchlens.toml") and ".old." not in str(src):  # the new sidecar
            raise OSError(errno.EIO, "Input/output error")
        return real(src, dst)

    monkeypatch.setattr(atomic.os, "replace", replace)
    run = _score(capsys, "-o", "out.csv")
    assert_one_line_error(run, "out.csv.matchlens.toml", "Input/output error")
    assert snapshot(folder) == before


def test_a_replaced_file_keeps_its_mode_and_a_new_one_follows_the_umask(folder, capsys):
    (folder / "kept.csv").write_bytes(b"old\n")
    os.chmod(folder / "kept.csv", 0o640)
    old_mask = os.umask(0o027)
    try:
        assert _score(capsys, "-o", "kept.csv").code == 0
        assert _score(capsys, "-o", "new.csv").code == 0
    finally:
        os.umask(old_mask)
    assert stat.S_IMODE((folder / "kept.csv").stat().st_mode) == 0o640
    assert stat.S_IMODE((folder / "new.csv").stat().st_mode) == 0o666 & ~0o027
    assert stat.S_IMODE((folder / "new.csv.matchlens.toml").stat().st_mode) == 0o640


def _dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_temporaries_of_a_killed_run_are_removed_by_the_next(folder, capsys):
    dead = folder / f".out.csv.{_dead_pid()}.k1ll3d00.tmp"
    alive = folder / f".out.csv.{os.getppid()}.running.tmp"  # a live process: not ours to touch
    other = folder / f".other.csv.{_dead_pid()}.k1ll3d00.tmp"  # another output's: left alone
    for path in (dead, alive, other):
        path.write_bytes(b"partial")
    assert _score(capsys, "-o", "out.csv").code == 0
    assert not dead.exists() and alive.exists() and other.exists()
    assert sorted(p.name for p in folder.iterdir()) == sorted(
        ["data.csv", "out.csv", "out.csv.matchlens.toml", alive.name, other.name])


def test_concurrent_runs_never_pair_one_runs_table_with_anothers_sidecar(folder):
    # Four runs with four thresholds write the same -o at once; whichever wins, its table and
    # its sidecar must agree (the sidecar's threshold explains the table's _pass column).
    rows = "".join(f"answer {i},answer {i % 7}\n" for i in range(5_000))
    (folder / "data.csv").write_text("expected,actual\n" + rows, encoding="utf-8")
    thresholds = ["0.1", "0.5", "0.9", "1.0"]
    env = {**os.environ, "PYTHONPATH": str(REPO / "app")}
    for _round in range(2):
        runs = [subprocess.Popen([str(PYTHON), "-m", "matchlens", "score", "data.csv", *COLUMNS,
                                  "--metrics", "levenshtein_similarity", "--set",
                                  f"levenshtein_similarity.threshold={t}", "-o", "out.csv",
                                  "--quiet"], cwd=folder, env=env) for t in thresholds]
        assert [run.wait(timeout=600) for run in runs] == [0, 0, 0, 0]  # a loaded CI machine
        sidecar = tomllib.loads((folder / "out.csv.matchlens.toml").read_text(encoding="utf-8"))
        threshold = sidecar["metrics"]["levenshtein_similarity"]["threshold"]
        header, table = read_csv_file(folder / "out.csv")
        at, verdict = header.index("levenshtein_similarity"), header.index(
            "levenshtein_similarity_pass")
        assert all((float(r[at]) >= threshold) == (r[verdict] == "true") for r in table)
        assert not [p for p in folder.iterdir() if p.name.endswith(".tmp")]


@pytest.mark.parametrize("signum, code, line", [
    (signal.SIGTERM, 143, "matchlens: terminated; no output was written"),
    (signal.SIGINT, 130, "matchlens: interrupted; no output was written"),
], ids=["SIGTERM", "SIGINT"])
def test_a_signal_mid_run_exits_at_once_and_leaves_no_file(folder, signum, code, line):
    rows = "".join(f"answer {i},answer {i % 7}\n" for i in range(300_000))
    (folder / "data.csv").write_text("expected,actual\n" + rows, encoding="utf-8")
    before = snapshot(folder)
    env = {**os.environ, "PYTHONPATH": str(REPO / "app"), "PYTHONIOENCODING": "utf-8"}
    run = subprocess.Popen([str(PYTHON), "-m", "matchlens", "score", "data.csv", *COLUMNS,
                            "-o", "out.csv"], cwd=folder, env=env, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 300
    while run.poll() is None and time.monotonic() < deadline:  # wait for the write to start
        if any(p.name.startswith(".out.csv.") for p in folder.iterdir()):
            break
        time.sleep(0.002)
    run.send_signal(signum)
    err = run.communicate(timeout=300)[1].decode("utf-8")
    if run.returncode == 0:
        pytest.skip("the run finished before the signal arrived (a very fast machine)")
    assert run.returncode == code, err
    assert "Traceback" not in err and err.strip().splitlines() == [line]
    assert snapshot(folder) == before


class _Stop(BaseException):
    pass


@pytest.mark.skipif(os.name == "nt", reason="os.kill(SIGTERM) ends the process there")
def test_a_signal_right_after_the_temporary_is_made_still_removes_it(tmp_path, monkeypatch):
    # The deterministic form of the SIGTERM test above: the signal lands the moment os.open has
    # made the file, before atomic_writer knows its name (crash.py raises from a SIGTERM).
    def handler(signum, frame):
        raise _Stop
    real = os.open

    def open_then_signal(path, flags, *args):
        fd = real(path, flags, *args)
        if str(path).endswith(".tmp"):
            os.kill(os.getpid(), signal.SIGTERM)
        return fd

    previous = signal.signal(signal.SIGTERM, handler)
    monkeypatch.setattr(atomic.os, "open", open_then_signal)
    try:
        with pytest.raises(_Stop), atomic.atomic_writer(tmp_path / "out.csv") as handle:
            handle.write("never kept")  # not reached: the signal comes first
    finally:
        signal.signal(signal.SIGTERM, previous)
    assert list(tmp_path.iterdir()) == []


def _shell(command: str, folder: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(REPO / "app")}
    return subprocess.run(["bash", "-c", command], cwd=folder, env=env, capture_output=True,
                          timeout=120)


def test_a_closed_pipe_on_standard_output_is_quiet(folder):
    rows = "".join(f"answer {i},answer {i % 7}\n" for i in range(100_000))
    (folder / "data.csv").write_text("expected,actual\n" + rows, encoding="utf-8")
    done = _shell(f"'{PYTHON}' -m matchlens score data.csv {' '.join(COLUMNS)} --quiet "
                  "| head -c 100 > /dev/null; exit ${PIPESTATUS[0]}", folder)
    assert done.returncode == 0 and done.stderr == b"", done.stderr


def test_a_full_standard_output_is_one_sentence(folder):
    done = _shell(f"'{PYTHON}' -m matchlens score data.csv {' '.join(COLUMNS)} --quiet "
                  "> /dev/full", folder)
    assert done.returncode == 2
    assert done.stderr.decode().splitlines() == [
        "matchlens: standard output: cannot write the table (No space left on device)"]


def test_an_internal_error_exits_70_with_a_report_and_no_traceback(folder, capsys, monkeypatch):
    from matchlens.cli import score as score_command

    monkeypatch.setenv("OPENAI_API_KEY", SECRET)

    def broken(*args, **kwargs):
        raise KeyError(f"unexpected state near {SECRET}")

    monkeypatch.setattr(score_command, "score_stream", broken)
    before = snapshot(folder)
    run = _score(capsys, "-o", "out.csv")
    assert run.code == 70 and len(run.err_lines) == 1, run.err
    line = run.err_lines[0]
    assert line.startswith("matchlens: internal error (KeyError)") and "exit code 70" in line
    report = Path(line.split("the details are in ")[1].split(" (exit code")[0])
    text = report.read_text(encoding="utf-8")
    assert "Traceback" in text and "KeyError" in text and "broken" in text
    assert not leaked(text, SECRET) and not leaked(run.err, SECRET)
    assert snapshot(folder) == before
    assert_no_traceback(run)


# `diff` and `calibrate` print a report: a reader that stops early is not an error, a full
# disk is one sentence (both were "internal error", exit 70, with a crash report).
REPORTS = {
    "diff": f"diff '{SAMPLES / 'pair_expected.txt'}' '{SAMPLES / 'pair_actual.txt'}'",
    "calibrate": f"calibrate '{SAMPLE_CSV}' --expected expected --actual output_a --label label",
}


@pytest.mark.parametrize("command", sorted(REPORTS))
def test_a_report_to_a_full_standard_output_is_one_sentence(folder, command):
    done = _shell(f"'{PYTHON}' -m matchlens {REPORTS[command]} > /dev/full", folder)
    assert done.returncode == 2, done.stderr
    assert done.stderr.decode().splitlines() == [
        "matchlens: standard output: cannot write the report (No space left on device)"]


@pytest.mark.parametrize("command", sorted(REPORTS))
def test_a_report_to_a_reader_that_left_is_quiet(folder, command):
    # `true` exits before matchlens has started: every write meets a closed pipe
    done = _shell(f"'{PYTHON}' -m matchlens {REPORTS[command]} | true; "
                  "exit ${PIPESTATUS[0]}", folder)
    assert done.returncode == 0 and done.stderr == b"", done.stderr
