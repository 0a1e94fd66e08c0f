"""Ctrl+C while the scoring kernels run: a real `matchlens score` process (matchlens.cli.interrupts).

No wall-clock assertion (benchmarks/bench_sigint.py measures SIGINT-to-exit); these check the
contract when the signal lands mid-kernel: exit 130, one line, no traceback, no temporary or
output file, the input unchanged, and the forked worker does not outlive the run."""

from __future__ import annotations

import os
import signal
import subprocess
import threading
import time
from pathlib import Path

import pytest

from matchlens.core.scoring import parallel as parallel_batch
from tests.cli.conftest import PYTHON, REPO, snapshot

LINE = "matchlens: interrupted; no output was written"


def _children(pid: int) -> list[int]:
    try:
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    except OSError:
        return []
    return [int(x) for x in text.split()]


_PF_EXITING = 0x4  # linux/sched.h: the task is in do_exit (tearing its memory down)


def _cpu_ticks(pid: int) -> int:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0
    return int(fields[11]) + int(fields[12])  # utime + stime, in clock ticks


def _killed(pid: int) -> bool:
    """True when `pid` is gone, dead, exiting, or has a SIGKILL waiting to be acted on."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        status = Path(f"/proc/{pid}/status").read_text().splitlines()
    except OSError:
        return True
    if fields[0] in ("Z", "X") or int(fields[6]) & _PF_EXITING:
        return True
    pending = [int(line.split()[1], 16) for line in status
               if line.startswith(("SigPnd:", "ShdPnd:"))]
    return any(mask & (1 << (signal.SIGKILL - 1)) for mask in pending)


def _wait(condition, limit: float = 300.0) -> bool:
    end = time.monotonic() + limit  # generous: a loaded 2-core CI machine
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(0.002)
    return False


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads /proc (Linux)")
def test_ctrl_c_inside_the_chrf_kernel_exits_130_and_leaves_nothing(tmp_path):
    # Long differing texts: chrF's numba kernel is most of the scoring time, and 200,000 rows
    # (work enough for two processes, PARALLEL_MIN_WORK) make the run fork its second scoring process.
    words = "the quick brown fox jumps over a lazy dog while seven wizards quietly hex".split()
    rows = []
    for i in range(200_000):
        expected = " ".join(words[(i + k) % len(words)] for k in range(40))
        actual = " ".join(words[(i * 7 + k * 3) % len(words)] for k in range(40)) + f" {i}"
        rows.append(f"{expected},{actual}\n")
    (tmp_path / "data.csv").write_text("expected,actual\n" + "".join(rows), encoding="utf-8")
    before = snapshot(tmp_path)
    env = {**os.environ, "PYTHONPATH": str(REPO / "app"), "PYTHONIOENCODING": "utf-8"}
    # stderr to a file, not a pipe: a worker left alive would hold a pipe open, and reading
    # it to the end would wait for that worker and hide it
    errors = tmp_path.parent / f"{tmp_path.name}.stderr"
    with open(errors, "wb") as stderr:
        run = subprocess.Popen([str(PYTHON), "-m", "matchlens", "score", "data.csv",
                                "--expected", "expected", "--actual", "actual", "--metrics",
                                "chrf", "-o", "out.csv"], cwd=tmp_path, env=env,
                               stderr=stderr, stdout=subprocess.DEVNULL)
    try:
        # The forked worker exists only while chunks are being scored (core.parallel_batch): then the
        # main thread is in the kernel or between two of its calls.
        assert _wait(lambda: run.poll() is not None or _children(run.pid)), "never forked"
        workers = _children(run.pid)
        # both processes well into the chunks (0.3 s of the worker's CPU): the kernels run
        _wait(lambda: run.poll() is not None or _cpu_ticks(workers[0]) >= 30)
        if run.poll() is not None:
            pytest.skip("the run finished before it could be interrupted (a very fast machine)")
        run.send_signal(signal.SIGINT)
        run.wait(timeout=300)
        err = errors.read_bytes().decode("utf-8")
    finally:
        if run.poll() is None:
            run.kill()
            run.wait()
    if run.returncode == 0:
        pytest.skip("the run finished before the signal arrived (a very fast machine)")
    assert run.returncode == 130, err
    assert "Traceback" not in err and err.strip().splitlines() == [LINE]
    assert snapshot(tmp_path) == before  # no out.csv, sidecar or .out.csv.*.tmp; input intact
    # killed when the run left, not left to finish its share of the chunks (init reaps it)
    assert all(map(_killed, workers)), workers


def test_the_interrupt_watcher_thread_does_not_stop_the_forked_worker():
    # matchlens.cli.interrupts runs a thread for the whole command; a thread marked fork_safe must
    # not turn the two-process scoring off (it would halve the throughput), any other must.
    if not parallel_batch.can_fork():
        pytest.skip("no fork here (not Linux, one core, or another thread already runs)")
    release = threading.Event()
    for fork_safe, expected in ((True, True), (False, False)):
        thread = threading.Thread(target=release.wait, daemon=True)
        thread.fork_safe = fork_safe  # type: ignore[attr-defined]
        thread.start()
        try:
            assert parallel_batch.can_fork() is expected
        finally:
            release.set()
            thread.join()
            release.clear()


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_during_a_run_on_standard_input_leaves_no_copy_of_it(tmp_path, signum):
    # `score -` copies standard input to a private temporary folder (datasets.readers); the
    # watcher thread leaves by os._exit, so that folder's `with` never ends: it must remove
    # the copy itself (a whole dataset left in /tmp at every Ctrl+C otherwise).
    temp = tmp_path / "tmp"  # TMPDIR: where tempfile puts the copy, private to this test
    temp.mkdir()
    data = tmp_path / "data.csv"
    rows = [f"the cat {i} sat on the mat,a cat {i % 97} sat on a mat\n" for i in range(300_000)]
    data.write_text("expected,actual\n" + "".join(rows), encoding="utf-8")
    size = data.stat().st_size
    env = {**os.environ, "PYTHONPATH": str(REPO / "app"), "PYTHONIOENCODING": "utf-8",
           "TMPDIR": str(temp)}
    errors = tmp_path / "stderr"
    with open(data, "rb") as stdin, open(errors, "wb") as stderr:
        run = subprocess.Popen([str(PYTHON), "-m", "matchlens", "score", "-", "--expected",
                                "expected", "--actual", "actual", "--metrics", "token_f1,chrf",
                                "-o", str(tmp_path / "out.csv")], env=env, stdin=stdin,
                               stderr=stderr, stdout=subprocess.DEVNULL)
    try:
        # the whole input copied: the run is reading or scoring it now
        def copied() -> bool:
            return any(p.stat().st_size == size for p in temp.glob("matchlens-input-*/input"))
        assert _wait(lambda: run.poll() is not None or copied()), "never copied"
        if run.poll() is not None:
            pytest.skip("the run finished before it could be interrupted (a very fast machine)")
        run.send_signal(signum)
        run.wait(timeout=300)
    finally:
        if run.poll() is None:
            run.kill()
            run.wait()
    if run.returncode == 0:
        pytest.skip("the run finished before the signal arrived (a very fast machine)")
    assert run.returncode == 128 + signum, errors.read_text()
    assert list(temp.iterdir()) == []  # no matchlens-input-* folder, no copy of the data
    assert not (tmp_path / "out.csv").exists()


@pytest.mark.parametrize("signum, code", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_signal_while_a_cleanup_module_is_half_imported_still_ends_the_run(signum, code):
    # A Ctrl+C during start-up can land while core.scoring.forked is being imported: it is in
    # sys.modules without kill_workers yet. The watcher raised AttributeError, died, and the
    # interrupt was lost (the run went on to exit 0). The signal must still end the run, with
    # the one line, whatever state the cleanup modules are in.
    script = (
        "import os, signal, sys, time, types\n"
        "from matchlens.cli import interrupts\n"
        "sys.modules['matchlens.core.scoring.forked'] = types.ModuleType('half imported')\n"
        "broken = types.ModuleType('broken')\n"
        "def fails(): raise OSError('cannot')\n"
        "broken.discard_all_temporaries = fails\n"
        "sys.modules['matchlens.core.atomic'] = broken\n"
        "interrupts.watch()\n"
        f"os.kill(os.getpid(), {int(signum)})\n"
        "time.sleep(10)\n"
        "print('the signal was lost')\n")
    done = subprocess.run([PYTHON, "-c", script], capture_output=True, text=True, timeout=60,
                          env={**os.environ, "PYTHONPATH": str(REPO / "app")})
    assert done.returncode == code, done.stderr
    assert "Traceback" not in done.stderr
    assert done.stderr.strip().startswith("matchlens: ")
    assert "the signal was lost" not in done.stdout
