"""The batch tab's joins (ui/batch/run_joins.read_joined): a run, a references file and a
baseline of N rows each (CSV, shuffled, 1% of the ids missing from each), read and joined as
the window does, against reading the run alone; then the Runs view's label codes
(run_table.change_codes) over the scored arrays, which follow every threshold drag.

    .venv/bin/python benchmarks/bench_window_joins.py               # 1,000,000 rows
    .venv/bin/python benchmarks/bench_window_joins.py --rows 200000

No Qt is started: read_joined is the read worker's body. The machine is shared: the load
average is printed with the figures.
"""

from __future__ import annotations

import argparse
import csv
import os
import random
import tempfile
import time
from pathlib import Path

import numpy as np

from matchlens.core.config import Config
from matchlens.core.metrics.registry import STATUS_SCORED
from matchlens.core.scoring import plan
from matchlens.core.scoring.batch import BatchResult
from matchlens.core.scoring.run_table import change_codes
from matchlens.ui.batch.run_joins import Join, read_joined
from matchlens.ui.batch.worker import read_dataset

WORDS = ["Paris", "Rome", "Oslo", "Bern", "Lima", "Quito", "the Nile", "Mount Everest"]


def write(tmp: Path, rows: int) -> tuple[Path, Path, Path]:
    rng = random.Random(21)
    out = []
    for name, header in (("run", "actual"), ("refs", "expected"), ("base", "actual")):
        order = list(range(rows))
        rng.shuffle(order)
        order = order[: rows * 99 // 100]
        path = tmp / f"{name}.csv"
        with path.open("w", encoding="utf-8", newline="") as handle:
            writer = csv.writer(handle)
            writer.writerow(["id", header])
            writer.writerows([f"q{i}", WORDS[(i * 7 + len(name)) % len(WORDS)]] for i in order)
        out.append(path)
    return out[0], out[1], out[2]


def timed(label: str, fn):  # noqa: ANN001, ANN201 - a tiny harness
    start = time.perf_counter()
    value = fn()
    print(f"{label:<46} {time.perf_counter() - start:7.2f} s")
    return value


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=1_000_000)
    args = parser.parse_args()
    print(f"{args.rows:,} rows a file; load average {os.getloadavg()[0]:.1f}")
    never = lambda: False  # noqa: E731
    with tempfile.TemporaryDirectory() as folder:
        # pyarrow imports pandas on its first hash join (a one-time cost of the process)
        small = write(Path(folder), 100)
        timed("first join of the process (100 rows; imports)", lambda: read_joined(
            small[0], (Join("reference", small[1], None, "expected"),), "id", None, never))
    with tempfile.TemporaryDirectory() as folder:
        run, refs, base = write(Path(folder), args.rows)
        timed("read the run alone", lambda: read_dataset(run, never))
        joined = timed("read and join run + references + baseline", lambda: read_joined(
            run, (Join("reference", refs, None, "expected"),
                  Join("baseline", base, None, "actual")), "id", None, never))
        n = len(joined.table)
        jobs = plan.make_plan(Config(), None).jobs
        result = BatchResult.empty(n, ["actual", joined.baseline], jobs)
        rng = np.random.default_rng(0)
        for key in result.keys():  # noqa: SIM118 - a method, not a dict
            result.scores[key][:] = rng.random(n)
            result.status[key][:] = STATUS_SCORED
        result.done = n
        thresholds = {job.id: job.threshold for job in jobs}
        timed("Runs view label codes (5 metrics)",
              lambda: change_codes(joined, result, "actual", thresholds))


if __name__ == "__main__":
    main()
