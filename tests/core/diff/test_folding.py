"""Collapsing unchanged text (`core.diff.folding`): every difference stays with its context,
only unchanged lines fold, in the side by side and the inline view alike."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from matchlens.core.diff.folding import (
    fold_lines,
    inline_folds,
    line_lengths,
    shown_lines,
    side_folds,
)
from matchlens.core.diff.inline import inline_layout
from matchlens.core.diff.overview import line_starts
from matchlens.core.diff.span_table import table_for

READABLE = {"case_sensitive": True, "granularity": "char", "view": "readable", "normalise": []}


def test_one_difference_keeps_its_context_and_folds_both_ends():
    # 100 lines, a difference on line 50: lines 47..53 stay (3 either side), 0..46 and 54..99
    # fold.
    folds = fold_lines(np.array([50]), np.array([50]), 100)
    assert folds.ranges.tolist() == [[0, 47], [54, 100]]
    assert folds.hosts.tolist() == [0, 54]  # no lengths given: the first line hosts
    assert folds.hidden_count() == 47 + 46
    assert folds.fold_at(10) == 0 and folds.fold_at(50) is None and folds.fold_at(99) == 1


def test_short_stretches_stay_open():
    # Differences on lines 10 and 18: the kept ranges 7..13 and 15..21 leave line 14 alone
    # between them, under min_lines (3): not folded. Lines 0..6 (7 lines) and 22..29 fold.
    folds = fold_lines(np.array([10, 18]), np.array([10, 18]), 30)
    assert folds.ranges.tolist() == [[0, 7], [22, 30]]
    # With no context, lines 11..17 (7 lines) fold between them too.
    tight = fold_lines(np.array([10, 18]), np.array([10, 18]), 30, context=0)
    assert tight.ranges.tolist() == [[0, 10], [11, 18], [19, 30]]


def test_a_difference_over_several_lines_keeps_them_all():
    folds = fold_lines(np.array([20]), np.array([25]), 40, context=1)
    assert folds.ranges.tolist() == [[0, 19], [27, 40]]


def test_the_shortest_line_hosts_the_placeholder():
    lengths = np.array([80, 80, 0, 80, 80, 80, 80, 80, 80, 80])
    folds = fold_lines(np.array([9]), np.array([9]), 10, lengths, context=1)
    assert folds.ranges.tolist() == [[0, 8]]
    assert folds.hosts.tolist() == [2]  # the empty line between paragraphs


def test_no_differences_fold_everything_and_no_text_folds_nothing():
    assert fold_lines(np.zeros(0), np.zeros(0), 10).ranges.tolist() == [[0, 10]]
    assert fold_lines(np.zeros(0), np.zeros(0), 0).ranges.tolist() == []
    assert line_lengths("ab\n\ncde").tolist() == [2, 0, 3]


def _lines(n: int, tag: str = "") -> list[str]:
    return [f"Line {i} says something{tag} about the weather." for i in range(n)]


def _assert_folds_hide_only_unchanged(table, side: str, text: str, context: int) -> None:
    folds = side_folds(table, side, text, context=context)
    starts = np.concatenate([[0], line_starts(text)])
    count = len(starts)
    ends = np.append(starts[1:], len(text) + 1)
    cols = table.exp if side == "expected" else table.act
    shown = set(shown_lines(folds, count).tolist())
    for row in range(len(table)):
        s, e = int(cols[row, 0]), int(cols[row, 1])
        first = int(np.searchsorted(starts, s, side="right")) - 1
        last = int(np.searchsorted(starts, max(s, e - 1), side="right")) - 1
        # the difference's lines and `context` lines either side are shown
        for line in range(max(0, first - context), min(count, last + context + 1)):
            assert line in shown, (side, row, line)
    for a, b in folds.ranges.tolist():
        assert b - a >= 3
        lo, hi = int(starts[a]), int(ends[b - 1])
        # no row's characters (nor an insertion point) inside a folded stretch
        touching = (cols[:, 0] < hi) & (np.maximum(cols[:, 1], cols[:, 0] + 1) > lo)
        assert not touching.any()


def test_side_by_side_folds_around_a_changed_line_and_a_moved_one():
    expected_lines = _lines(60)
    actual_lines = list(expected_lines)
    actual_lines[20] = "Line 20 says nothing about the weather."
    moved = actual_lines.pop(45)
    actual_lines.insert(5, moved)
    expected, actual = "\n".join(expected_lines) + "\n", "\n".join(actual_lines) + "\n"
    table = table_for(expected, actual, READABLE)
    assert len(table) > 0
    for side, text in (("expected", expected), ("actual", actual)):
        _assert_folds_hide_only_unchanged(table, side, text, 3)
    # expected: line 20 changed, line 45 moved away (from 5 in actual: line 4/5 area on that
    # side): folds exist before, between and after those
    folds = side_folds(table, "expected", expected)
    assert len(folds.ranges) >= 2 and folds.hidden_count() > 30


def test_side_folds_follow_the_text_when_the_marked_lines_stay():
    """Typing into the other side (same text, same marked lines) gives the same folds; a text
    with the same marked lines but another shortest line moves the placeholder's host."""
    lines = [f"Line {i} of the text is this long." for i in range(40)]
    changed = list(lines)
    changed[20] = "Line 20 of the text is different."
    expected, actual = "\n".join(lines), "\n".join(changed)
    first = side_folds(table_for(expected, actual, READABLE), "expected", expected)
    typed = actual.replace("different.", "different, typed.")  # still line 20 on both sides
    again = side_folds(table_for(expected, typed, READABLE), "expected", expected)
    assert first.ranges.tolist() == again.ranges.tolist() == [[0, 17], [24, 40]]
    assert first.hosts.tolist() == again.hosts.tolist() == [0, 24]  # all lines equally long
    shorter = list(lines)
    shorter[30] = "Line 30 is short."  # in the second fold: its host now
    expected2 = "\n".join(shorter)
    actual2 = "\n".join(shorter[:20] + changed[20:21] + shorter[21:])
    moved = side_folds(table_for(expected2, actual2, READABLE), "expected", expected2)
    assert moved.ranges.tolist() == [[0, 17], [24, 40]]
    assert moved.hosts.tolist() == [0, 30]


@settings(max_examples=60, deadline=None)
@given(st.integers(5, 80), st.lists(st.tuples(st.integers(0, 79), st.sampled_from(
    ["replace", "delete", "insert"])), max_size=6), st.integers(0, 4))
def test_folds_never_hide_a_difference(n, edits, context):
    exp_lines = _lines(n)
    act_lines = list(exp_lines)
    for where, op in edits:
        i = where % max(1, len(act_lines))
        if op == "replace" and act_lines:
            act_lines[i] = act_lines[i].replace("weather", "climate")
        elif op == "delete" and act_lines:
            del act_lines[i]
        else:
            act_lines.insert(i, "A new line that nobody expected here.")
    expected, actual = "\n".join(exp_lines), "\n".join(act_lines)
    for view in ("readable", "exact"):
        table = table_for(expected, actual, {**READABLE, "view": view})
        _assert_folds_hide_only_unchanged(table, "expected", expected, context)
        _assert_folds_hide_only_unchanged(table, "actual", actual, context)
        # the inline view: its folds hide none of its marked spans
        layout = inline_layout(table, expected, actual)
        folds = inline_folds(layout, context=context)
        starts = np.concatenate([[0], line_starts(layout.text)])
        ends = np.append(starts[1:], len(layout.text) + 1)
        for a, b in folds.ranges.tolist():
            lo, hi = int(starts[a]), int(ends[b - 1])
            spans = layout.spans
            assert not ((spans[:, 0] < hi) & (spans[:, 1] > lo)).any()
            # and every hunk's start is on a shown line
            for start in layout.hunk_starts.tolist():
                assert not lo <= start < hi or start == hi


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(0, 40), min_size=1, max_size=60), st.lists(st.integers(0, 59),
                                                                        max_size=5))
def test_each_host_is_the_first_shortest_line_of_its_fold(lengths, diffs):
    n = len(lengths)
    lines = np.array([d % n for d in diffs], dtype=np.int64)
    folds = fold_lines(lines, lines, n, np.array(lengths), context=1, min_lines=1)
    for (a, b), host in zip(folds.ranges.tolist(), folds.hosts.tolist(), strict=True):
        assert host == a + min(range(b - a), key=lambda i: (lengths[a + i], i))
