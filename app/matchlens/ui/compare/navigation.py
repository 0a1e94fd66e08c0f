"""The compare tab's navigation: step to the next or previous difference (F7 / Shift+F7) from
the caret of the side last used, the "difference 3 of 12" label, and selecting a JSON path's
value on both sides when a JSON panel's detail is clicked.

A mixin of CompareTab: it reads the tab's span table (`_table`) and keeps the current `_hunk`.
Which difference is next or previous is core's rule (`core.diff.navigation.step`); this module
only moves the carets and says so.
"""

from __future__ import annotations

from typing import Any

from matchlens.core.diff.navigation import step
from matchlens.core.jsonpath import locate
from matchlens.ui.palette import diff_colours


class DifferenceNavigation:
    """Walk the differences of the two texts and select JSON paths in them."""

    def _remember_side(self, side: str) -> None:
        if self.panes[side].editor.hasFocus():
            self._last_side = side

    def difference_count(self) -> int:
        return 0 if self._table is None else len(self._table.hunks)

    def current_difference(self) -> int | None:
        return self._hunk

    def next_difference(self) -> None:
        self._step(+1)

    def previous_difference(self) -> None:
        self._step(-1)

    def _step(self, direction: int) -> None:
        if self.baseline_pane.direct_inline():  # the outputs' own differences, inline
            self._step_direct_inline(direction > 0)
            return
        side = self._last_side
        found = None if self._table is None else step(
            self._table.hunks[:, 0 if side == "expected" else 2],
            self.panes[side].cursor_offset(), direction > 0, first=self._hunk is None)
        if found is None:
            self.sig_status.emit("The texts have no differences to jump to.")
            return
        index, wrapped = found
        if wrapped:
            self.sig_status.emit("Wrapped around to the first difference." if direction > 0
                                 else "Wrapped around to the last difference.")
        self.go_to_difference(index)

    def go_to_difference(self, index: int) -> None:
        assert self._table is not None
        hunk = self._table.hunks[index]
        colour = diff_colours(self.palette()).flash
        with self.scroll_lock.suspended():
            self.panes["expected"].show_range(int(hunk[0]), int(hunk[1]), colour)
            self.panes["actual"].show_range(int(hunk[2]), int(hunk[3]), colour)
        self.scroll_lock.align("expected", fixed=self.panes)  # a run's baseline pane too
        if self.inline_pane.isVisible():
            self.inline_pane.go_to_difference(index)
        self.baseline_pane.follow_difference(int(hunk[0]))
        self._hunk = index
        self._update_difference_label()

    def _step_direct_inline(self, forward: bool) -> None:
        found = self.baseline_pane.step(forward)
        if found is None:
            self.sig_status.emit("The two outputs have no differences to jump to.")
            return
        index, count, wrapped = found
        if wrapped:
            self.sig_status.emit("Wrapped around to the first difference." if forward
                                 else "Wrapped around to the last difference.")
        text = f"difference {index + 1} of {count} between the outputs"
        self.difference_label.setText(f" {text} ")
        self.sig_difference_changed.emit(text)

    def _update_difference_label(self) -> None:
        count = self.difference_count()
        if count == 0:
            text = "no differences" if self._table is not None else "—"
        elif self._hunk is None:
            text = f"{count} difference{'' if count == 1 else 's'}"
        else:
            text = f"difference {self._hunk + 1} of {count}"
        preview = self._table is not None and not self._table.exact
        if preview:
            text += " (preview)"
        self.difference_label.setText(f" {text} ")
        edits = self.highlighted_edits() if self._table is not None else 0
        plural = "" if edits == 1 else "s"
        if preview:
            tip = (f"A quick preview of these long texts' differences, drawn while the exact "
                   f"edit script is computed (it replaces this one when it arrives). Until "
                   f"then the edit count is not the distance: it is at most {edits} "
                   f"edit{plural}.")
        elif self.view == "readable":
            tip = (f"A difference is one readable piece (or touching pieces): whole words, or "
                   f"the characters of a typo. The exact Levenshtein distance is {edits} "
                   f"edit{plural}; hover a piece for its own edits, or turn on Exact edits "
                   "(Ctrl+E) to see the minimal edit script.")
        else:
            tip = (f"A difference is a run of neighbouring edits. The highlight is the edit "
                   f"script Levenshtein distance counts: {edits} edit{plural}"
                   + (" of whole words here (Word view); the distance panels count characters"
                      if self.granularity == "word" else "") + ".")
        self.difference_label.setToolTip(tip)
        steps = count > 0 or self.baseline_pane.direct_inline()
        self.action_next.setEnabled(steps)
        self.action_previous.setEnabled(steps)
        self.sig_difference_changed.emit(text)

    # -- JSON paths -----------------------------------------------------------------------------
    def select_json_path(self, metric_id: str, detail: Any) -> None:
        fences = bool(self.config.settings(metric_id).options.get("strip_code_fences", False))
        colour = diff_colours(self.palette()).json_value
        missing = []
        with self.scroll_lock.suspended():
            for side, pane in self.panes.items():
                # items paired across indices: each side's own path (JsonDiff.actual_path)
                path = getattr(detail, f"{side}_path", None) or detail.path
                found = locate(pane.editor.text(), path, fences)
                if found is None:
                    continue
                pane.select_range(found.start, found.end, colour)
                if not found.found:
                    missing.append(side)
        self.scroll_lock.align("expected", fixed=self.panes)
        kind = getattr(detail, "kind", "differs")
        paired = getattr(detail, "actual_path", None) if kind == "differs" else None
        if kind != "differs" and (getattr(detail, "actual_path", None)
                                  or getattr(detail, "expected_path", None)):
            side = "output" if kind == "missing" else "reference"
            self.sig_status.emit(f"{detail.path} is an item only the "
                                 f"{'reference' if kind == 'missing' else 'output'} has; the "
                                 f"{side}'s array is selected.")
        elif missing:
            self.sig_status.emit(f"{detail.path} is missing on the {' and '.join(missing)} side; "
                                 "the enclosing value is selected.")
        elif paired:
            self.sig_status.emit(f"Selected {detail.path} in the reference and {paired} in the "
                                 "output (items paired across indices).")
        else:
            self.sig_status.emit(f"Selected {detail.path} on both sides.")
