"""Word edges of a text: whether a position splits a word, where a word starts or ends.

The readable chunks (`core.readable`) grow every change to word edges, so these are asked once or
twice per change; on ASCII text they are bytes lookups on a mask built once per text, and the
regex helpers answer for other text (and are the reference the mask path is tested against).
"""

from __future__ import annotations

import re


def is_word_char(char: str) -> bool:
    return char.isalnum() or char == "_"


def _splits(text: str, pos: int) -> bool:
    """Whether a boundary at `pos` falls inside a word of `text`."""
    return 0 < pos < len(text) and is_word_char(text[pos - 1]) and is_word_char(text[pos])


# \w is exactly is_word_char (str.isalnum() or "_") for str patterns.
_WORD_TAIL = re.compile(r"\w+\Z")
_WORD_HEAD = re.compile(r"\w+")
_LOOK = 64  # how far a word fragment is looked for at once (longer words take more looks)


def _word_start(text: str, pos: int, floor: int) -> int:
    """Where the run of word characters ending at `pos` starts (not before `floor`)."""
    while pos > floor:
        lo = max(floor, pos - _LOOK)
        found = _WORD_TAIL.search(text, lo, pos)
        if found is None:
            return pos
        if found.start() > lo or lo == floor:
            return found.start()
        pos = lo  # the whole look was word characters: look further back
    return pos


def _word_end(text: str, pos: int, ceiling: int) -> int:
    """Where the run of word characters starting at `pos` ends (not after `ceiling`)."""
    found = _WORD_HEAD.match(text, pos, ceiling)
    return pos if found is None else found.end()


# Word-character mask of an ASCII text: one byte per character, 1 for \w (alnum or "_"). Built
# by one C-level bytes.translate over the whole text (~50 us for 100k characters), so finding a
# word edge is a bytes.find/rfind for a 0 byte instead of a regex call and Python char tests per
# change (the per-change Python work was most of the readable chunks' cost).
_WORD_BYTE = bytes(int(chr(b).isalnum() or b == ord("_")) for b in range(128)) + bytes(128)


def word_masks(text: str) -> bytes | None:
    """`text`'s word-character mask, or None when it is not ASCII (the regex path is used)."""
    return text.encode("ascii").translate(_WORD_BYTE) if text.isascii() else None


class WordEdges:
    """Word-edge queries on one text: bytes lookups on its mask, or the regex helpers when it
    has none (non-ASCII). Both answer exactly like `_splits` (`split[pos]`), `_word_start` and `_word_end`."""

    __slots__ = ("text", "mask", "size", "split")

    def __init__(self, text: str, mask: bytes | None) -> None:
        self.text, self.mask, self.size = text, mask, len(text)
        # split[pos] for 0 <= pos <= len(text): whether pos falls inside a word. For a mask,
        # mask[pos - 1] AND mask[pos] for every pos at once, as one big-integer AND of the mask
        # with itself shifted by a byte (tens of microseconds for 100k characters), so the
        # caller's loop indexes bytes instead of calling a method per change edge.
        self.split: bytes | _SplitQuery
        if mask is None:
            self.split = _SplitQuery(text)
        else:
            bits = int.from_bytes(mask, "little")
            self.split = (bits & (bits << 8)).to_bytes(len(mask) + 1, "little")

    def word_start(self, pos: int, floor: int) -> int:
        if self.mask is None:
            return _word_start(self.text, pos, floor)
        if pos <= floor:
            return pos
        return self.mask.rfind(0, floor, pos) + 1 or floor

    def word_end(self, pos: int, ceiling: int) -> int:
        if self.mask is None:
            return _word_end(self.text, pos, ceiling)
        if pos >= ceiling:
            return pos
        found = self.mask.find(0, pos, ceiling)
        return ceiling if found < 0 else found


class _SplitQuery:
    """`split[pos]` for a text without a mask: asks `_splits`."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text

    def __getitem__(self, pos: int) -> bool:
        return _splits(self.text, pos)
