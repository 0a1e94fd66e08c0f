"""Readable chunks: the two texts cut into few, word-aligned pieces a person reads at a glance.

A minimal Levenshtein edit script is not what people read: "such as glucose." against "like
glucose and starch." is drawn as `su[ch] as gl[u]c[o]s[e]` because matching scattered letters
is cheaper than matching the word " glucose". Diff tools fix this with a second, *readable*
alignment; this module builds one from the exact script in four steps, each modelled on a known
rule (Google's diff-match-patch `diff_cleanupSemantic`, Ratcliff/Obershelp's longest-block-first
matching, and the word-aligned inline diffs of VS Code and GitHub):

1. Semantic merge (diff-match-patch's rule): an equality no longer than the edits on both sides
   of it is noise, so it is absorbed into one change with its neighbours. Long equalities (the
   bulk of two similar texts) are kept, so the rest of the work is proportional to the changes,
   not to the texts.
2. Word extension: a change whose edge falls inside a word grows to the word's edge (merging
   with the next change when the equality between is one word fragment).
3. Anchors: inside each change, the longest run of whole words common to both sides becomes an
   equality, then the same on each side of it (Ratcliff/Obershelp on word units, weighted by
   characters). That is what finds " glucose" above.
4. Typos: a piece whose own edit distance is at most `TYPO_EDITS` is drawn character by
   character (one chunk per word), so "recieve" → "receive" shows `ie`→`ei`, not the word.

Chunks always reassemble both texts (equal + delete = expected, equal + insert = actual), and
they are a different alignment from the exact script: their own edit count can exceed the
distance (50 against 49 on the pair above). The distance and the unit `edits` therefore always
come from the exact script; `chunk_edits` gives a chunk's own unit edits (the hover list).

Diff-match-patch itself (the PyPI package, checked) leaves the pair above as one deletion and one
insertion; its Myers core aligns the scattered letters too, so it is not used here.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from rapidfuzz.distance import Levenshtein

from matchlens.core import edit_script
from matchlens.core.edit_script import score_hint
from matchlens.core.metrics.levenshtein import prepare
from matchlens.core.word_edges import WordEdges, is_word_char, word_masks

OPS = ("equal", "delete", "insert", "replace")
# A change of at most this many unit edits (inside one word or a few) is a typo: drawn by char.
TYPO_EDITS = 2
# Anchors shorter than this many characters are not worth splitting a change for (" a").
MIN_ANCHOR = 3
# Step 3 costs about (units on one side) x (units on the other) / (distinct words); beyond this
# product a change stays one piece, so two unrelated long texts never stall the caller.
ANCHOR_WORK_LIMIT = 400_000
# Looking for a typo among the words of a change compares word pairs: at most this many.
_TYPO_PAIR_LIMIT = 2_500

# Word units for anchors: a word with the non-word characters before it (" glucose", ". Oxygen"),
# or trailing non-word characters. Joining the units gives the text back.
_UNIT = re.compile(r"\W*\w+|\W+")


class Chunk(NamedTuple):
    """One readable piece; offsets are code points into the original texts. (A NamedTuple: a
    100k-character pair makes thousands, and a tuple is built in C.)"""

    op: str  # "equal" | "delete" | "insert" | "replace"
    exp_start: int
    exp_end: int
    act_start: int
    act_end: int

    def as_dict(self) -> dict[str, object]:
        return {"op": self.op, "expected": [self.exp_start, self.exp_end],
                "actual": [self.act_start, self.act_end]}


class Edit(NamedTuple):
    """One unit edit of an exact script: a single character replaced, deleted or inserted."""

    op: str  # "replace" | "delete" | "insert"
    exp_start: int
    exp_end: int
    act_start: int
    act_end: int

    def as_dict(self) -> dict[str, object]:
        return {"op": self.op, "expected": [self.exp_start, self.exp_end],
                "actual": [self.act_start, self.act_end]}


@dataclass(frozen=True)
class ReadableDiff:
    """A pair's readable chunks and its exact distance (see `readable_diff`)."""

    expected: str
    actual: str
    chunks: tuple[Chunk, ...]
    distance: int
    case_sensitive: bool = True

    def changes(self) -> list[Chunk]:
        """The chunks that are not equal: what the highlight draws and navigation walks."""
        return [c for c in self.chunks if c.op != "equal"]

    def edits(self) -> list[Edit]:
        """The exact Levenshtein edit script, one entry per unit edit (len == distance)."""
        return exact_edits(self.expected, self.actual, case_sensitive=self.case_sensitive)

    def chunk_edits(self, chunk: Chunk) -> list[Edit]:
        return chunk_edits(self.expected, self.actual, chunk,
                           case_sensitive=self.case_sensitive)

    def as_dict(self) -> dict[str, object]:
        """`distance`, `edits` and `chunks` as `matchlens diff --json` prints them."""
        return {"distance": self.distance, "edits": [e.as_dict() for e in self.edits()],
                "chunks": [c.as_dict() for c in self.chunks]}


def readable_diff(expected: str, actual: str, *, case_sensitive: bool = True,
                  words: bool = False) -> ReadableDiff:
    """The readable chunks of a pair and its exact Levenshtein distance.

    With `case_sensitive=False` both are computed on case-folded copies (same lengths, so the
    offsets hold for the originals) and case-only differences sit inside equal chunks. With
    `words=True` every change is whole words (no character-level typos).
    """
    e_cmp, a_cmp = prepare(expected, case_sensitive), prepare(actual, case_sensitive)
    ops = exact_opcodes(e_cmp, a_cmp)
    distance = sum(max(i2 - i1, j2 - j1) for tag, i1, i2, j1, j2 in ops if tag != "equal")
    chunks = chunks_from_opcodes(e_cmp, a_cmp, ops, words=words)
    return ReadableDiff(expected, actual, tuple(chunks), distance, case_sensitive)


def exact_opcodes(e: str, a: str) -> list[tuple[str, int, int, int, int]]:
    """rapidfuzz's minimal edit script as (tag, i1, i2, j1, j2) runs (tags as in difflib),
    shared with the distance metrics through `edit_script`."""
    return edit_script.opcodes(e, a)


def exact_edits(expected: str, actual: str, *, case_sensitive: bool = True,
                exp_offset: int = 0, act_offset: int = 0) -> list[Edit]:
    """The unit edits of the minimal script, offsets shifted by the given amounts."""
    e, a = prepare(expected, case_sensitive), prepare(actual, case_sensitive)
    out = []
    for tag, i, j in Levenshtein.editops(e, a, score_hint=score_hint(e, a)).as_list():
        i += exp_offset
        j += act_offset
        out.append(Edit(tag, i, i + (tag != "insert"), j, j + (tag != "delete")))
    return out


def chunk_edits(expected: str, actual: str, chunk: Chunk, *, case_sensitive: bool = True
                ) -> list[Edit]:
    """A chunk's own unit edits (its minimal script), in offsets of the whole texts."""
    return exact_edits(expected[chunk.exp_start:chunk.exp_end],
                       actual[chunk.act_start:chunk.act_end], case_sensitive=case_sensitive,
                       exp_offset=chunk.exp_start, act_offset=chunk.act_start)


# -- the four steps ------------------------------------------------------------------------------

def chunks_from_opcodes(e: str, a: str, ops: Sequence[tuple[str, int, int, int, int]], *,
                        words: bool = False) -> list[Chunk]:
    """Readable chunks of `e` and `a` given their exact opcodes (see the module docstring)."""
    changes = _merge_semantic(ops)
    changes = _extend_to_words(e, a, changes, word_masks(e), word_masks(a))
    out: list[Chunk] = []
    # The equality not yet written starts at (e_pos, a_pos): it is written once, up to the next
    # change, rather than as pieces that `_equal` then joins (one call per change, not three).
    e_pos = a_pos = 0
    for i1, i2, j1, j2, original in changes:
        if original is not None and not words:
            o1, o2, p1, p2 = original
            if o2 - o1 <= TYPO_EDITS and p2 - p1 <= TYPO_EDITS:
                # A typo alone in its word(s): the exact script's own edit, as it is (what the
                # steps below would find, without re-aligning the word). The word around it
                # is equal on both sides, so it joins the equalities before and after.
                _equal(out, e_pos, o1, a_pos, p1)
                out.append(Chunk(_op(o1, o2, p1, p2), o1, o2, p1, p2))
                e_pos, a_pos = o2, p2
                continue
        _equal(out, e_pos, i1, a_pos, j1)
        e_pos, a_pos = i2, j2
        for piece in _anchored(e, a, i1, i2, j1, j2):
            if piece[0] == "equal":
                _equal(out, *piece[1:])
            else:
                _change(out, e, a, *piece[1:], words=words)
    _equal(out, e_pos, len(e), a_pos, len(a))
    return out


def _merge_semantic(ops: Sequence[tuple[str, int, int, int, int]]
                    ) -> list[list[int]]:
    """Change regions [i1, i2, j1, j2] after absorbing equalities no longer than the edits on
    both sides (diff-match-patch's semantic rule; a stack instead of its rescans)."""
    merged: list[list[int]] = []
    for tag, i1, i2, j1, j2 in ops:
        if tag == "equal":
            continue
        if merged and merged[-1][1] == i1 and merged[-1][3] == j1:
            merged[-1][1], merged[-1][3] = i2, j2  # touching runs: one change
            continue
        merged.append([i1, i2, j1, j2])
        # The equality between the last two changes, and so on backwards while they merge.
        while len(merged) >= 2:
            before, after = merged[-2], merged[-1]
            gap = after[0] - before[1]
            if (gap <= max(before[1] - before[0], before[3] - before[2])
                    and gap <= max(after[1] - after[0], after[3] - after[2])):
                merged[-2:] = [[before[0], after[1], before[2], after[3]]]
            else:
                break
    return merged


def _extend_to_words(e: str, a: str, changes: list[list[int]],
                     e_mask: bytes | None = None, a_mask: bytes | None = None
                     ) -> list[list[int]]:
    """Grow each change to word edges, merging changes one word fragment apart.

    A change keeps its original bounds as a fifth item while it merges with no other, so that
    a small one (a typo) can be written from the exact script as it is (see `_typo`)."""
    e_edges, a_edges = WordEdges(e, e_mask), WordEdges(a, a_mask)
    e_split, a_split = e_edges.split, a_edges.split
    out: list[list] = []
    for i1, i2, j1, j2 in changes:
        original = (i1, i2, j1, j2)
        # Left edge: absorb the word fragment that ends the equality before.
        while e_split[i1] or a_split[j1]:
            floor = out[-1][1] if out else 0
            k = e_edges.word_start(i1, floor)
            i1, j1 = k, j1 - (i1 - k)
            if out and k == floor:  # the whole equality was a word fragment: one change
                prev = out.pop()
                i1, j1, original = prev[0], prev[2], None
                continue
            break
        out.append([i1, i2, j1, j2, original])
    # Right edges, right to left, so a grown change can reach the next one.
    done: list[list] = []
    for i1, i2, j1, j2, original in reversed(out):
        while e_split[i2] or a_split[j2]:
            ceiling = done[-1][0] if done else len(e)
            k = e_edges.word_end(i2, ceiling)
            i2, j2 = k, j2 + (k - i2)
            if done and k == ceiling:
                nxt = done.pop()
                i2, j2, original = nxt[1], nxt[3], None
                continue
            break
        done.append([i1, i2, j1, j2, original])
    done.reverse()
    return done


def _anchored(e: str, a: str, i1: int, i2: int, j1: int, j2: int
              ) -> list[tuple[str, int, int, int, int]]:
    """A change cut at its longest common runs of whole words (longest first, recursively)."""
    if i1 == i2 or j1 == j2:
        return [("change", i1, i2, j1, j2)]
    e_units, a_units = _UNIT.findall(e, i1, i2), _UNIT.findall(a, j1, j2)
    if len(e_units) * len(a_units) > ANCHOR_WORK_LIMIT or not set(e_units) & set(a_units):
        return [("change", i1, i2, j1, j2)]
    e_off, a_off = _offsets(e_units, i1), _offsets(a_units, j1)
    where: dict[str, list[int]] = defaultdict(list)
    for j, unit in enumerate(a_units):
        where[unit].append(j)
    pieces: list[tuple[str, int, int, int, int]] = []
    stack = [(0, len(e_units), 0, len(a_units))]
    found: list[tuple[int, int, int]] = []
    while stack:
        lo, hi, blo, bhi = stack.pop()
        best = _longest_run(e_units, where, e_off, lo, hi, blo, bhi)
        if best is None:
            continue
        x, y, n = best
        found.append((x, y, n))
        stack.append((lo, x, blo, y))
        stack.append((x + n, hi, y + n, bhi))
    found.sort()
    e_pos, a_pos = i1, j1
    for x, y, n in found:
        es, as_ = e_off[x], a_off[y]
        if (es, as_) != (e_pos, a_pos):
            pieces.append(("change", e_pos, es, a_pos, as_))
        e_pos, a_pos = e_off[x + n], a_off[y + n]
        pieces.append(("equal", es, e_pos, as_, a_pos))
    if (e_pos, a_pos) != (i2, j2):
        pieces.append(("change", e_pos, i2, a_pos, j2))
    return pieces


def _offsets(units: list[str], start: int) -> list[int]:
    out = [start]
    for unit in units:
        out.append(out[-1] + len(unit))
    return out


def _longest_run(e_units: list[str], where: dict[str, list[int]], e_off: list[int],
                 lo: int, hi: int, blo: int, bhi: int) -> tuple[int, int, int] | None:
    """The longest (in characters) run of equal units e_units[x:x+n] == a_units[y:y+n] inside
    the ranges, as (x, y, n); None when it is shorter than MIN_ANCHOR or has no word.

    difflib's find_longest_match, weighted by characters so that " glucose" beats " as a"."""
    best_len, best = 0, None
    run: dict[int, tuple[int, int]] = {}  # j -> (chars, units) of the run ending at (i, j)
    for i in range(lo, hi):
        unit = e_units[i]
        size = len(unit)
        new_run: dict[int, tuple[int, int]] = {}
        for j in where.get(unit, ()):
            if j < blo:
                continue
            if j >= bhi:
                break
            chars, count = run.get(j - 1, (0, 0))
            chars, count = chars + size, count + 1
            new_run[j] = (chars, count)
            if chars > best_len:
                best_len, best = chars, (i - count + 1, j - count + 1, count)
        run = new_run
    if best is None or best_len < MIN_ANCHOR:
        return None
    x, _y, n = best
    if not any(is_word_char(c) for c in "".join(e_units[x:x + n])):
        return None
    return best


def _equal(out: list[Chunk], i1: int, i2: int, j1: int, j2: int) -> None:
    if i2 <= i1:
        return
    last = out[-1] if out else None
    if last is not None and last.op == "equal" and last.exp_end == i1 and last.act_end == j1:
        out[-1] = Chunk("equal", last.exp_start, i2, last.act_start, j2)  # one equal run
    else:
        out.append(Chunk("equal", i1, i2, j1, j2))


def _change(out: list[Chunk], e: str, a: str, i1: int, i2: int, j1: int, j2: int, *,
            words: bool) -> None:
    """One change between anchors: by character when it is a typo, else whole."""
    if i1 == i2 and j1 == j2:
        return
    if not words and i2 > i1 and j2 > j1:
        e_seg, a_seg = e[i1:i2], a[j1:j2]
        if Levenshtein.distance(e_seg, a_seg, score_cutoff=TYPO_EDITS) <= TYPO_EDITS:
            _typo(out, e_seg, a_seg, i1, j1)
            return
        if _split_typos(out, e, a, i1, i2, j1, j2):
            return
    out.append(Chunk(_op(i1, i2, j1, j2), i1, i2, j1, j2))


def _split_typos(out: list[Chunk], e: str, a: str, i1: int, i2: int, j1: int, j2: int) -> bool:
    """A change of several words that holds a typo ("1815." -> "1816 in London."): the typo by
    character, the rest whole. False (nothing written) when no word pair is a typo."""
    e_units, a_units = _UNIT.findall(e, i1, i2), _UNIT.findall(a, j1, j2)
    if len(e_units) + len(a_units) <= 2 or len(e_units) * len(a_units) > _TYPO_PAIR_LIMIT:
        return False
    typos: list[tuple[int, int]] = []
    start = 0
    for x, unit in enumerate(e_units):  # first typo partner of each word, in order
        for y in range(start, len(a_units)):
            if _is_typo_pair(unit, a_units[y]):
                typos.append((x, y))
                start = y + 1
                break
    if not typos:
        return False
    e_off, a_off = _offsets(e_units, i1), _offsets(a_units, j1)
    e_pos, a_pos = i1, j1
    for x, y in typos:
        _piece(out, e, a, e_pos, e_off[x], a_pos, a_off[y])
        _typo(out, e[e_off[x]:e_off[x + 1]], a[a_off[y]:a_off[y + 1]], e_off[x], a_off[y])
        e_pos, a_pos = e_off[x + 1], a_off[y + 1]
    _piece(out, e, a, e_pos, i2, a_pos, j2)
    return True


def _is_typo_pair(x: str, y: str) -> bool:
    """Two word units one typo apart: at most TYPO_EDITS edits, and fewer than half the
    letters of the longer word (so "a" / "I" or "is" / "in" are different words, not typos)."""
    letters = max(len(x.strip()), len(y.strip()))
    limit = min(TYPO_EDITS, (letters - 1) // 2)
    # Equal words are not typos: they are anchors, and the anchor step chose not to cut there.
    return limit > 0 and x != y and Levenshtein.distance(x, y, score_cutoff=limit) <= limit


def _piece(out: list[Chunk], e: str, a: str, i1: int, i2: int, j1: int, j2: int) -> None:
    if e[i1:i2] == a[j1:j2]:
        _equal(out, i1, i2, j1, j2)
    else:
        out.append(Chunk(_op(i1, i2, j1, j2), i1, i2, j1, j2))


def _typo(out: list[Chunk], e_seg: str, a_seg: str, i0: int, j0: int) -> None:
    """A small change by character: its exact runs, one chunk per word they touch."""
    edits: list[list[int]] = []
    for tag, i1, i2, j1, j2 in Levenshtein.opcodes(e_seg, a_seg).as_list():
        if tag == "equal":
            continue
        if edits and all(is_word_char(c) for c in e_seg[edits[-1][1]:i1]):
            edits[-1][1], edits[-1][3] = i2, j2  # same word: one chunk
        else:
            edits.append([i1, i2, j1, j2])
    e_pos = a_pos = 0
    for i1, i2, j1, j2 in edits:
        _equal(out, i0 + e_pos, i0 + i1, j0 + a_pos, j0 + j1)
        out.append(Chunk(_op(i1, i2, j1, j2), i0 + i1, i0 + i2, j0 + j1, j0 + j2))
        e_pos, a_pos = i2, j2
    _equal(out, i0 + e_pos, i0 + len(e_seg), j0 + a_pos, j0 + len(a_seg))


def _op(i1: int, i2: int, j1: int, j2: int) -> str:
    if i1 == i2:
        return "insert"
    return "delete" if j1 == j2 else "replace"
