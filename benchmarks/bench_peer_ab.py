"""`matchlens score` before and after a change, and autoevals, alternating run by run on the
same generated files (bench_score.make_dataset), with wall and CPU seconds of every process.

    .venv/bin/python benchmarks/bench_peer_ab.py --before a868cf4 \\
        --autoevals-python /work/autoevals-venv/bin/python [--sizes 10000,100000,1000000]
        [--runs 7,5,3] [--all-sizes 10000,100000] [--all-runs 5] [--kernels DIR]

For each size: `--runs` rounds, each round one run of the revision `--before`, one of this
tree and one of autoevals' loop (ExactMatch + Levenshtein, the script bench_metrics.py times),
in that order; then the medians of wall and CPU (user + system, the process and the children
it waited for: the forked scoring worker included) and the largest peak RSS. Then the default
five metrics against `--metrics all` at `--all-sizes`, again alternating, this tree twice:
with the kernels compiled ahead of time (`--kernels DIR`, else where the app looks: the user
cache, filled by `python -m matchlens.core.scoring.kernel_build`) and with numba's JIT (an empty
kernels folder). CPU seconds are the
figure to trust on a shared machine; the load average is printed beside each size.
Each command runs once untimed first (bytecode and numba caches written, the file in the page
cache), as bench_metrics.py does.

Measured 2026-11-27 on a quiet machine (load 0.8-1.4), every branch of the round merged,
`--before a868cf4 --runs 9,5,3 --all-sizes 10000,100000 --all-runs 5`, medians (wall / CPU):
  10k   a868cf4 0.389 / 0.444 s   now 0.388 / 0.442 s   autoevals 0.520 / 0.513 s   1.34x, 1.16x
  100k  a868cf4 1.379 / 2.027 s   now 1.201 / 1.912 s   autoevals 2.407 / 2.313 s   2.00x, 1.21x
  1M    a868cf4 9.422 / 16.32 s   now 8.040 / 14.72 s   autoevals 22.02 / 21.66 s   2.74x, 1.47x
  --metrics all / default: 10k 3.01x wall (a868cf4 3.14x), 100k 2.30x (a868cf4 2.37x)

The kernels compiled ahead of time (issue 27 item 2), 2026-11-27, a loaded machine (load 4.4-5.5:
three engineers on 2 cores; trust CPU), `--before 611794f --sizes "" --all-sizes 10000,100000
--all-runs 5 --kernels DIR` (DIR from `python -m matchlens.core.scoring.kernel_build --dir DIR`),
medians of 5 alternating rounds, wall / CPU, peak RSS:
  10k   default: 611794f 0.547 / 0.360 s, now 0.655 / 0.365 s, now-jit 0.661 / 0.376 s (61 MB)
        all:     611794f 1.962 / 1.334 s (196 MB), now 1.144 / 0.758 s (80 MB),
                 now-jit 1.893 / 1.216 s (197 MB)
        all / default: 611794f 3.59x wall 3.70x CPU; now 1.75x wall 2.08x CPU; now-jit 2.86x, 3.24x
  100k  default: 611794f 2.611 / 2.239 s, now 2.169 / 1.974 s, now-jit 2.432 / 2.067 s (173 MB)
        all:     611794f 5.259 / 5.153 s (332 MB), now 6.255 / 4.370 s (224 MB),
                 now-jit 6.403 / 5.231 s (332 MB)
        all / default: 611794f 2.01x wall 2.30x CPU; now 2.88x wall 2.21x CPU; now-jit 2.63x, 2.53x
Again at load 1.1-1.7 (the same files, medians of 7 rounds at 10k and 5 at 100k, each round
611794f default, 611794f all, now default, now all, now-jit all; /usr/bin/time per process):
  10k   now: default 0.34 / 0.40 s, all 0.60 / 0.79 s (81 MB): 1.76x wall, 1.98x CPU
        611794f all 1.31 / 1.58 s (200 MB), now-jit all 1.18 / 1.45 s (201 MB): 3.5x of default
        (611794f default measured 0.41-0.57 s wall in the same rounds: noisy, same CPU code)
  100k  now: default 1.45 / 2.05 s, all 2.71 / 4.35 s (229 MB): 1.87x wall, 2.12x CPU
        611794f: default 1.34 / 1.99 s, all 3.31 / 5.04 s (337 MB): 2.47x wall, 2.53x CPU;
        now-jit all 3.63 / 5.10 s (340 MB)
At 10k the build removes numba's import and first use (0.46-0.58 s of CPU, ~115 MB of RSS); what is
left over the default five is the seven metrics' own work (~0.15 s: the word table, BLEU's and
chrF's n-grams), sacrebleu's import (~65 ms) and the forked second worker. At 100k the kernels'
throughput is the same either way (their CPU differs by the fixed cost); the walls at load 5
are noise of +-1 s.

Quiet re-measure after every branch of the session merged (2026-11-27 03:50, load 1.2-1.5),
the kernels built by the install command's kernel_build, `--before a868cf4 --runs 7,5,3
--all-sizes 10000,100000 --all-runs 5` (wall / CPU, medians):
  10k   a868cf4 0.318 / 0.364 s   now 0.320 / 0.360 s   autoevals 0.433 / 0.431 s   1.35x, 1.20x
  100k  a868cf4 1.274 / 1.840 s   now 1.243 / 1.924 s   autoevals 2.479 / 2.408 s   1.99x, 1.25x
  1M    a868cf4 9.621 / 17.06 s   now 7.489 / 13.59 s   autoevals 21.63 / 21.20 s   2.89x, 1.56x
  --metrics all / default: 10k now 1.65x wall, 2.00x CPU (without the build 3.66x; a868cf4
  3.01x); 100k now 2.03x (without the build 2.82x; a868cf4 2.52x)
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_metrics import AUTOEVALS, checkout, load  # noqa: E402
from bench_score import make_dataset  # noqa: E402


def timed(cmd: list[str], env: dict[str, str] | None = None) -> tuple[float, float, float]:
    """(wall s, CPU s, peak RSS MB) of one process and the children it waited for."""
    environment = {**os.environ, **(env or {})}
    environment.pop("PYTHONDONTWRITEBYTECODE", None)
    with tempfile.TemporaryFile() as err:  # a file, not a pipe: nothing waits on a reader
        start = time.perf_counter()
        child = subprocess.Popen(cmd, env=environment, stdout=subprocess.DEVNULL, stderr=err)
        _, status, usage = os.wait4(child.pid, 0)
        wall = time.perf_counter() - start
        child.returncode = os.waitstatus_to_exitcode(status)
        if child.returncode not in (0, 1):
            err.seek(0)
            sys.exit(f"failed: {' '.join(cmd)}\n{err.read().decode(errors='replace')[-2000:]}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def score_cmd(app: Path, data: Path, out: Path, *extra: str) -> tuple[list[str], dict]:
    return ([sys.executable, "-m", "matchlens", "score", str(data), "--expected", "expected",
             "--actual", "actual", "--quiet", "-o", str(out), *extra],
            {"PYTHONPATH": str(app), "QT_QPA_PLATFORM": "offscreen"})


def medians(samples: list[tuple[float, float, float]]) -> str:
    wall = statistics.median(s[0] for s in samples)
    cpu = statistics.median(s[1] for s in samples)
    return f"{wall:7.3f} s wall / {cpu:7.3f} s CPU, peak {max(s[2] for s in samples):5.0f} MB"


def alternate(commands: dict[str, tuple[list[str], dict]], runs: int) -> dict[str, list]:
    for cmd, env in commands.values():  # untimed: caches written
        timed(cmd, env)
    out: dict[str, list] = {name: [] for name in commands}
    for _ in range(runs):
        for name, (cmd, env) in commands.items():
            out[name].append(timed(cmd, env))
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--before", metavar="REV", required=True)
    parser.add_argument("--autoevals-python", metavar="PYTHON", default=None)
    parser.add_argument("--sizes", default="10000,100000,1000000")
    parser.add_argument("--runs", default="7,5,3")
    parser.add_argument("--all-sizes", default="10000,100000")
    parser.add_argument("--all-runs", type=int, default=5)
    parser.add_argument("--kernels", metavar="DIR", default=None,
                        help="the kernels built ahead of time (MATCHLENS_KERNELS_DIR)")
    args = parser.parse_args()
    sizes = [int(n) for n in args.sizes.split(",") if n]
    runs = [int(n) for n in args.runs.split(",")]
    all_sizes = [int(n) for n in args.all_sizes.split(",") if n]
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        before = checkout(args.before, tmp)
        files = {}
        for n in sorted(set(sizes) | set(all_sizes)):
            files[n] = tmp / f"pairs_{n}.csv"
            make_dataset(files[n], n)
        script = tmp / "autoevals_loop.py"
        script.write_text(AUTOEVALS, encoding="utf-8")
        print(f"{os.cpu_count()} cores; before = {args.before}, now = {ROOT}")
        for i, n in enumerate(sizes):
            commands = {args.before: score_cmd(before, files[n], tmp / "b.csv"),
                        "now": score_cmd(ROOT / "app", files[n], tmp / "n.csv")}
            if args.autoevals_python:
                commands["autoevals"] = ([args.autoevals_python, str(script), str(files[n]),
                                          str(tmp / "ae.csv")], {})
            rounds = runs[min(i, len(runs) - 1)]
            print(f"\n{n:,} rows, {rounds} rounds ({load()} before):")
            result = alternate(commands, rounds)
            for name, samples in result.items():
                print(f"  {name:>10}: {medians(samples)}")
            if "autoevals" in result:
                ours = statistics.median(s[0] for s in result["now"])
                theirs = statistics.median(s[0] for s in result["autoevals"])
                ours_cpu = statistics.median(s[1] for s in result["now"])
                theirs_cpu = statistics.median(s[1] for s in result["autoevals"])
                print(f"  autoevals / now: {theirs / ours:.2f}x wall, "
                      f"{theirs_cpu / ours_cpu:.2f}x CPU ({load()} after)")
        ahead = {"MATCHLENS_KERNELS_DIR": args.kernels} if args.kernels else {}
        jit = {"MATCHLENS_KERNELS_DIR": str(tmp / "no-kernels")}
        for n in all_sizes:
            commands = {}
            for name, app, env in ((args.before, before, {}), ("now", ROOT / "app", ahead),
                                   ("now-jit", ROOT / "app", jit)):
                cmd, app_env = score_cmd(app, files[n], tmp / "d.csv")
                commands[f"{name} default"] = (cmd, {**app_env, **env})
                cmd, app_env = score_cmd(app, files[n], tmp / "a.csv", "--metrics", "all")
                commands[f"{name} all"] = (cmd, {**app_env, **env})
            print(f"\n--metrics all against the default five, {n:,} rows, {args.all_runs} "
                  f"rounds ({load()} before):")
            result = alternate(commands, args.all_runs)
            for name, samples in result.items():
                print(f"  {name:>18}: {medians(samples)}")
            for name in (args.before, "now", "now-jit"):
                ratio = [statistics.median(s[k] for s in result[f"{name} all"])
                         / statistics.median(s[k] for s in result[f"{name} default"])
                         for k in (0, 1)]
                print(f"  {name}: all / default {ratio[0]:.2f}x wall, {ratio[1]:.2f}x CPU")


if __name__ == "__main__":
    main()
