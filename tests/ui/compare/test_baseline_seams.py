"""The compare view with a run's baseline (ui/compare/baseline_pane.py, collapse.py,
find_bar.py, navigation.py, inline_sync.py), real widgets offscreen: Collapse unchanged folds
the baseline pane and its inline view by the differences each shows; Ctrl+F finds in every
pane in screen order; with *Outputs directly* side by side F7 steps through the outputs' own
differences; the two inline views stay at the same place of the reference when scrolled."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, Qt

from matchlens.core.diff.folding import inline_folds, side_folds
from matchlens.core.diff.inline import inline_position, side_offset
from matchlens.core.diff.span_table import table_for
from tests.ui.conftest import wait_done


def _texts() -> tuple[str, str, str]:
    """A 200-line reference; the baseline changes lines 30 and 150, this output lines 90 and
    170: each output's differences are far apart, and far from the other's."""
    ref = [f"Line {i}: the answer talks about item {i} and why it matters." for i in range(200)]
    base, this = list(ref), list(ref)
    base[30] = base[30].replace("answer", "reply")
    base[150] += " A sentence only the baseline has."
    this[90] = this[90].replace("matters", "counts")
    this[170] = "A line only this run wrote."
    return "\n".join(ref) + "\n", "\n".join(base) + "\n", "\n".join(this) + "\n"


@pytest.fixture
def three(qtbot, compare_tab):
    ref, base, this = _texts()
    compare_tab.set_wrap(False)  # one block a line
    compare_tab.set_texts(ref, this)
    compare_tab.baseline_pane.show_baseline(base)
    wait_done(qtbot, compare_tab)
    return compare_tab


def _hidden(editor) -> list[int]:
    doc = editor.document()
    return [n for n in range(doc.blockCount()) if not doc.findBlockByNumber(n).isVisible()]


def _fold_hidden(folds) -> list[int]:
    """The blocks a view hides for `folds`: every folded line but each fold's host."""
    return [n for (a, b), host in zip(folds.ranges.tolist(), folds.hosts.tolist(), strict=True)
            for n in range(a, b) if n != host]


def test_collapse_folds_the_baseline_pane_by_its_own_differences(qtbot, three):
    ref, base, this = _texts()
    three.action_collapse.trigger()
    pane = three.baseline_pane
    editor = pane.pane.editor
    folds = side_folds(table_for(ref, base, three.align_options()), "actual", base)
    assert len(folds.ranges) == 3  # before line 30, between 30 and 150, after 150
    assert _hidden(editor) == _fold_hidden(folds)
    assert pane.pane.decorator.table is pane.table
    # the tab's two panes keep their own folds (reference ↔ this output)
    main = three.current_table()
    assert _hidden(three.editor("actual")) == _fold_hidden(side_folds(main, "actual", this))
    # a click on the baseline pane's first placeholder opens that fold
    collapser = three.collapse.collapsers["baseline"]
    editor.verticalScrollBar().setValue(0)
    qtbot.wait(20)
    number, rect = collapser.visible_hosts()[0]
    start, end = collapser.folds.ranges[collapser.folds.fold_at(number)].tolist()
    qtbot.mouseClick(editor.viewport(), Qt.MouseButton.LeftButton,
                     pos=QPoint(20, int(rect.center().y())))
    assert not any(start <= n < end for n in _hidden(editor))
    assert len(_hidden(editor)) < len(_fold_hidden(folds))
    # off: every line of the three panes shows
    three.action_collapse.trigger()
    assert _hidden(editor) == [] and _hidden(three.editor("expected")) == []


def test_collapse_with_outputs_directly_folds_by_the_outputs_difference(qtbot, three):
    ref, base, this = _texts()
    pane = three.baseline_pane
    pane.direct.setChecked(True)
    wait_done(qtbot, three)
    three.action_collapse.trigger()
    direct = table_for(base, this, three.align_options())
    # what each output pane shows is the outputs' difference: so are its folds
    assert _hidden(pane.pane.editor) == _fold_hidden(side_folds(direct, "expected", base))
    assert _hidden(three.editor("actual")) == _fold_hidden(side_folds(direct, "actual", this))
    # the reference shows none: it keeps the folds of its own difference from this output
    assert _hidden(three.editor("expected")) == _fold_hidden(
        side_folds(three.current_table(), "expected", ref))
    # F7 walks every difference of the outputs with both output panes collapsed
    count = len(direct.hunks)
    assert count == 4  # lines 30, 90, 150, 170
    for index in range(count):
        three.next_difference()
        hunk = direct.hunks[index]
        for editor, start in ((pane.pane.editor, hunk[0]), (three.editor("actual"), hunk[2])):
            assert editor.textCursor().position() == start  # the caret at its start
            assert editor.document().findBlock(int(start)).isVisible()
    pane.direct.setChecked(False)
    wait_done(qtbot, three)
    assert _hidden(three.editor("actual")) == _fold_hidden(
        side_folds(three.current_table(), "actual", this))


def test_collapse_folds_the_baseline_inline_view(qtbot, three):
    three.action_collapse.trigger()
    three.action_inline.trigger()
    wait_done(qtbot, three)
    view = three.baseline_pane.inline
    folds = inline_folds(view.layout_)
    assert len(folds.ranges) == 3
    assert _hidden(view.view) == _fold_hidden(folds)
    assert _hidden(three.inline_pane.view) == _fold_hidden(
        inline_folds(three.inline_pane.layout_))


def test_outputs_directly_side_by_side_f7_steps_through_the_outputs_differences(qtbot,
                                                                                three):
    _ref, base, this = _texts()
    pane = three.baseline_pane
    pane.direct.setChecked(True)
    wait_done(qtbot, three)
    direct = table_for(base, this, three.align_options())
    count = len(direct.hunks)
    assert three.difference_label.text().strip() == f"{count} differences between the outputs"
    three.editor("actual").setFocus()
    for index in [*range(count), 0]:  # the last F7 wraps to the first
        three.next_difference()
        assert three.difference_label.text().strip() == \
            f"difference {index + 1} of {count} between the outputs"
        assert pane.pane.editor.textCursor().position() == direct.hunks[index, 0]
        assert three.editor("actual").textCursor().position() == direct.hunks[index, 2]
    three.previous_difference()  # back to the last
    assert three.difference_label.text().strip() == \
        f"difference {count} of {count} between the outputs"
    # from the baseline pane's caret: the first difference after it there
    editor = pane.pane.editor
    editor.setFocus()
    cursor = editor.textCursor()
    cursor.setPosition(int(direct.hunks[1, 1]))
    editor.setTextCursor(cursor)
    three.next_difference()
    assert three.difference_label.text().strip() == \
        f"difference 3 of {count} between the outputs"
    # back to each against the reference: F7 is the reference's again
    pane.direct.setChecked(False)
    wait_done(qtbot, three)
    three.editor("actual").setFocus()
    three.next_difference()
    # this output's caret is at the outputs' difference 3 (line 150): the reference's next
    # difference from there is the one at line 170, its second of two (lines 90 and 170)
    assert three.difference_label.text().strip() == "difference 2 of 2"


def test_find_searches_every_pane_in_screen_order(qtbot, three):
    bar = three.find_bar
    bar.open_bar()
    # "item 150 and why it matters. A sentence" is only the baseline's; "item 1" is in all
    bar.edit.setText("A sentence only the baseline")
    assert bar.find()
    assert bar.side == "baseline"
    assert three.baseline_pane.pane.editor.textCursor().selectedText() == \
        "A sentence only the baseline"
    # "Line 199:" once in each pane: Enter walks reference, baseline, this output, and wraps
    bar.side = "expected"
    cursor = three.editor("expected").textCursor()
    cursor.setPosition(0)
    three.editor("expected").setTextCursor(cursor)
    bar.edit.setText("Line 199:")
    visited = []
    for _ in range(4):
        assert bar.find()
        visited.append(bar.side)
    assert visited == ["expected", "baseline", "actual", "expected"]
    assert bar.find(backward=True) and bar.side == "actual"  # leftwards: the previous pane
    assert bar.find(backward=True) and bar.side == "baseline"
    assert bar.find(backward=True) and bar.side == "expected"
    # without a baseline, the two panes only
    three.baseline_pane.show_baseline(None)
    visited = []
    for _ in range(3):
        assert bar.find()
        visited.append(bar.side)
    assert visited == ["actual", "expected", "actual"]


def _top_block(view) -> int:
    return view.view.cursorForPosition(QPoint(0, 0)).blockNumber()


@pytest.mark.parametrize("source", ["tab", "baseline"])
def test_the_two_inline_views_stay_level_when_scrolled_by_hand(qtbot, compare_tab, source):
    # 300 reference lines; the baseline adds 60 lines after line 50, this output 5 after line
    # 120: past line 120 the same reference line is 55 lines further down the baseline's view
    ref = [f"Line {i}: the answer talks about item {i} and why it matters." for i in range(300)]
    base = ref[:50] + [f"An extra baseline line {k}." for k in range(60)] + ref[50:]
    this = ref[:120] + [f"This run adds line {k} here." for k in range(5)] + ref[120:]
    compare_tab.set_texts("\n".join(ref), "\n".join(this))
    compare_tab.baseline_pane.show_baseline("\n".join(base))
    wait_done(qtbot, compare_tab)
    compare_tab.action_inline.trigger()
    wait_done(qtbot, compare_tab)
    mine, theirs = compare_tab.inline_pane, compare_tab.baseline_pane.inline
    if source == "baseline":
        mine, theirs = theirs, mine
    apart = []
    for value in (150, 260, 20):
        mine.view.verticalScrollBar().setValue(value)
        offset = side_offset(mine.layout_, mine.top_offset(), 0)
        # the other view's top line holds that place of the reference
        want = theirs.view.document().findBlock(inline_position(theirs.layout_, offset, 0))
        assert _top_block(theirs) == want.blockNumber(), value
        apart.append(abs(_top_block(mine) - _top_block(theirs)))
    assert max(apart) >= 50, apart  # the views sit at other lines: not a 1:1 offset
    # unlocked, the other view stays
    compare_tab.set_scroll_locked(False)
    before = theirs.view.verticalScrollBar().value()
    mine.view.verticalScrollBar().setValue(40)
    assert theirs.view.verticalScrollBar().value() == before
