"""Texts with random edits for the edit-script and preview tests (tests/core/text and
tests/core/diff): one copy of the seeded typist both suites use."""

from __future__ import annotations

import random


def random_edits(text: str, rate: float, seed: int, replacements: str = "xyz ") -> str:
    """`text` with `rate` × its length random edits, reproducible from `seed`: 40% replace a
    character by one of `replacements`, 30% insert one of "xyz", 30% delete a character."""
    rng = random.Random(seed)
    chars = list(text)
    for _ in range(int(len(chars) * rate)):
        i = rng.randrange(len(chars))
        roll = rng.random()
        if roll < 0.4:
            chars[i] = rng.choice(replacements)
        elif roll < 0.7:
            chars.insert(i, rng.choice("xyz"))
        else:
            del chars[i]
    return "".join(chars)
