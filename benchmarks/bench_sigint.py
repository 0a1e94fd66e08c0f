"""SIGINT-to-exit of a 1M-row `matchlens score --metrics all` run, at every phase.

    .venv/bin/python benchmarks/bench_sigint.py [--rows 1000000] [--repeat 3]

Target (issue 11): a run stopped with Ctrl+C (SIGINT) exits within 1 s whatever it is doing,
exit code 130, one line on stderr, no output file and no temporary file left.

The phases are seen from outside, with no hook in the program: start-up (just launched),
reading (the data file is open in /proc/PID/fd), scoring (the file was read and closed, no
output exists yet; interrupted early and late in it), writing (the output's temporary file
exists). Each run is interrupted once; the time is from the signal to the process's exit.
Linux only (/proc). Timings on a shared 2-core machine are noisy: the load average is printed.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_score import ROOT, make_dataset  # noqa: E402

TARGET_S = 1.0
POLL_S = 0.001


def _open_files(pid: int) -> set[str]:
    try:
        return {os.readlink(f"/proc/{pid}/fd/{fd}") for fd in os.listdir(f"/proc/{pid}/fd")}
    except OSError:
        return set()


def _temporaries(folder: Path) -> list[Path]:
    return [p for p in folder.iterdir() if p.name.startswith(".out.csv.")]


def _wait_for(run: subprocess.Popen, condition, limit: float = 300.0) -> bool:
    end = time.monotonic() + limit
    while run.poll() is None and time.monotonic() < end:
        if condition():
            return True
        time.sleep(POLL_S)
    return False


def one(phase: str, data: Path, folder: Path, scoring_s: float) -> tuple[float | None, str]:
    """(seconds from SIGINT to exit, or None when the run ended before the phase; a note)."""
    for path in _temporaries(folder):
        path.unlink()
    out = folder / "out.csv"
    out.unlink(missing_ok=True)
    env = {**os.environ, "PYTHONPATH": str(ROOT / "app"), "PYTHONIOENCODING": "utf-8"}
    run = subprocess.Popen([sys.executable, "-m", "matchlens", "score", str(data),
                            "--expected", "expected", "--actual", "actual", "--metrics", "all",
                            "-o", str(out), "--quiet"], env=env, stderr=subprocess.PIPE,
                           stdout=subprocess.DEVNULL)
    source = str(data.resolve())
    reached = True
    if phase == "start-up":
        time.sleep(0.05)
    elif phase == "reading":
        reached = _wait_for(run, lambda: source in _open_files(run.pid))
    else:
        reached = _wait_for(run, lambda: source in _open_files(run.pid))
        reached = reached and _wait_for(run, lambda: source not in _open_files(run.pid))
        if phase.startswith("scoring"):
            fraction = 0.2 if phase == "scoring (early)" else 0.8
            time.sleep(scoring_s * fraction)
        elif phase == "writing":
            reached = reached and _wait_for(run, lambda: bool(_temporaries(folder)))
    if not reached or run.poll() is not None:
        run.kill()
        run.wait()
        return None, "the run ended before this phase"
    sent = time.monotonic()
    run.send_signal(signal.SIGINT)
    err = run.communicate(timeout=120)[1].decode("utf-8", "replace")
    took = time.monotonic() - sent
    left = [p.name for p in _temporaries(folder)] + (["out.csv"] if out.exists() else [])
    note = f"exit {run.returncode}"
    if err.strip():
        note += f", stderr: {err.strip().splitlines()[-1][:70]!r} ({len(err.splitlines())} line(s))"
    if left:
        note += f", LEFT BEHIND: {left}"
    return took, note


def scoring_duration(data: Path, folder: Path) -> tuple[float, float]:
    """(total seconds of an uninterrupted run, seconds between reading and writing)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "app")}
    out = folder / "out.csv"
    start = time.monotonic()
    run = subprocess.Popen([sys.executable, "-m", "matchlens", "score", str(data),
                            "--expected", "expected", "--actual", "actual", "--metrics", "all",
                            "-o", str(out), "--quiet"], env=env, stdout=subprocess.DEVNULL)
    source = str(data.resolve())
    _wait_for(run, lambda: source in _open_files(run.pid))
    _wait_for(run, lambda: source not in _open_files(run.pid))
    read = time.monotonic()
    _wait_for(run, lambda: bool(_temporaries(folder)))
    writing = time.monotonic()
    run.wait()
    return time.monotonic() - start, writing - read


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        data = folder / "data.csv"
        make_dataset(data, args.rows)
        total, scoring = scoring_duration(data, folder)
        print(f"{args.rows:,} rows, --metrics all: {total:.1f} s uninterrupted, of which "
              f"~{scoring:.1f} s scoring; load average {os.getloadavg()[0]:.2f}")
        print(f"target: SIGINT to exit <= {TARGET_S:g} s in every phase, exit 130, "
              "nothing left behind")
        worst = 0.0
        for phase in ("start-up", "reading", "scoring (early)", "scoring (late)", "writing"):
            times = []
            for _ in range(args.repeat):
                took, note = one(phase, data, folder, scoring)
                if took is not None:
                    times.append(took)
                    worst = max(worst, took)
                print(f"  {phase:16s} " + (f"{took:5.2f} s  " if took is not None else "   —    ")
                      + note)
            if times:
                print(f"  {phase:16s} max {max(times):.2f} s "
                      f"{'OK' if max(times) <= TARGET_S else 'OVER TARGET'}")
        print(f"worst SIGINT-to-exit: {worst:.2f} s "
              f"({'meets' if worst <= TARGET_S else 'misses'} the {TARGET_S:g} s target)")


if __name__ == "__main__":
    main()
