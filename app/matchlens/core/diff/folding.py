"""Collapsing unchanged text: which lines a view hides, given where its differences are (no Qt).

Kaleidoscope and VS Code fold the long unchanged stretches of a diff down to a few lines of
context around each difference; a folded stretch reads as one placeholder line ("⋯ 214
unchanged lines") that opens on click. The rule is a pure function over line ranges: every line
a difference touches stays, so do `context` lines either side of it, and a stretch is folded
only when it hides at least `min_lines` lines (a placeholder standing in for one or two lines
would save nothing).

The differences are the highlight's own rows (`core.diff.overview.ruler_marks` of the side by
side view, the spans of `core.diff.inline`'s layout for the inline view), so collapsing never
hides a piece the expanded view shows. Each fold keeps one of its lines as the placeholder's
host (the view draws the placeholder over it): the shortest, so that a wrapped paragraph is not
what the placeholder has to cover.
"""

from __future__ import annotations

import threading
from typing import NamedTuple

import numpy as np

from matchlens.core.diff.inline import InlineLayout
from matchlens.core.diff.overview import line_starts, ruler_marks
from matchlens.core.diff.span_table import SpanTable

CONTEXT_LINES = 3  # what git, VS Code and Kaleidoscope show by default
MIN_FOLDED_LINES = 3  # a fold that hides fewer lines costs more than it saves


class Folds(NamedTuple):
    """Folded stretches of one text: rows of [start, end) line numbers (0-based, ascending,
    disjoint) and, for each, the line that hosts its placeholder (start <= host < end)."""

    ranges: np.ndarray  # int64 (k, 2)
    hosts: np.ndarray  # int64 (k,)

    def hidden_count(self) -> int:
        """Lines folded away (each fold's host included: the placeholder stands for them)."""
        return int((self.ranges[:, 1] - self.ranges[:, 0]).sum()) if len(self.ranges) else 0

    def fold_at(self, line: int) -> int | None:
        """The index of the fold containing `line`, or None."""
        i = int(np.searchsorted(self.ranges[:, 0], line, side="right")) - 1
        if i >= 0 and line < self.ranges[i, 1]:
            return i
        return None


def no_folds() -> Folds:
    return Folds(np.zeros((0, 2), dtype=np.int64), np.zeros(0, dtype=np.int64))


def fold_lines(first_line: np.ndarray, last_line: np.ndarray, line_count: int,
               line_lengths: np.ndarray | None = None, context: int = CONTEXT_LINES,
               min_lines: int = MIN_FOLDED_LINES) -> Folds:
    """The stretches of a `line_count`-line text to fold, given its differences' lines.

    `first_line[i]..last_line[i]` (inclusive) are the lines difference i touches; lines outside
    every difference's range widened by `context` are unchanged, and each maximal run of them
    of at least `min_lines` lines is one fold. `line_lengths` (characters per line) picks each
    fold's host, its shortest line; without it the host is the fold's first line.
    """
    if context < 0 or min_lines < 1:
        raise ValueError("context must be >= 0 and min_lines >= 1")
    if line_count <= 0:
        return no_folds()
    first = np.asarray(first_line, dtype=np.int64)
    last = np.asarray(last_line, dtype=np.int64)
    if len(first) != len(last):
        raise ValueError("first_line and last_line must be equally long")
    # +1 where a kept range starts, -1 one past where it ends: the running sum is > 0 on kept
    # lines.
    lo = np.clip(first - context, 0, line_count)
    hi = np.clip(np.maximum(first, last) + context + 1, 0, line_count)
    delta = (np.bincount(lo, minlength=line_count + 1)
             - np.bincount(hi, minlength=line_count + 1))
    hidden = np.concatenate([[False], np.cumsum(delta[:-1]) == 0, [False]])
    edges = np.flatnonzero(hidden[1:] != hidden[:-1])
    starts, ends = edges[0::2], edges[1::2]
    keep = ends - starts >= min_lines
    ranges = np.stack([starts[keep], ends[keep]], axis=1).astype(np.int64).reshape(-1, 2)
    if line_lengths is None or len(ranges) == 0:
        hosts = ranges[:, 0].copy()
    else:
        # the shortest line of each fold: its length and number packed in one key, so one
        # reduceat finds both (the first of equally short lines wins)
        lengths = np.asarray(line_lengths, dtype=np.int64)
        keys = lengths * (line_count + 1) + np.arange(len(lengths), dtype=np.int64)
        starts_and_ends = ranges.reshape(-1)
        best = np.minimum.reduceat(keys, starts_and_ends[starts_and_ends < len(keys)])[0::2]
        hosts = (best % (line_count + 1)).astype(np.int64)
    return Folds(ranges, hosts)


def line_lengths(text: str) -> np.ndarray:
    """Characters in each line of `text` (line breaks not counted)."""
    starts = np.concatenate([[0], line_starts(text), [len(text) + 1]])
    return np.diff(starts) - 1


# A keystroke in one side gives the other side a new table but, mostly, the same lines to
# keep: its folds are kept by text and marked lines (the last few), not worked out again.
_KEEP = 4
_kept: list[tuple[str, bytes, bytes, int, int, Folds]] = []
_lock = threading.Lock()


def side_folds(table: SpanTable, side: str, text: str, context: int = CONTEXT_LINES,
               min_lines: int = MIN_FOLDED_LINES) -> Folds:
    """The folds of one side of the side by side view: every row of the table is kept."""
    marks = ruler_marks(table, side, text)
    first, last = marks.first_line.tobytes(), marks.last_line.tobytes()
    with _lock:
        for kept_text, kept_first, kept_last, kept_context, kept_min, folds in _kept:
            if (kept_first == first and kept_last == last and kept_context == context
                    and kept_min == min_lines and kept_text == text):
                return folds
    folds = fold_lines(marks.first_line, marks.last_line, marks.line_count, line_lengths(text),
                       context, min_lines)
    for array in folds:
        array.setflags(write=False)  # shared by the callers of the same lines (kept)
    with _lock:
        _kept.append((text, first, last, context, min_lines, folds))
        del _kept[:-_KEEP]
    return folds


def inline_folds(layout: InlineLayout, context: int = CONTEXT_LINES,
                 min_lines: int = MIN_FOLDED_LINES) -> Folds:
    """The folds of the inline view: every marked span (deleted, inserted, moved) is kept."""
    starts_of_lines = line_starts(layout.text)
    spans = layout.spans
    first = np.searchsorted(starts_of_lines, spans[:, 0], side="right")
    last = np.searchsorted(starts_of_lines, np.maximum(spans[:, 0], spans[:, 1] - 1),
                           side="right")
    return fold_lines(first, last, len(starts_of_lines) + 1, line_lengths(layout.text),
                      context, min_lines)


def shown_lines(folds: Folds, line_count: int) -> np.ndarray:
    """The line numbers a collapsed view shows as text (every line not folded)."""
    shown = np.ones(line_count, dtype=bool)
    for start, end in folds.ranges.tolist():
        shown[start:end] = False
    return np.flatnonzero(shown)
