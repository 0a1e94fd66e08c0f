"""One enormous line (minified JSON, a one-line model answer): loads, scores, highlights, types.

Qt does some work per line (QTextBlock) that is cheap for ordinary lines and was, for one line
of hundreds of thousands of characters, a freeze of seconds: see `editors.py`.
"""

from __future__ import annotations

from PySide6.QtWidgets import QPlainTextEdit

from matchlens.ui.compare import editors
from tests.ui.compare.test_compare_responsive import GapMeter
from tests.ui.conftest import set_pair, wait_done
from tests.ui.text_pairs import long_pair

SIZE = 300_000


def _one_line_pair(size: int) -> tuple[str, str]:
    words = ['"answer":', '"Paris",', "the", "capital", "of", "France", "is", "{", "}", "1815",
             "Lovelace", "[", "],"]
    return long_pair(size, words, seed=21)


def _ranges(editor) -> list[tuple[int, int]]:
    return [(s.cursor.selectionStart(), s.cursor.selectionEnd()) for s in editor.layer("diff")]


def test_one_line_pair_loads_highlights_and_types_without_freezing(qtbot, compare_tab) -> None:
    expected, actual = _one_line_pair(SIZE)
    assert "\n" not in expected + actual
    compare_tab.scheduler.prewarm()  # process start-up is a one-off, not what is measured
    qtbot.waitUntil(lambda: not compare_tab.scheduler._pool.busy(), timeout=20000)

    meter = GapMeter(compare_tab.is_busy)
    meter.start()
    compare_tab.set_texts(expected, actual)  # inside the measurement: it runs on the GUI thread
    wait_done(qtbot, compare_tab, timeout=60000)
    qtbot.wait(150)  # the repaint with the highlight
    longest = meter.stop()
    print(f"load: longest gap {longest * 1000:.0f} ms")
    # Before: ~0.8 s (set_texts, then painting the highlight span by span over every row);
    # figures in benchmarks/, no wall-clock limit here: events ran while it computed.
    assert meter.busy_ticks > 0

    distance = compare_tab.panels["levenshtein_distance"].result().score
    assert compare_tab.highlighted_edits() == distance >= SIZE // 200 - 5
    table_size = len(compare_tab._table)
    for side in ("expected", "actual"):
        editor = compare_tab.editor(side)
        assert editor.blockCount() == 1
        # Only a window around what is visible is decorated, and painted by the editor itself.
        assert 0 < len(_ranges(editor)) < table_size / 20
        assert editor.self_painted_spans() == _ranges(editor)

    # A keystroke re-lays the whole line out (Qt), and nothing else may add to that.
    editor = compare_tab.editor("actual")
    editor.moveCursor(editor.textCursor().MoveOperation.End)
    meter = GapMeter(compare_tab.is_busy)
    meter.start()
    qtbot.keyClicks(editor, "z")
    wait_done(qtbot, compare_tab, timeout=60000)
    qtbot.wait(150)
    longest = meter.stop()
    print(f"keystroke: longest gap {longest * 1000:.0f} ms")
    assert meter.busy_ticks > 0
    assert compare_tab.texts()[1] == actual + "z"
    distance = compare_tab.panels["levenshtein_distance"].result().score
    assert compare_tab.highlighted_edits() == distance

    # F7 from the middle of the line scrolls both panes to the next difference, highlighted.
    editor = compare_tab.editor("expected")
    cursor = editor.textCursor()
    cursor.setPosition(SIZE // 2)
    editor.setTextCursor(cursor)
    compare_tab.next_difference()
    hunk = compare_tab._table.hunks[compare_tab.current_difference()]
    assert SIZE // 2 <= hunk[0] < SIZE // 2 + 1000
    for side, start in (("expected", int(hunk[0])), ("actual", int(hunk[2]))):
        pane = compare_tab.panes[side]
        first, last = pane.editor.visible_positions()
        assert first <= start <= last, (side, first, start, last)
        assert pane.flasher.is_active()
        qtbot.waitUntil(lambda e=pane.editor, s=start: any(a <= s < b for a, b in _ranges(e)))


def test_long_lines_look_as_qt_paints_short_ones(qtbot, compare_tab, monkeypatch) -> None:
    # Substitutions, a case-only edit (dotted underline) and right-to-left text, over two
    # screens of one 12,000-character line; the self-painted layer must match Qt's pixels.
    unit = "The Calvin cycle uses ATP. שלום עולם and the plant grows. "
    expected = unit * (12_000 // len(unit) + 1)
    actual = (expected.replace("Calvin", "calvin").replace("ATP", "NADPH")
              .replace("plant", "plants").replace("שלום", "שלוס"))
    set_pair(qtbot, compare_tab, expected, actual)
    editor = compare_tab.editor("actual")
    editor.setCursorWidth(0)  # no caret blinking between the two pictures
    bar = editor.verticalScrollBar()
    bar.setValue(bar.maximum() // 2)
    pane = compare_tab.panes["actual"]
    pane.decorator.rebuild()
    assert editor.self_painted_spans() and not editor._qt_diff
    ours = editor.viewport().grab().toImage()

    monkeypatch.setattr(editors, "LONG_LINE", 10 ** 9)  # the same spans, painted by Qt
    pane.decorator.rebuild()
    assert not editor.self_painted_spans() and editor._qt_diff
    theirs = editor.viewport().grab().toImage()
    assert ours == theirs


def test_wrapping_off_still_wraps_a_line_too_long_to_redraw(qtbot, compare_tab) -> None:
    statuses: list[str] = []
    compare_tab.sig_status.connect(statuses.append)
    compare_tab.set_wrap(False)
    long_line = "x" * (editors.LONG_LINE_NO_WRAP + 1)
    set_pair(qtbot, compare_tab, "short\nlines", long_line)
    wrap = QPlainTextEdit.LineWrapMode
    assert compare_tab.editor("expected").lineWrapMode() == wrap.NoWrap
    editor = compare_tab.editor("actual")
    assert editor.lineWrapMode() == wrap.WidgetWidth and editor.is_wrap_forced()
    assert any(f"{len(long_line):,} characters" in s and "actual" in s for s in statuses)
    set_pair(qtbot, compare_tab, "short\nlines", "short\nlines too")
    assert editor.lineWrapMode() == wrap.NoWrap and not editor.is_wrap_forced()
    compare_tab.set_wrap(True)
    assert editor.lineWrapMode() == wrap.WidgetWidth
