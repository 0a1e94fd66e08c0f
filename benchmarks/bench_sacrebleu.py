"""Batch BLEU and chrF: CPU microseconds a row, one process, on generated pairs (the dataset of
bench_score.py: exact answers, upper-cased ones, typos, unrelated outputs).

    .venv/bin/python benchmarks/bench_sacrebleu.py [--rows 200000] [--csv FILE]

Scores the file with each metric alone through `run_to_completion` in this process (the forked
second worker off, gc off, as `matchlens score` runs a chunk) and prints the CPU time a row
[target <= 6 us a row each], then the share of it spent in the compiled steps. CPU time, not
wall time: on a shared machine other processes slow it less; the load average is printed.
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT / "app"))

from bench_score import make_dataset  # noqa: E402

TARGET_US = 6.0


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=200_000)
    parser.add_argument("--csv", type=Path, help="a table with expected and actual columns")
    args = parser.parse_args()

    from matchlens.core.datasets import read_table, resolve_column
    from matchlens.core.metrics.fast import ngram_kernel, token_kernel
    from matchlens.core.metrics.registry import get_metric
    from matchlens.core.scoring import parallel as parallel_batch
    from matchlens.core.scoring.batch import MetricJob
    from matchlens.core.scoring.parallel import run_to_completion

    parallel_batch.worth_forking = lambda *a, **k: False  # one process: its CPU time is all
    with tempfile.TemporaryDirectory() as tmp:
        path = args.csv
        if path is None:
            path = Path(tmp) / "pairs.csv"
            make_dataset(path, args.rows)
        table = read_table(path)
        expected = list(resolve_column(table, "expected").values)
        actual = list(resolve_column(table, "actual").values)
    compiled = {"count": ngram_kernel, "words": token_kernel, "split_words": token_kernel,
                "strip_spaces": token_kernel}
    spent: dict[str, float] = {}
    for name, module in compiled.items():
        setattr(module, name, _timed(getattr(module, name), name, spent))
    gc.disable()
    print(f"{len(expected)} rows, load average {os.getloadavg()[0]:.1f}")
    for metric_id in ("bleu", "chrf"):
        spec = get_metric(metric_id)
        job = MetricJob(spec, None, spec.resolve_options({}))
        run_to_completion(expected[:200], {"a": actual[:200]}, [job])  # compiled, warmed
        spent.clear()
        start = time.process_time()
        run_to_completion(expected, {"a": actual}, [job])
        per_row = (time.process_time() - start) / len(expected) * 1e6
        verdict = "PASS" if per_row <= TARGET_US else "MISS"
        parts = ", ".join(f"{k} {v / len(expected) * 1e6:.2f}" for k, v in spent.items())
        print(f"{metric_id:5s} {per_row:5.2f} us/row [target <= {TARGET_US:g}: {verdict}]"
              f"  compiled: {parts}")


def _timed(function, name: str, spent: dict[str, float]):
    def timed(*args):
        start = time.process_time()
        try:
            return function(*args)
        finally:
            spent[name] = spent.get(name, 0.0) + time.process_time() - start

    return timed


if __name__ == "__main__":
    main()
