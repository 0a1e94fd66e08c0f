"""A script after a small edit: the kept script of the texts before it, re-diffed around the edit.

Typing in the compare view changes one side by a character or a few, and the lane that computes
the highlight still holds the minimal script of the texts before the keystroke. Outside the
edited stretch (and a margin) that script still fits: keep it, shift what lies after the edit,
and let rapidfuzz diff only the window around it. The result is a valid script whose edit count
bounds the new distance; `edit_script` keeps it only when the exact distance, computed in that
band, equals it (then it is minimal), as it does for the anchored script of long texts.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence

from rapidfuzz.distance import Levenshtein

from matchlens.core.text.anchored_script import Opcodes, score_hint

# Characters of context around the edit that are re-diffed with it: enough for a typo's
# neighbours to realign, few enough to stay a fraction of a millisecond.
MARGIN = 64
_SWAP = {"insert": "delete", "delete": "insert", "replace": "replace", "equal": "equal"}


def common_prefix(x: Sequence, y: Sequence) -> int:
    """How many leading items `x` and `y` share (bisected on slice compares, which run in C)."""
    hi = min(len(x), len(y))
    if x[:hi] == y[:hi]:
        return hi
    lo = 0  # x[:lo] == y[:lo] and x[:hi] != y[:hi]
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if x[lo:mid] == y[lo:mid]:
            lo = mid
        else:
            hi = mid
    return lo


def changed_span(old: Sequence, new: Sequence) -> tuple[int, int, int]:
    """(start, old_end, new_end): `old[start:old_end]` became `new[start:new_end]`, the rest
    is equal (the shortest such stretch found from both ends)."""
    start = common_prefix(old, new)
    room = min(len(old), len(new)) - start
    n_old, n_new = len(old), len(new)
    lo, hi = 0, room  # common suffix length within room, bisected like the prefix
    if old[n_old - hi:] == new[n_new - hi:]:
        lo = hi
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if old[n_old - mid:n_old - lo] == new[n_new - mid:n_new - lo]:
            lo = mid
        else:
            hi = mid
    return start, n_old - lo, n_new - lo


def swapped(ops: Opcodes) -> Opcodes:
    """The script with the two sides exchanged."""
    return [(_SWAP[t], j1, j2, i1, i2) for t, i1, i2, j1, j2 in ops]


def splice_second(e: Sequence, ops: Opcodes, a_new: Sequence,
                  change: tuple[int, int, int]) -> Opcodes:
    """The script of (e, a_new), from `ops`, the script of (e, a_old), where
    `a_old[start:old_end]` became `a_new[start:new_end]` (`changed_span`)."""
    start, old_end, new_end = change
    shift = new_end - old_end
    ends = [op[4] for op in ops]  # a-side ends, ascending
    cut0 = max(0, start - MARGIN)
    cut1 = old_end + MARGIN
    head: Opcodes = []
    tail: Opcodes = []
    first = bisect.bisect_right(ends, cut0)  # ops before `first` end at or before cut0
    head.extend(ops[:first])
    e_cut0 = ops[first - 1][2] if first else 0
    a_cut0 = ops[first - 1][4] if first else 0
    if first < len(ops):
        t, i1, i2, j1, j2 = ops[first]
        if t == "equal" and j1 < cut0:  # split the equal run at cut0
            head.append(("equal", i1, i1 + cut0 - j1, j1, cut0))
            e_cut0, a_cut0 = i1 + cut0 - j1, cut0
    # ops from `last` on end at or after cut1 (and are not in the head already)
    last = max(bisect.bisect_left(ends, cut1), first)
    e_cut1, a_cut1 = len(e), ends[-1] if ends else 0
    if last < len(ops):
        t, i1, i2, j1, j2 = ops[last]
        if t == "equal" and j1 < cut1:  # split the equal run at cut1
            e_cut1, a_cut1 = i1 + cut1 - j1, cut1
            tail.append(("equal", e_cut1, i2, cut1 + shift, j2 + shift))
        elif j1 >= cut1:  # starts at the cut: kept whole
            e_cut1, a_cut1 = i1, j1
            tail.append((t, i1, i2, j1 + shift, j2 + shift))
        else:  # a change across the cut: re-diffed with the window
            e_cut1, a_cut1 = i2, j2
        tail.extend((t, i1, i2, j1 + shift, j2 + shift) for t, i1, i2, j1, j2 in ops[last + 1:])
    middle_e, middle_a = e[e_cut0:e_cut1], a_new[a_cut0:a_cut1 + shift]
    middle: Opcodes = []
    if middle_e or middle_a:
        if not middle_e or not middle_a:
            tag = "insert" if not middle_e else "delete"
            middle.append((tag, e_cut0, e_cut1, a_cut0, a_cut1 + shift))
        else:
            for t, i1, i2, j1, j2 in Levenshtein.opcodes(
                    middle_e, middle_a, score_hint=score_hint(middle_e, middle_a)):
                middle.append((t, e_cut0 + i1, e_cut0 + i2, a_cut0 + j1, a_cut0 + j2))
    merged: Opcodes = []
    for op in (*head, *middle, *tail):
        if op[1] == op[2] and op[3] == op[4]:
            continue
        if merged and op[0] == "equal" == merged[-1][0]:  # touching equal runs as one
            prev = merged[-1]
            merged[-1] = ("equal", prev[1], op[2], prev[3], op[4])
        else:
            merged.append(op)
    return merged
