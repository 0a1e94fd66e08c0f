"""Long texts: computed off the GUI thread, newest keystroke wins, nothing left running."""

from __future__ import annotations

import time

from PySide6.QtCore import QTimer

from matchlens.core.metrics.registry import evaluate, get_metric
from matchlens.ui.compare.scheduler import SYNC_LIMIT
from tests.ui.conftest import wait_done
from tests.ui.text_pairs import long_pair


def _long_pair(size: int, seed: int = 11) -> tuple[str, str]:
    words = ["the", "quick", "brown", "fox", "jumps", "over", "lazy", "dog", "Paris", "2024",
             "answer", "is"]
    return long_pair(size, words, newline_rate=0.08, seed=seed)


# A GUI thread that did the work itself would run no event while it computes. The tests check
# that events: the meter's timer ticks while the tab says it is busy (no wall-clock limit, which
# a busy machine could break); the gap figures (tens of ms) live in
# benchmarks/bench_compare_keystroke.py and are only printed here.


class GapMeter:
    """A 5 ms QTimer. `busy_ticks` counts the ticks that ran while `busy()` was true: the event
    loop ran during the work. `longest` (the longest interval between ticks) is printed for a
    person, never asserted."""

    def __init__(self, busy=None) -> None:
        self.longest = 0.0
        self.ticks = 0
        self.busy_ticks = 0
        self._busy = busy or (lambda: False)
        self._last = time.perf_counter()
        self.timer = QTimer(interval=5)
        self.timer.timeout.connect(self._tick)

    def start(self) -> None:
        self._last = time.perf_counter()
        self.timer.start()

    def _tick(self) -> None:
        now = time.perf_counter()
        self.ticks += 1
        self.busy_ticks += bool(self._busy())
        self.longest = max(self.longest, now - self._last)
        self._last = now

    def stop(self) -> float:
        self.timer.stop()
        return self.longest


def test_200k_pair_keeps_the_event_loop_responsive(qtbot, compare_tab) -> None:
    expected, actual = _long_pair(200_000)
    compare_tab.scheduler.prewarm()  # process start-up is a one-off, not what is measured
    qtbot.waitUntil(lambda: not compare_tab.scheduler._pool.busy(), timeout=20000)
    shown = []
    compare_tab.scheduler.sig_busy.connect(
        lambda _busy: shown.append(compare_tab.busy_indicator.isVisible()))
    meter = GapMeter(compare_tab.is_busy)
    meter.start()
    compare_tab.set_texts(expected, actual)
    assert compare_tab.is_busy()  # handed off: set_texts did not compute it
    ticks_at_start = meter.ticks
    wait_done(qtbot, compare_tab, timeout=30000)
    assert meter.ticks > ticks_at_start  # the event loop ran while the work was pending
    assert shown[0] and not shown[-1]  # "computing…" while it works, gone when done
    longest = meter.stop()
    # setPlainText of 2 × 200k characters itself runs on the GUI thread, before the meter can
    # tick; everything after (reading texts, dispatching, painting results) must stay short.
    print(f"longest gap {longest * 1000:.0f} ms")
    assert meter.busy_ticks > 0  # events ran while the work was pending: not on this thread
    spec = get_metric("levenshtein_distance")
    assert compare_tab.panels[spec.id].result().score == evaluate(spec, expected, actual).score
    assert compare_tab.highlighted_edits() == compare_tab.panels[spec.id].result().score


def test_typing_into_a_long_text_stays_responsive_and_newest_wins(qtbot, compare_tab) -> None:
    expected, actual = _long_pair(200_000, seed=5)
    compare_tab.set_texts(expected, actual)
    wait_done(qtbot, compare_tab, timeout=30000)
    editor = compare_tab.editor("actual")
    editor.moveCursor(editor.textCursor().MoveOperation.End)
    meter = GapMeter(compare_tab.is_busy)
    meter.start()
    for ch in "typed":  # each keystroke lands while the previous one may still be computing
        qtbot.keyClicks(editor, ch)
        qtbot.wait(30)
    wait_done(qtbot, compare_tab, timeout=30000)
    longest = meter.stop()
    print(f"longest gap {longest * 1000:.0f} ms")
    assert meter.busy_ticks > 0  # the event loop ran between keystrokes' computations
    final = compare_tab.texts()
    assert final[1].endswith("typed")
    for metric_id in ("levenshtein_distance", "jaccard", "chrf"):
        spec = get_metric(metric_id)
        assert compare_tab.panels[metric_id].result().score == evaluate(spec, *final).score


def test_small_texts_are_answered_synchronously(qtbot, compare_tab) -> None:
    compare_tab.set_texts("a" * (SYNC_LIMIT // 4), "b" * (SYNC_LIMIT // 4))
    compare_tab.recompute()
    assert not compare_tab.is_busy()
    assert compare_tab.scheduler._pool is None  # no process was needed
