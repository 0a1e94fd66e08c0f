"""The highlight as the compare view draws it: an alignment as numpy columns (a SpanTable).

`table_for` builds the table a view asks for: the exact edit script (`alignment`), the
readable chunks (`readable`), or either on normalised texts drawn on the originals. Columns,
not objects, because a table crosses from a lane process to the window (`core.diff.pair`):
cheap to pickle, and to bisect when the caret moves. No Qt here.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, NamedTuple

import numpy as np

# The compare view's task whose result is a SpanTable (`core.diff.pair.run_task`).
ALIGN_TASK = "__align__"

# Edit kinds as small integers, so span columns are numpy arrays (cheap to pickle and bisect).
KIND_INSERT, KIND_DELETE, KIND_SUBSTITUTE = 0, 1, 2
FLAG_CASE, FLAG_SPACE, FLAG_COUNTED, FLAG_MOVED = 1, 2, 4, 8

_ASTRAL = re.compile("[\U00010000-\U0010ffff]")

# The last readable table and the script it was drawn from. The compare view asks a lane for
# the preview of long texts and then, on the same texts, for the exact table: when the exact
# script turns out to be the very script the preview was drawn from (`text.edit_script` proves
# the anchored script minimal), the exact table is that table, not a second one.
_last_readable: tuple[tuple[object, ...], object, SpanTable] | None = None


class _HunkBounds(NamedTuple):
    """Where a readable table's difference lies on both sides (what line_anchors reads)."""

    exp_start: int
    exp_end: int
    act_start: int
    act_end: int


@dataclass(frozen=True)
class SpanTable:
    """An alignment as columns: row i is span i; offsets are code points of the original texts."""

    kind: np.ndarray  # int8
    flags: np.ndarray  # int8 bit set of FLAG_*
    exp: np.ndarray  # int64 (n, 2): start, end on the expected side
    act: np.ndarray  # int64 (n, 2): start, end on the actual side
    units: np.ndarray  # int64: edits each span counts (chars, or tokens at word granularity)
    hunks: np.ndarray  # int64 (m, 6): exp_start, exp_end, act_start, act_end, first, last
    distance: int
    granularity: str
    exp_astral: np.ndarray  # code point offsets of characters outside the BMP (2 UTF-16 units)
    act_astral: np.ndarray
    # Line anchors for locked scrolling, built where the texts are (O(hunks) to ship). The
    # Alignment itself never travels: unpickling a million dataclass instances would hold the
    # GIL, and so the GUI thread, for seconds.
    anchors: Any = None
    # "readable": one row per readable chunk (`core.readable`), `units` its own edit count and
    # `distance` the exact one; "exact": the minimal edit script, rows summing to `distance`.
    view: str = "exact"
    case_sensitive: bool = True
    lengths: tuple[int, int] = (-1, -1)  # the texts' lengths in code points (stale check)
    # [start, end) runs of original characters a normalisation removed: drawn as *ignored*
    exp_ignored: np.ndarray = field(default_factory=lambda: np.zeros((0, 2), dtype=np.int64))
    act_ignored: np.ndarray = field(default_factory=lambda: np.zeros((0, 2), dtype=np.int64))
    # Moved text (`core.diff.moves`), readable view only: rows of exp_start, exp_end,
    # act_start, act_end, edits; the chunks of each move carry FLAG_MOVED.
    moves: np.ndarray = field(default_factory=lambda: np.zeros((0, 5), dtype=np.int64))
    # False for a preview (`core.diff.preview`): `distance` is then an upper bound, not the
    # Levenshtein distance, and the view says so until the exact table replaces it.
    exact: bool = True
    # A preview whose `distance` is the exact Levenshtein distance all the same (computed in
    # the preview's band), though its script is not a minimal one (`preview.proven_table`).
    distance_exact: bool = False

    def move_at(self, side: str, offset: int) -> int | None:
        """The index of the move covering code point `offset` on `side`, or None."""
        cols = self.moves[:, 0:2] if side == "expected" else self.moves[:, 2:4]
        hits = np.nonzero((cols[:, 0] <= offset) & (offset < cols[:, 1]))[0]
        return int(hits[0]) if len(hits) else None

    @property
    def counted(self) -> int:
        """Edits in the counted spans: what levenshtein_distance reports."""
        return int(self.units[(self.flags & FLAG_COUNTED) != 0].sum())

    def __len__(self) -> int:
        return len(self.kind)


def astral_offsets(text: str) -> np.ndarray:
    """Where `text` has characters that Qt stores as two UTF-16 units."""
    if text.isascii():
        return np.zeros(0, dtype=np.int64)
    return np.fromiter((m.start() for m in _ASTRAL.finditer(text)), dtype=np.int64)


def span_table(alignment: Any, expected: str, actual: str) -> SpanTable:
    from matchlens.core.diff.alignment import EditKind
    from matchlens.core.diff.scroll_sync import line_anchors

    kinds = {EditKind.INSERT: KIND_INSERT, EditKind.DELETE: KIND_DELETE,
             EditKind.SUBSTITUTE: KIND_SUBSTITUTE}
    spans = alignment.spans
    n = len(spans)
    kind = np.fromiter((kinds[s.kind] for s in spans), dtype=np.int8, count=n)
    flags = np.fromiter(
        ((FLAG_CASE if s.case_only else 0) | (FLAG_SPACE if s.whitespace_only else 0)
         | (FLAG_COUNTED if s.counted else 0) for s in spans), dtype=np.int8, count=n)
    flat = np.fromiter((v for s in spans for v in (s.exp_start, s.exp_end, s.act_start, s.act_end)),
                       dtype=np.int64, count=4 * n).reshape(n, 4)
    units = np.fromiter((s.units for s in spans), dtype=np.int64, count=n)
    hunks = np.fromiter(
        (v for h in alignment.hunks
         for v in (h.exp_start, h.exp_end, h.act_start, h.act_end, h.first_span, h.last_span)),
        dtype=np.int64, count=6 * len(alignment.hunks)).reshape(len(alignment.hunks), 6)
    return SpanTable(kind, flags, flat[:, :2].copy(), flat[:, 2:].copy(), units, hunks,
                     int(alignment.distance), str(alignment.granularity),
                     astral_offsets(expected), astral_offsets(actual),
                     line_anchors(expected, actual, alignment), "exact",
                     bool(alignment.case_sensitive), (len(expected), len(actual)))


def readable_table(expected: str, actual: str, case_sensitive: bool, granularity: str, *,
                   script: Any = None) -> SpanTable:
    """The readable chunks as a SpanTable: what the compare view draws by default. `script`
    makes the edit script the chunks start from (default: the exact one; `core.diff.preview`
    passes its quicker one)."""
    from types import SimpleNamespace

    from rapidfuzz.distance import Levenshtein

    from matchlens.core.diff.char_classes import differing_runs
    from matchlens.core.diff.readable.chunks import chunks_and_moves, exact_opcodes
    from matchlens.core.diff.scroll_sync import line_anchors
    from matchlens.core.metrics.levenshtein import prepare
    from matchlens.core.text.casefold import fold_case

    global _last_readable
    e_cmp, a_cmp = prepare(expected, case_sensitive), prepare(actual, case_sensitive)
    ops = (script or exact_opcodes)(e_cmp, a_cmp)
    key = (expected, actual, case_sensitive, granularity)
    last = _last_readable
    if last is not None and last[1] is ops and last[0] == key:
        return last[2]
    distance = sum(max(i2 - i1, j2 - j1) for tag, i1, i2, j1, j2 in ops if tag != "equal")
    rows: list[tuple[int, int, int, int, int, int, int]] = []
    moves, chunks = chunks_and_moves(e_cmp, a_cmp, ops, words=granularity == "word",
                                     script=script)
    moved_from = {(m.exp_start, m.exp_end) for m in moves}
    moved_to = {(m.act_start, m.act_end) for m in moves}
    for c in chunks:
        e_seg, a_seg = expected[c.exp_start:c.exp_end], actual[c.act_start:c.act_end]
        if c.op == "equal":
            if e_seg != a_seg:  # equal ignoring case: show the case-only marks, uncounted
                rows.extend((KIND_SUBSTITUTE, FLAG_CASE, c.exp_start + lo, c.exp_start + hi,
                             c.act_start + lo, c.act_start + hi, hi - lo)
                            for lo, hi in differing_runs(e_seg, a_seg))
            continue
        kind = {"insert": KIND_INSERT, "delete": KIND_DELETE}.get(c.op, KIND_SUBSTITUTE)
        flags = FLAG_COUNTED
        if (e_seg + a_seg).isspace():
            flags |= FLAG_SPACE
        elif kind == KIND_SUBSTITUTE and fold_case(e_seg) == fold_case(a_seg):
            flags |= FLAG_CASE
        if ((c.exp_start, c.exp_end) in moved_from if kind == KIND_DELETE
                else (c.act_start, c.act_end) in moved_to if kind == KIND_INSERT else False):
            flags |= FLAG_MOVED
        units = Levenshtein.distance(e_cmp[c.exp_start:c.exp_end], a_cmp[c.act_start:c.act_end])
        rows.append((kind, flags, c.exp_start, c.exp_end, c.act_start, c.act_end, units))
    n = len(rows)
    cols = np.array(rows, dtype=np.int64).reshape(n, 7)
    # touching rows (a typo right before an insertion) are one difference: a hunk starts at
    # every row that does not touch the one before it (vectorised: thousands of hunks at 100k)
    touching = (cols[1:, 2] == cols[:-1, 3]) & (cols[1:, 4] == cols[:-1, 5])
    firsts = np.flatnonzero(np.concatenate([[True], ~touching])) if n else \
        np.zeros(0, dtype=np.int64)
    lasts = np.append(firsts[1:], n) - 1 if n else firsts
    hunks = np.stack([cols[firsts, 2], cols[lasts, 3], cols[firsts, 4], cols[lasts, 5], firsts,
                      lasts], axis=1).astype(np.int64).reshape(len(firsts), 6)
    # line_anchors reads only the hunks' bounds: plain tuples, not validated Hunk objects
    bounds = tuple(map(_HunkBounds._make, hunks[:, :4].tolist()))
    anchors = line_anchors(expected, actual, SimpleNamespace(hunks=bounds))
    table = SpanTable(cols[:, 0].astype(np.int8), cols[:, 1].astype(np.int8),
                      cols[:, 2:4].copy(), cols[:, 4:6].copy(), cols[:, 6].copy(), hunks,
                      distance, granularity, astral_offsets(expected), astral_offsets(actual),
                      anchors, "readable", case_sensitive, (len(expected), len(actual)),
                      moves=np.array(moves, dtype=np.int64).reshape(len(moves), 5))
    _last_readable = (key, ops, table)
    return table


def table_for(expected: str, actual: str, options: Mapping[str, Any]) -> SpanTable:
    """The table the view asks for: `options` hold `case_sensitive`, `granularity`, `view`
    ("exact" or "readable") and `normalise` (the normalisation steps, or none)."""
    if options.get("normalise"):
        return normalised_span_table(expected, actual, options)
    if options.get("view", "exact") == "readable":
        return readable_table(expected, actual, bool(options["case_sensitive"]),
                              str(options["granularity"]))
    from matchlens.core.diff.alignment import align

    alignment = align(expected, actual, case_sensitive=bool(options["case_sensitive"]),
                      granularity=str(options["granularity"]))
    return span_table(alignment, expected, actual)


def normalised_span_table(expected: str, actual: str, options: Mapping[str, Any]) -> SpanTable:
    """The alignment of the normalised texts, drawn on the originals: each span covers the
    characters its normalised characters came from, and what the normalisation removed is
    listed as ignored. Its edits are the ones the normalised metric counts. Locked scrolling
    gets no line anchors (a normalisation may remove line breaks) and follows proportionally."""
    from matchlens.core.text.normalise import pipeline
    from matchlens.core.text.normalised_offsets import OffsetMap

    steps = pipeline(options["normalise"])
    e_map = OffsetMap(steps.mapped(expected), len(expected))
    a_map = OffsetMap(steps.mapped(actual), len(actual))
    e_text, a_text = steps.apply(expected), steps.apply(actual)
    # the table of the normalised texts, in the view asked for (readable chunks or exact)
    table = table_for(e_text, a_text, {**options, "normalise": []})
    exp = np.stack(e_map.spans(table.exp[:, 0], table.exp[:, 1]), axis=1).reshape(-1, 2)
    act = np.stack(a_map.spans(table.act[:, 0], table.act[:, 1]), axis=1).reshape(-1, 2)
    hunks = table.hunks.copy()
    if len(hunks):
        hunks[:, 0], hunks[:, 1] = e_map.spans(hunks[:, 0], hunks[:, 1])
        hunks[:, 2], hunks[:, 3] = a_map.spans(hunks[:, 2], hunks[:, 3])
    moves = table.moves.copy()
    if len(moves):
        moves[:, 0], moves[:, 1] = e_map.spans(moves[:, 0], moves[:, 1])
        moves[:, 2], moves[:, 3] = a_map.spans(moves[:, 2], moves[:, 3])
    return replace(table, exp=exp, act=act, hunks=hunks, anchors=None, moves=moves,
                   exp_astral=astral_offsets(expected), act_astral=astral_offsets(actual),
                   lengths=(len(expected), len(actual)),
                   exp_ignored=e_map.ignored, act_ignored=a_map.ignored)
