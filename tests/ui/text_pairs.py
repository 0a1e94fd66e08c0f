"""Long expected/actual pairs for the compare tab's size tests: seeded word salad, with one
character in 200 changed in the actual text."""

from __future__ import annotations

import random
from collections.abc import Sequence


def long_pair(size: int, words: Sequence[str], newline_rate: float = 0.0,
              seed: int = 11) -> tuple[str, str]:
    rng = random.Random(seed)
    parts, length = [], 0
    while length < size:
        word = rng.choice(words) + ("\n" if rng.random() < newline_rate else " ")
        parts.append(word)
        length += len(word)
    expected = "".join(parts)[:size]
    chars = list(expected)
    for i in rng.sample(range(size), size // 200):
        chars[i] = "#"
    return expected, "".join(chars)
