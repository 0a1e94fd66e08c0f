"""What the readable chunks cost on top of the exact edit script they start from.

    PYTHONPATH=app .venv/bin/python benchmarks/bench_readable.py [--runs 7]

For each pair: "script" is rapidfuzz's minimal edit script (`Levenshtein.opcodes`, what the
Exact edits view and the distance need anyway), "chunks" is `core.readable.chunks_from_opcodes`
on that script (merge, word extension, anchors, typos), and "+%" is chunks / script; "path"
says whether that took the compiled kernel (from `KERNEL_MIN_OPS` opcode runs on) or the Python
steps, and "python +%" is what the Python steps alone cost (the kernel's reference). Pairs: a
realistic copy with ~1% scattered edits (bench_alignment's), the keystroke benchmark's pair (one
'#' every 200 characters) and prose with word substitutions/insertions.

Method: CPU time of this process (`time.process_time`, so time other processes take from a
shared machine is not counted), garbage collection off, each sample a loop of enough calls to
last ~--sample-ms, and the minimum over --runs samples (the least disturbed one: caches and
frequency scaling only ever add time). Script and chunks samples are interleaved, so a slow
spell of the machine hits both. A first call (numba's kernel load, when it is used) is made
before timing.

Target (issue 14): chunks <= 10% on top of the script.
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import sys
import time
from pathlib import Path

from rapidfuzz.distance import Levenshtein

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_alignment import prose, scatter_edits  # noqa: E402
from bench_compare_keystroke import make_pair  # noqa: E402

from matchlens.core.diff.readable.chunks import (  # noqa: E402
    KERNEL_MIN_OPS,
    chunks_from_opcodes,
    python_chunks,
)
from matchlens.core.text.edit_script import score_hint  # noqa: E402

WORDS = ["energy", "light", "glucose", "the", "plant", "converts", "stores", "water", "carbon",
         "dioxide", "into", "sugar", "chemical", "leaf", "cell", "and", "of", "a"]


def word_edits(size: int, seed: int = 3) -> tuple[str, str]:
    """Prose and a copy with a word replaced, inserted or deleted every ~30 words."""
    rng = random.Random(seed)
    words = [rng.choice(WORDS) for _ in range(size // 6)]
    edited = []
    for word in words:
        roll = rng.random()
        if roll < 0.01:
            edited.append(rng.choice(WORDS))
        elif roll < 0.02:
            edited.extend([word, rng.choice(WORDS)])
        elif roll >= 0.03 or not edited:
            edited.append(word)
    return " ".join(words)[:size], " ".join(edited)[:size]


def best_ms(actions: list, runs: int, sample_ms: float) -> list[float]:  # noqa: ANN001
    """Per action, the minimum over `runs` samples of CPU ms per call (see the docstring)."""
    loops = []
    for action in actions:
        action()  # warm: first-call costs are not what is measured
        start = time.process_time()
        action()
        once = max(time.process_time() - start, 1e-6)
        loops.append(max(1, round(sample_ms / 1000 / once)))
    best = [float("inf")] * len(actions)
    gc.collect()
    gc.disable()
    try:
        for _ in range(runs):
            for k, action in enumerate(actions):
                start = time.process_time()
                for _ in range(loops[k]):
                    action()
                best[k] = min(best[k], (time.process_time() - start) / loops[k])
    finally:
        gc.enable()
    return [b * 1000 for b in best]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--sizes", default="10000,100000")
    parser.add_argument("--sample-ms", type=float, default=40.0,
                        help="CPU time per sample (calls are looped to last this long)")
    args = parser.parse_args()
    load_before = os.getloadavg()[0]
    print(f"{'pair':<22} {'chars':>8} {'script ms':>10} {'chunks ms':>10} {'+%':>6}  "
          f"{'path':<7} {'python +%':>10}   target: +% <= 10")
    for size in (int(s) for s in args.sizes.split(",")):
        rng = random.Random(1)
        text = prose(size, rng)
        pairs = {"1% scattered edits": (text, scatter_edits(text, 0.01, rng)),
                 "keystroke bench": make_pair(size),
                 "word edits": word_edits(size)}
        for name, (e, a) in pairs.items():
            ops = Levenshtein.opcodes(e, a, score_hint=score_hint(e, a)).as_list()
            path = "kernel" if len(ops) >= KERNEL_MIN_OPS else "python"
            script, chunks, steps = best_ms(
                [lambda e=e, a=a: Levenshtein.opcodes(e, a, score_hint=score_hint(e, a)).as_list(),
                 lambda e=e, a=a, ops=ops: chunks_from_opcodes(e, a, ops),
                 lambda e=e, a=a, ops=ops: python_chunks(e, a, ops)],
                args.runs, args.sample_ms)
            print(f"{name:<22} {size:>8,} {script:>10.3f} {chunks:>10.3f} "
                  f"{100 * chunks / script:>5.1f}%  {path:<7} {100 * steps / script:>9.1f}%")
    print(f"(CPU ms per call, min of {args.runs} samples; {os.cpu_count()} cores; load average "
          f"{load_before:.1f} before, {os.getloadavg()[0]:.1f} after)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
