"""End-to-end `matchlens score` on 1,000,000 realistic pairs vs the pandas script users write today.

    .venv/bin/python benchmarks/bench_score.py [--rows 1000000] [--skip-baseline]

Targets (issue: the scoring core): >= 100,000 rows/s end to end (read, score, write) with the
default metrics; >= 5x the rows/s of pandas + df.apply(python-Levenshtein) on the same file;
peak memory of the matchlens run <= 2 GB. A big run scores in two processes (a forked worker),
so memory is reported both as /usr/bin/time's peak RSS of the largest process and as the peak
PSS of all the processes together (shared pages counted once); the target applies to the larger.
The machine's load average is printed: other work on a 2-core machine slows both runs.
"""

from __future__ import annotations

import argparse
import csv
import os
import random
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

WORDS = ("the a capital of France is Paris answer model output reference Ada Lovelace born in "
         "1815 mathematician wrote first algorithm for Charles Babbage analytical engine "
         "photosynthesis converts light energy into chemical energy stored glucose").split()

BASELINE = r'''
import sys, pandas as pd, Levenshtein
src, out = sys.argv[1], sys.argv[2]
df = pd.read_csv(src, keep_default_na=False)
def jac(r):
    e, a = set(r.expected.split()), set(r.actual.split())
    u = e | a
    return 1.0 if not u else len(e & a) / len(u)
df["exact_match"] = df.apply(lambda r: float(r.expected.strip() == r.actual.strip()), axis=1)
df["contains"] = df.apply(lambda r: float(r.expected.strip() in r.actual), axis=1)
df["levenshtein_distance"] = df.apply(lambda r: Levenshtein.distance(r.expected, r.actual), axis=1)
df["levenshtein_similarity"] = df.apply(
    lambda r: 0.0 if not r.expected else round(1 - Levenshtein.distance(r.expected.lower(),
    r.actual.lower()) / max(len(r.expected), len(r.actual)), 2), axis=1)
df["jaccard"] = df.apply(jac, axis=1)
df.to_csv(out, index=False)
'''


def make_dataset(path: Path, rows: int, seed: int = 7) -> None:
    rng = random.Random(seed)
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["id", "expected", "actual"])
        for i in range(rows):
            expected = " ".join(rng.choices(WORDS, k=rng.randint(4, 45)))[:300]
            actual = _mutate(rng, expected)
            writer.writerow([i, expected, actual])


def _mutate(rng: random.Random, text: str) -> str:
    roll = rng.random()
    if roll < 0.3:
        return text
    if roll < 0.5:
        return text.upper() if rng.random() < 0.3 else text + "."
    if roll < 0.8:
        chars = list(text)
        for _ in range(rng.randint(1, 6)):
            chars[rng.randrange(len(chars))] = rng.choice("abcdefgh ")
        return "".join(chars)
    return " ".join(rng.choices(WORDS, k=rng.randint(3, 40)))[:300]


def timed(cmd: list[str]) -> tuple[float, int, int]:
    """Wall time, peak RSS (KiB, of the largest process: what /usr/bin/time reports) and peak
    total PSS (KiB, of the process and its children together: `matchlens score` forks a
    scoring worker, whose pages are mostly shared) of a child process."""
    start = time.perf_counter()
    proc = subprocess.Popen(["/usr/bin/time", "-f", "%M", *cmd], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    peak_pss = [0]
    stop = threading.Event()

    def sample() -> None:
        # twice a second: reading smaps_rollup of a 1 GB process costs ~12 ms of CPU, and the
        # memory peak is a plateau several seconds long
        while not stop.wait(0.5):
            peak_pss[0] = max(peak_pss[0], sum(_pss(pid) for pid in _tree(proc.pid)))

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    _, stderr = proc.communicate()
    elapsed = time.perf_counter() - start
    stop.set()
    sampler.join()
    if proc.returncode not in (0, 1):
        sys.exit(f"command failed: {' '.join(cmd)}\n{stderr[-2000:]}")
    peak_kib = int(stderr.strip().splitlines()[-1])
    return elapsed, peak_kib, peak_pss[0]


def _tree(pid: int) -> list[int]:
    """pid and its descendants (Linux /proc; just pid elsewhere)."""
    found = [pid]
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/children") as handle:
                for child in handle.read().split():
                    found += _tree(int(child))
    except OSError:
        pass
    return found


def _pss(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/smaps_rollup") as handle:
            for line in handle:
                if line.startswith("Pss:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def _load() -> str:
    try:
        one, five, fifteen = os.getloadavg()
        return f"load average {one:.2f} {five:.2f} {fifteen:.2f}"
    except OSError:
        return "load average unknown"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--skip-baseline", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "pairs.csv"
        t0 = time.perf_counter()
        make_dataset(data, args.rows)
        print(f"dataset: {args.rows:,} rows, {data.stat().st_size / 1e6:.0f} MB "
              f"(made in {time.perf_counter() - t0:.1f} s)")
        print(f"{os.cpu_count()} cores, {_load()}")
        ours, peak, pss = timed([sys.executable, "-m", "matchlens", "score", str(data),
                                 "--expected", "expected", "--actual", "actual", "--quiet",
                                 "-o", str(Path(tmp) / "ours.csv")])
        rate = args.rows / ours
        memory = max(peak, pss)
        print(f"matchlens score: {ours:.2f} s, {rate:,.0f} rows/s, peak {peak / 1024:.0f} MB "
              f"(largest process), {pss / 1024:.0f} MB (all processes, PSS) "
              f"[target >= 100,000 rows/s: {'PASS' if rate >= 100_000 else 'MISS'}; "
              f"<= 2048 MB: {'PASS' if memory <= 2 * 1024 * 1024 else 'MISS'}]")
        if args.skip_baseline:
            return
        script = Path(tmp) / "baseline.py"
        script.write_text(BASELINE, encoding="utf-8")
        theirs, their_peak, _ = timed([sys.executable, str(script), str(data),
                                       str(Path(tmp) / "theirs.csv")])
        speedup = theirs / ours
        print(f"pandas + df.apply(python-Levenshtein): {theirs:.2f} s, "
              f"{args.rows / theirs:,.0f} rows/s, peak {their_peak / 1024:.0f} MB")
        print(f"speed-up: {speedup:.1f}x [target >= 5x: {'PASS' if speedup >= 5 else 'MISS'}]")


if __name__ == "__main__":
    main()
