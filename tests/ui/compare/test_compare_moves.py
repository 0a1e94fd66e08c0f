"""Moved text in the compare view: its own colour on both sides, hover links, a jump, a tooltip."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QPoint, QPointF, Qt
from PySide6.QtGui import QMouseEvent, QTextCursor
from PySide6.QtWidgets import QApplication
from rapidfuzz.distance import Levenshtein

from matchlens.ui.palette import diff_colours
from tests.ui.conftest import set_pair, wait_done

MOVED = "The sky is blue today."
EXPECTED = f"{MOVED} Cats like to sleep all day.\nDogs bark at night.\n"
ACTUAL = f"Cats like to sleep all day.\nDogs bark at night. {MOVED}\n"


def _point_of(editor, position: int) -> QPoint:
    cursor = QTextCursor(editor.document())
    cursor.setPosition(position)
    left = editor.cursorRect(cursor)
    cursor.setPosition(position + 1)
    right = editor.cursorRect(cursor)
    return QPoint((left.x() + right.x()) // 2, left.center().y())


def _backgrounds(editor, layer: str) -> dict[tuple[int, int], str]:
    return {(s.cursor.selectionStart(), s.cursor.selectionEnd()): s.format.background().color()
            .name() for s in editor.layer(layer)}


def _move(editor, point: QPoint, kind=QEvent.Type.MouseMove,
          modifiers=Qt.KeyboardModifier.NoModifier) -> None:
    event = QMouseEvent(kind, QPointF(point), QPointF(editor.viewport().mapToGlobal(point)),
                        Qt.MouseButton.LeftButton if kind != QEvent.Type.MouseMove
                        else Qt.MouseButton.NoButton,
                        Qt.MouseButton.NoButton, modifiers)
    QApplication.sendEvent(editor.viewport(), event)


def test_moved_sentence_has_its_own_colour_on_both_sides(qtbot, compare_tab) -> None:
    set_pair(qtbot, compare_tab, EXPECTED, ACTUAL)
    table = compare_tab._table
    assert table.moves.tolist() == [[0, 22, 48, 70, table.moves[0, 4]]]
    moved = diff_colours(compare_tab.palette()).moved.name()
    exp, act = compare_tab.editor("expected"), compare_tab.editor("actual")
    assert _backgrounds(exp, "diff")[(0, 22)] == moved
    assert _backgrounds(act, "diff")[(48, 70)] == moved
    # the distance is still the exact Levenshtein distance of the texts
    assert compare_tab.highlighted_edits() == Levenshtein.distance(EXPECTED, ACTUAL)


def test_hover_lights_the_other_place_and_ctrl_click_jumps(qtbot, compare_tab) -> None:
    set_pair(qtbot, compare_tab, EXPECTED, ACTUAL)
    exp, act = compare_tab.editor("expected"), compare_tab.editor("actual")
    _move(exp, _point_of(exp, 5))
    link = diff_colours(compare_tab.palette()).moved_link.name()
    assert _backgrounds(act, "link") == {(48, 70): link}
    assert compare_tab.move_link.lit == ("actual", 0)
    _move(exp, _point_of(exp, 40))  # "Cats...": not moved, the link goes out
    assert _backgrounds(act, "link") == {}
    _move(act, _point_of(act, 60))
    assert _backgrounds(exp, "link") == {(0, 22): link}
    _move(act, _point_of(act, 60), QEvent.Type.MouseButtonRelease,
          Qt.KeyboardModifier.ControlModifier)
    assert exp.textCursor().position() == 0
    # and from the keyboard: caret in the moved text on the expected side -> actual place
    cursor = exp.textCursor()
    cursor.setPosition(3)
    exp.setTextCursor(cursor)
    compare_tab.navigation.last_side = "expected"
    compare_tab.move_link.action_jump.trigger()
    assert act.textCursor().position() == 48


def test_tooltip_says_where_it_moved_and_what_the_metric_counts(qtbot, compare_tab) -> None:
    set_pair(qtbot, compare_tab, EXPECTED, ACTUAL)
    exp = compare_tab.editor("expected")
    tip = compare_tab.panes["expected"].decorator.tooltip_at(_point_of(exp, 5))
    edits = int(compare_tab._table.moves[0, 4])
    assert tip.startswith(f"Moved “{MOVED}”: moved to line 2 of the actual text")
    assert f"{edits} edits" in tip


def test_no_moves_no_violet(qtbot, compare_tab) -> None:
    set_pair(qtbot, compare_tab, "such as glucose.", "like glucose and starch.")
    moved = diff_colours(compare_tab.palette()).moved.name()
    assert len(compare_tab._table.moves) == 0
    assert moved not in _backgrounds(compare_tab.editor("expected"), "diff").values()
    wait_done(qtbot, compare_tab)
