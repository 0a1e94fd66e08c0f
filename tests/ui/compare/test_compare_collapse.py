"""Collapsing unchanged text in the compare view (`ui.compare.collapse`): real widgets offscreen.

The folds shown are core's (`core.diff.folding`); these tests check that the editors hide
exactly those lines, show every difference, open a fold on click, and that navigation, locked
scrolling, the ruler, the move links and the inline view keep working while collapsed.
"""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt

from matchlens.core.diff.folding import inline_folds, side_folds
from matchlens.ui.compare.collapse import placeholder_text
from matchlens.ui.config_model import ConfigModel
from matchlens.ui.dialogs.shortcuts import shortcut_rows
from matchlens.ui.main_window import MainWindow
from tests.ui.conftest import set_pair, wait_done


def _pair() -> tuple[str, str]:
    lines = [f"Line {i} says something about item number {i} here." for i in range(200)]
    actual = list(lines)
    actual[40] = actual[40].replace("something", "nothing")
    actual[120] += " And an added sentence."
    moved = actual.pop(170)
    actual.insert(80, moved)
    return "\n".join(lines) + "\n", "\n".join(actual) + "\n"


def _hidden(editor) -> list[int]:
    doc = editor.document()
    return [n for n in range(doc.blockCount()) if not doc.findBlockByNumber(n).isVisible()]


def _collapsed(qtbot, tab) -> None:
    set_pair(qtbot, tab, *_pair())
    tab.action_collapse.trigger()
    assert tab.action_collapse.isChecked()


def test_collapsed_editors_hide_exactly_the_folds_and_show_every_difference(qtbot, compare_tab):
    _collapsed(qtbot, compare_tab)
    table = compare_tab.current_table()
    for side, text in zip(("expected", "actual"), compare_tab.texts(), strict=True):
        editor = compare_tab.editor(side)
        folds = side_folds(table, side, text)
        assert len(folds.ranges) >= 3  # around three places far apart: before, between, after
        hidden = [n for (a, b), host in zip(folds.ranges.tolist(), folds.hosts.tolist(),
                                            strict=True) for n in range(a, b) if n != host]
        assert _hidden(editor) == hidden
        collapser = compare_tab.collapse.collapsers[side]
        assert collapser.placeholders() == {
            int(h): placeholder_text(int(b - a))
            for (a, b), h in zip(folds.ranges.tolist(), folds.hosts.tolist(), strict=True)}
        # every highlighted piece is on a line the view shows as text
        cols = table.exp if side == "expected" else table.act
        doc = editor.document()
        for start, end in cols.tolist():
            for pos in (start, max(start, end - 1)):
                number = doc.findBlock(pos).blockNumber()
                assert not collapser.is_folded(number), (side, start, end)
    # the text itself is untouched
    assert compare_tab.texts() == _pair()
    # off again: every line shows
    compare_tab.action_collapse.trigger()
    assert _hidden(compare_tab.editor("expected")) == []
    assert compare_tab.collapse.collapsers["actual"].placeholders() == {}


def test_a_click_on_the_placeholder_opens_its_fold(qtbot, compare_tab):
    _collapsed(qtbot, compare_tab)
    editor = compare_tab.editor("expected")
    collapser = compare_tab.collapse.collapsers["expected"]
    editor.verticalScrollBar().setValue(0)
    qtbot.wait(20)
    hosts = collapser.visible_hosts()
    assert hosts, "the first fold's placeholder is on screen"
    number, rect = hosts[0]
    index = collapser.folds.fold_at(number)
    start, end = collapser.folds.ranges[index].tolist()
    before = len(_hidden(editor))
    qtbot.mouseClick(editor.viewport(), Qt.MouseButton.LeftButton,
                     pos=QPoint(40, int(rect.center().y())))
    assert len(_hidden(editor)) == before - (end - start - 1)
    assert all(editor.document().findBlockByNumber(n).isVisible() for n in range(start, end))
    assert not collapser.is_host(number)
    # and it stays open when the texts are scored again (the user typed on)
    compare_tab.panes["actual"].editor.appendPlainText("One more line.")
    wait_done(qtbot, compare_tab)
    assert all(editor.document().findBlockByNumber(n).isVisible() for n in range(start, end))


def test_next_difference_and_locked_scrolling_work_collapsed(qtbot, compare_tab):
    _collapsed(qtbot, compare_tab)
    folds_before = {s: len(c.folds.ranges) for s, c in compare_tab.collapse.collapsers.items()}
    count = compare_tab.difference_count()
    assert count >= 3
    for index in range(count):
        compare_tab.next_difference()
        assert compare_tab.current_difference() == index
        for side in ("expected", "actual"):
            editor = compare_tab.editor(side)
            block = editor.textCursor().block()
            assert block.isVisible()
            assert not compare_tab.collapse.collapsers[side].is_host(block.blockNumber())
    # navigation opened nothing: the differences were never folded
    assert {s: len(c.folds.ranges)
            for s, c in compare_tab.collapse.collapsers.items()} == folds_before
    # locked scrolling: the other side follows to the line the anchors map to (or, when that
    # line is folded, the first line shown after it)
    expected, actual = compare_tab.editor("expected"), compare_tab.editor("actual")
    for value in (0, expected.verticalScrollBar().maximum() // 2,
                  expected.verticalScrollBar().maximum()):
        expected.verticalScrollBar().setValue(value)
        target = compare_tab.scroll_lock.map_line(expected.top_line(), "expected")
        top = actual.firstVisibleBlock().blockNumber()
        assert top >= int(target) - 1 or actual.verticalScrollBar().value() == \
            actual.verticalScrollBar().maximum()
        hidden_between = all(not actual.document().findBlockByNumber(n).isVisible()
                             for n in range(int(target), top))
        assert top <= int(target) + 1 or hidden_between


def test_ruler_and_find_open_what_they_go_to(qtbot, compare_tab):
    _collapsed(qtbot, compare_tab)
    pane = compare_tab.panes["expected"]
    collapser = compare_tab.collapse.collapsers["expected"]
    # the ruler's marks are the table's, collapsed or not
    assert len(pane.ruler.marks.rows) == len(compare_tab.current_table())
    last_fold = collapser.folds.ranges[-1].tolist()
    # a click at the ruler's bottom goes to the last line, which is folded: it opens
    pane.ruler.go_to_pixel(pane.ruler.height() - 1)
    line = pane.editor.textCursor().blockNumber()
    assert last_fold[0] <= line < last_fold[1]
    assert pane.editor.textCursor().block().isVisible()
    assert not collapser.is_folded(line)


def test_the_inline_view_collapses_too(qtbot, compare_tab):
    _collapsed(qtbot, compare_tab)
    compare_tab.set_inline(True)
    inline = compare_tab.inline_pane
    folds = inline_folds(inline.layout_)
    assert len(folds.ranges) >= 3
    collapser = compare_tab.collapse.collapsers["inline"]
    assert collapser.folds.ranges.tolist() == folds.ranges.tolist()
    # every marked span is on a shown line, and next difference lands on a shown line
    doc = inline.view.document()
    for start, end in inline.layout_.spans[:, :2].tolist():
        assert not collapser.is_folded(doc.findBlock(start).blockNumber())
        assert not collapser.is_folded(doc.findBlock(max(start, end - 1)).blockNumber())
    for index in range(compare_tab.difference_count()):
        compare_tab.go_to_difference(index)
        assert not collapser.is_folded(inline.view.textCursor().blockNumber())
    assert len(collapser.folds.ranges) == len(folds.ranges)
    # turning collapsing off shows the inline text whole
    compare_tab.action_collapse.setChecked(False)
    assert _hidden(inline.view) == []


def test_the_shortcut_is_listed_in_help(qtbot):
    window = MainWindow(ConfigModel(), restore=False)
    qtbot.addWidget(window)
    try:
        rows = shortcut_rows(window)
        assert ("Other", "Collapse", "Ctrl+Shift+U") in rows
        window.compare_tab.action_collapse.setShortcut("")
        assert all(what != "Collapse" for _where, what, _keys in shortcut_rows(window))
    finally:
        window.shutdown()


def test_move_links_jump_to_shown_text_while_collapsed(qtbot, compare_tab):
    _collapsed(qtbot, compare_tab)
    table = compare_tab.current_table()
    assert len(table.moves) == 1  # line 170 moved to 80
    folds = {s: len(c.folds.ranges) for s, c in compare_tab.collapse.collapsers.items()}
    for side in ("expected", "actual"):
        compare_tab.move_link.jump(side, 0)
        other = "actual" if side == "expected" else "expected"
        editor = compare_tab.editor(other)
        number = editor.textCursor().blockNumber()
        assert not compare_tab.collapse.collapsers[other].is_folded(number)
        start, end = table.moves[0, 2:4] if other == "actual" else table.moves[0, 0:2]
        assert compare_tab.panes[other].cursor_offset() == int(start)
    assert {s: len(c.folds.ranges)
            for s, c in compare_tab.collapse.collapsers.items()} == folds
