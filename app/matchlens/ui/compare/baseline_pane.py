"""The compare view's third pane, for a row of a run compared with a baseline: reference,
baseline output, this output. Each output is diffed against the reference (the baseline here,
this output by the tab's own highlight); the *Outputs directly* toggle diffs the baseline
output against this output instead, on both output panes, the reference left plain.

The baseline's highlight is computed off the GUI thread (the same `table_for` and options as
the tab's own, so granularity, case and normalisation agree); the newest request wins. The
pane is read-only: the row's baseline output is what the baseline file holds. The metric panels
keep scoring this output against the reference.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QCheckBox, QSizePolicy

from matchlens.core.diff.navigation import step
from matchlens.core.diff.span_table import ALIGN_TASK, SpanTable, table_for
from matchlens.ui.compare.inline_pane import DEFAULT_TITLE, InlinePane
from matchlens.ui.compare.inline_sync import InlineScroll
from matchlens.ui.compare.pane import EditorPane
from matchlens.ui.palette import diff_colours

_DEBOUNCE_MS = 120
BASELINE = "baseline"  # the pane's name in the tab's scroll lock, collapse and find
BASELINE_INLINE = "baseline inline"  # its inline view's name in the tab's collapse


def baseline_table(expected: str, actual: str, options: dict[str, Any],
                   cancel: Callable[[], bool]) -> SpanTable:
    """Worker body: the highlight of one pair, as the tab computes its own."""
    return table_for(expected, actual, options)


class BaselinePane(QObject):
    """The baseline output's pane of the compare tab `tab` (hidden until a row has one)."""

    def __init__(self, tab: Any) -> None:
        super().__init__(tab)
        self.tab = tab
        self.pane = EditorPane("actual", "Baseline output", tab)
        self.pane.editor.setReadOnly(True)
        self.pane.editor.setPlaceholderText("The baseline run has no output for this row")
        self.direct = QCheckBox("Outputs directly", self.pane)
        self.direct.setToolTip("Diff the baseline output against this output (what changed "
                               "between the runs) instead of each against the reference")
        self.pane.header_row.addWidget(self.direct)
        self.pane.header.setMinimumWidth(0)  # a long file name shrinks; the panes stay equal
        self.pane.header.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.pane.decorator.texts = self.pair
        self.pane.hide()
        tab.editor_splitter.insertWidget(1, self.pane)
        tab.scroll_lock.add_editor(BASELINE, self.pane.editor)
        # Inline with a baseline: the baseline output's inline view beside this output's, each
        # against the reference (the direct toggle: one view, baseline output → this output).
        self.inline = InlinePane(tab, "Reference → baseline output")
        self.inline.hide()
        tab.editor_splitter.insertWidget(tab.editor_splitter.indexOf(tab.inline_pane),
                                         self.inline)
        # scrolled by hand, the two inline views stay at the same place of the reference
        self.inline_scroll = InlineScroll(self.inline, tab.inline_pane, self._inline_linked,
                                          self)
        # Collapse unchanged folds both views by the differences they show
        tab.collapse.add_pane(BASELINE, self.pane)
        tab.collapse.add_inline(BASELINE_INLINE, self.inline.view, lambda: self.inline.layout_)
        self._shown = False  # a row with a baseline is open
        self.table: SpanTable | None = None
        self._slot: Any = None  # a TaskSlot, made with the first baseline shown (see recompute)
        self._equal_pending = False
        self._on_tab_panes = False  # the direct highlight is drawn on the tab's own panes
        self._linked_direct = False  # how the pane is linked in the scroll lock
        self._hunk: int | None = None  # the outputs' difference F7 went to last (direct)
        tab.editor_splitter.installEventFilter(self)
        self._timer = QTimer(self, singleShot=True, interval=_DEBOUNCE_MS)
        self._timer.timeout.connect(self.recompute)
        self.direct.toggled.connect(lambda _on: (self.place(), self.recompute()))
        self.caret_here = False  # the baseline pane's caret was the last one the user moved
        self.pane.editor.cursorPositionChanged.connect(lambda: self._caret(self.pane))
        for pane in tab.panes.values():
            pane.editor.textChanged.connect(self._changed)
            pane.editor.cursorPositionChanged.connect(lambda p=pane: self._caret(p))
        # after the tab's own handler: in direct mode the outputs keep the direct highlight
        tab.scheduler.sig_result.connect(self._after_tab_result)

    # -- what the batch tab's row gives ---------------------------------------------------------
    def show_baseline(self, text: str | None, source: str = "baseline") -> None:
        """The row's baseline output (None: no baseline run, the pane goes)."""
        shown = text is not None
        if not shown:
            if self._slot is not None:
                self._slot.cancel()
            self.table = None
            self._shown = False
            self.place()
            self.tab.scroll_lock.unlink(BASELINE)
            if self._on_tab_panes:  # only undo what the direct mode drew there
                self._restore_tab_panes()
                self.tab.collapse.refresh()
            return
        self.pane.set_text(text, source)
        if not self._shown:
            self._shown = True
            self.place()
        self.recompute()

    def place(self) -> None:
        """Show the pane, or its inline view in the tab's inline mode (alone in direct mode:
        the outputs' own difference is the one to read), and title the tab's inline view."""
        tab = self.tab
        inline = tab.action_inline.isChecked()
        direct = self._shown and self.direct.isChecked()
        self.pane.setVisible(self._shown and not inline)
        self.inline.setVisible(self._shown and inline)
        tab.inline_pane.setVisible(inline and not direct)
        self.inline.set_title("Baseline output → this output" if direct
                              else "Reference → baseline output")
        tab.inline_pane.set_title("Reference → this output" if self._shown else DEFAULT_TITLE)
        if self._shown and inline:
            self._show_inline()
        self._equal_pending = True  # once the splitter has its real width (tab shown)
        self._equalise()

    def _show_inline(self) -> None:
        if self.inline.isVisible():
            self.inline.show_table(self.table, *self.pair())
            self.tab.collapse.refresh()

    def _equalise(self) -> None:
        """The panes shown, of one width (the hidden ones keep 0)."""
        splitter = self.tab.editor_splitter
        if not self._equal_pending or not splitter.isVisible():
            return
        self._equal_pending = False
        shown = [not splitter.widget(i).isHidden() for i in range(splitter.count())]
        share = max(splitter.width() // max(1, sum(shown)), 100)
        splitter.setSizes([share if on else 0 for on in shown])

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt override
        if event.type() in (QEvent.Type.Show, QEvent.Type.Resize) and self._equal_pending:
            QTimer.singleShot(0, self._equalise)
        return False

    def _inline_linked(self) -> bool:
        return (self.tab.scroll_lock.locked and self.inline.isVisible()
                and self.tab.inline_pane.isVisible())

    def is_shown(self) -> bool:
        """A row with a baseline is open (its pane, or its inline view, is on screen)."""
        return self._shown

    def is_busy(self) -> bool:
        return (self._slot is not None and self._slot.busy) or self._timer.isActive()

    def pair(self) -> tuple[str, str]:
        """The two texts the pane's highlight compares (the hover lists their unit edits)."""
        expected, actual = self.tab.texts()
        baseline = self.pane.editor.text()
        return (baseline, actual) if self.direct.isChecked() else (expected, baseline)

    def _caret(self, pane: EditorPane) -> None:
        if pane.editor.hasFocus():
            self.caret_here = pane is self.pane

    # -- computing ------------------------------------------------------------------------------
    def _changed(self) -> None:
        if self.is_shown():
            self._timer.start()

    def recompute(self) -> None:
        self._timer.stop()
        if not self.is_shown():
            return
        # The batch tab's workers (superqt): loaded only once a row has a baseline, so the
        # compare tab still opens without them (test_startup).
        from matchlens.ui.batch.worker import Task, TaskSlot

        if self._slot is None:
            self._slot = TaskSlot()
        first, second = self.pair()
        direct = self.direct.isChecked()
        if self.table is None or self._linked_direct != direct \
                or tuple(self.table.lengths) != (len(first), len(second)):
            self._link(None, direct)  # 1:1 with the right pane until the highlight comes
        task = Task(baseline_table, first, second, self.tab.align_options(), owner=self)
        task.sig_returned.connect(lambda table, d=direct: self._show(table, d))
        self._slot.start(task)

    def _show(self, table: SpanTable, direct: bool) -> None:
        if direct != self.direct.isChecked():
            return
        self.table = table
        self._hunk = None
        side = "expected" if direct else "actual"
        self.pane.decorator.side = self.pane.ruler.side = side
        self.pane.decorator.set_table(table)
        self.pane.ruler.set_table(table)
        self._link(table, direct)
        self._show_inline()
        if direct:
            self._direct_on_tab_panes()
        elif self._on_tab_panes:
            self._restore_tab_panes()
        self.tab.collapse.refresh()
        self.tab.navigation.update_label()  # with Outputs directly, the outputs' count

    def _link(self, table: SpanTable | None, direct: bool) -> None:
        """Scroll with the pane the highlight aligns this one with (the reference; this output
        when direct), by that alignment's line anchors, and go where that pane is now."""
        lock = self.tab.scroll_lock
        anchors = table.anchors if table is not None else None
        if direct:  # the table aligns the baseline (its expected side) with this output
            lock.set_link(BASELINE, "actual", anchors)
        else:  # the reference (expected side) with the baseline
            lock.set_link("expected", BASELINE, anchors)
        self._linked_direct = direct
        lock.align("actual" if direct else "expected", fixed=("expected", "actual"))

    def _direct_on_tab_panes(self) -> None:
        """This output shows its difference from the baseline; the reference shows none."""
        self._on_tab_panes = True
        actual = self.tab.panes["actual"]
        actual.decorator.texts = self.pair
        actual.decorator.set_table(self.table)
        actual.ruler.set_table(self.table)
        expected = self.tab.panes["expected"]
        expected.decorator.set_table(None)
        expected.ruler.set_table(None)

    def _restore_tab_panes(self) -> None:
        """The tab's own highlight back on its panes (none while it is for other texts: the
        tab's next result brings the one that fits)."""
        self._on_tab_panes = False
        table = self.tab.current_table()
        lengths = tuple(len(text) for text in self.tab.texts())
        if table is not None and tuple(table.lengths) != lengths:
            table = None
        for pane in self.tab.panes.values():
            pane.decorator.texts = self.tab.texts
            pane.decorator.set_table(table)
            pane.ruler.set_table(table)

    def _after_tab_result(self, name: str, _payload: object) -> None:
        if name == ALIGN_TASK and self.is_shown() and self.direct.isChecked() \
                and self.table is not None:
            self._direct_on_tab_panes()
            self.tab.collapse.refresh()

    # -- navigation: the outputs' own differences ---------------------------------------------
    def is_direct(self) -> bool:
        """A row with a baseline is open with *Outputs directly*: F7 steps through the two
        outputs' differences (side by side or inline), not the reference's."""
        return self._shown and self.direct.isChecked()

    def difference_count(self) -> int:
        """How many differences the two outputs have (0 while their highlight computes)."""
        return 0 if self.table is None else len(self.table.hunks)

    def step(self, forward: bool) -> tuple[int, int, bool] | None:
        """F7 / Shift+F7 with *Outputs directly*: (difference, count, wrapped), or None. Side
        by side it goes from the caret of this output (of the baseline output when that caret
        was moved last), selecting the difference in both output panes; inline, from the
        caret of the direct inline view."""
        if self.inline.isVisible():
            starts = self.inline.difference_positions()
            caret = self.inline.view.textCursor().position()
        else:
            table = self.table
            if table is None or table.lengths != tuple(len(t) for t in self.pair()):
                return None
            pane = self.pane if self.caret_here else self.tab.panes["actual"]
            starts = table.hunks[:, 0 if self.caret_here else 2]
            caret = pane.cursor_offset()
        found = step(starts, caret, forward, first=self._hunk is None)
        if found is None:
            return None
        self.go_to_difference(found[0])
        return found[0], len(starts), found[1]

    def go_to_difference(self, index: int) -> None:
        """Show the outputs' difference `index`: inline, in the direct inline view; side by
        side, selected in the baseline pane and this output's, the reference brought along."""
        self._hunk = index
        if self.inline.isVisible():
            self.inline.go_to_difference(index)
            return
        tab = self.tab
        hunk = self.table.hunks[index]
        colour = diff_colours(tab.palette()).flash
        with tab.scroll_lock.suspended():
            self.pane.show_range(int(hunk[0]), int(hunk[1]), colour)
            tab.panes["actual"].show_range(int(hunk[2]), int(hunk[3]), colour)
        tab.scroll_lock.align("actual", fixed=(BASELINE,))

    def follow_difference(self, reference_start: int) -> None:
        """The tab went to a difference starting at `reference_start` in the reference: the
        baseline's inline view goes to its first difference from there on."""
        layout = self.inline.layout_
        if not self.inline.isVisible() or self.direct.isChecked() or layout is None \
                or self.table is None or len(self.table.hunks) == 0:
            return
        starts = self.table.hunks[:, 1]  # where each difference ends in the reference
        index = min(int(np.searchsorted(starts, reference_start, side="right")),
                    len(starts) - 1)
        self.inline_scroll.quietly(lambda: self.inline.go_to_difference(index))
        self.inline_scroll.align(self.tab.inline_pane)  # level with the tab's difference

    def shutdown(self) -> None:
        self._timer.stop()
        task = self._slot.cancel() if self._slot is not None else None
        if task is not None:
            task.wait()
