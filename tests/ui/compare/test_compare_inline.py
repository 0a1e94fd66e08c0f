"""The inline view shows what side by side shows: the same pieces, moves and differences."""

from __future__ import annotations

from matchlens.core.diff.inline import (
    STYLE_DELETED,
    STYLE_INSERTED,
    STYLE_MOVED_FROM,
    STYLE_MOVED_TO,
    side_text,
)
from tests.ui.conftest import set_pair, wait_done

EXPECTED = ("The sky is blue today. Cats like to sleep all day.\n"
            "Dogs bark at night.\nSuch as glucose.\n")
ACTUAL = ("Cats like to sleep all day.\nDogs bark at night. The sky is blue today.\n"
          "Like glucose and starch.\n")


def test_inline_holds_both_texts_and_every_piece(qtbot, compare_tab) -> None:
    set_pair(qtbot, compare_tab, EXPECTED, ACTUAL)
    compare_tab.action_inline.trigger()
    assert compare_tab.inline_pane.isVisible() or not compare_tab.isVisible()
    layout = compare_tab.inline_pane.layout_
    # without the inserted text it is the expected text, without the deleted text the actual
    assert side_text(layout, 0) == EXPECTED
    assert side_text(layout, 1) == ACTUAL
    assert layout.text == compare_tab.inline_pane.view.toPlainText()
    # every row of the side-by-side table is painted, in the style its kind and move give
    table = compare_tab._table
    painted = compare_tab.inline_pane.painted()
    assert len(painted) == len(layout.spans) >= len(table)
    styles = {s for _, _, s in painted}
    assert {STYLE_MOVED_FROM, STYLE_MOVED_TO, STYLE_DELETED, STYLE_INSERTED} <= styles
    moved_from = [layout.text[s:e] for s, e, st in painted if st == STYLE_MOVED_FROM]
    assert moved_from == ["The sky is blue today."]
    assert len(layout.hunk_starts) == compare_tab.difference_count()


def test_next_difference_moves_through_the_inline_view(qtbot, compare_tab) -> None:
    set_pair(qtbot, compare_tab, EXPECTED, ACTUAL)
    compare_tab.set_inline(True)
    starts = compare_tab.inline_pane.layout_.hunk_starts.tolist()
    for index in range(len(starts)):
        compare_tab.go_to_difference(index)
        assert compare_tab.inline_pane.view.textCursor().position() == starts[index]
    # typing on (in side by side) and coming back shows the new texts
    compare_tab.set_inline(False)
    assert compare_tab.panes["expected"].isVisibleTo(compare_tab)
    compare_tab.panes["actual"].set_text(ACTUAL + "More.\n")
    wait_done(qtbot, compare_tab)
    compare_tab.set_inline(True)
    assert side_text(compare_tab.inline_pane.layout_, 1) == ACTUAL + "More.\n"
    assert compare_tab.action_inline.isChecked()
