"""Who computes what, where, and which answer still counts.

Every requested task (the alignment, or one metric) gets a token; a new text invalidates every
token, an option change only that metric's. A result is shown only if its token is still live,
so the newest keystroke always wins and stale answers are dropped without being looked at.

Small texts are computed right here on the GUI thread (all local metrics on a few thousand
characters take about a millisecond, less than a thread hop); longer ones go to the lanes.
"""

from __future__ import annotations

import itertools
import time
from typing import Any

from PySide6.QtCore import QObject, QThreadPool, Signal

from matchlens.core.diff.pair import metric_of_first_task, timed_task
from matchlens.core.diff.preview import DISTANCE_TASK, PREVIEW_TASK
from matchlens.core.diff.span_table import ALIGN_TASK
from matchlens.core.metrics.registry import edit_script_metric_ids
from matchlens.core.results import Label, Outcome
from matchlens.workers.lanes import LanePool, Task

# Up to this many characters (both sides together) the work is done synchronously.
SYNC_LIMIT = 4_000
# These tasks all need the character edit script of the texts: they run on one lane, in a row,
# so it is computed once there (core.edit_script keeps it) instead of once per task. The
# preview of long texts comes first: its anchored script is where the exact one starts from;
# then the exact distance in its band (the exact table itself, when that proves it minimal).
SHARED_SCRIPT_TASKS = frozenset({PREVIEW_TASK, DISTANCE_TASK, ALIGN_TASK,
                                 *edit_script_metric_ids()})
# The highlight's tasks (their answer is a SpanTable, or None when they fail), in the order a
# lane should take them.
TABLE_TASKS = (PREVIEW_TASK, DISTANCE_TASK, ALIGN_TASK)
# Where a lane takes the leading tasks: the preview, the exact distance, the metrics' quicker
# first answers (`pair.first_task`: a distance kept by the distance task, before the script the
# alignment waits for), the alignment; then the metrics.
_LEAD_RANK = {PREVIEW_TASK: 4, DISTANCE_TASK: 3, ALIGN_TASK: 1}
_FIRST_RANK = 2
# The metrics that cost next to nothing at any length (a comparison, a substring search: about
# a millisecond at a million characters) are the first the lanes take after the preview: behind
# ROUGE-L on a reordered million characters their panels said "Not computed yet" for minutes,
# to save the makespan a millisecond. (By name: their timings on short texts are all overhead.)
QUICK_METRICS = frozenset({"exact_match", "contains"})
_QUICK_RANK = 3.5


# The first long text's order before any task has been timed here: CPU seconds each metric took
# on a 1,000,000-character pair with ~10% edits (2M characters together; one lane process,
# benchmarks/bench_compare_screenshot.py's pair), per character. Longest first keeps the two
# lanes' last answers close together (~0.6 s sooner than the registry's order at 1M).
FIRST_SECONDS_PER_CHAR = {name: seconds / 2_000_000 for name, seconds in {
    "levenshtein_similarity": 2.8, "rouge_l": 2.5, "chrf": 2.1, "bleu": 1.1, "wer": 0.85,
    "token_f1": 0.12}.items()}


def shares_script(name: str, tasks: dict[str, dict[str, Any]]) -> bool:
    """Whether `name` can reuse the highlight's edit script in its lane: only with the same
    texts, i.e. the same case and normalisation options. A metric that folds case while the
    highlight does not (levenshtein_similarity's default) diffs other texts: it runs on another
    lane, in parallel, instead of after the highlight (~8 s of CPU at a million characters)."""
    if (metric_of_first_task(name) or name) not in SHARED_SCRIPT_TASKS:
        return False
    align = tasks.get(ALIGN_TASK)
    if align is None or name == ALIGN_TASK:
        return True
    options = tasks[name]
    return (bool(options.get("case_sensitive", align.get("case_sensitive", True)))
            == bool(align.get("case_sensitive", True))
            and list(options.get("normalise") or []) == list(align.get("normalise") or []))


class _Bridge(QObject):
    """Carries lane-thread results into the GUI thread (a queued signal)."""

    sig_delivered = Signal(int, str, str, object, float)


class ScoreScheduler(QObject):
    sig_result = Signal(str, object)  # task name, SpanTable (alignment) or Outcome (metric)
    sig_busy = Signal(bool)
    sig_idle = Signal()  # every live task has answered

    def __init__(self, parent: QObject | None = None, sync_limit: int = SYNC_LIMIT,
                 lanes: int | None = None) -> None:
        super().__init__(parent)
        self.sync_limit = sync_limit
        self._lane_count = lanes
        self._tokens = itertools.count(1)
        self._text_ids = itertools.count(1)
        self._text_id = 0
        self._texts: tuple[str, str] = ("", "")
        self._live: dict[str, int] = {}  # task name -> the token whose answer is wanted
        self._live_tokens: set[int] = set()
        self._seconds_per_char: dict[str, float] = dict(FIRST_SECONDS_PER_CHAR)
        self._pool: LanePool | None = None
        self._bridge = _Bridge(self)
        self._bridge.sig_delivered.connect(self._on_delivered)
        self._network_workers: list[Any] = []
        # Network tasks live apart: a new text does not silently drop them (the tab decides,
        # with `forget_network`), and a local recompute never cancels a paid-for request.
        self._network_live: dict[str, int] = {}
        self.last_latency: dict[str, float] = {}  # name -> seconds from request to answer
        self._asked_at: dict[str, float] = {}

    # -- requests -------------------------------------------------------------------------------
    def request(self, expected: str, actual: str, tasks: dict[str, dict[str, Any]], *,
                new_text: bool) -> None:
        """Compute `tasks` ({name: options}) on the texts; `new_text` makes every old answer stale."""
        if new_text or (expected, actual) != self._texts:
            self._text_id = next(self._text_ids)
            self._texts = (expected, actual)
            self._live.clear()
            self._live_tokens.clear()
        now = time.perf_counter()
        for name in tasks:
            old = self._live.get(name)
            if old is not None:
                self._live_tokens.discard(old)
            token = next(self._tokens)
            self._live[name] = token
            self._live_tokens.add(token)
            self._asked_at[name] = now
        if not tasks:
            return
        self.sig_busy.emit(True)
        if len(expected) + len(actual) <= self.sync_limit:
            for name, options in tasks.items():
                result, seconds = timed_task(name, expected, actual, options)
                self._accept(self._live[name], name, "done", result, seconds)
            return
        self._submit(expected, actual, tasks)

    def _submit(self, expected: str, actual: str, tasks: dict[str, dict[str, Any]]) -> None:
        size = len(expected) + len(actual)

        def cost(name: str) -> tuple[int, float]:
            # The preview, its exact distance, the first answers, then the alignment (what the
            # eye reads; the exact script starts from the preview's), then longest-first for a
            # short makespan.
            if name in _LEAD_RANK:
                return (_LEAD_RANK[name], 0.0)
            if metric_of_first_task(name) is not None:
                return (_FIRST_RANK, 0.0)
            if name in QUICK_METRICS:
                return (_QUICK_RANK, 0.0)
            return (0, self._seconds_per_char.get(name, 0.0) * size)

        ordered = sorted(tasks, key=cost, reverse=True)
        batch = [Task(self._live[name], name, tasks[name], self._text_id, expected, actual,
                      group="script" if shares_script(name, tasks) else "")
                 for name in ordered]
        self._ensure_pool().submit(batch)

    def _ensure_pool(self) -> LanePool:
        if self._pool is None:
            self._pool = LanePool(self._bridge.sig_delivered.emit, self._is_live,
                                  count=self._lane_count)
        return self._pool

    def prewarm(self) -> None:
        """Start the lanes' processes now, so the first long text does not wait for them."""
        pool = self._ensure_pool()
        pool.submit([Task(0, "exact_match", {}, -1, "", "") for _ in pool._lanes])

    def _is_live(self, token: int) -> bool:
        return token in self._live_tokens or token == 0  # token 0: a prewarm ping

    # -- answers --------------------------------------------------------------------------------
    def _on_delivered(self, token: int, name: str, status: str, payload: Any,
                      seconds: float) -> None:
        self._accept(token, name, status, payload, seconds)

    def _accept(self, token: int, name: str, status: str, payload: Any, seconds: float) -> None:
        if token == 0 or self._live.get(name) != token:
            return  # stale: the text or the options changed since it was asked for
        del self._live[name]
        self._live_tokens.discard(token)
        size = max(1, len(self._texts[0]) + len(self._texts[1]))
        if status == "done" and seconds > 0:
            self._seconds_per_char[name] = seconds / size
        self.last_latency[name] = time.perf_counter() - self._asked_at.get(name, 0.0)
        if status != "done":
            payload = (Outcome(None, f"Could not compute: {payload}", Label.ERROR)
                       if name not in TABLE_TASKS else None)
        self.sig_result.emit(name, payload)
        self._maybe_idle()

    def _maybe_idle(self) -> None:
        if not self._live and not self._network_live:
            self.sig_busy.emit(False)
            self.sig_idle.emit()

    def drop(self, name: str) -> None:
        """No longer want task `name`'s answer (a lane skips it if it has not started)."""
        token = self._live.pop(name, None)
        if token is not None:
            self._live_tokens.discard(token)
            self._maybe_idle()

    def has_texts(self, expected: str, actual: str) -> bool:
        """Whether the last request was about exactly these texts."""
        return self._texts == (expected, actual) and self._text_id > 0

    def pending(self) -> set[str]:
        return set(self._live) | set(self._network_live)

    def is_busy(self) -> bool:
        return bool(self._live) or bool(self._network_live)

    # -- network metrics (on demand, in a plain thread: they wait on I/O, not on the CPU) --------
    def request_network(self, name: str, expected: str, actual: str,
                        options: dict[str, Any]) -> None:
        """Compute a network metric in a superqt worker; only the newest request's answer counts."""
        from superqt.utils import create_worker

        token = next(self._tokens)
        self._network_live[name] = token
        self._asked_at[name] = time.perf_counter()
        self.sig_busy.emit(True)
        worker = create_worker(timed_task, name, expected, actual, options, _start_thread=False)
        worker.returned.connect(lambda out: self._accept_network(token, name, "done", *out))
        worker.errored.connect(
            lambda err: self._accept_network(token, name, "failed", str(err), 0.0))
        worker.finished.connect(lambda: self._network_workers.remove(worker))
        self._network_workers.append(worker)
        worker.start()

    def _accept_network(self, token: int, name: str, status: str, payload: Any,
                        seconds: float) -> None:
        if self._network_live.get(name) != token:
            return  # stale: the texts or the endpoint changed, or a newer request was made
        del self._network_live[name]
        self.last_latency[name] = time.perf_counter() - self._asked_at.get(name, 0.0)
        if status != "done":
            payload = Outcome(None, f"Could not compute: {payload}", Label.ERROR)
        self.sig_result.emit(name, payload)
        self._maybe_idle()

    def forget_network(self, names: set[str] | None = None) -> set[str]:
        """Drop the pending network requests (all, or `names`): their answers will be ignored.

        The HTTP request itself finishes in its worker (it cannot be interrupted); only its
        answer is discarded. Returns the names that were pending.
        """
        dropped = {n for n in self._network_live if names is None or n in names}
        for name in dropped:
            del self._network_live[name]
        if dropped:
            self._maybe_idle()
        return dropped

    def network_running(self) -> int:
        """Network workers still running (including ones whose answer will be dropped)."""
        return len(self._network_workers)

    # -- lifetime -------------------------------------------------------------------------------
    def shutdown(self) -> None:
        """Stop the lanes and wait for every thread: nothing may outlive the tab."""
        self._live.clear()
        self._live_tokens.clear()
        self._network_live.clear()
        if self._pool is not None:
            self._pool.close()
            self._pool = None
        if self._network_workers:
            QThreadPool.globalInstance().waitForDone(5000)
