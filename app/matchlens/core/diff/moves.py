"""Moved text: a sentence, list item or paragraph deleted in one place and inserted in another.

A minimal edit script knows no moves: "A. B. C." against "B. C. A." is "A. " deleted at the
start and " A." inserted at the end, which a reader has to match by eye. Diff tools that detect
moved blocks (WinMerge, VS Code) pair such a deletion with such an insertion; this module does it
for prose, from the readable chunks (`core.diff.readable.chunks`):

1. Both texts are cut into *pieces* at three levels: paragraphs (between blank lines), lines
   (list items) and sentences. A piece counts when it has at least `MIN_WORDS` words or
   `MIN_CHARS` characters, and at least `MIN_COVERED` of its characters lie in changed chunks of
   its side (deleted from the expected text, inserted into the actual one).
2. Pieces are compared by a key: the text as the highlight compares it (case-folded when the
   distance ignores case), whitespace runs as one space, a list marker ("- ", "3. ") dropped (a
   moved numbered item gets a new number). Equal keys are paired by hashing; the pieces left
   over are paired by rapidfuzz (`process.cdist`, in C) when their keys differ by at most
   `MAX_NORMALISED_EDITS` of their length (a moved item with a typo inside it), never an
   O(n·m) Python loop.
3. Paragraphs first, then lines, then sentences, so a moved paragraph is one move rather than its
   sentences; a piece already in a move is not paired again. A deletion and an insertion in the
   same change chunk are a replacement in place, not a move.

Moves only annotate: the chunks, the distance and the exact edits are untouched (the distance is
the exact Levenshtein distance). Each move carries `edits`: the unit edits of the exact script
that fall in its two ranges, what the metric counts for it.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any, NamedTuple

import numpy as np
from rapidfuzz import process
from rapidfuzz.distance import Indel, Levenshtein

from matchlens.core.diff.move_pieces import keyed_pieces

MIN_WORDS = 3
MIN_CHARS = 20
MAX_NORMALISED_EDITS = 0.15
# Beyond this many leftover piece pairs, only equal keys are paired (bounded work).
FUZZY_PAIR_LIMIT = 2_000_000

_SPACES = re.compile(r"\s+")
_WORD = re.compile(r"\w+")


class Move(NamedTuple):
    """A piece of the expected text found, moved, in the actual text: code point ranges into
    both originals, and the unit edits of the exact script inside them."""

    exp_start: int
    exp_end: int
    act_start: int
    act_end: int
    edits: int

    def as_dict(self) -> dict[str, object]:
        return {"expected": [self.exp_start, self.exp_end],
                "actual": [self.act_start, self.act_end], "edits": self.edits}


@lru_cache(maxsize=16_384)  # asked again for the same pieces every keystroke
def long_enough(key: str) -> bool:
    return len(key) >= MIN_CHARS or len(_WORD.findall(key)) >= MIN_WORDS


# Typing changes one side: the other side's piece ids are kept (by its pieces list, which
# `keyed_pieces` keeps for an unchanged text).
_kept_ids: list[tuple[list, dict[str, int], list[int]]] = []


def _expected_ids(e_pieces: list[tuple[int, int, str]]) -> tuple[dict[str, int], list[int]]:
    """A fresh key -> id dict holding `e_pieces`' keys, and their ids in order."""
    for pieces, ids, e_ids in list(_kept_ids):
        if pieces is e_pieces:
            return dict(ids), e_ids
    ids: dict[str, int] = {}
    e_ids = [ids.setdefault(k, len(ids)) for _, _, k in e_pieces]
    _kept_ids[:] = [*_kept_ids[-1:], (e_pieces, ids, e_ids)]  # one swap: thread-safe enough
    return dict(ids), e_ids


def find_moves(e: str, a: str, ops: Sequence[tuple] = ()) -> list[Move]:
    """The moves between `e` and `a` (texts as the highlight compares them: offsets hold for
    the originals), in expected order; `ops` (the exact opcodes) give each move's edits."""
    e_pieces, a_pieces = keyed_pieces(e), keyed_pieces(a)
    if not e_pieces or not a_pieces:
        return []
    ids, e_ids = _expected_ids(e_pieces)
    a_ids = [ids.setdefault(k, len(ids)) for _, _, k in a_pieces]
    # Pieces in the longest common subsequence are in place; the gap each other piece is in
    # tells an edit in place (same gap on both sides) from a move.
    e_gap, a_gap = [-1] * len(e_ids), [-1] * len(a_ids)
    e_out: list[int] = []  # the pieces out of place, in order (a keystroke: a few)
    a_out: list[int] = []
    gap = 0
    for tag, s1, e1, s2, e2 in Indel.opcodes(e_ids, a_ids).as_list():  # tuples: no objects
        if tag == "equal":
            gap += 1
            continue
        # a deletion and an insertion between the same two equal runs: one gap
        if e1 > s1:
            e_gap[s1:e1] = [gap] * (e1 - s1)
            e_out.extend(range(s1, e1))
        if e2 > s2:
            a_gap[s2:e2] = [gap] * (e2 - s2)
            a_out.extend(range(s2, e2))
    pairs = _pair(e_pieces, a_pieces, e_gap, a_gap, e_out, a_out)
    script = None  # built for the first move (most keystrokes have none)
    out = []
    for group in _groups(pairs):
        (s, _, u, _), (_, t, _, v) = (_span(e_pieces, a_pieces, group[0]),
                                      _span(e_pieces, a_pieces, group[-1]))
        if len(group) > 1 or long_enough(e_pieces[group[0][0]][2]):
            script = script or _Script(ops)
            out.append(Move(s, t, u, v, script.edits_in(s, t, u, v)))
    return out


def _span(e_pieces: list, a_pieces: list, pair: tuple[int, int]) -> tuple[int, int, int, int]:
    (s, t, _), (u, v, _) = e_pieces[pair[0]], a_pieces[pair[1]]
    return s, t, u, v


def _groups(pairs: list[tuple[int, int]]) -> list[list[tuple[int, int]]]:
    """Pairs of consecutive pieces on both sides (a paragraph moved whole) as one group."""
    groups: list[list[tuple[int, int]]] = []
    for i, j in sorted(pairs):
        if groups and groups[-1][-1] == (i - 1, j - 1):
            groups[-1].append((i, j))
        else:
            groups.append([(i, j)])
    return groups


def _pair(e_pieces: list[tuple[int, int, str]], a_pieces: list[tuple[int, int, str]],
          e_gap: list[int], a_gap: list[int], e_out: list[int], a_out: list[int]
          ) -> list[tuple[int, int]]:
    """(i, j) of pieces out of place on both sides (`e_out`, `a_out`: those with a gap, in
    order), in different gaps: equal keys by hashing, then long enough keys within
    `MAX_NORMALISED_EDITS` by rapidfuzz."""
    by_key: dict[str, list[int]] = {}
    for j in a_out:
        by_key.setdefault(a_pieces[j][2], []).append(j)
    # Near-equal keys are looked for only in gaps holding more deletions than insertions (or
    # the reverse): an edited sentence in place is one of each in its gap, a moved one is not.
    e_count, a_count = Counter(e_gap), Counter(a_gap)  # counted in C; -1 (in place) dropped
    e_count.pop(-1, None)
    a_count.pop(-1, None)
    pairs, e_left, a_taken = [], [], set()
    for i in e_out:
        key = e_pieces[i][2]
        for j in by_key.get(key, ()):
            if j not in a_taken and a_gap[j] != e_gap[i]:
                pairs.append((i, j))
                a_taken.add(j)
                break
        else:
            if long_enough(key) and e_count[e_gap[i]] != a_count[e_gap[i]]:
                e_left.append(i)
    a_left = [j for j in a_out
              if j not in a_taken and long_enough(a_pieces[j][2])
              and e_count[a_gap[j]] != a_count[a_gap[j]]]
    if not e_left or not a_left or len(e_left) * len(a_left) > FUZZY_PAIR_LIMIT:
        return pairs
    scores = process.cdist([e_pieces[i][2] for i in e_left], [a_pieces[j][2] for j in a_left],
                           scorer=Levenshtein.normalized_distance,
                           score_cutoff=MAX_NORMALISED_EDITS, dtype=np.float32)
    rows, cols = np.nonzero(scores <= MAX_NORMALISED_EDITS)
    order = np.argsort(scores[rows, cols], kind="stable")
    e_done: set[int] = set()
    for k in order:
        i, j = e_left[rows[k]], a_left[cols[k]]
        if i in e_done or j in a_taken or e_gap[i] == a_gap[j]:
            continue
        pairs.append((i, j))
        e_done.add(i)
        a_taken.add(j)
    return pairs


class _Script:
    """The exact script's changed runs, found by bisection (runs are ordered on both sides)."""

    def __init__(self, ops: Sequence[tuple]) -> None:
        self.runs = [op for op in ops if op[0] != "equal"]
        self.i1 = [r[1] for r in self.runs]
        self.i2 = [r[2] for r in self.runs]
        self.j1 = [r[3] for r in self.runs]
        self.j2 = [r[4] for r in self.runs]

    def edits_in(self, s: int, t: int, u: int, v: int) -> int:
        """Unit edits with an expected position in [s, t) or an actual one in [u, v): a run's
        k-th unit edit touches i1 + k and j1 + k (when within the run's sides)."""
        near = set(range(bisect_right(self.i2, s), bisect_left(self.i1, t)))
        near.update(range(bisect_right(self.j2, u), bisect_left(self.j1, v)))
        total = 0
        for index in near:
            _, i1, i2, j1, j2 = self.runs[index]
            k1 = max(0, min(t, i2) - max(s, i1))
            k2 = max(0, min(v, j2) - max(u, j1))
            lo1, lo2 = max(s, i1) - i1, max(u, j1) - j1
            overlap = max(0, min(lo1 + k1, lo2 + k2) - max(lo1, lo2)) if k1 and k2 else 0
            total += k1 + k2 - overlap
        return total


# -- the chunks around the moves -----------------------------------------------------------------

Chunker = Callable[[str, str], list]


def chunks_around_moves(e: str, a: str, moves: Sequence[Move], chunker: Chunker,
                        chunk_type: Callable[..., Any]) -> list:
    """Readable chunks with each move as a whole deletion and a whole insertion: the texts
    without their moved pieces (and the spaces that separated them) are diffed by `chunker`,
    and the moved pieces put back as chunks of their own. Chunks still reassemble both texts."""
    e_cuts = _apart([_cut(e, m.exp_start, m.exp_end) for m in moves])
    a_cuts = _apart(sorted(_cut(a, m.act_start, m.act_end) for m in moves))
    e_rest, e_at = _without(e, e_cuts)
    a_rest, a_at = _without(a, a_cuts)
    out: list = []
    e_shift = a_shift = 0  # characters of cuts put back so far, on each side
    ei = ai = 0
    e_pos = a_pos = 0  # where the output has reached in the originals

    def flush(x: int, u: int) -> None:
        nonlocal ei, ai, e_shift, a_shift, e_pos, a_pos
        while ei < len(e_cuts) and e_at[ei] <= x:
            for lo, hi in _parts(e_cuts[ei]):
                out.append(chunk_type("delete", lo, hi, a_pos, a_pos))
            e_shift += e_cuts[ei][1] - e_cuts[ei][0]
            e_pos = e_cuts[ei][1]
            ei += 1
        while ai < len(a_cuts) and a_at[ai] <= u:
            for lo, hi in _parts(a_cuts[ai]):
                out.append(chunk_type("insert", e_pos, e_pos, lo, hi))
            a_shift += a_cuts[ai][1] - a_cuts[ai][0]
            a_pos = a_cuts[ai][1]
            ai += 1

    for op, x, y, u, v in _split(chunker(e_rest, a_rest), e_at, a_at):
        flush(x, u)
        out.append(chunk_type(op, x + e_shift, y + e_shift, u + a_shift, v + a_shift))
        e_pos, a_pos = y + e_shift, v + a_shift
    flush(len(e_rest), len(a_rest))
    return out


def _cut(text: str, start: int, end: int) -> tuple[int, int, int, int]:
    """(cut start, cut end, piece start, piece end): the piece with the spaces after it (or
    before it, at the end of the text), so that what stays reads as it did around it."""
    after = end + len(text[end:]) - len(text[end:].lstrip())
    if after < len(text):
        return start, after, start, end
    before = len(text[:start].rstrip())
    return before, end, start, end


def _apart(cuts: list[tuple[int, int, int, int]]) -> list[tuple[int, int, int, int]]:
    """Cuts in order that do not overlap (spaces taken by the cut before are not taken twice)."""
    out: list[tuple[int, int, int, int]] = []
    for cs, ce, ps, pe in cuts:
        if out and cs < out[-1][1]:
            cs = out[-1][1]
        out.append((cs, ce, ps, pe))
    return out


def _parts(cut: tuple[int, int, int, int]) -> list[tuple[int, int]]:
    cs, ce, ps, pe = cut
    return [(lo, hi) for lo, hi in ((cs, ps), (ps, pe), (pe, ce)) if hi > lo]


def _without(text: str, cuts: list[tuple[int, int, int, int]]) -> tuple[str, list[int]]:
    """The text without the cuts, and where each cut was in it."""
    parts, at, pos, removed = [], [], 0, 0
    for cs, ce, _, _ in cuts:
        parts.append(text[pos:cs])
        at.append(cs - removed)
        removed += ce - cs
        pos = ce
    parts.append(text[pos:])
    return "".join(parts), at


def _split(chunks: Sequence[Sequence], e_at: list[int], a_at: list[int]
           ) -> list[tuple[str, int, int, int, int]]:
    """The chunks cut where a moved piece goes back in (never inside a chunk)."""
    out = []
    for chunk in chunks:
        stack = [tuple(chunk)]
        while stack:
            op, x, y, u, v = stack.pop()
            k = bisect_right(e_at, x)
            if k < len(e_at) and e_at[k] < y:
                c = e_at[k]
                d = u + c - x if op == "equal" else v
                stack += [_piece(op, c, y, d, v), _piece(op, x, c, u, d)]
                continue
            k = bisect_right(a_at, u)
            if k < len(a_at) and a_at[k] < v:
                c = a_at[k]
                d = x + c - u if op == "equal" else y
                stack += [_piece(op, d, y, c, v), _piece(op, x, d, u, c)]
                continue
            out.append((op, x, y, u, v))
    return out


def _piece(op: str, x: int, y: int, u: int, v: int) -> tuple[str, int, int, int, int]:
    if op != "equal":
        op = "insert" if x == y else "delete" if u == v else "replace"
    return op, x, y, u, v
