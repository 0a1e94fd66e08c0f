"""Ctrl+C on `matchlens diff` of two unrelated 10 MB texts (issue 28 items 9 and 5): the
large-diff path (cli/diff_large.py) ends with exit 130 and one line when signalled while it
compares. A real process; no wall-clock assertion (benchmarks/bench_sigint.py --diff measures
SIGINT-to-exit: a fraction of a second)."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import time
from pathlib import Path

import pytest

from tests.cli.conftest import PYTHON, REPO

LINE = "matchlens: interrupted; no output was written"
SIZE = 10_000_000


def _texts(folder: Path) -> tuple[Path, Path]:
    rng = random.Random(1)
    words = ["".join(rng.choice("abcdefghij") for _ in range(rng.randint(2, 9)))
             for _ in range(5000)]
    paths = []
    for seed in (2, 3):
        pick, lines, size = random.Random(seed), [], 0
        while size < SIZE:
            lines.append(" ".join(pick.choice(words) for _ in range(12)))
            size += len(lines[-1]) + 1
        path = folder / f"{seed}.txt"
        path.write_text("\n".join(lines), encoding="utf-8")
        paths.append(path)
    return paths[0], paths[1]


def _read_bytes(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/io").read_text().splitlines():
            if line.startswith("rchar:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


@pytest.mark.skipif(not Path("/proc/self/io").exists(), reason="reads /proc (Linux)")
def test_ctrl_c_while_diff_compares_two_10_mb_texts_exits_130(tmp_path):
    left, right = _texts(tmp_path)
    env = {**os.environ, "PYTHONPATH": str(REPO / "app"), "PYTHONIOENCODING": "utf-8"}
    errors = tmp_path / "stderr"
    with open(errors, "wb") as stderr:
        run = subprocess.Popen([str(PYTHON), "-m", "matchlens", "diff", str(left), str(right)],
                               env=env, stdout=subprocess.DEVNULL, stderr=stderr)
    try:
        # the event: both texts read (20 MB through read(), besides the modules' own bytes);
        # what is left is the line diff, the metrics and the printing, seconds of work
        end = time.monotonic() + 300  # a guard against a hang, not a measurement
        while run.poll() is None and _read_bytes(run.pid) < 2 * SIZE and time.monotonic() < end:
            time.sleep(0.002)
        if run.poll() is not None:
            pytest.skip("the diff finished before it could be interrupted (a very fast machine)")
        run.send_signal(signal.SIGINT)
        run.wait(timeout=300)
    finally:
        if run.poll() is None:
            run.kill()
            run.wait()
    err = errors.read_text(encoding="utf-8")
    # seconds of work were left when the signal went: exit 0 would be a signal not honoured
    assert run.returncode == 130, err
    assert "Traceback" not in err and err.strip().splitlines() == [LINE]
