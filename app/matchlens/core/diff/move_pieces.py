"""The pieces moved-text detection compares: each sentence or line of a text, with its key.

`core.diff.moves` cuts both texts into pieces (sentences, lines, list items with their marker)
and compares them by a key (spaces collapsed, list marker dropped). At 100k characters that cut
is a third of a keystroke's moves; a keystroke changes one piece. So the pieces of the last few
texts are kept with the scan's state at every boundary, and a text one small edit away re-cuts
only from the last boundary before the edit to the first one after it at which the scan is
in the same state as before; every other piece is the kept one, shifted. The result
is the same as cutting the whole text (Hypothesis-checked in tests/core/diff).
"""

from __future__ import annotations

import re
import threading
from bisect import bisect_left
from collections import OrderedDict
from dataclasses import dataclass
from functools import lru_cache

from matchlens.core.text.script_splice import changed_span

# Where a sentence ends: its final punctuation (and closing quotes) before a space, or a line end.
_BOUNDARY = re.compile(r"[.!?\n](?:(?<=\n)|[.!?]*[\"')\]]*(?=\s))")
# A piece that is only a list marker ("1.", "b)") belongs to the sentence after it.
_MARKER_ONLY = re.compile(r"(?:\d{1,3}|[a-zA-Z])[.)]")
_LIST_MARKER = re.compile(r"^(?:[-*+•]|\d{1,3}[.)]|[a-zA-Z][.)])\s+")

MAX_EDIT = 2_000  # a bigger change (a paste) is cut afresh
_KEEP = 4

Piece = tuple[int, int, str]


def _step(text: str, pos: int, end: int, glued: int) -> tuple[Piece | None, int]:
    """The piece text[pos:end] makes (or None) and the scan's state after it: `glued` is the
    start of a list marker waiting for its sentence, or -1."""
    piece = text[pos:end]
    stripped = piece.strip()
    s = pos + len(piece) - len(piece.lstrip())
    if not stripped:
        return None, glued
    if (glued < 0 and len(stripped) <= 4 and _MARKER_ONLY.fullmatch(stripped)
            and not text[text.rfind("\n", 0, s) + 1:s].strip()):
        return None, s  # "1." at the start of a line: the item's sentence follows
    if glued >= 0:
        s, glued = glued, -1
    t = end - (len(piece) - len(piece.rstrip()))
    return (s, t, text[s:t]), glued


def pieces(text: str) -> list[Piece]:
    """(start, end, text) of each sentence or line of `text` (stripped of surrounding
    spaces), in order."""
    return [(s, t, text[s:t]) for s, t, _ in _cut(text).pieces]


@lru_cache(maxsize=16_384)  # a keystroke leaves almost every piece as it was
def key_of(piece: str) -> str:
    """A piece as moves compare it: spaces collapsed, a list marker dropped."""
    key = " ".join(piece.split())
    marker = _LIST_MARKER.match(key)
    return key[marker.end():] if marker else key


@dataclass
class _Cut:
    """A text's boundaries (`ends`, the last one the text's length), the scan's state after
    each (`glued`), how many pieces were made up to each (`made`), and the keyed pieces."""

    text: str
    ends: list[int]
    glued: list[int]
    made: list[int]
    pieces: list[Piece]  # (start, end, key)


def _scan(text: str, pos: int, glued: int, ends: list[int], cut: _Cut, made: int) -> None:
    for end in ends:
        piece, glued = _step(text, pos, end, glued)
        if piece is not None:
            cut.pieces.append((piece[0], piece[1], key_of(piece[2])))
            made += 1
        pos = end
        cut.ends.append(end)
        cut.glued.append(glued)
        cut.made.append(made)


def _cut(text: str) -> _Cut:
    cut = _Cut(text, [], [], [], [])
    ends = [m.end() for m in _BOUNDARY.finditer(text)]
    ends.append(len(text))
    _scan(text, 0, -1, ends, cut, 0)
    return cut


def _recut(old: _Cut, text: str, edit: tuple[int, int, int]) -> _Cut:
    """The cut of `text`, which is `old.text` with `edit` (start, old_end, new_end) applied."""
    start, old_end, new_end = edit
    delta = new_end - old_end
    # the last boundary before the edit (its lookahead character too) with no marker waiting
    i = bisect_left(old.ends, start) - 1
    while i >= 0 and (old.ends[i] > start - 1 or old.glued[i] >= 0):
        i -= 1
    pos = old.ends[i] if i >= 0 else 0
    made = old.made[i] if i >= 0 else 0
    cut = _Cut(text, old.ends[:i + 1], old.glued[:i + 1], old.made[:i + 1], old.pieces[:made])
    # From a boundary past the edit, in the same state, all is as before: the list-marker rule
    # of a later piece reads back to its line's start, but a boundary ends on a line break or
    # on a non-space character, so that text is blank or not whatever came before it, as
    # long as both boundaries end alike (a line break on both sides, or on neither: an edit
    # that deletes the line break before "1." makes it no marker).
    resync_from = new_end
    glued = -1
    for m in _BOUNDARY.finditer(text, pos):
        end = m.end()
        piece, glued = _step(text, pos, end, glued)
        if piece is not None:
            cut.pieces.append((piece[0], piece[1], key_of(piece[2])))
        pos = end
        cut.ends.append(end)
        cut.glued.append(glued)
        cut.made.append(len(cut.pieces))
        if end >= resync_from and glued < 0:
            j = bisect_left(old.ends, end - delta)
            if (j < len(old.ends) - 1 and old.ends[j] == end - delta and old.glued[j] < 0
                    and (text[end - 1] == "\n") == (old.text[end - delta - 1] == "\n")):
                shift = len(cut.pieces) - old.made[j]
                cut.ends.extend(e + delta for e in old.ends[j + 1:])
                cut.glued.extend(g + delta if g >= 0 else g for g in old.glued[j + 1:])
                cut.made.extend(n + shift for n in old.made[j + 1:])
                cut.pieces.extend((s + delta, t + delta, k) for s, t, k in
                                  old.pieces[old.made[j]:])
                return cut
    _scan(text, pos, glued, [len(text)], cut, len(cut.pieces))
    return cut


_kept: OrderedDict[str, _Cut] = OrderedDict()
_lock = threading.Lock()


def keyed_pieces(text: str) -> list[Piece]:
    """(start, end, key) of each piece of `text`: kept for a few texts (typing in one side of
    the compare view leaves the other side's as they were), and re-cut around the edit for a
    text one small edit away from a kept one."""
    with _lock:
        found = _kept.get(text)
        if found is not None:
            _kept.move_to_end(text)
            return found.pieces
        candidates = list(reversed(_kept.values()))
    made = None
    for kept in candidates:
        if abs(len(kept.text) - len(text)) > MAX_EDIT:
            continue
        edit = changed_span(kept.text, text)
        if max(edit[1], edit[2]) - edit[0] <= MAX_EDIT:
            made = _recut(kept, text, edit)
            break
    if made is None:
        made = _cut(text)
    with _lock:
        _kept[text] = made
        while len(_kept) > _KEEP:
            _kept.popitem(last=False)
    return made.pieces
