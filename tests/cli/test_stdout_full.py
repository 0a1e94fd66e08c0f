"""`diff` and `calibrate` print to standard output (stdout_guard): when it cannot be written
(a full disk, here /dev/full; or closed, `>&-`) the run says so in one sentence and exits 2, as
`score` does, rather than "internal error ... a bug in MatchLens" (exit 70, a crash report) or
the interpreter's "Exception ignored ... OSError" at exit (code 120), whether Python writes at
once (PYTHONUNBUFFERED) or at the end; a reader that stops early (`| head`) is not an error."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli.conftest import REPO, SAMPLE_CSV

FULL = Path("/dev/full")


@pytest.fixture
def pair(tmp_path):
    (tmp_path / "e.txt").write_text("The cat sat on the mat.\n", encoding="utf-8")
    (tmp_path / "a.txt").write_text("A cat sat on a mat\n", encoding="utf-8")
    return str(tmp_path / "e.txt"), str(tmp_path / "a.txt")


def _commands(pair):
    return {
        "diff": ["diff", *pair],
        "diff --json": ["diff", *pair, "--json"],
        "calibrate": ["calibrate", str(SAMPLE_CSV), "--expected", "expected", "--actual",
                      "output_a", "--label", "label"],
    }


def _run(args, stdout, tmp_path, unbuffered):
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    if unbuffered:  # every print is written at once: the failure comes inside the command
        env["PYTHONUNBUFFERED"] = "1"
    env.update(PYTHONPATH=str(REPO / "app"), PYTHONIOENCODING="utf-8",
               XDG_STATE_HOME=str(tmp_path / "state"))  # where a crash report would go
    return subprocess.run([sys.executable, "-m", "matchlens", *args], stdout=stdout,
                          stderr=subprocess.PIPE, env=env, timeout=120)


@pytest.mark.skipif(not FULL.exists(), reason="needs /dev/full (Linux)")
@pytest.mark.parametrize("unbuffered", [False, True])
@pytest.mark.parametrize("name", ["diff", "diff --json", "calibrate"])
def test_a_full_standard_output_is_one_sentence_and_exit_2(pair, tmp_path, name, unbuffered):
    with open(FULL, "wb") as full:
        done = _run(_commands(pair)[name], full, tmp_path, unbuffered)
    err = done.stderr.decode("utf-8")
    assert done.returncode == 2, err
    assert err.splitlines() == [
        "matchlens: standard output: cannot write the report (No space left on device)"]
    assert not (tmp_path / "state").exists()  # no crash report


@pytest.mark.parametrize("name", ["diff", "calibrate"])
def test_a_reader_that_stopped_is_not_an_error(pair, tmp_path, name):
    read, write = os.pipe()
    os.close(read)  # as `| head` once it has its lines: every write gets EPIPE
    try:
        done = _run(_commands(pair)[name], write, tmp_path, unbuffered=False)
    finally:
        os.close(write)
    assert done.returncode == 0
    assert done.stderr.decode("utf-8") == ""


@pytest.mark.parametrize("name", ["diff", "calibrate", "score"])
def test_a_closed_standard_output_is_one_sentence_and_exit_2(pair, tmp_path, name):
    # `matchlens diff a b >&-`: Python starts with sys.stdout None
    args = _commands(pair).get(name) or ["score", str(SAMPLE_CSV), "--expected", "expected",
                                          "--actual", "output_a", "--quiet"]
    env = {**os.environ, "PYTHONPATH": str(REPO / "app"), "PYTHONIOENCODING": "utf-8",
           "XDG_STATE_HOME": str(tmp_path / "state")}
    done = subprocess.run([sys.executable, "-m", "matchlens", *args], stderr=subprocess.PIPE,
                          env=env, timeout=120, preexec_fn=lambda: os.close(1))  # noqa: PLW1509
    err = done.stderr.decode("utf-8")
    assert done.returncode == 2, err
    what = "table" if name == "score" else "report"
    assert err.splitlines() == [f"matchlens: standard output: cannot write the {what} (it is closed)"]
    assert not (tmp_path / "state").exists()  # no crash report
