"""Locked scrolling between the expected and actual panes, as pure arithmetic (Meld-style).

Between hunks the two texts are equal (up to case), so a position maps 1:1; inside a hunk it is
interpolated in proportion to the hunk's size on each side.

Characters: `map_offset` reads an offset as "the character at this index" (or the caret just
before it). An offset at a hunk that is empty on its own side (an insertion seen from expected,
a deletion seen from actual) maps to the end of the hunk on the other side: that character is
the first one of the equal run that follows.

Lines: anchors are the positions of an equal run (ends included) where BOTH sides start a line;
consecutive anchors are joined linearly. Inside an equal run they step 1:1, across a hunk they
interpolate, and lines inserted at a line boundary give two anchors on one source line (a jump
when scrolling from that side, a flat stretch when scrolling from the other). Only the first
and last anchor of each equal run are kept, since the ones between are collinear, so building
the anchors costs a few C-level string scans plus a step per hunk.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass

from matchlens.core.diff.alignment import SIDES, Alignment, Hunk


def _check_side(side: str) -> bool:
    """True when mapping from expected to actual."""
    if side not in SIDES:
        raise ValueError(f"side must be 'expected' or 'actual', not {side!r}")
    return side == "expected"


def _ranges(hunk: Hunk, from_expected: bool) -> tuple[int, int, int, int]:
    if from_expected:
        return hunk.exp_start, hunk.exp_end, hunk.act_start, hunk.act_end
    return hunk.act_start, hunk.act_end, hunk.exp_start, hunk.exp_end


def map_offset(alignment: Alignment, offset: int, from_side: str) -> int:
    """The character offset on the other side that corresponds to `offset` on `from_side`."""
    from_expected = _check_side(from_side)
    if offset < 0:
        raise ValueError(f"offset must be >= 0, got {offset}")
    hunks = alignment.hunks
    key = (lambda h: h.exp_start) if from_expected else (lambda h: h.act_start)
    index = bisect_right(hunks, offset, key=key) - 1
    if index < 0:
        return offset  # the equal run before the first hunk
    start, end, o_start, o_end = _ranges(hunks[index], from_expected)
    if offset >= end:
        return o_end + (offset - end)  # the equal run after this hunk
    # Inside the hunk: proportional, rounded down so the result stays inside the other range.
    return o_start + (offset - start) * (o_end - o_start) // (end - start)


@dataclass(frozen=True, slots=True)
class LineAnchors:
    """Matching line coordinates (0-based) of the two texts, both non-decreasing."""

    expected: tuple[int, ...]
    actual: tuple[int, ...]

    def __post_init__(self) -> None:
        if len(self.expected) != len(self.actual) or not self.expected:
            raise ValueError("anchors come in non-empty, equally long pairs")
        for seq in (self.expected, self.actual):
            if any(b < a for a, b in zip(seq, seq[1:], strict=False)):
                raise ValueError("anchors must be non-decreasing")

    def map(self, line: float, from_side: str) -> float:
        """The line on the other side matching `line` (may be fractional) on `from_side`."""
        if _check_side(from_side):
            src, dst = self.expected, self.actual
        else:
            src, dst = self.actual, self.expected
        if line < 0:
            raise ValueError(f"line must be >= 0, got {line}")
        if line == 0:
            return 0.0  # top to top, even when lines were inserted before the first one
        # The last anchor at or before the line: after a jump that is the later one.
        i = bisect_right(src, line) - 1
        if i == len(src) - 1:
            return float(dst[i] + (line - src[i]))  # past the end: keep scrolling 1:1
        s0, s1, d0, d1 = src[i], src[i + 1], dst[i], dst[i + 1]
        return d0 + (line - s0) * (d1 - d0) / (s1 - s0)


def line_anchors(expected: str, actual: str, alignment: Alignment) -> LineAnchors:
    """Build the line anchors once per alignment; `LineAnchors.map` is then O(log hunks)."""
    hunks = alignment.hunks
    tail_e = len(expected) - (hunks[-1].exp_end if hunks else 0)
    tail_a = len(actual) - (hunks[-1].act_end if hunks else 0)
    if tail_e != tail_a or tail_e < 0:
        raise ValueError("the alignment was not computed from these texts")
    # Equal runs: before the first hunk, between hunks, after the last one.
    runs = []
    e_pos = a_pos = 0
    for h in hunks:
        runs.append((e_pos, h.exp_start, a_pos))
        e_pos, a_pos = h.exp_end, h.act_end
    runs.append((e_pos, len(expected), a_pos))

    exp_lines: list[int] = []
    act_lines: list[int] = []
    # Running newline counts up to e_seen / a_seen, so every character is scanned once.
    e_seen = a_seen = e_line = a_line = 0

    def add(e_off: int, a_off: int) -> None:
        nonlocal e_seen, a_seen, e_line, a_line
        e_line += expected.count("\n", e_seen, e_off)
        a_line += actual.count("\n", a_seen, a_off)
        e_seen, a_seen = e_off, a_off
        if not exp_lines or (exp_lines[-1], act_lines[-1]) != (e_line, a_line):
            exp_lines.append(e_line)
            act_lines.append(a_line)

    for e_start, e_end, a_start in runs:
        # The run's start is a shared line start only if both sides start a line there.
        if _line_start(expected, e_start) and _line_start(actual, a_start):
            add(e_start, a_start)
        first = expected.find("\n", e_start, e_end)
        if first >= 0:
            add(first + 1, a_start + first + 1 - e_start)
            last = expected.rfind("\n", e_start, e_end)
            add(last + 1, a_start + last + 1 - e_start)
    # The virtual line after the last one, so the final line maps 1:1 or interpolates.
    exp_lines.append(e_line + expected.count("\n", e_seen) + 1)
    act_lines.append(a_line + actual.count("\n", a_seen) + 1)
    return LineAnchors(tuple(exp_lines), tuple(act_lines))


def _line_start(text: str, offset: int) -> bool:
    return offset == 0 or text[offset - 1] == "\n"


def map_line(expected: str, actual: str, alignment: Alignment, line: float,
             from_side: str) -> float:
    """The (possibly fractional) 0-based line on the other side matching `line`.

    Convenience for one call; a view that scrolls often should keep `line_anchors(...)`.
    """
    return line_anchors(expected, actual, alignment).map(line, from_side)
