"""What the readable chunks cost on top of the exact edit script they start from.

    PYTHONPATH=app .venv/bin/python benchmarks/bench_readable.py [--runs 7]

For each pair: "script" is rapidfuzz's minimal edit script (`Levenshtein.opcodes`, what the
Exact edits view and the distance need anyway), "chunks" is `core.readable.chunks_from_opcodes`
on that script (merge, word extension, anchors, typos), and "+%" is chunks / script. Median of
--runs runs. Pairs: a realistic copy with ~1% scattered edits (bench_alignment's), the keystroke
benchmark's pair (one '#' every 200 characters) and prose with word substitutions/insertions.

Target (issue 14): chunks <= 10% on top of the script. The machine may be shared: figures
taken while other work runs are noisy; compare ratios, not absolute times.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

from rapidfuzz.distance import Levenshtein

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_alignment import prose, scatter_edits  # noqa: E402
from bench_compare_keystroke import make_pair  # noqa: E402

from matchlens.core.edit_script import score_hint  # noqa: E402
from matchlens.core.readable import chunks_from_opcodes  # noqa: E402

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


def median_ms(action, runs: int) -> float:  # noqa: ANN001
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--sizes", default="10000,100000")
    args = parser.parse_args()
    print(f"{'pair':<22} {'chars':>8} {'script ms':>10} {'chunks ms':>10} {'+%':>6}  target <= 10%")
    for size in (int(s) for s in args.sizes.split(",")):
        rng = random.Random(1)
        text = prose(size, rng)
        pairs = {"1% scattered edits": (text, scatter_edits(text, 0.01, rng)),
                 "keystroke bench": make_pair(size),
                 "word edits": word_edits(size)}
        for name, (e, a) in pairs.items():
            ops = Levenshtein.opcodes(e, a, score_hint=score_hint(e, a)).as_list()
            script = median_ms(lambda e=e, a=a: Levenshtein.opcodes(
                e, a, score_hint=score_hint(e, a)).as_list(), args.runs)
            chunks = median_ms(lambda e=e, a=a, ops=ops: chunks_from_opcodes(e, a, ops),
                               args.runs)
            print(f"{name:<22} {size:>8,} {script:>10.1f} {chunks:>10.1f} "
                  f"{100 * chunks / script:>5.1f}%")
    print(f"({os.cpu_count()} cores; load average {os.getloadavg()[0]:.1f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
