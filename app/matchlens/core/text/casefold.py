"""Length-preserving case folding, so offsets in a folded text are offsets in the original."""

from __future__ import annotations

import operator
from collections.abc import Iterable
from itertools import compress


def fold_case(text: str) -> str:
    """Lower-case `text` code point by code point, keeping its length.

    `str.lower()` can change the length ('İ' becomes two code points); such characters are
    left as they are so that position i of the result is always position i of the input,
    which the highlight needs to mark what the user typed.
    """
    lowered = text.lower()
    # 'Σ' is the one context-sensitive mapping (final sigma: 'AΣ' -> 'aς' but 'Σ' -> 'σ'), so a
    # text holding it is folded char by char to keep one character = one folded character.
    if len(lowered) == len(text) and "Σ" not in text:
        return lowered
    return "".join(_fold_char(ch) for ch in text)


def _fold_char(ch: str) -> str:
    low = ch.lower()
    return low if len(low) == 1 else ch


def fold_many(texts: Iterable[str]) -> list[str]:
    """`fold_case` of every text, with the common case (ASCII) done in C.

    An ASCII text folds with `str.lower()` (same length, no Σ), and `str.isascii()` is O(1) in
    CPython, so only the non-ASCII texts go through `fold_case`.
    """
    texts = texts if isinstance(texts, list) else list(texts)
    lowered = list(map(str.lower, texts))
    # a joined text is ASCII iff every part is (the join is a copy; each isascii() is a call)
    if not "".join(texts).isascii():
        for i in compress(range(len(texts)), map(operator.not_, map(str.isascii, texts))):
            lowered[i] = fold_case(texts[i])
    return lowered
