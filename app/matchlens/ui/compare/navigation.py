"""The compare tab's navigation: step to the next or previous difference (F7 / Shift+F7) from
the caret of the side last used, the "difference 3 of 12" label, and selecting a JSON path's
value on both sides when a JSON panel's detail is clicked.

An object the tab owns (`tab.navigation`): it reads the tab's highlight (`current_table()`),
panes and scroll lock, and keeps the current difference (`hunk`) and the side last used
(`last_side`). Which difference is next or previous is core's rule
(`core.diff.navigation.step`); this module only moves the carets and says so.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QObject

from matchlens.core.diff.navigation import step
from matchlens.core.jsonpath import locate
from matchlens.ui.palette import diff_colours


class DifferenceNavigation(QObject):
    """Walk the differences of the compare tab `tab`'s texts and select JSON paths in them."""

    def __init__(self, tab: Any) -> None:
        super().__init__(tab)
        self.tab = tab
        self.hunk: int | None = None  # the difference last gone to
        self.last_side = "expected"  # the side whose caret F7 starts from
        for side, pane in tab.panes.items():
            pane.editor.cursorPositionChanged.connect(lambda s=side: self.remember_side(s))

    def remember_side(self, side: str) -> None:
        if self.tab.panes[side].editor.hasFocus():
            self.last_side = side

    def reset(self) -> None:
        """A new highlight: no current difference."""
        self.hunk = None
        self.update_label()

    def difference_count(self) -> int:
        table = self.tab.current_table()
        return 0 if table is None else len(table.hunks)

    def current_difference(self) -> int | None:
        return self.hunk

    def next_difference(self) -> None:
        self._step(+1)

    def previous_difference(self) -> None:
        self._step(-1)

    def _step(self, direction: int) -> None:
        tab = self.tab
        if tab.baseline_pane.is_direct():  # the outputs' own differences
            self._step_direct(direction > 0)
            return
        side, table = self.last_side, tab.current_table()
        found = None if table is None else step(
            table.hunks[:, 0 if side == "expected" else 2],
            tab.panes[side].cursor_offset(), direction > 0, first=self.hunk is None)
        if found is None:
            tab.sig_status.emit("The texts have no differences to jump to.")
            return
        index, wrapped = found
        if wrapped:
            tab.sig_status.emit("Wrapped around to the first difference." if direction > 0
                                 else "Wrapped around to the last difference.")
        self.go_to_difference(index)

    def go_to_difference(self, index: int) -> None:
        tab = self.tab
        table = tab.current_table()
        if table is None or not 0 <= index < len(table.hunks):
            raise ValueError(f"no difference {index} in the highlight on screen")
        hunk = table.hunks[index]
        colour = diff_colours(tab.palette()).flash
        with tab.scroll_lock.suspended():
            tab.panes["expected"].show_range(int(hunk[0]), int(hunk[1]), colour)
            tab.panes["actual"].show_range(int(hunk[2]), int(hunk[3]), colour)
        tab.scroll_lock.align("expected", fixed=tab.panes)  # a run's baseline pane too
        if tab.inline_pane.isVisible():
            tab.inline_pane.go_to_difference(index)
        tab.baseline_pane.follow_difference(int(hunk[0]))
        self.hunk = index
        self.update_label()

    def _step_direct(self, forward: bool) -> None:
        tab = self.tab
        found = tab.baseline_pane.step(forward)
        if found is None:
            tab.sig_status.emit("The two outputs have no differences to jump to.")
            return
        index, count, wrapped = found
        if wrapped:
            tab.sig_status.emit("Wrapped around to the first difference." if forward
                                else "Wrapped around to the last difference.")
        text = f"difference {index + 1} of {count} between the outputs"
        tab.difference_label.setText(f" {text} ")
        tab.sig_difference_changed.emit(text)

    def update_label(self) -> None:
        """"difference 3 of 12" (or how many there are), its tooltip, and F7's actions."""
        tab, table = self.tab, self.tab.current_table()
        if tab.baseline_pane.is_direct():
            self._direct_label()
            return
        count = self.difference_count()
        if count == 0:
            text = "no differences" if table is not None else "—"
        elif self.hunk is None:
            text = f"{count} difference{'' if count == 1 else 's'}"
        else:
            text = f"difference {self.hunk + 1} of {count}"
        preview = table is not None and not table.exact
        edits = tab.highlighted_edits() if table is not None else 0
        plural = "" if edits == 1 else "s"
        if preview and table.distance_exact:
            text += f" (preview; distance {edits:,} exact)"
        elif preview:
            text += " (preview)"
        tab.difference_label.setText(f" {text} ")
        if preview and table.distance_exact:
            tip = (f"The exact Levenshtein distance is {edits} edit{plural}. This highlight is "
                   f"a quick readable one, drawn from an edit script that is not a minimal one "
                   f"(text was moved about, so it counts more edits than the distance); the "
                   f"minimal script replaces it when it arrives.")
        elif preview:
            tip = (f"A quick preview of these long texts' differences, drawn while the exact "
                   f"edit script is computed (it replaces this one when it arrives). Until "
                   f"then the edit count is not the distance: it is at most {edits} "
                   f"edit{plural}.")
        elif tab.view == "readable":
            tip = (f"A difference is one readable piece (or touching pieces): whole words, or "
                   f"the characters of a typo. The exact Levenshtein distance is {edits} "
                   f"edit{plural}; hover a piece for its own edits, or turn on Exact edits "
                   "(Ctrl+E) to see the minimal edit script.")
        else:
            tip = (f"A difference is a run of neighbouring edits. The highlight is the edit "
                   f"script Levenshtein distance counts: {edits} edit{plural}"
                   + (" of whole words here (Word view); the distance panels count characters"
                      if tab.granularity == "word" else "") + ".")
        tab.difference_label.setToolTip(tip)
        steps = count > 0 or tab.baseline_pane.is_direct()
        tab.action_next.setEnabled(steps)
        tab.action_previous.setEnabled(steps)
        tab.sig_difference_changed.emit(text)

    def _direct_label(self) -> None:
        """With *Outputs directly*: how many differences the two outputs have."""
        tab = self.tab
        count = tab.baseline_pane.difference_count()
        text = (f"{count} difference{'' if count == 1 else 's'} between the outputs" if count
                else "no differences between the outputs")
        tab.difference_label.setText(f" {text} ")
        tab.difference_label.setToolTip("F7 / Shift+F7 step through the differences between "
                                        "the baseline output and this output.")
        tab.action_next.setEnabled(True)
        tab.action_previous.setEnabled(True)
        tab.sig_difference_changed.emit(text)

    # -- JSON paths -----------------------------------------------------------------------------
    def select_json_path(self, metric_id: str, detail: Any) -> None:
        tab = self.tab
        fences = bool(tab.config.settings(metric_id).options.get("strip_code_fences", False))
        colour = diff_colours(tab.palette()).json_value
        missing = []
        with tab.scroll_lock.suspended():
            for side, pane in tab.panes.items():
                # items paired across indices: each side's own path (JsonDiff.actual_path)
                path = getattr(detail, f"{side}_path", None) or detail.path
                found = locate(pane.editor.text(), path, fences)
                if found is None:
                    continue
                pane.select_range(found.start, found.end, colour)
                if not found.found:
                    missing.append(side)
        tab.scroll_lock.align("expected", fixed=tab.panes)
        kind = getattr(detail, "kind", "differs")
        paired = getattr(detail, "actual_path", None) if kind == "differs" else None
        if kind != "differs" and (getattr(detail, "actual_path", None)
                                  or getattr(detail, "expected_path", None)):
            side = "output" if kind == "missing" else "reference"
            tab.sig_status.emit(f"{detail.path} is an item only the "
                                 f"{'reference' if kind == 'missing' else 'output'} has; the "
                                 f"{side}'s array is selected.")
        elif missing:
            tab.sig_status.emit(f"{detail.path} is missing on the {' and '.join(missing)} side; "
                                 "the enclosing value is selected.")
        elif paired:
            tab.sig_status.emit(f"Selected {detail.path} in the reference and {paired} in the "
                                 "output (items paired across indices).")
        else:
            tab.sig_status.emit(f"Selected {detail.path} on both sides.")
