"""The inline view with a run's baseline (ui/compare/baseline_pane.py, inline_pane.py): two
inline views side by side, reference → baseline output and reference → this output, each the
inline layout of its own highlight (core.diff.inline), navigation keeping them at the same
place of the reference; *Outputs directly* shows one view, baseline output → this output,
that F7 steps through."""

from __future__ import annotations

from matchlens.core.diff.inline import inline_layout, side_text
from matchlens.core.diff.span_table import table_for
from tests.ui.conftest import wait_done

REF = ("The capital of Norway is Oslo.\nIt lies at the head of the Oslofjord.\n"
       "Its population is about 700,000.\nIt was founded around 1040.\n")
BASE = ("The capital of Norway is Olso.\nIt lies at the head of the Oslofjord.\n"
        "Its population is about 700,000.\nIt was founded in 1048.\n")
THIS = ("The capital of Norway is Oslo.\nIt sits at the head of the Oslofjord.\n"
        "Its population is about 700,000.\nIt was founded around 1040 by Harald.\n")


def _inline(qtbot, tab):
    tab.set_texts(REF, THIS)
    tab.baseline_pane.show_baseline(BASE)
    wait_done(qtbot, tab)
    tab.action_inline.trigger()
    wait_done(qtbot, tab)
    return tab.baseline_pane


def test_two_inline_views_each_output_against_the_reference(qtbot, compare_tab):
    pane = _inline(qtbot, compare_tab)
    assert pane.inline.isVisible() and compare_tab.inline_pane.isVisible()
    assert not pane.pane.isVisible() and not compare_tab.panes["actual"].isVisible()
    splitter = compare_tab.editor_splitter
    shown = [splitter.widget(i) for i in range(splitter.count()) if splitter.widget(i).isVisible()]
    assert shown == [pane.inline, compare_tab.inline_pane]  # baseline left, as side by side
    options = compare_tab.align_options()
    for view, output in ((pane.inline, BASE), (compare_tab.inline_pane, THIS)):
        want = inline_layout(table_for(REF, output, options), REF, output)
        assert view.layout_.text == want.text == view.view.toPlainText()
        assert view.layout_.spans.tolist() == want.spans.tolist()
        assert side_text(view.layout_, 0) == REF and side_text(view.layout_, 1) == output
    assert pane.inline.title == "Reference → baseline output"
    assert compare_tab.inline_pane.title == "Reference → this output"


def test_next_difference_keeps_both_inline_views_at_the_same_reference_place(qtbot,
                                                                             compare_tab):
    pane = _inline(qtbot, compare_tab)
    table, base = compare_tab.current_table(), pane.table
    for index in range(len(table.hunks)):
        compare_tab.go_to_difference(index)
        # the baseline's first difference ending after where this one starts in the reference
        ref_start = int(table.hunks[index, 0])
        ends = base.hunks[:, 1].tolist()
        want = next((i for i, end in enumerate(ends) if end > ref_start), len(ends) - 1)
        assert pane.inline.view.textCursor().position() == \
            pane.inline.difference_positions()[want]
        assert compare_tab.inline_pane.view.textCursor().position() == \
            compare_tab.inline_pane.difference_positions()[index]


def test_outputs_directly_inline_is_one_view_f7_steps_through(qtbot, compare_tab):
    pane = _inline(qtbot, compare_tab)
    pane.direct.setChecked(True)
    wait_done(qtbot, compare_tab)
    assert pane.inline.isVisible() and not compare_tab.inline_pane.isVisible()
    assert pane.inline.title == "Baseline output → this output"
    want = inline_layout(table_for(BASE, THIS, compare_tab.align_options()), BASE, THIS)
    assert pane.inline.layout_.text == want.text
    assert side_text(pane.inline.layout_, 0) == BASE and side_text(pane.inline.layout_, 1) == THIS
    positions = pane.inline.difference_positions()
    assert len(positions) >= 3  # Olso/Oslo, lies/sits, in 1048/around 1040 by Harald
    for index in range(len(positions)):
        compare_tab.next_difference()
        assert pane.inline.view.textCursor().position() == positions[index]
        assert compare_tab.difference_label.text().strip() == \
            f"difference {index + 1} of {len(positions)} between the outputs"
    compare_tab.next_difference()  # wraps to the first
    assert pane.inline.view.textCursor().position() == positions[0]
    # back to each against the reference, and side by side
    pane.direct.setChecked(False)
    wait_done(qtbot, compare_tab)
    assert pane.inline.isVisible() and compare_tab.inline_pane.isVisible()
    compare_tab.action_inline.trigger()
    assert pane.pane.isVisible() and not pane.inline.isVisible()
    pane.show_baseline(None)
    assert not pane.pane.isVisible() and compare_tab.inline_pane.title == "Inline"
