"""Inputs that never end or never start (issue 28 items 7, 10, 11): a device is one sentence, a
stream's copy stops at its limit and leaves nothing behind, a FIFO with no writer says it
waits and honours Ctrl+C. Real processes, since the failures were a process's."""

from __future__ import annotations

import os
import signal
import subprocess

import pytest

from tests.cli.conftest import PYTHON, run_process

pytestmark = pytest.mark.skipif(os.name != "posix", reason="devices and FIFOs are POSIX's")


def _data(tmp_path):
    path = tmp_path / "d.csv"
    path.write_text("expected,actual\na,a\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("command", [
    ("score", "/dev/zero", "--expected", "a", "--actual", "b"),
    ("diff", "/dev/zero", "{data}"),
    ("calibrate", "{data}", "--expected", "expected", "--actual", "actual",
     "--labels", "/dev/zero"),
])
def test_a_device_is_one_sentence(tmp_path, command):
    data = _data(tmp_path)
    run = run_process(*(part.format(data=data) for part in command))
    assert run.code == 2, run.err
    assert "/dev/zero" in run.err and "is a device, not a file of data" in run.err


def test_a_stream_copy_stops_at_its_limit_and_leaves_no_copy(tmp_path):
    temp = tmp_path / "temp"
    temp.mkdir()
    env = {**os.environ, "TMPDIR": str(temp), "MATCHLENS_MAX_INPUT_BYTES": "100000",
           "PYTHONIOENCODING": "utf-8"}
    with open("/dev/zero", "rb") as zero:  # endless standard input
        done = subprocess.run([str(PYTHON), "-m", "matchlens", "score", "-", "--expected", "a",
                               "--actual", "b"], stdin=zero, capture_output=True, env=env,
                              timeout=120)
    err = done.stderr.decode()
    assert done.returncode == 2, err
    assert "<stdin>" in err and "more than 97.7 KiB" in err  # 100000 / 1024 = 97.66
    assert list(temp.iterdir()) == []  # the partial copy is gone


def test_a_fifo_with_no_writer_says_it_waits_then_reads_what_comes(tmp_path):
    data = _data(tmp_path)
    fifo = tmp_path / "in.csv"
    os.mkfifo(fifo)
    proc = subprocess.Popen([str(PYTHON), "-m", "matchlens", "score", str(fifo), "--expected",
                             "expected", "--actual", "actual", "--metrics", "exact_match"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env={**os.environ, "PYTHONIOENCODING": "utf-8"})
    try:
        first = proc.stderr.readline().decode()  # the event: the notice arrives by itself
        assert "in.csv is a pipe (FIFO) no program is writing to yet; waiting" in first
        with open(fifo, "wb") as writer:
            writer.write(data.read_bytes())
        out, err = proc.communicate(timeout=120)
    finally:
        proc.kill()
    assert proc.returncode == 0, err
    assert out.decode().splitlines()[1] == "a,a,1.0,true"


@pytest.mark.parametrize("where", ["data", "labels", "diff"])
def test_ctrl_c_ends_the_wait_for_a_fifo(tmp_path, where):
    data = _data(tmp_path)
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    args = {"data": ["score", str(fifo), "--expected", "a", "--actual", "b"],
            "labels": ["calibrate", str(data), "--expected", "expected", "--actual", "actual",
                       "--labels", str(fifo)],
            "diff": ["diff", str(data), str(fifo)]}[where]
    proc = subprocess.Popen([str(PYTHON), "-m", "matchlens", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE,
                            env={**os.environ, "PYTHONIOENCODING": "utf-8"})
    try:
        assert "waiting for one (Ctrl+C stops)" in proc.stderr.readline().decode()
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=30)
    finally:
        proc.kill()
    assert proc.returncode in (130, 2), err  # 130: interrupted, as cli.md says
    assert b"Traceback" not in err
