"""The compare view's three panes scroll together (ui/compare/sync.py with
ui/compare/baseline_pane.py): real widgets offscreen. Scrolling any pane, stepping to a
difference and clicking a ruler keep reference, baseline output and this output at the lines
the alignments' anchors (`core.diff.scroll_sync.LineAnchors.map`) say match."""

from __future__ import annotations

import pytest

from tests.ui.conftest import wait_done

# Line tolerance: scroll_to_line lands on a whole line, anchors may map between two
TOLERANCE = 1.0


def _texts() -> tuple[str, str, str]:
    """A reference of 300 lines; the baseline has 40 lines inserted after line 50 and lines
    200-229 removed; this output has 25 lines inserted after line 120. The three alignments
    are then far from 1:1 in the middle of the texts."""
    ref = [f"Line {i}: the answer talks about item {i} and why it matters." for i in range(300)]
    base = ref[:50] + [f"An extra baseline line {k}." for k in range(40)] + ref[50:200] \
        + ref[230:]
    this = ref[:120] + [f"This run adds line {k} here." for k in range(25)] + ref[120:]
    return "\n".join(ref), "\n".join(base), "\n".join(this)


@pytest.fixture
def three(qtbot, compare_tab):
    ref, base, this = _texts()
    compare_tab.set_wrap(False)  # one block a line: lines are block numbers
    compare_tab.set_texts(ref, this)
    compare_tab.baseline_pane.show_baseline(base)
    wait_done(qtbot, compare_tab)
    assert compare_tab.current_table() is not None
    assert compare_tab.baseline_pane.table is not None
    return compare_tab


def _tops(tab) -> dict[str, float]:
    lock = tab.scroll_lock
    return {name: editor.top_line() for name, editor in lock.editors.items()}


def _expected_tops(tab, source: str, line: float) -> dict[str, float]:
    """Where the anchors say the others go, computed here from the two tables' anchors."""
    main = tab.current_table().anchors  # reference (expected side) ↔ this output
    base = tab.baseline_pane.table.anchors  # reference (expected side) ↔ baseline output
    if source == "expected":
        ref = line
    elif source == "actual":
        ref = main.map(line, "actual")
    else:
        ref = base.map(line, "actual")
    out = {"expected": ref, "actual": main.map(ref, "expected"),
           "baseline": base.map(ref, "expected")}
    out[source] = line
    return out


def _check(tab, source: str) -> None:
    tops = _tops(tab)
    wanted = _expected_tops(tab, source, tops[source])
    for name, line in wanted.items():
        assert abs(tops[name] - line) <= TOLERANCE, (name, tops, wanted)


@pytest.mark.parametrize("source", ["expected", "baseline", "actual"])
def test_scrolling_any_pane_brings_the_other_two(qtbot, three, source):
    editor = three.scroll_lock.editors[source]
    editor.scroll_to_line(150)
    _check(three, source)
    # in the middle, the three really sit at different lines (not a raw 1:1 offset)
    tops = _tops(three)
    assert len({round(v) for v in tops.values()}) == 3, tops


def test_next_difference_and_ruler_click_keep_the_baseline_along(qtbot, three):
    three.panes["actual"].editor.setFocus()
    for _ in range(3):
        three.next_difference()
    _check(three, "expected")
    assert three.scroll_lock.editors["baseline"].top_line() > 0
    ruler = three.baseline_pane.pane.ruler
    before = _tops(three)["baseline"]
    ruler.go_to_pixel(ruler.height() * 0.8)  # a click on the baseline pane's ruler
    assert _tops(three)["baseline"] > before + 50
    _check(three, "baseline")


def test_outputs_directly_links_the_baseline_to_this_output(qtbot, three):
    pane = three.baseline_pane
    pane.direct.setChecked(True)
    wait_done(qtbot, three)
    direct = pane.table.anchors  # baseline (expected side) ↔ this output
    main = three.current_table().anchors
    three.panes["expected"].editor.scroll_to_line(180)
    tops = _tops(three)
    this = main.map(tops["expected"], "expected")
    assert abs(tops["actual"] - this) <= TOLERANCE
    assert abs(tops["baseline"] - direct.map(tops["actual"], "actual")) <= TOLERANCE


def test_no_baseline_unlinks_and_unlocked_moves_nothing(qtbot, three):
    three.set_scroll_locked(False)
    three.panes["expected"].editor.scroll_to_line(150)
    assert three.scroll_lock.editors["baseline"].top_line() == 0
    three.set_scroll_locked(True)
    three.baseline_pane.show_baseline(None)
    assert all("baseline" not in link for link in three.scroll_lock.links)
