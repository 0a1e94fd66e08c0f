"""A long text whose paragraphs were reordered: how soon the exact distance, how soon the script.

    PYTHONPATH=app .venv/bin/python benchmarks/bench_reordered.py \
        [--size 200000] [--block 40] [--rate 0.01] [--runs 3] [--app OTHER/app ...]

The pair: bench_alignment's prose; its lines cut into blocks of --block lines, the blocks
shuffled, then scattered character edits at --rate. The anchored script (exact between
unique 4-word anchors) is then far from minimal, so the exact highlight is rapidfuzz's own
script of the whole texts: what the compare view's lane computes, in one fresh process per
run, in CPU seconds (`time.process_time`: a loaded machine's other processes do not count):

  preview   `preview.preview_table`: the readable highlight from the anchored script
  distance  `preview.proven_table` after it: the exact distance in the preview's band (the
            view shows it, labelled exact, with the preview's highlight); "-" where the
            checkout has no such step (before: nothing exact until the script)
  script    `span_table.table_for` after them: the readable chunks of the minimal script
  all       the three, i.e. until the exact highlight
With several --app folders the runs alternate between them; the last lines are the medians.

Measured 2026-11-26 on 2 shared cores (load 5-8; CPU seconds), before = a868cf4, after = the
distance step; 200k characters a side, blocks of 40 lines, 1% edits (preview 204,665 edits,
exact distance 139,492), alternating, medians of 3 (before's first run, 9.3 s of preview, was
numba compiling its kernels into a fresh checkout's cache; the median leaves it out):
                preview   distance   script   all
    before       1.20        -        4.46    6.18   nothing exact until 6.2 s
    after        1.13      1.46       3.05    5.88   the exact distance at 2.6 s
At 1M characters with its paragraphs shuffled (one process, not alternating) the anchored
script counts 1,234,148 edits, the exact distance 714,441 takes 38 s of CPU in that band, and
rapidfuzz's script two to three times that: such a pair stays a preview for minutes, but its
distance is shown, exact, long before.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

_CHILD = r"""
import json, sys, time
from matchlens.core.diff import preview
from matchlens.core.diff.span_table import table_for
e = open(sys.argv[1], encoding="utf-8").read()
a = open(sys.argv[2], encoding="utf-8").read()
options = {"case_sensitive": True, "granularity": "char", "view": "readable", "normalise": []}
out = {}
start = time.process_time()
out["preview_edits"] = preview.preview_table(e, a, options).distance
out["preview"] = time.process_time() - start
if hasattr(preview, "proven_table"):
    mark = time.process_time()
    out["distance_value"] = preview.proven_table(e, a, options).distance
    out["distance"] = time.process_time() - mark
mark = time.process_time()
out["exact_distance"] = table_for(e, a, options).distance
out["script"] = time.process_time() - mark
out["all"] = time.process_time() - start
print(json.dumps(out))
"""


def reordered_pair(size: int, block: int, rate: float, seed: int = 11) -> tuple[str, str]:
    """Prose of `size` characters and a copy with its blocks of `block` lines shuffled and
    character edits at `rate`."""
    sys.path.insert(0, str(HERE))
    from bench_alignment import prose, scatter_edits

    rng = random.Random(seed)
    expected = prose(size, rng)
    lines = expected.splitlines(keepends=True)
    blocks = ["".join(lines[i:i + block]) for i in range(0, len(lines), block)]
    rng.shuffle(blocks)
    return expected, scatter_edits("".join(blocks), rate, rng)


def one_run(app: str, expected: Path, actual: Path) -> dict[str, float]:
    done = subprocess.run([sys.executable, "-c", _CHILD, str(expected), str(actual)],
                          env={"PYTHONPATH": app, "PATH": "/usr/bin:/bin"}, capture_output=True,
                          text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"{app}: {done.stderr.strip()[-400:]}")
    return json.loads(done.stdout)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=200_000)
    parser.add_argument("--block", type=int, default=40)
    parser.add_argument("--rate", type=float, default=0.01)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--app", action="append", help="an `app` folder to run (repeat)")
    args = parser.parse_args()
    apps = args.app or [str(HERE.parent / "app")]
    import tempfile

    results: dict[str, list[dict[str, float]]] = {app: [] for app in apps}
    with tempfile.TemporaryDirectory(prefix="matchlens-bench-") as tmp:
        expected, actual = Path(tmp) / "expected.txt", Path(tmp) / "actual.txt"
        for path, text in zip((expected, actual), reordered_pair(args.size, args.block,
                                                                  args.rate), strict=True):
            path.write_text(text, encoding="utf-8")
        print(f"{args.size:,} characters a side, blocks of {args.block} lines shuffled, "
              f"edit rate {args.rate}; CPU seconds")
        print(f"{'app':<40} | {'preview':>7} {'distance':>8} {'script':>7} {'all':>7} | edits")
        for _ in range(args.runs):
            for app in apps:
                row = one_run(app, expected, actual)
                results[app].append(row)
                dist = f"{row['distance']:8.2f}" if "distance" in row else f"{'-':>8}"
                print(f"{app[-40:]:<40} | {row['preview']:7.2f} {dist} {row['script']:7.2f} "
                      f"{row['all']:7.2f} | preview {row['preview_edits']}, exact "
                      f"{row['exact_distance']}", flush=True)
    print("medians")
    for app, rows in results.items():
        cells = []
        for key in ("preview", "distance", "script", "all"):
            values = [r[key] for r in rows if key in r]
            cells.append(f"{statistics.median(values):7.2f}" if values else f"{'-':>7}")
        print(f"{app[-40:]:<40} | " + " ".join(cells))
    return 0


if __name__ == "__main__":
    sys.exit(main())
