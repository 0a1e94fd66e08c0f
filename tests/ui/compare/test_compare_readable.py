"""The compare view draws readable pieces by default; the exact script is one toggle away."""

from __future__ import annotations

from PySide6.QtCore import QPoint
from PySide6.QtGui import QTextCursor

from matchlens.core.diff.alignment import align
from matchlens.core.diff.readable.chunks import readable_diff
from matchlens.ui.palette import diff_colours
from tests.ui.conftest import set_pair, wait_done

EXPECTED = "such as glucose."
ACTUAL = "like glucose and starch. Oxygen is released as a byproduct."
INSERTED = " and starch. Oxygen is released as a byproduct"


def _ranges(editor) -> list[tuple[int, int]]:
    return [(s.cursor.selectionStart(), s.cursor.selectionEnd()) for s in editor.layer("diff")]


def _point_of(editor, position: int) -> QPoint:
    """The middle of the character at `position` in viewport coordinates."""
    cursor = QTextCursor(editor.document())
    cursor.setPosition(position)
    left = editor.cursorRect(cursor)
    cursor.setPosition(position + 1)
    right = editor.cursorRect(cursor)
    return QPoint((left.x() + right.x()) // 2, left.center().y())


def test_sample_pair_is_drawn_as_words_with_the_exact_distance(qtbot, compare_tab) -> None:
    set_pair(qtbot, compare_tab, EXPECTED, ACTUAL)
    # "such as" -> "like" on both sides; the new sentence inserted on the actual side only.
    assert _ranges(compare_tab.editor("expected")) == [(0, 7)]
    start = len("like glucose")
    assert _ranges(compare_tab.editor("actual")) == [(0, 4), (start, start + len(INSERTED))]
    assert compare_tab.highlighted_edits() == 49
    assert compare_tab.panels["levenshtein_distance"].result().score == 49
    assert compare_tab.difference_label.text().strip() == "2 differences"
    assert "49 edits" in compare_tab.difference_label.toolTip()


def test_exact_edits_view_draws_the_minimal_script(qtbot, compare_tab) -> None:
    set_pair(qtbot, compare_tab, EXPECTED, ACTUAL)
    compare_tab.action_exact.trigger()
    wait_done(qtbot, compare_tab)
    assert compare_tab.view == "exact"
    exact = align(EXPECTED, ACTUAL)
    assert compare_tab.difference_count() == len(exact.hunks) > 2
    assert compare_tab.highlighted_edits() == exact.distance == 49
    compare_tab.action_exact.trigger()
    wait_done(qtbot, compare_tab)
    assert compare_tab.view == "readable" and compare_tab.difference_count() == 2


def test_typo_stays_one_character_and_word_view_takes_the_word(qtbot, compare_tab) -> None:
    set_pair(qtbot, compare_tab, "The quick brown fox", "The quack brown fox")
    assert _ranges(compare_tab.editor("expected")) == [(6, 7)]
    compare_tab.set_granularity("word")
    wait_done(qtbot, compare_tab)
    assert _ranges(compare_tab.editor("expected")) == [(4, 9)]
    assert compare_tab.highlighted_edits() == 1  # still the exact character distance


def test_hovering_a_piece_lists_its_unit_edits(qtbot, compare_tab) -> None:
    set_pair(qtbot, compare_tab, EXPECTED, ACTUAL)
    expected = compare_tab.panes["expected"].decorator
    tip = expected.tooltip_at(_point_of(compare_tab.editor("expected"), 2))
    # Levenshtein("such as", "like") = 7: s→l, u→i, c→k, h→e and three deletions.
    assert tip.startswith("Replaced “such as” with “like”: 7 edits")
    assert "s→l" in tip and "−a" in tip and "−␣" in tip  # a deleted space is visible
    actual = compare_tab.panes["actual"].decorator
    tip = actual.tooltip_at(_point_of(compare_tab.editor("actual"), len("like glucose") + 3))
    assert tip.startswith("Inserted “ and starch.")
    assert f"{len(INSERTED)} edits" in tip and "… and" in tip
    assert expected.tooltip_at(_point_of(compare_tab.editor("expected"), 10)) == ""  # equal text
    compare_tab.set_view("exact")
    wait_done(qtbot, compare_tab)
    tip = actual.tooltip_at(_point_of(compare_tab.editor("actual"), 0))
    assert tip.startswith("Inserted") and "edit" in tip


def test_jumping_to_an_insertion_keeps_the_other_sides_highlight(qtbot, compare_tab) -> None:
    set_pair(qtbot, compare_tab, EXPECTED, ACTUAL)
    compare_tab.next_difference()
    compare_tab.next_difference()  # the inserted sentence: nothing on the expected side
    assert compare_tab.difference_label.text().strip() == "difference 2 of 2"
    editor = compare_tab.editor("expected")
    assert compare_tab.panes["expected"].flasher.is_active()
    assert editor.layer("flash") == []  # no full-line tint over the line
    assert editor.insertion_mark() == len("such as glucose")
    assert _ranges(editor) == [(0, 7)]
    # Pixels: "such as" keeps its own colour while the jump marks the insertion point. Any
    # pixel of its box may be under a glyph (fonts differ by machine), so the whole box is
    # searched for the background colour, which shows between and around the glyphs.
    image = editor.viewport().grab().toImage()
    cursor = QTextCursor(editor.document())
    box = editor.cursorRect(cursor)
    cursor.setPosition(7)
    right = editor.cursorRect(cursor).x()
    want = diff_colours(editor.palette()).substitute

    def near(pixel) -> bool:  # 8-bit rounding of the blended colour: within a few levels
        return max(abs(pixel.red() - want.red()), abs(pixel.green() - want.green()),
                   abs(pixel.blue() - want.blue())) <= 4

    assert any(near(image.pixelColor(x, y)) for x in range(box.x() + 1, right)
               for y in range(box.top(), box.bottom() + 1)), want.name()


def test_header_says_when_a_loaded_text_was_edited(qtbot, compare_tab, tmp_path) -> None:
    path = tmp_path / "reference.txt"
    path.write_text("Paris", encoding="utf-8")
    assert compare_tab.load_file("expected", path)
    header = compare_tab.panes["expected"].header
    assert "reference.txt" in header.text() and "modified" not in header.text()
    editor = compare_tab.editor("expected")
    editor.moveCursor(QTextCursor.MoveOperation.End)
    editor.insertPlainText("!")  # what typing or pasting does
    assert "reference.txt (modified)" in header.text()
    assert compare_tab.load_file("expected", path)
    assert "modified" not in header.text()


def test_readable_table_matches_core(qtbot, compare_tab) -> None:
    e = "Ada Lovelace was born in 1815. She wrote the first algorithm."
    a = "Ada Lovelace was born in 1816 in London. She wrote teh first program."
    set_pair(qtbot, compare_tab, e, a)
    chunks = [c for c in readable_diff(e, a).chunks if c.op != "equal"]
    shown = {(s.cursor.selectionStart(), s.cursor.selectionEnd())
             for s in compare_tab.editor("actual").layer("diff")}
    merged = set()
    for c in chunks:  # the decorator merges touching pieces of one colour
        if c.act_end > c.act_start:
            merged.add((c.act_start, c.act_end))
    assert shown <= merged | {(min(x for x, _ in merged), max(y for _, y in merged))} or \
        shown == merged
    assert compare_tab.highlighted_edits() == readable_diff(e, a).distance
