"""`matchlens score --id --references --baseline`: a 1M-row run against a 1M-row baseline and a
1M-row references file, in three CSV files, each in its own shuffled order, 1% of the ids
missing from each side; against `matchlens score` of the run alone (the same pairs in one file).

    .venv/bin/python benchmarks/bench_runs.py               # 1,000,000 rows
    .venv/bin/python benchmarks/bench_runs.py --rows 200000

Targets (issue 21): the joined run in at most 2.5x the time of scoring the run alone, and at
most 1.5 GB peak memory for all processes (the PSS of the process tree, sampled twice a second,
and the peak RSS of the largest process, as bench_score.py measures). The machine is shared:
the load average is printed with the figures.

How the joined run stays within them: every file is read in pieces keeping only its ids and the
values used, as pyarrow columns (core.scoring.run_files); the join is pyarrow's hash lookup;
the joined texts are taken from those columns a slice at a time as they are scored; the run's
rows are read a second time, in pieces, to write them; a baseline output equal to this run's
is not scored again. What is left is inherent: twice the pairs to score, and five columns a
metric to write instead of two.

Measured 2026-11-26 on the shared 2-core machine (load average 15-23 throughout, so each pair
of figures was taken back to back; before = the code of issue 21's first round, which read
the three files whole):
    yesterday's run as baseline (half the outputs unchanged; the default):
        after:  alone 103.5 s, joined 201.7 s: 1.95x; 1180 MB peak (1127 MB PSS)   met
        before: alone  97.0 s, joined 751.7 s: 7.75x; 2227 MB PSS (1979 MB peak)
    --unrelated-baseline (no output shared: every baseline pair scored at full cost):
        before: alone  31.0 s, joined 104.1 s: 3.36x; 2277 MB PSS (1991 MB peak; load 3.5-5.8)
        after:  alone  14.7 s, joined  36.4 s: 2.47x; 1229 MB PSS (1188 MB peak; load 3.4-3.7)
"""

from __future__ import annotations

import argparse
import csv
import random
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_score import _load, _mutate, make_dataset, timed  # noqa: E402 - a sibling

COMMAND = [sys.executable, "-m", "matchlens", "score"]
TARGET_RATIO = 2.5
TARGET_MB = 1536


def split(pairs: Path, other: Path, tmp: Path, unrelated: bool = False
          ) -> tuple[Path, Path, Path]:
    """run.csv (id, actual), refs.csv (id, expected), base.csv (id, actual), each shuffled,
    each missing 1% of the ids. The baseline is yesterday's run of the same model: for half
    the ids the same output as today (an answer that did not change), for the other half
    another output for the same reference (bench_score's mix of exact, cased, typo'd and
    unrelated answers). `unrelated`: the baseline's outputs are those of another dataset
    (`other`), none the same as today's, every pair scored twice at full cost."""
    with pairs.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.reader(handle))[1:]
    rng = random.Random(21)
    if unrelated:
        with other.open(encoding="utf-8", newline="") as handle:
            before = [row[2] for row in list(csv.reader(handle))[1:]]
    else:
        before = [row[2] if rng.random() < 0.5 else _mutate(rng, row[1]) for row in rows]
    out = []
    for name, header, cells in (("run", "actual", [r[2] for r in rows]),
                                ("refs", "expected", [r[1] for r in rows]),
                                ("base", "actual", before)):
        order = list(range(len(rows)))
        rng.shuffle(order)
        order = order[: len(order) * 99 // 100]
        path = tmp / f"{name}.csv"
        with path.open("w", encoding="utf-8", newline="") as handle:
            writer = csv.writer(handle)
            writer.writerow(["id", header])
            writer.writerows([rows[i][0], cells[i]] for i in order)
        out.append(path)
    return out[0], out[1], out[2]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--unrelated-baseline", action="store_true",
                        help="a baseline sharing no output with the run (see split)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        pairs, other = tmp / "pairs.csv", tmp / "other.csv"
        make_dataset(pairs, args.rows)
        if args.unrelated_baseline:
            make_dataset(other, args.rows, seed=8)
        run, refs, base = split(pairs, other, tmp, args.unrelated_baseline)
        print(f"{args.rows:,} rows a file; {_load()}")
        alone, peak_a, pss_a = timed([*COMMAND, str(pairs), "--expected", "expected",
                                      "--actual", "actual", "--quiet", "-o",
                                      str(tmp / "alone.csv")])
        print(f"the run alone:  {alone:7.1f} s, peak {peak_a / 1024:5.0f} MB (largest "
              f"process), {pss_a / 1024:5.0f} MB (all, PSS)")
        joined, peak, pss = timed([*COMMAND, str(run), "--id", "id", "--actual", "actual",
                                   "--references", str(refs), "--expected", "expected",
                                   "--baseline", str(base), "--baseline-actual", "actual",
                                   "--quiet", "-o", str(tmp / "joined.csv")])
        memory = max(peak, pss) / 1024
        print(f"joined:         {joined:7.1f} s, peak {peak / 1024:5.0f} MB (largest "
              f"process), {pss / 1024:5.0f} MB (all, PSS)")
        ratio = joined / alone
        print(f"ratio {ratio:.2f}x (target <= {TARGET_RATIO}x): "
              f"{'met' if ratio <= TARGET_RATIO else 'MISSED'}; memory {memory:.0f} MB "
              f"(target <= {TARGET_MB} MB): {'met' if memory <= TARGET_MB else 'MISSED'}; "
              f"{_load()}")


if __name__ == "__main__":
    main()
