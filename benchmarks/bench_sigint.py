"""SIGINT-to-exit of a 1M-row `matchlens score --metrics all` run, at every phase.

    .venv/bin/python benchmarks/bench_sigint.py [--rows 1000000] [--repeat 3]
    .venv/bin/python benchmarks/bench_sigint.py --diff [--repeat 3]   # `matchlens diff` only

Target (issue 11): a run stopped with Ctrl+C (SIGINT) exits within 1 s whatever it is doing,
exit code 130, one line on stderr, no output file and no temporary file left.

Runs are interrupted at points spread over an uninterrupted run's length, and the phase each
was in is seen from outside, with no hook in the program: start-up (the data file not open
yet), reading/scoring (it is open in /proc/PID/fd, no output yet), scoring+writing (the
output's temporary file exists: `score` streams, so pieces are scored and written in turn),
writing/finishing (the input is closed, the output not yet in place). The time is from the
signal to the process's exit.
`--diff` (issue 28 item 5): `matchlens diff` of two unrelated 10 MB texts (the line diff of
cli/diff_large.py), and of two that differ in every 50th line, signalled at points spread over
an uninterrupted run. Measured 2026-11-26 on the shared 2-core machine: unrelated texts 2.9 s
uninterrupted, worst SIGINT-to-exit 0.34 s over 9 points; every 50th line changed 4.0 s, worst
0.61 s; every run exit 130 with one line.
Linux only (/proc). Timings on a shared 2-core machine are noisy: the load average is printed.
"""

from __future__ import annotations

import argparse
import functools
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
print = functools.partial(print, flush=True)  # noqa: A001 (progress shows as it comes)
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


def _state(run: subprocess.Popen, source: str, folder: Path) -> str:
    """What the run is doing, seen from outside."""
    if run.poll() is not None:
        return "finished"
    opened = source in _open_files(run.pid)
    if _temporaries(folder):
        return "scoring+writing" if opened else "writing/finishing"
    return "reading/scoring" if opened else "start-up"


def one(at: float | str, data: Path, folder: Path) -> tuple[float | None, str, str]:
    """Interrupt a run `at` seconds after its start ("open": once the data file is open);
    (seconds from SIGINT to exit or None, the state it was in, a note)."""
    for path in _temporaries(folder):
        path.unlink()
    out = folder / "out.csv"
    out.unlink(missing_ok=True)
    env = {**os.environ, "PYTHONPATH": str(ROOT / "app"), "PYTHONIOENCODING": "utf-8"}
    start = time.monotonic()
    run = subprocess.Popen([sys.executable, "-m", "matchlens", "score", str(data),
                            "--expected", "expected", "--actual", "actual", "--metrics", "all",
                            "-o", str(out), "--quiet"], env=env, stderr=subprocess.PIPE,
                           stdout=subprocess.DEVNULL)
    source = str(data.resolve())
    if at == "open":
        _wait_for(run, lambda: source in _open_files(run.pid))
    else:
        time.sleep(max(0.0, start + float(at) - time.monotonic()))
    state = _state(run, source, folder)
    if state == "finished":
        run.wait()
        return None, state, "the run ended first"
    sent = time.monotonic()
    run.send_signal(signal.SIGINT)
    err = run.communicate(timeout=120)[1].decode("utf-8", "replace")
    took = time.monotonic() - sent
    left = [p.name for p in _temporaries(folder)] + (["out.csv"] if out.exists() else [])
    note = f"exit {run.returncode}"
    lines = err.strip().splitlines()
    if lines:
        note += f", stderr ({len(lines)} line(s)): {lines[-1][:60]!r}"
    if left:
        note += f", LEFT BEHIND: {left}"
    return took, state, note


def uninterrupted(data: Path, folder: Path) -> float:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "app")}
    start = time.monotonic()
    subprocess.run([sys.executable, "-m", "matchlens", "score", str(data), "--expected",
                    "expected", "--actual", "actual", "--metrics", "all", "-o",
                    str(folder / "out.csv"), "--quiet"], env=env, check=True,
                   stdout=subprocess.DEVNULL)
    return time.monotonic() - start


def diff_texts(folder: Path) -> dict[str, tuple[Path, Path]]:
    """Two unrelated 10 MB texts, and one of them with every 50th line reversed."""
    import random

    rng = random.Random(1)
    words = ["".join(rng.choice("abcdefghij") for _ in range(rng.randint(2, 9)))
             for _ in range(5000)]
    texts = []
    for seed in (2, 3):
        pick, lines, size = random.Random(seed), [], 0
        while size < 10_000_000:
            lines.append(" ".join(pick.choice(words) for _ in range(12)))
            size += len(lines[-1]) + 1
        texts.append(lines)
    paths = [folder / name for name in ("a.txt", "b.txt", "c.txt")]
    paths[0].write_text("\n".join(texts[0]), encoding="utf-8")
    paths[1].write_text("\n".join(texts[1]), encoding="utf-8")
    paths[2].write_text("\n".join(line if i % 50 else line[::-1]
                                  for i, line in enumerate(texts[0])), encoding="utf-8")
    return {"unrelated": (paths[0], paths[1]), "every 50th line": (paths[0], paths[2])}


def diff_interrupts(repeat: int) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "app")}
    with tempfile.TemporaryDirectory() as tmp:
        for label, (left, right) in diff_texts(Path(tmp)).items():
            command = [sys.executable, "-m", "matchlens", "diff", str(left), str(right)]
            start = time.monotonic()
            subprocess.run(command, env=env, stdout=subprocess.DEVNULL, check=True)
            total = time.monotonic() - start
            worst = 0.0
            codes = set()
            for fraction in (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9):
                for _ in range(repeat):
                    run = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL,
                                           stderr=subprocess.PIPE)
                    time.sleep(total * fraction)
                    sent = time.monotonic()
                    run.send_signal(signal.SIGINT)
                    run.communicate()
                    worst = max(worst, time.monotonic() - sent)
                    codes.add(run.returncode)
            print(f"diff, {label}: {total:.1f} s uninterrupted; worst SIGINT-to-exit "
                  f"{worst:.2f} s over {9 * repeat} runs (exit codes {sorted(codes)}); "
                  f"load average {os.getloadavg()[0]:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--diff", action="store_true", help="matchlens diff of 10 MB texts")
    args = parser.parse_args()
    if args.diff:
        diff_interrupts(args.repeat)
        return
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        data = folder / "data.csv"
        make_dataset(data, args.rows)
        total = uninterrupted(data, folder)
        print(f"{args.rows:,} rows, --metrics all: {total:.1f} s uninterrupted; "
              f"load average {os.getloadavg()[0]:.2f}")
        print(f"target: SIGINT to exit <= {TARGET_S:g} s in every phase, exit 130, one line, "
              "nothing left behind")
        points: list[float | str] = [0.05, "open", *(round(total * f, 2) for f in
                                                     (0.1, 0.3, 0.5, 0.7, 0.9, 0.97))]
        worst: dict[str, float] = {}
        for at in points:
            for _ in range(args.repeat):
                took, state, note = one(at, data, folder)
                label = f"t={at}s" if at != "open" else "file opened"
                shown = f"{took:5.2f} s" if took is not None else "   —   "
                print(f"  {label:14s} {state:18s} {shown}  {note}")
                if took is not None:
                    worst[state] = max(worst.get(state, 0.0), took)
        for state, took in worst.items():
            verdict = "OK" if took <= TARGET_S else "OVER TARGET"
            print(f"  worst in {state:18s} {took:.2f} s  {verdict}")
        overall = max(worst.values(), default=0.0)
        print(f"worst SIGINT-to-exit: {overall:.2f} s "
              f"({'meets' if overall <= TARGET_S else 'misses'} the {TARGET_S:g} s target)")


if __name__ == "__main__":
    main()
