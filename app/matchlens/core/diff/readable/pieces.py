"""How one change region of a readable diff is cut into chunks: anchors, typos, edges.

Steps 3 and 4 of `core.readable` (see its docstring), and what holds them together: whitespace
at the ends of the texts apart, touching pieces joined into one chunk.
"""

from __future__ import annotations

import re
from collections import defaultdict
from typing import NamedTuple

import numpy as np
from rapidfuzz.distance import Levenshtein
from rapidfuzz.process import cdist

from matchlens.core.diff.readable.regions import is_blank
from matchlens.core.text.word_edges import is_word_char

OPS = ("equal", "delete", "insert", "replace")
# A change of at most this many unit edits (inside one word or a few) is a typo: drawn by char.
TYPO_EDITS = 2
# Anchors shorter than this many characters (counted from their first word on) are not worth
# splitting a change for ("a", "I").
MIN_ANCHOR = 2
# Step 3 costs about (units on one side) x (units on the other) / (distinct words); beyond this
# product a change stays one piece, so two unrelated long texts never stall the caller.
ANCHOR_WORK_LIMIT = 400_000
# Looking for a typo among the words of a change compares word pairs: at most this many.
TYPO_PAIR_LIMIT = 2_500

# Word units for anchors: a word with the non-word characters before it (" glucose", ". Oxygen"),
# or trailing non-word characters. Joining the units gives the text back.
_UNIT = re.compile(r"\W*\w+|\W+")
# The same units as (separator, word) or (separator, ""): the word is what anchors match on.
_UNIT_PARTS = re.compile(r"(\W*)(\w*)")


class Chunk(NamedTuple):
    """One piece of a diff, offsets in code points into the original texts: a readable chunk,
    or one unit edit of an exact script (`chunks.exact_edits`: one character replaced, deleted
    or inserted), the one edit type of `core.diff.readable`. (A NamedTuple: a 100k-character
    pair makes thousands, and a tuple is built in C.)"""

    op: str  # "equal" | "delete" | "insert" | "replace" (a unit edit is never "equal")
    exp_start: int
    exp_end: int
    act_start: int
    act_end: int

    def as_dict(self) -> dict[str, object]:
        return {"op": self.op, "expected": [self.exp_start, self.exp_end],
                "actual": [self.act_start, self.act_end]}


def write_change(out: list[Chunk], e: str, a: str, i1: int, i2: int, j1: int, j2: int, *,
                  words: bool) -> None:
    """One change region cut into pieces: anchors, then typos or whole changes; touching pieces
    become one chunk (see `_merge_touching`)."""
    start = len(out)
    lead, (i1, i2, j1, j2), trail = _edge_whitespace(e, a, i1, i2, j1, j2)
    if lead is not None:
        out.append(Chunk(op_of(*lead), *lead))
    for piece in _anchored(e, a, i1, i2, j1, j2):
        if piece[0] == "equal":
            write_equal(out, *piece[1:])
        else:
            _change(out, e, a, *piece[1:], words=words)
    if trail is not None:
        out.append(Chunk(op_of(*trail), *trail))
    _merge_touching(out, start, e, a)


def _edge_whitespace(e: str, a: str, i1: int, i2: int, j1: int, j2: int
                     ) -> tuple[tuple[int, int, int, int] | None, tuple[int, int, int, int],
                                tuple[int, int, int, int] | None]:
    """A change at the start or end of both texts, with its differing leading or trailing
    whitespace apart: "Hello.\n" against "Hello. It is nice." is a sentence inserted and a
    final newline deleted, not a newline replaced by a sentence. (lead, rest, trail)."""
    lead = trail = None
    if i2 == len(e) and j2 == len(a):
        e_cut = i2 - i1 - len(e[i1:i2].rstrip())
        a_cut = j2 - j1 - len(a[j1:j2].rstrip())
        if (e_cut, a_cut) != (0, 0):
            trail = (i2 - e_cut, i2, j2 - a_cut, j2)
            i2, j2 = trail[0], trail[2]
    if i1 == 0 and j1 == 0 and (i2, j2) != (0, 0):
        e_cut = i2 - i1 - len(e[i1:i2].lstrip())
        a_cut = j2 - j1 - len(a[j1:j2].lstrip())
        if (e_cut, a_cut) != (0, 0):
            lead = (i1, i1 + e_cut, j1, j1 + a_cut)
            i1, j1 = lead[1], lead[3]
    return lead, (i1, i2, j1, j2), trail


def _merge_touching(out: list[Chunk], start: int, e: str, a: str) -> None:
    """Touching changes from `start` on become one chunk ("[-The-][- E-]{+e+}" reads as
    "[-The E-]{+e+}"), except that a whitespace-only piece is never folded into a replacement:
    it stays visible as whitespace (a dropped final newline beside an added sentence)."""
    merged: list[Chunk] = []
    for chunk in out[start:]:
        last = merged[-1] if merged else None
        if last is not None and last.op != "equal" and chunk.op != "equal":
            op = op_of(last.exp_start, chunk.exp_end, last.act_start, chunk.act_end)
            if op == last.op == chunk.op or not (is_blank(e, a, *last[1:]) or is_blank(e, a, *chunk[1:])):
                merged[-1] = Chunk(op, last.exp_start, chunk.exp_end, last.act_start,
                                   chunk.act_end)
                continue
        merged.append(chunk)
    out[start:] = merged


def _anchored(e: str, a: str, i1: int, i2: int, j1: int, j2: int
              ) -> list[tuple[str, int, int, int, int]]:
    """A change cut at its longest common runs of whole words (longest first, recursively).

    A run starts at a word, whatever precedes it ("42" is found in "The answer is 42." against
    "42"), then takes in the separators both sides share around it (" glucose")."""
    if i1 == i2 or j1 == j2:
        return [("change", i1, i2, j1, j2)]
    e_parts, a_parts = _unit_parts(e, i1, i2), _unit_parts(a, j1, j2)
    if len(e_parts) * len(a_parts) > ANCHOR_WORK_LIMIT:
        return [("change", i1, i2, j1, j2)]
    e_units, a_units = [s + w for s, w in e_parts], [s + w for s, w in a_parts]
    e_words, a_words = [w for _s, w in e_parts], [w for _s, w in a_parts]
    where: dict[str, list[int]] = defaultdict(list)
    for j, word in enumerate(a_words):
        if word:
            where[word].append(j)
    if not where.keys() & set(e_words):
        return [("change", i1, i2, j1, j2)]
    e_off, a_off = _offsets(e_units, i1), _offsets(a_units, j1)
    stack = [(0, len(e_units), 0, len(a_units))]
    found: list[tuple[int, int, int]] = []
    while stack:
        lo, hi, blo, bhi = stack.pop()
        best = _longest_run(e_units, e_words, a_units, where, lo, hi, blo, bhi)
        if best is None:
            continue
        x, y, n = best
        found.append((x, y, n))
        stack.append((lo, x, blo, y))
        stack.append((x + n, hi, y + n, bhi))
    found.sort()
    runs = [[e_off[x + 1] - len(e_words[x]), e_off[x + n], a_off[y + 1] - len(a_words[y]),
             a_off[y + n]] for x, y, n in found]
    # Separators both sides share join the run: on the left down to the run before, on the
    # right up to the run after.
    for k, run in enumerate(runs):
        floor_e, floor_a = (runs[k - 1][1], runs[k - 1][3]) if k else (i1, j1)
        while (run[0] > floor_e and run[2] > floor_a and e[run[0] - 1] == a[run[2] - 1]
               and not is_word_char(e[run[0] - 1])):
            run[0] -= 1
            run[2] -= 1
        ceil_e, ceil_a = (runs[k + 1][0], runs[k + 1][2]) if k + 1 < len(runs) else (i2, j2)
        while (run[1] < ceil_e and run[3] < ceil_a and e[run[1]] == a[run[3]]
               and not is_word_char(e[run[1]])):
            run[1] += 1
            run[3] += 1
    pieces: list[tuple[str, int, int, int, int]] = []
    e_pos, a_pos = i1, j1
    for es, ee, as_, ae in runs:
        if (es, as_) != (e_pos, a_pos):
            pieces.append(("change", e_pos, es, a_pos, as_))
        pieces.append(("equal", es, ee, as_, ae))
        e_pos, a_pos = ee, ae
    if (e_pos, a_pos) != (i2, j2):
        pieces.append(("change", e_pos, i2, a_pos, j2))
    return pieces


def _unit_parts(text: str, start: int, end: int) -> list[tuple[str, str]]:
    """`_UNIT`'s units of text[start:end] as (separator, word) pairs."""
    parts = _UNIT_PARTS.findall(text, start, end)
    if parts and parts[-1] == ("", ""):  # the empty match at the end
        parts.pop()
    return parts


def _offsets(units: list[str], start: int) -> list[int]:
    out = [start]
    for unit in units:
        out.append(out[-1] + len(unit))
    return out


def _longest_run(e_units: list[str], e_words: list[str], a_units: list[str],
                 where: dict[str, list[int]], lo: int, hi: int, blo: int, bhi: int
                 ) -> tuple[int, int, int] | None:
    """The longest (in characters) run of units e_units[x:x+n] matching a_units[y:y+n] inside
    the ranges, as (x, y, n): the first units match by their word (what precedes it may
    differ), the others whole. None when its words are shorter than MIN_ANCHOR characters.

    difflib's find_longest_match, weighted by characters so that " glucose" beats " as a"."""
    best_len, best = 0, None
    run: dict[int, tuple[int, int]] = {}  # j -> (chars, units) of the run ending at (i, j)
    for i in range(lo, hi):
        unit, word = e_units[i], e_words[i]
        new_run: dict[int, tuple[int, int]] = {}
        for j in where.get(word, ()):
            if j < blo:
                continue
            if j >= bhi:
                break
            before = run.get(j - 1) if unit == a_units[j] else None
            chars, count = (before[0] + len(unit), before[1] + 1) if before else (len(word), 1)
            new_run[j] = (chars, count)
            if chars > best_len:
                best_len, best = chars, (i - count + 1, j - count + 1, count)
        run = new_run
    if best is None or best_len < MIN_ANCHOR:
        return None
    return best


def write_equal(out: list[Chunk], i1: int, i2: int, j1: int, j2: int) -> None:
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
            write_typo(out, e_seg, a_seg, i1, j1)
            return
        if _split_typos(out, e, a, i1, i2, j1, j2):
            return
    out.append(Chunk(op_of(i1, i2, j1, j2), i1, i2, j1, j2))


def _split_typos(out: list[Chunk], e: str, a: str, i1: int, i2: int, j1: int, j2: int) -> bool:
    """A change of several words that holds a typo ("1815." -> "1816 in London."): the typo by
    character, the rest whole. False (nothing written) when no word pair is a typo."""
    e_units, a_units = _UNIT.findall(e, i1, i2), _UNIT.findall(a, j1, j2)
    if len(e_units) + len(a_units) <= 2 or len(e_units) * len(a_units) > TYPO_PAIR_LIMIT:
        return False
    typos: list[tuple[int, int]] = []
    pairs = typo_pairs(e_units, a_units)
    start = 0
    for x in np.flatnonzero(pairs.any(axis=1)).tolist():  # first typo partner of each word
        later = np.flatnonzero(pairs[x, start:])
        if later.size:
            y = start + int(later[0])
            typos.append((x, y))
            start = y + 1
    if not typos:
        return False
    e_off, a_off = _offsets(e_units, i1), _offsets(a_units, j1)
    e_pos, a_pos = i1, j1
    for x, y in typos:
        _piece(out, e, a, e_pos, e_off[x], a_pos, a_off[y])
        write_typo(out, e[e_off[x]:e_off[x + 1]], a[a_off[y]:a_off[y + 1]], e_off[x], a_off[y])
        e_pos, a_pos = e_off[x + 1], a_off[y + 1]
    _piece(out, e, a, e_pos, i2, a_pos, j2)
    return True


def is_typo_pair(x: str, y: str) -> bool:
    """Two word units one typo apart: at most TYPO_EDITS edits, and fewer than half the
    letters of the longer word (so "a" / "I" or "is" / "in" are different words, not typos)."""
    letters = max(len(x.strip()), len(y.strip()))
    limit = min(TYPO_EDITS, (letters - 1) // 2)
    # Equal words are not typos: they are anchors, and the anchor step chose not to cut there.
    return limit > 0 and x != y and Levenshtein.distance(x, y, score_cutoff=limit) <= limit


def typo_pairs(e_units: list[str], a_units: list[str]) -> np.ndarray:
    """`is_typo_pair` of every unit of one side with every unit of the other (bool, [x, y]),
    the distances in one call of rapidfuzz's cdist instead of a Python loop over the pairs."""
    dist = cdist(e_units, a_units, scorer=Levenshtein.distance, score_cutoff=TYPO_EDITS,
                 dtype=np.int32)
    e_letters = np.fromiter((len(u.strip()) for u in e_units), np.int64, len(e_units))
    a_letters = np.fromiter((len(u.strip()) for u in a_units), np.int64, len(a_units))
    limit = np.minimum(TYPO_EDITS, (np.maximum.outer(e_letters, a_letters) - 1) // 2)
    # a distance of 0 is an equal pair (no typo); a positive one within the limit needs
    # limit > 0 (cdist gives TYPO_EDITS + 1 for any pair further apart than its cutoff)
    return (dist > 0) & (dist <= limit)


def _piece(out: list[Chunk], e: str, a: str, i1: int, i2: int, j1: int, j2: int) -> None:
    if e[i1:i2] == a[j1:j2]:
        write_equal(out, i1, i2, j1, j2)
    else:
        out.append(Chunk(op_of(i1, i2, j1, j2), i1, i2, j1, j2))


def write_typo(out: list[Chunk], e_seg: str, a_seg: str, i0: int, j0: int) -> None:
    """A small change by character: its exact runs, one chunk per word they touch."""
    edits: list[list[int]] = []
    for tag, i1, i2, j1, j2 in Levenshtein.opcodes(e_seg, a_seg).as_list():
        if tag == "equal":
            continue
        # same word (nothing but word characters, `is_word_char`, in between): one chunk
        if edits and _word_or_empty(e_seg[edits[-1][1]:i1]):
            edits[-1][1], edits[-1][3] = i2, j2
        else:
            edits.append([i1, i2, j1, j2])
    e_pos = a_pos = 0
    for i1, i2, j1, j2 in edits:
        write_equal(out, i0 + e_pos, i0 + i1, j0 + a_pos, j0 + j1)
        out.append(Chunk(op_of(i1, i2, j1, j2), i0 + i1, i0 + i2, j0 + j1, j0 + j2))
        e_pos, a_pos = i2, j2
    write_equal(out, i0 + e_pos, i0 + len(e_seg), j0 + a_pos, j0 + len(a_seg))


def _word_or_empty(gap: str) -> bool:
    """Every character of `gap` is a word character (`is_word_char`: alphanumeric or "_"), in
    C: str.isalnum() is that test character by character, once "_" counts as a letter."""
    return not gap or gap.replace("_", "a").isalnum()


def op_of(i1: int, i2: int, j1: int, j2: int) -> str:
    if i1 == i2:
        return "insert"
    return "delete" if j1 == j2 else "replace"
