"""What moved-text detection adds to the readable highlight, at 10k, 100k and 1M characters.

    .venv/bin/python benchmarks/bench_moves.py [--sizes 10000,100000,1000000] [--repeat 3]

For each size: prose-like text (sentences of common words), the actual side with one character
edit per 100 (no moves), then the same with one paragraph moved from a third of the way to two
thirds. Columns (best of --repeat, seconds): the exact script (`exact_opcodes`), the readable
chunks from it (`chunks_from_opcodes`), `find_moves` on its own, and the whole
`chunks_and_moves` (with a move, the texts without the moved pieces are diffed again).
Target (issue 25): moves add at most 10% at 100k characters.
"""

from __future__ import annotations

import argparse
import random
import time

from rapidfuzz.distance import Levenshtein

from matchlens.core.diff.moves import find_moves
from matchlens.core.diff.readable.chunks import chunks_and_moves, chunks_from_opcodes
from matchlens.core.text import edit_script

WORDS = ("the of and a to in is was it for on with as by at from that this be are answer model "
         "reference light water sugar energy cell plant oxygen").split()


def make_pair(size: int, moved: bool, seed: int = 1) -> tuple[str, str]:
    rng = random.Random(seed)
    parts, length = [], 0
    while length < size:
        sentence = " ".join(rng.choice(WORDS) for _ in range(rng.randint(5, 14)))
        parts.append(sentence.capitalize() + (".\n\n" if rng.random() < 0.2 else ". "))
        length += len(parts[-1])
    expected = "".join(parts)
    actual = list(expected)
    for _ in range(size // 100):
        actual[rng.randrange(len(actual))] = rng.choice("abcdefg ")
    text = "".join(actual)
    if moved:
        start = text.index("\n\n", len(text) // 3) + 2
        end = text.index("\n\n", start) + 2
        piece, text = text[start:end], text[:start] + text[end:]
        at = text.index("\n\n", 2 * len(text) // 3) + 2
        text = text[:at] + piece + text[at:]
    return expected, text


def best(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def row(size: int, moved: bool, repeat: int) -> None:
    e, a = make_pair(size, moved)
    ops = edit_script.opcodes(e, a)
    t_ops = best(lambda: Levenshtein.opcodes(e, a, score_hint=edit_script.score_hint(e, a)), 1)
    t_chunks = best(lambda: chunks_from_opcodes(e, a, ops, compiled=False), repeat)
    t_moves = best(lambda: find_moves(e, a, ops), repeat)
    t_all = best(lambda: chunks_and_moves(e, a, ops, compiled=False), repeat)
    found = len(find_moves(e, a, ops))
    added = (t_all - t_chunks) / (t_ops + t_chunks)
    print(f"{size:>9,} {moved!s:>5} | {t_ops:7.3f} {t_chunks:7.3f} {t_moves:7.3f} "
          f"{t_all:12.3f} | {found}, {added:+.0%} of script+chunks")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10000,100000,1000000")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(f"{'chars':>9} {'moved':>5} | {'script':>7} {'chunks':>7} {'moves':>7} "
          f"{'chunks+moves':>12} | moves found, added")
    for size in (int(s) for s in args.sizes.split(",")):
        for moved in (False, True):
            row(size, moved, args.repeat)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
