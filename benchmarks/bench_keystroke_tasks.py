"""CPU of each compare-view task for one keystroke at 100k characters, in one process.

    PYTHONPATH=app .venv/bin/python benchmarks/bench_keystroke_tasks.py [--size 100000] [--keys 15]

What a lane computes after a keystroke, task by task (the highlight, then every local metric),
timed with `time.thread_time` (CPU of this thread only: steadier than wall time on a shared
machine). The pair is bench_compare_keystroke's (one '#' every 200 characters, lines of ~10
words); each keystroke types one character into the actual text at a moving place in its middle,
and every task is asked for the new pair, as the window's lanes are. The first keystroke, which
pays for the kept state, is not counted. Run it with PYTHONPATH at two checkouts to compare.

The window runs these tasks on two lanes (the highlight with the edit-script metrics on one, the
rest on the other), so a keystroke's results arrive after about the larger of the two sums plus
the window's own work (bench_compare_keystroke measures that end to end).

Measured 2026-11-26, 2 cores shared with other sessions (load 10.7-11.8), --keys 15, three
runs alternating with a868cf4 (median CPU ms per keystroke; the run's median of the three):
                           before (a868cf4)   after
  __align__                      13.7           10.4   (moves re-cut around the edit; hunks
                                                        with numpy)
  rouge_l                        14.1            1.7   (LCS in the band of the last one)
  token_f1                        8.3            0.3   (kept counts, moved by the edit)
  wer                             6.7            1.5   (words as characters, script spliced)
  jaccard                         2.1            0.4
  bleu                            5.2            5.1
  levenshtein_similarity          3.2            3.2
  chrf                            1.0            1.0
  all tasks               54.1 54.8 54.7   22.9 31.0 24.2
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_compare_keystroke import make_pair  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=100_000)
    parser.add_argument("--keys", type=int, default=15)
    args = parser.parse_args()

    from matchlens.core.diff.pair import run_task, warm_up
    from matchlens.core.diff.span_table import ALIGN_TASK
    from matchlens.core.metrics.registry import local_metric_ids

    names = [ALIGN_TASK, *local_metric_ids()]
    warm_up(names)
    expected, actual = make_pair(args.size)
    options = {ALIGN_TASK: {"case_sensitive": True, "granularity": "char", "view": "readable",
                            "normalise": []}}
    cpu: dict[str, list[float]] = {name: [] for name in names}
    for k in range(args.keys + 1):
        at = len(actual) // 2 + 37 * k
        actual = actual[:at] + "abcdefghij"[k % 10] + actual[at:]
        for name in names:
            start = time.thread_time()
            run_task(name, expected, actual, options.get(name, {}))
            if k:
                cpu[name].append((time.thread_time() - start) * 1000)
    total = 0.0
    print(f"{args.size:,} characters a side, {args.keys} keystrokes; median CPU ms per task")
    for name in names:
        med = statistics.median(cpu[name])
        total += med
        print(f"  {name:<24} {med:7.2f}")
    print(f"  {'all tasks':<24} {total:7.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
