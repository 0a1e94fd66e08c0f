"""What the compare tab computes for its two texts, and when: the highlight (and a quick preview
of long texts), every local metric's score, and the paid-for network metrics on demand or on
their auto toggle.

An object the tab owns (`tab.scoring`): it waits for a typing pause sized to the texts
(`debounce_ms`), asks the tab's `ScoreScheduler` for the tasks whose options changed, hands the
results to the tab's highlight and panels, and keeps which options each result was computed
with, so a changed option recomputes only what it touches.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QEvent, QObject, QTimer

from matchlens.core.diff.pair import DISTANCE_METRIC as HIGHLIGHT_METRIC
from matchlens.core.diff.pair import first_task, metric_of_first_task
from matchlens.core.diff.preview import DISTANCE_TASK, PREVIEW_MIN_CHARS, PREVIEW_TASK
from matchlens.core.diff.span_table import ALIGN_TASK
from matchlens.core.results import Label
from matchlens.core.text.edit_script import LONG_CHARS
from matchlens.ui.compare.scheduler import SYNC_LIMIT
from matchlens.ui.compare.semantic import NetworkPanel

_AUTO_NETWORK_MS = 1000
# Until the window has painted once, texts wait this long (or for that first paint) before they
# are scored: the first scores import sacrebleu & co (~0.1-0.4 s), and a window that shows
# its texts first and its scores a moment later opens that much sooner.
_FIRST_PAINT_GRACE_MS = 250
# A metric with a quicker first answer (levenshtein_distance: the distance before its script's
# counts) is asked for it on texts of LONG_CHARS or more (both sides), where the script can take
# seconds, unless the texts are a small edit of the last ones (a keystroke: at most this many
# characters more or fewer) and the metric's last answer came within FIRST_ANSWER_WORTH_S.
FIRST_ANSWER_EDIT = 2_000
FIRST_ANSWER_WORTH_S = 0.25


def debounce_ms(total_chars: int) -> int:
    """How long to wait for a typing pause before computing.

    Up to a few hundred thousand characters, no wait: a keystroke's work is ~0.1 s or less
    (the edit script once per pair, chrF/BLEU counted incrementally), the lanes drop queued
    work a newer keystroke made stale, and every millisecond waited here is a millisecond later
    on screen. Beyond that each computation costs seconds, so wait for a real pause.
    """
    return 0 if total_chars <= 300_000 else 120


class TextScoring(QObject):
    """The computing of the compare tab `tab` (see the module)."""

    def __init__(self, tab: Any) -> None:
        super().__init__(tab)
        self.tab = tab
        self.scheduler = tab.scheduler
        self.auto_network: set[str] = set()
        self.requested: dict[str, dict[str, Any]] = {}  # task -> options it was computed with
        self.compute_timer = QTimer(self, singleShot=True)
        self.compute_timer.timeout.connect(lambda: self.compute(new_text=True))
        self.network_timer = QTimer(self, singleShot=True, interval=_AUTO_NETWORK_MS)
        self.network_timer.timeout.connect(self._compute_auto_network)
        self.painted = False
        self._last_total = 0  # characters of the texts last asked about
        tab.panes["expected"].editor.viewport().installEventFilter(self)
        for pane in tab.panes.values():
            pane.editor.textChanged.connect(self._on_text_changed)
        self.scheduler.sig_result.connect(self._on_result)
        self.scheduler.sig_busy.connect(self._show_busy)
        self.scheduler.sig_idle.connect(self._on_idle)
        tab.config.sig_changed.connect(self._on_config_changed)

    def _total_chars(self) -> int:
        return sum(p.editor.char_count() for p in self.tab.panes.values())

    # -- when -----------------------------------------------------------------------------------
    def _on_text_changed(self) -> None:
        delay = debounce_ms(self._total_chars())
        self.compute_timer.start(delay if self.painted else max(delay, _FIRST_PAINT_GRACE_MS))
        self._network_texts_changed()
        if self.auto_network:
            self.network_timer.start()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt override
        if not self.painted and event.type() == QEvent.Type.Paint:
            self.painted = True
            if self.compute_timer.isActive():  # texts set before the window showed: score now
                self.compute_timer.start(debounce_ms(self._total_chars()))
        return False

    def _network_texts_changed(self) -> None:
        """A paid-for score belongs to the texts it was asked for: drop or grey the others."""
        panels = self.tab.metrics.network_panels()
        if not panels:
            return
        self.scheduler.forget_network(set(panels))
        for panel in panels.values():
            panel.mark_stale()

    def is_busy(self) -> bool:
        return self.compute_timer.isActive() or self.scheduler.is_busy()

    # -- what -----------------------------------------------------------------------------------
    def align_options(self) -> dict[str, Any]:
        """The options the highlight is computed with (the baseline pane's too)."""
        tab = self.tab
        options = tab.config.settings(HIGHLIGHT_METRIC).options
        case = options.get("case_sensitive", True)
        # the highlight aligns what the metric compares: the normalised texts, drawn on the
        # originals with what the normalisation removed marked as ignored
        return {"case_sensitive": bool(case), "granularity": tab.granularity, "view": tab.view,
                "normalise": options.get("normalise") or []}

    def _task_options(self) -> dict[str, dict[str, Any]]:
        align = self.align_options()
        tasks = {ALIGN_TASK: align}
        if (align["view"] == "readable" and not align["normalise"]
                and self._total_chars() >= PREVIEW_MIN_CHARS):
            tasks[PREVIEW_TASK] = align  # long texts: a quick highlight while the exact one works
            tasks[DISTANCE_TASK] = align  # then its exact distance (or the exact table)
        for metric_id, panel in self.tab.panels.items():
            if not panel.spec.network:
                tasks[metric_id] = dict(self.tab.config.settings(metric_id).options)
                if panel.spec.compute_first is not None and self._first_answer_worth(metric_id):
                    tasks[first_task(metric_id)] = tasks[metric_id]
        return tasks

    def _first_answer_worth(self, metric_id: str) -> bool:
        """Whether the metric's full answer may keep the panel waiting (see FIRST_ANSWER_EDIT)."""
        total = self._total_chars()
        if total < LONG_CHARS:
            return False
        keystroke = abs(total - self._last_total) <= FIRST_ANSWER_EDIT
        quick = self.scheduler.last_latency.get(metric_id, FIRST_ANSWER_WORTH_S) \
            < FIRST_ANSWER_WORTH_S
        return not (keystroke and quick)

    def compute(self, new_text: bool, only: set[str] | None = None) -> None:
        """Ask for the tasks (`only` those, unless the texts moved on too) of the texts now."""
        pending_edit = self.compute_timer.isActive()
        self.compute_timer.stop()
        expected, actual = self.tab.texts()
        tasks = self._task_options()
        if pending_edit or not self.scheduler.has_texts(expected, actual):
            only, new_text = None, True  # the text moved on too: everything is stale
        if only is not None:
            tasks = {name: opts for name, opts in tasks.items()
                     if name in only or metric_of_first_task(name) in only}
        self._last_total = len(expected) + len(actual)
        self.requested.update(tasks)
        if len(expected) + len(actual) > self.scheduler.sync_limit:
            for name in tasks:
                if name in self.tab.panels:
                    self.tab.panels[name].set_pending(True)
        self.scheduler.request(expected, actual, tasks, new_text=new_text)

    def _on_result(self, name: str, payload: Any) -> None:
        tab = self.tab
        if name == ALIGN_TASK:
            self.scheduler.drop(PREVIEW_TASK)  # the exact table came first: no use waiting
            self.scheduler.drop(DISTANCE_TASK)
            tab.set_table(payload)
        elif name in (PREVIEW_TASK, DISTANCE_TASK):
            # Only while the exact table of these texts is still coming (it may come first).
            if payload is None or ALIGN_TASK not in self.scheduler.pending():
                return
            if name == DISTANCE_TASK:
                self.scheduler.drop(PREVIEW_TASK)
                if payload.exact:  # the preview's script proved minimal: this is the table
                    self.scheduler.drop(ALIGN_TASK)
            tab.set_table(payload)
        elif name in tab.panels:
            self.scheduler.drop(first_task(name))
            tab.panels[name].set_outcome(payload)
        elif ((metric_id := metric_of_first_task(name)) in tab.panels
              and metric_id in self.scheduler.pending() and payload.label is not Label.ERROR):
            # Only while the metric's own answer is still coming; a failed first answer is
            # left to the metric's own to report.
            tab.panels[metric_id].set_outcome(payload)

    def _show_busy(self, busy: bool) -> None:
        # Only worth showing when the answer is not immediate.
        indicator = self.tab.busy_indicator
        indicator.setVisible(busy and self.scheduler.pending() != set()
                             and sum(len(t) for t in self.tab.texts()) > SYNC_LIMIT)
        if not busy:
            indicator.setVisible(False)

    def _on_idle(self) -> None:
        if not self.compute_timer.isActive():
            self.tab.sig_finished.emit()

    def _on_config_changed(self, metric_id: str) -> None:
        tab = self.tab
        ids = [metric_id] if metric_id else list(tab.panels)
        stale: set[str] = set()
        for mid in ids:
            panel = tab.panels.get(mid)
            if panel is None:
                continue
            panel.refresh_from_model()
            options = dict(tab.config.settings(mid).options)
            if self.requested.get(mid, options) == options:
                continue
            if not panel.spec.network:
                stale.add(mid)
            elif isinstance(panel, NetworkPanel):  # another endpoint or model: not this score
                self.requested.pop(mid, None)
                self.scheduler.forget_network({mid})
                panel.mark_stale()
                if mid in self.auto_network:
                    self.network_timer.start()
        if self.requested.get(ALIGN_TASK, self.align_options()) != self.align_options():
            stale.add(ALIGN_TASK)
        if stale:
            self.compute(new_text=False, only=stale)

    # -- network metrics ------------------------------------------------------------------------
    def compute_network(self, metric_id: str) -> bool:
        """Ask the endpoint for the current texts (off the GUI thread); False if it cannot."""
        panel = self.tab.panels[metric_id]
        if isinstance(panel, NetworkPanel) and not panel.can_compute():
            return False  # the panel already says why (no key, bad URL)
        expected, actual = self.tab.texts()
        options = dict(self.tab.config.settings(metric_id).options)
        self.requested[metric_id] = options
        if isinstance(panel, NetworkPanel):
            panel.set_computing()
        else:
            panel.set_pending(True)
        self.scheduler.request_network(metric_id, expected, actual, options)
        return True

    def set_auto_network(self, metric_id: str, on: bool) -> None:
        if on:
            self.auto_network.add(metric_id)
            self.network_timer.start()
        else:
            self.auto_network.discard(metric_id)

    def _compute_auto_network(self) -> None:
        for metric_id in sorted(self.auto_network):
            self.compute_network(metric_id)

    def shutdown(self) -> None:
        self.compute_timer.stop()
        self.network_timer.stop()
