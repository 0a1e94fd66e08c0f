"""Locked scrolling: 1:1 in equal runs, proportional inside hunks (tables derived by hand)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from matchlens.core.diff.alignment import Alignment, EditKind, EditSpan, Hunk, align
from matchlens.core.diff.scroll_sync import LineAnchors, line_anchors, map_line, map_offset
from matchlens.core.text.casefold import fold_case

SUB, INS, DEL = EditKind.SUBSTITUTE, EditKind.INSERT, EditKind.DELETE


def by_hand(*spans: EditSpan) -> Alignment:
    """An alignment from explicit spans, all touching, so one hunk: independent of how
    rapidfuzz breaks ties between equally short scripts."""
    first, last = spans[0], spans[-1]
    hunk = Hunk(first.exp_start, last.exp_end, first.act_start, last.act_end, 0, len(spans) - 1)
    return Alignment(spans, (hunk,), sum(s.units for s in spans), "char")


# "abcXYZdef" -> "abcQdef": X->Q substituted, YZ deleted; hunk expected [3,6), actual [3,4)
SHRINK = by_hand(EditSpan(SUB, 3, 4, 3, 4), EditSpan(DEL, 4, 6, 4, 4))
# "ab" -> "aXYb": XY inserted at 1; hunk expected [1,1), actual [1,3)
GROW = align("ab", "aXYb")


@pytest.mark.parametrize(("alignment", "offset", "side", "mapped"), [
    (SHRINK, 0, "expected", 0),   # before the hunk: 1:1
    (SHRINK, 2, "expected", 2),
    (SHRINK, 3, "expected", 3),   # hunk start -> other hunk start
    (SHRINK, 4, "expected", 3),   # 3 + (4-3)*1//3 = 3
    (SHRINK, 5, "expected", 3),   # 3 + (5-3)*1//3 = 3
    (SHRINK, 6, "expected", 4),   # 'd' at expected 6 is 'd' at actual 4
    (SHRINK, 8, "expected", 6),   # 'f': 4 + 2
    (SHRINK, 9, "expected", 7),   # end of text -> end of text
    (SHRINK, 3, "actual", 3),     # Q at 3 -> the start of XYZ
    (SHRINK, 4, "actual", 6),     # 'd' at actual 4 -> expected 6
    (SHRINK, 7, "actual", 9),
    (GROW, 0, "expected", 0),
    (GROW, 1, "expected", 3),     # 'b' at expected 1 sits after the insertion, at actual 3
    (GROW, 2, "expected", 4),
    (GROW, 1, "actual", 1),       # inside the insertion: the expected side stays at 1
    (GROW, 2, "actual", 1),
    (GROW, 3, "actual", 1),       # 'b' at actual 3 -> expected 1
    (GROW, 4, "actual", 2),
])
def test_map_offset_table(alignment, offset, side, mapped):
    assert map_offset(alignment, offset, side) == mapped


def test_grow_alignment_is_the_hand_derived_one():
    assert [(h.exp_start, h.exp_end, h.act_start, h.act_end) for h in GROW.hunks] == [
        (1, 1, 1, 3)]


# Three lines inserted between A and B, aligned after "A\n" (a zero-height chunk on expected)
# or before A's newline (inside line A); both scripts are optimal, both must scroll sanely.
INSERT_E, INSERT_A = "A\nB\nC", "A\nX\nY\nZ\nB\nC"
AFTER_NEWLINE = by_hand(EditSpan(INS, 2, 2, 2, 8))    # "X\nY\nZ\n" at expected 2
BEFORE_NEWLINE = by_hand(EditSpan(INS, 1, 1, 1, 7))   # "\nX\nY\nZ" at expected 1
# "a\nb\nc\nd" -> "a\nw\nx\ny\nz\nd": lines b, c (expected 1-2) became w, x, y, z (actual 1-4)
TWO_TO_FOUR_E, TWO_TO_FOUR_A = "a\nb\nc\nd", "a\nw\nx\ny\nz\nd"
TWO_TO_FOUR = by_hand(EditSpan(SUB, 2, 6, 2, 6), EditSpan(INS, 6, 6, 6, 10))


@pytest.mark.parametrize(("texts", "alignment", "line", "side", "mapped"), [
    # AFTER_NEWLINE anchors: (0,0) (1,1) | (1,4) (2,5) (3,6): line B jumps over X, Y, Z
    ((INSERT_E, INSERT_A), AFTER_NEWLINE, 0, "expected", 0.0),
    ((INSERT_E, INSERT_A), AFTER_NEWLINE, 0.5, "expected", 0.5),
    ((INSERT_E, INSERT_A), AFTER_NEWLINE, 1, "expected", 4.0),    # B is actual line 4
    ((INSERT_E, INSERT_A), AFTER_NEWLINE, 1.5, "expected", 4.5),
    ((INSERT_E, INSERT_A), AFTER_NEWLINE, 2, "expected", 5.0),    # C
    ((INSERT_E, INSERT_A), AFTER_NEWLINE, 1, "actual", 1.0),      # X, Y, Z: expected waits at B
    ((INSERT_E, INSERT_A), AFTER_NEWLINE, 2.5, "actual", 1.0),
    ((INSERT_E, INSERT_A), AFTER_NEWLINE, 4, "actual", 1.0),      # B -> B
    ((INSERT_E, INSERT_A), AFTER_NEWLINE, 4.5, "actual", 1.5),
    ((INSERT_E, INSERT_A), AFTER_NEWLINE, 5, "actual", 2.0),
    # BEFORE_NEWLINE anchors: (0,0) (1,4) (2,5) (3,6): line A's height spreads over A..Z
    ((INSERT_E, INSERT_A), BEFORE_NEWLINE, 0.5, "expected", 2.0),  # 0 + 0.5 * 4/1
    ((INSERT_E, INSERT_A), BEFORE_NEWLINE, 1, "expected", 4.0),
    ((INSERT_E, INSERT_A), BEFORE_NEWLINE, 2, "actual", 0.5),      # 0 + 2 * 1/4
    ((INSERT_E, INSERT_A), BEFORE_NEWLINE, 4, "actual", 1.0),
    # TWO_TO_FOUR anchors: (0,0) (1,1) (3,5) (4,6): 2 lines against 4, slope 2 inside the hunk
    ((TWO_TO_FOUR_E, TWO_TO_FOUR_A), TWO_TO_FOUR, 1, "expected", 1.0),   # b -> w
    ((TWO_TO_FOUR_E, TWO_TO_FOUR_A), TWO_TO_FOUR, 2, "expected", 3.0),   # 1 + (2-1) * 4/2
    ((TWO_TO_FOUR_E, TWO_TO_FOUR_A), TWO_TO_FOUR, 2.5, "expected", 4.0),
    ((TWO_TO_FOUR_E, TWO_TO_FOUR_A), TWO_TO_FOUR, 3, "expected", 5.0),   # d -> d
    ((TWO_TO_FOUR_E, TWO_TO_FOUR_A), TWO_TO_FOUR, 2, "actual", 1.5),     # 1 + (2-1) * 2/4
    ((TWO_TO_FOUR_E, TWO_TO_FOUR_A), TWO_TO_FOUR, 3, "actual", 2.0),
    ((TWO_TO_FOUR_E, TWO_TO_FOUR_A), TWO_TO_FOUR, 5, "actual", 3.0),
    ((TWO_TO_FOUR_E, TWO_TO_FOUR_A), TWO_TO_FOUR, 6, "actual", 4.0),     # past the last line
    # a change inside one line leaves every line 1:1
    (("one\ntwo\nthree", "one\nTWO\nthree"), align("one\ntwo\nthree", "one\nTWO\nthree"),
     1.25, "expected", 1.25),
    # a newline inserted before everything: anchors (0,0) (0,1) (1,2); the top stays the top
    (("", "\n"), align("", "\n"), 0, "expected", 0.0),
    (("", "\n"), align("", "\n"), 0.5, "expected", 1.5),   # 1 + 0.5, 1:1 after the jump
    (("", "\n"), align("", "\n"), 0.5, "actual", 0.0),     # the inserted line: flat
    (("", "\n"), align("", "\n"), 1.5, "actual", 0.5),
    # identical texts: identity, and 1:1 past the end
    (("x\ny", "x\ny"), align("x\ny", "x\ny"), 1, "actual", 1.0),
    (("x\ny", "x\ny"), align("x\ny", "x\ny"), 7, "expected", 7.0),
])
def test_map_line_table(texts, alignment, line, side, mapped):
    expected, actual = texts
    assert map_line(expected, actual, alignment, line, side) == pytest.approx(mapped)


def test_line_anchors_are_few_and_as_derived():
    anchors = line_anchors(TWO_TO_FOUR_E, TWO_TO_FOUR_A, TWO_TO_FOUR)
    assert anchors == LineAnchors((0, 1, 3, 4), (0, 1, 5, 6))
    # a long equal run keeps only its first and last shared line start
    text = "\n".join(str(i) for i in range(1000))
    assert len(line_anchors(text, text, align(text, text)).expected) == 4


@pytest.mark.parametrize("call", [
    lambda: map_offset(SHRINK, -1, "expected"),
    lambda: map_offset(SHRINK, 0, "left"),
    lambda: map_line(INSERT_E, INSERT_A, AFTER_NEWLINE, -0.5, "expected"),
    lambda: map_line(INSERT_E, INSERT_A, AFTER_NEWLINE, 0, "right"),
    lambda: map_line(INSERT_E, INSERT_E, AFTER_NEWLINE, 0, "expected"),  # stale alignment
    lambda: LineAnchors((0, 2, 1), (0, 1, 2)),                           # not monotone
])
def test_bad_arguments(call):
    with pytest.raises(ValueError):
        call()


texts = st.text(alphabet="ab\nAB ", max_size=16)


@settings(max_examples=200, deadline=None)
@given(texts, texts, st.booleans())
def test_offsets_map_monotonically_and_equal_runs_one_to_one(expected, actual, case_sensitive):
    al = align(expected, actual, case_sensitive=case_sensitive)
    inside = {o for h in al.hunks for o in range(h.exp_start, h.exp_end)}
    mapped = [map_offset(al, o, "expected") for o in range(len(expected) + 1)]
    assert mapped == sorted(mapped)
    assert mapped[-1] == len(actual)
    for o, m in enumerate(mapped[:-1]):
        if o not in inside:
            assert fold_case(expected)[o] == fold_case(actual)[m]


@settings(max_examples=200, deadline=None)
@given(texts, texts)
def test_lines_map_monotonically_end_to_end(expected, actual):
    al = align(expected, actual)
    n_exp, n_act = expected.count("\n") + 1, actual.count("\n") + 1
    for side, n_src, n_dst in (("expected", n_exp, n_act), ("actual", n_act, n_exp)):
        steps = [i / 4 for i in range(4 * n_src + 1)]
        mapped = [map_line(expected, actual, al, x, side) for x in steps]
        assert mapped == sorted(mapped)
        assert mapped[0] == 0 and mapped[-1] == n_dst  # top to top, bottom to bottom
