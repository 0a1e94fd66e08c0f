"""Where two aligned strings differ, and how: each substituted pair is case-only,
whitespace-only or plain, found character by character (in Python for short runs, with numpy
for long ones). `alignment` splits its substitution runs by these classes, so every span's
flags hold for each character in it; `span_table` marks case-only runs inside equal chunks."""

from __future__ import annotations

from collections.abc import Iterable
from itertools import groupby

import numpy as np

# Code points for which str.isspace() is true; none lies above U+3000 (a test checks the whole
# Unicode range), so scanning up to there keeps the import cheap.
WS_CODES = np.array([c for c in range(0x3001) if chr(c).isspace()], dtype=np.uint32)
_WS_TABLE = np.zeros(0x3002, dtype=bool)  # index 0x3001 stands for every code point above
_WS_TABLE[WS_CODES] = True
# Substitution runs up to this long are classified in plain Python (numpy's per-call overhead
# dominates below it); longer ones with numpy.
SHORT_RUN = 48

# Per-unit classes of a substitution pair.
PLAIN, CASE, SPACE = 0, 1, 2


def pair_class(x: str, y: str, x_fold: str, y_fold: str) -> int:
    """Class of a substituted pair (x != y): case-only, whitespace-only or plain."""
    if x_fold == y_fold:
        return CASE
    return SPACE if x.isspace() and y.isspace() else PLAIN


def runs_of(values: Iterable[int]) -> list[tuple[int, int, int]]:
    """(value, start, end) for each run of equal values."""
    runs, pos = [], 0
    for value, group in groupby(values):
        size = sum(1 for _ in group)
        runs.append((value, pos, pos + size))
        pos += size
    return runs


def _codes(text: str) -> np.ndarray:
    return np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype="<u4")


def char_class_runs(e_seg: str, a_seg: str, e_fold: str, a_fold: str
                    ) -> list[tuple[int, int, int]]:
    """(class, start, end) runs of the pairs of two equal-length segments (numpy)."""
    e, a = _codes(e_seg), _codes(a_seg)
    case = _codes(e_fold) == _codes(a_fold)
    space = _WS_TABLE[np.minimum(e, 0x3001)] & _WS_TABLE[np.minimum(a, 0x3001)]
    classes = np.where(case, CASE, np.where(space, SPACE, PLAIN))
    cuts = (np.flatnonzero(classes[1:] != classes[:-1]) + 1).tolist()
    starts, ends = [0, *cuts], [*cuts, len(e_seg)]
    return [(int(classes[lo]), lo, hi) for lo, hi in zip(starts, ends, strict=True)]


def differing_runs(x: str, y: str) -> list[tuple[int, int]]:
    """(start, end) runs where two equal-length strings differ, character by character."""
    return _true_runs(_codes(x) != _codes(y))


def _true_runs(mask: np.ndarray) -> list[tuple[int, int]]:
    idx = np.flatnonzero(mask)
    if idx.size == 0:
        return []
    breaks = np.flatnonzero(np.diff(idx) > 1)
    starts = idx[np.concatenate(([0], breaks + 1))].tolist()
    ends = (idx[np.concatenate((breaks, [idx.size - 1]))] + 1).tolist()
    return list(zip(starts, ends, strict=True))
