"""Length-preserving case folding, so offsets in a folded text are offsets in the original."""

from __future__ import annotations


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
