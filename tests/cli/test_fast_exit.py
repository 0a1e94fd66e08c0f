"""A headless command's own process leaves without the interpreter's teardown (main._finish):
whatever it printed still arrives whole, with the exit code it returned."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.cli.conftest import SAMPLE_CSV, run_in_process

# Standard output block-buffered, as for any user's pipe: with PYTHONUNBUFFERED (set on some
# machines) every print would be written at once and a lost final flush could not show.
BUFFERED = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}


def real_process(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "matchlens", *args], capture_output=True,
                          env={**BUFFERED, "PYTHONIOENCODING": "utf-8"}, timeout=120)


@pytest.fixture
def pair(tmp_path):
    expected = tmp_path / "expected.txt"
    actual = tmp_path / "actual.txt"
    expected.write_text("The mitochondria is the powerhouse of the cell.\n", encoding="utf-8")
    actual.write_text("Mitochondria are the power house of a cell\n", encoding="utf-8")
    return expected, actual


@pytest.mark.parametrize("args", [
    ("diff", "{expected}", "{actual}"),  # prints and returns: only the exit flushes it
    ("diff", "{expected}", "{actual}", "--json"),
    ("calibrate", str(SAMPLE_CSV), "--expected", "expected", "--actual", "output_a",
     "--label", "label"),
    ("score", str(SAMPLE_CSV), "--expected", "expected", "--actual", "output_b"),
    ("score", str(SAMPLE_CSV), "--expected", "expected", "--actual", "output_a",
     "--fail-under", "0.99"),  # the gate: exit 1 and its line
])
def test_a_real_process_prints_all_the_in_process_run_prints(capsys, pair, args):
    args = [a.format(expected=pair[0], actual=pair[1]) for a in args]
    expected = run_in_process(capsys, *args)
    done = real_process(*args)
    assert done.returncode == expected.code
    assert done.stdout.decode("utf-8") == expected.out
    err = done.stderr.decode("utf-8")
    assert err.splitlines() == expected.err.splitlines()
