"""Time levenshtein distance + alignment for one pair at 10k, 100k and 1M characters.

    python benchmarks/bench_alignment.py [--quick]

Realistic pairs are a prose-like text and a copy with ~1% scattered edits (substitutions,
insertions, deletions, a few case flips); worst cases are two unrelated texts. Each row times
`levenshtein.distance` and `align` (char granularity, case-sensitive) on the same pair, best of a
few runs, against the Compare tab's targets. Extra rows time the other modes the UI offers.
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
import time
from collections.abc import Callable

import rapidfuzz

from matchlens.core.diff.alignment import align
from matchlens.core.metrics.levenshtein import distance

TARGET_MS = {10_000: 5.0, 100_000: 250.0, 1_000_000: 15_000.0}
WORDS = [
    "the", "model", "output", "should", "match", "reference", "answer", "within", "a", "few",
    "edits", "but", "it", "often", "drifts", "adds", "words", "drops", "punctuation", "or",
    "changes", "Case", "and", "Numbers", "like", "42", "3.14", "JSON", "keys", "values",
    "summary", "assistant", "user", "system", "prompt",
]


def prose(size: int, rng: random.Random) -> str:
    parts, length = [], 0
    while length < size:
        word = rng.choice(WORDS)
        sep = "\n" if rng.random() < 0.08 else " "
        parts.append(word + sep)
        length += len(word) + 1
    return "".join(parts)[:size]


def scatter_edits(text: str, rate: float, rng: random.Random) -> str:
    chars = list(text)
    for _ in range(int(len(text) * rate)):
        i = rng.randrange(len(chars))
        op = rng.random()
        if op < 0.4:
            chars[i] = rng.choice("abcdefghijklmnopqrstuvwxyz ,.")
        elif op < 0.7:
            chars.insert(i, rng.choice("abcdefghijklmnopqrstuvwxyz "))
        elif op < 0.95:
            del chars[i]
        else:
            chars[i] = chars[i].swapcase()
    return "".join(chars)


def best_of(fn: Callable[[], object], runs: int) -> tuple[float, object]:
    best, result = float("inf"), None
    for _ in range(runs):
        start = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - start)
    return best * 1000, result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="skip the 1M-character pair")
    args = parser.parse_args(argv)
    rng = random.Random(20240601)
    sizes = (10_000, 100_000) if args.quick else (10_000, 100_000, 1_000_000)

    cases = []
    for size in sizes:
        expected = prose(size, rng)
        cases.append(("~1% edits", size, expected, scatter_edits(expected, 0.01, rng), {}))
    for size in (10_000, 100_000):
        cases.append(("unrelated", size, prose(size, rng), prose(size, rng), {}))
    for size in sizes:
        expected = prose(size, rng)
        actual = scatter_edits(expected, 0.01, rng)
        cases.append(("~1% edits, word", size, expected, actual, {"granularity": "word"}))
        cases.append(("~1% edits, ignore case", size, expected, actual,
                      {"case_sensitive": False}))

    print(f"Python {platform.python_version()}, rapidfuzz {rapidfuzz.__version__}, "
          f"{platform.machine()} {platform.system()}")
    header = (f"{'pair':<24}{'chars':>10}{'distance':>10}{'spans':>8}{'dist ms':>10}"
              f"{'align ms':>10}{'total ms':>10}{'target':>10}  verdict")
    print(header)
    print("-" * len(header))
    missed = 0
    for name, size, expected, actual, options in cases:
        runs = 5 if size <= 10_000 else 3 if size <= 100_000 else 1
        case = options.get("case_sensitive", True)
        dist_ms, dist = best_of(lambda e=expected, a=actual, c=case: distance(e, a, c), runs)
        align_ms, al = best_of(lambda e=expected, a=actual, o=options: align(e, a, **o), runs)
        if options.get("granularity", "char") == "char" and al.distance != dist:
            print(f"ERROR: align counted {al.distance} edits, distance says {dist}")
            return 2
        total = dist_ms + align_ms
        target = TARGET_MS[size]
        ok = total <= target
        missed += not ok
        print(f"{name:<24}{size:>10,}{al.distance:>10,}{len(al.spans):>8,}{dist_ms:>10.1f}"
              f"{align_ms:>10.1f}{total:>10.1f}{target:>10,.0f}  {'PASS' if ok else 'MISS'}")
    print(f"\n{missed} of {len(cases)} rows missed their target.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
