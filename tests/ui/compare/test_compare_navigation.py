"""Next/previous difference, locked scrolling, JSON path selection."""

from __future__ import annotations

import json

import pytest
from PySide6.QtCore import Qt

from matchlens.core.diff.alignment import align, next_hunk
from matchlens.core.diff.readable.chunks import readable_diff
from matchlens.core.diff.scroll_sync import line_anchors
from tests.ui.conftest import set_pair

EXPECTED = "one two three four five six"
ACTUAL = "one 2 three four 5 six seven"
# The hunks ("two"→"2", "five"→"5", " seven" added) are taken from core.align, not hard-coded.


def _hunk_starts(expected: str, actual: str, view: str = "exact") -> list[tuple[int, int]]:
    if view == "exact":
        return [(h.exp_start, h.act_start) for h in align(expected, actual).hunks]
    # Readable: each run of touching non-equal chunks is one difference.
    starts, previous = [], "equal"
    for c in readable_diff(expected, actual).chunks:
        if c.op != "equal" and previous == "equal":
            starts.append((c.exp_start, c.act_start))
        previous = c.op
    return starts


@pytest.mark.parametrize("view", ["readable", "exact"])
def test_next_and_previous_walk_the_hunks_in_order(qtbot, compare_tab, view) -> None:
    compare_tab.set_view(view)
    set_pair(qtbot, compare_tab, EXPECTED, ACTUAL)
    starts = _hunk_starts(EXPECTED, ACTUAL, view)
    n = len(starts)
    assert n == compare_tab.difference_count() >= 3
    assert compare_tab.difference_label.text().strip() == f"{n} differences"
    seen = []
    for k in range(n):
        compare_tab.next_difference()
        assert compare_tab.difference_label.text().strip() == f"difference {k + 1} of {n}"
        seen.append((compare_tab.editor("expected").textCursor().position(),
                     compare_tab.editor("actual").textCursor().position()))
        assert compare_tab.panes["expected"].flasher.is_active()
        assert compare_tab.panes["actual"].flasher.is_active()
    assert seen == starts  # both panes land on each hunk, in order
    compare_tab.next_difference()  # wraps around
    assert compare_tab.current_difference() == 0
    compare_tab.previous_difference()
    assert compare_tab.current_difference() == n - 1
    compare_tab.previous_difference()
    assert compare_tab.difference_label.text().strip() == f"difference {n - 1} of {n}"


def test_first_jump_shows_a_difference_at_the_very_start(qtbot, compare_tab) -> None:
    set_pair(qtbot, compare_tab, "Paris is big", "paris is bog")
    compare_tab.next_difference()  # caret at 0, where the first hunk starts
    assert compare_tab.difference_label.text().strip() == "difference 1 of 2"
    compare_tab.next_difference()
    assert compare_tab.difference_label.text().strip() == "difference 2 of 2"


def test_navigation_follows_core_next_hunk_from_the_caret(qtbot, compare_tab) -> None:
    set_pair(qtbot, compare_tab, EXPECTED, ACTUAL)
    hunks = align(EXPECTED, ACTUAL).hunks
    editor = compare_tab.editor("expected")
    cursor = editor.textCursor()
    cursor.setPosition(10)
    editor.setTextCursor(cursor)
    compare_tab.next_difference()
    assert compare_tab.current_difference() == next_hunk(hunks, 10, "expected")


def test_f7_reaches_the_tab_through_the_window(qtbot) -> None:
    from matchlens.ui.config_model import ConfigModel
    from matchlens.ui.main_window import MainWindow

    window = MainWindow(ConfigModel(), restore=False)
    qtbot.addWidget(window)
    try:
        window.show()
        qtbot.waitExposed(window)
        set_pair(qtbot, window.compare_tab, EXPECTED, ACTUAL)
        qtbot.keyClick(window, Qt.Key.Key_F7)
        assert window.compare_tab.current_difference() == 0
        qtbot.keyClick(window, Qt.Key.Key_F7)
        qtbot.keyClick(window, Qt.Key.Key_F7, Qt.KeyboardModifier.ShiftModifier)
        assert window.compare_tab.current_difference() == 0
    finally:
        window.shutdown()


def test_locked_scrolling_follows_the_alignment(qtbot, compare_tab) -> None:
    base = [f"line {i}" for i in range(300)]
    expected = "\n".join(base)
    actual = "\n".join(base[:50] + [f"inserted {i}" for i in range(40)] + base[50:])
    compare_tab.set_wrap(False)
    set_pair(qtbot, compare_tab, expected, actual)
    anchors = line_anchors(expected, actual, align(expected, actual))
    left, right = compare_tab.editor("expected"), compare_tab.editor("actual")
    left.verticalScrollBar().setValue(120)
    # Line 120 of expected is line 160 of actual (40 lines were inserted above it).
    assert anchors.map(120, "expected") == 160
    assert right.verticalScrollBar().value() == 160
    right.verticalScrollBar().setValue(10)
    assert left.verticalScrollBar().value() == 10
    compare_tab.set_scroll_locked(False)
    right.verticalScrollBar().setValue(200)
    assert left.verticalScrollBar().value() == 10


def test_json_path_click_selects_the_values_on_both_sides(qtbot, compare_tab) -> None:
    expected = json.dumps({"name": "Ada", "items": [{"price": 10}, {"price": 12}]}, indent=2)
    actual = json.dumps({"name": "Ada", "items": [{"price": 10}, {"price": 15}]}, indent=2)
    set_pair(qtbot, compare_tab, expected, actual)
    panel = compare_tab.panels["json_distance"]
    assert panel.result().score == 1  # one leaf differs: $.items[1].price 12 → 15
    assert not panel.details.isHidden()
    assert panel.details.count() == 1
    item = panel.details.item(0)
    assert item.text() == "$.items[1].price: 12 → 15"
    panel.details.itemClicked.emit(item)
    assert compare_tab.editor("expected").textCursor().selectedText() == "12"
    assert compare_tab.editor("actual").textCursor().selectedText() == "15"


def test_json_path_missing_on_one_side_selects_its_parent(qtbot, compare_tab) -> None:
    statuses = []
    compare_tab.sig_status.connect(statuses.append)
    set_pair(qtbot, compare_tab, '{"a": {"b": 1, "c": 2}}', '{"a": {"b": 1}}')
    panel = compare_tab.panels["json_distance"]
    panel.details.itemClicked.emit(panel.details.item(0))
    assert compare_tab.editor("expected").textCursor().selectedText() == "2"
    assert compare_tab.editor("actual").textCursor().selectedText() == '{"b": 1}'
    assert "$.a.c is missing on the actual side" in statuses[-1]
