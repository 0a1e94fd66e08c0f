"""The highlight is the levenshtein_distance edit script, painted only where the user looks."""

from __future__ import annotations

import random

from PySide6.QtGui import QTextCharFormat

from matchlens.core.diff.alignment import align
from matchlens.core.metrics.levenshtein import distance
from tests.ui.conftest import set_pair, wait_done


def _ranges(editor) -> list[tuple[int, int]]:
    return [(s.cursor.selectionStart(), s.cursor.selectionEnd()) for s in editor.layer("diff")]


def test_spans_sit_on_the_edited_characters(qtbot, compare_tab) -> None:
    compare_tab.set_view("exact")
    set_pair(qtbot, compare_tab, "The quick brown fox", "The quick brown dog")
    # fox -> dog: f→d at 16 and x→g at 18 (the 'o' between is equal) on both sides.
    assert _ranges(compare_tab.editor("expected")) == [(16, 17), (18, 19)]
    assert _ranges(compare_tab.editor("actual")) == [(16, 17), (18, 19)]
    assert compare_tab.highlighted_edits() == 2
    assert compare_tab.panels["levenshtein_distance"].result().score == 2


def test_deletions_left_insertions_right(qtbot, compare_tab) -> None:
    set_pair(qtbot, compare_tab, "abc def", "abc XYZ def!")
    # "XYZ " inserted at 4 and "!" appended: both only on the actual side.
    assert _ranges(compare_tab.editor("expected")) == []
    assert _ranges(compare_tab.editor("actual")) == [(4, 8), (11, 12)]
    set_pair(qtbot, compare_tab, "abc XYZ def!", "abc def")
    assert _ranges(compare_tab.editor("expected")) == [(4, 8), (11, 12)]
    assert _ranges(compare_tab.editor("actual")) == []


def test_highlighted_edits_equal_the_distance_panel(qtbot, compare_tab, config) -> None:
    rng = random.Random(7)
    words = ["alpha", "beta", "Gamma", "delta", "", "epsilon\tzeta", "eta\ntheta"]
    for _ in range(8):
        expected = " ".join(rng.choice(words) for _ in range(30))
        actual = " ".join(rng.choice(words) for _ in range(28))
        set_pair(qtbot, compare_tab, expected, actual)
        shown = compare_tab.panels["levenshtein_distance"].result().score
        assert compare_tab.highlighted_edits() == shown == distance(expected, actual)


def test_case_option_of_the_distance_metric_drives_the_highlight(qtbot, compare_tab,
                                                                  config) -> None:
    set_pair(qtbot, compare_tab, "The Calvin cycle", "The calvin cycle")
    assert compare_tab.highlighted_edits() == 1
    config.set_option("levenshtein_distance", "case_sensitive", False)
    wait_done(qtbot, compare_tab)
    assert compare_tab.panels["levenshtein_distance"].result().score == 0
    assert compare_tab.highlighted_edits() == 0
    # The case-only difference is still shown, in the subdued (underlined) style.
    marks = compare_tab.editor("expected").layer("diff")
    assert [(s.cursor.selectionStart(), s.cursor.selectionEnd()) for s in marks] == [(4, 5)]
    assert marks[0].format.underlineStyle() == QTextCharFormat.UnderlineStyle.DotLine


def test_whitespace_only_edits_are_visible_and_subdued(qtbot, compare_tab) -> None:
    set_pair(qtbot, compare_tab, "the plant uses\n", "the plant  uses")
    actual = compare_tab.editor("actual").layer("diff")
    expected = compare_tab.editor("expected").layer("diff")
    assert [(s.cursor.selectionStart(), s.cursor.selectionEnd()) for s in actual] == [(10, 11)]
    assert [(s.cursor.selectionStart(), s.cursor.selectionEnd()) for s in expected] == [(14, 15)]
    for selection in (*actual, *expected):
        assert selection.format.underlineStyle() == QTextCharFormat.UnderlineStyle.DotLine
    assert compare_tab.highlighted_edits() == 2  # both count: the metric sees them


def test_word_granularity(qtbot, compare_tab) -> None:
    compare_tab.set_view("exact")
    set_pair(qtbot, compare_tab, "the cat sat", "the dog sat")
    compare_tab.set_granularity("word")
    wait_done(qtbot, compare_tab)
    assert _ranges(compare_tab.editor("expected")) == [(4, 7)]
    assert compare_tab.highlighted_edits() == 1  # one word substituted


def test_astral_characters_shift_qt_positions(qtbot, compare_tab) -> None:
    set_pair(qtbot, compare_tab, "a😀b", "a😀c")
    # Python offset 2 ('b') is Qt position 3: the emoji takes two UTF-16 units.
    assert _ranges(compare_tab.editor("expected")) == [(3, 4)]


def test_only_visible_spans_are_decorated(qtbot, compare_tab) -> None:
    rng = random.Random(3)
    lines = [f"line {i} " + "".join(rng.choice("abcdef ") for _ in range(60)) for i in range(4000)]
    expected = "\n".join(lines)
    chars = list(expected)
    for i in range(0, len(chars), 97):  # an edit every 97 characters: ~2,800 spans
        if chars[i] != "\n":
            chars[i] = "#"
    actual = "".join(chars)
    compare_tab.set_wrap(False)
    set_pair(qtbot, compare_tab, expected, actual)
    table_size = len(align(expected, actual).spans)
    editor = compare_tab.editor("expected")
    near_top = _ranges(editor)
    assert 0 < len(near_top) < table_size / 10
    editor.verticalScrollBar().setValue(editor.verticalScrollBar().maximum())
    qtbot.waitUntil(lambda: _ranges(editor) and _ranges(editor)[-1][1] > len(expected) - 500)
    assert len(_ranges(editor)) < table_size / 10
