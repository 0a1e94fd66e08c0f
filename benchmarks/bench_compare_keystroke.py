"""Keystroke-to-results in the compare tab, with every local metric, at 1k, 10k and 100k chars.

    QT_QPA_PLATFORM=offscreen .venv/bin/python benchmarks/bench_compare_keystroke.py [--keys 25]

For each size both sides hold that many characters (realistic words and lines, one edit per 200
characters). The benchmark types one character at a time into the actual editor, from inside the
event loop, and waits until every local metric and the highlight have answered before the next.

  GUI block      the longest stretch the GUI thread was busy between the keystroke and the
                 last result, measured as the longest gap between ticks of a 1 ms timer
                 (minus the 1 ms interval) — what the user feels as a stutter
  highlight      keystroke -> the edit highlight (and navigation) reflect the new text
  all results    keystroke -> every local metric panel shows its new score

Targets (issue "The compare window"): 10k median GUI block <= 16 ms; at 100k the GUI thread is
never blocked > 16 ms and results arrive within 250 ms.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time


def make_pair(size: int, seed: int = 1) -> tuple[str, str]:
    rng = random.Random(seed)
    words = ["the", "capital", "of", "France", "is", "Paris", "answer", "model", "output",
             "reference", "Ada", "Lovelace", "born", "in", "1815", "mathematician", "wrote",
             "first", "algorithm", "photosynthesis", "converts", "light"]
    parts, length = [], 0
    while length < size:
        word = rng.choice(words) + ("\n" if rng.random() < 0.1 else " ")
        parts.append(word)
        length += len(word)
    expected = "".join(parts)[:size]
    chars = list(expected)
    for i in rng.sample(range(size), max(1, size // 200)):
        chars[i] = "#"
    return expected, "".join(chars)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keys", type=int, default=25, help="keystrokes per size")
    parser.add_argument("--sizes", default="1000,10000,100000")
    args = parser.parse_args()
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

    from PySide6.QtCore import Qt, QTimer
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication

    from matchlens.ui import pyside_fixes
    from matchlens.ui.compare.compare_tab import CompareTab
    from matchlens.ui.compare.jobs import ALIGN_TASK
    from matchlens.ui.config_model import ConfigModel

    pyside_fixes.apply()
    app = QApplication(sys.argv[:1])
    tab = CompareTab(ConfigModel())
    tab.resize(1400, 850)
    tab.show()
    tab.scheduler.prewarm()
    editor = tab.editor("actual")

    state: dict = {"gaps": [], "last": time.perf_counter(), "rows": []}
    ticker = QTimer(interval=1)
    ticker.setTimerType(Qt.TimerType.PreciseTimer)

    def tick() -> None:
        now = time.perf_counter()
        state["gaps"].append(now - state["last"])
        state["last"] = now

    ticker.timeout.connect(tick)
    arrivals: dict[str, float] = {}
    tab.scheduler.sig_result.connect(lambda name, _p: arrivals.__setitem__(name,
                                                                          time.perf_counter()))

    def wait_idle(timeout: float = 60.0) -> None:
        deadline = time.perf_counter() + timeout
        while (tab.is_busy() or (tab.scheduler._pool and tab.scheduler._pool.busy())) \
                and time.perf_counter() < deadline:
            app.processEvents()
            time.sleep(0.001)

    wait_idle()
    for size in (int(s) for s in args.sizes.split(",")):
        expected, actual = make_pair(size)
        tab.set_texts(expected, actual)
        wait_idle()
        # One unmeasured keystroke: learns the metrics' costs at this size.
        editor.moveCursor(editor.textCursor().MoveOperation.End)
        QTest.keyClick(editor, "x")
        wait_idle()
        blocks, highlights, totals = [], [], []
        for k in range(args.keys):
            arrivals.clear()
            state["gaps"] = []
            ticker.start()
            state["last"] = start = time.perf_counter()
            done = {"flag": False}

            def press(ch: str = "abcdefghij"[k % 10]) -> None:
                QTest.keyClick(editor, ch)

            def finished(done: dict = done) -> None:
                done["flag"] = True

            tab.sig_finished.connect(finished)
            QTimer.singleShot(0, press)
            deadline = time.perf_counter() + 30
            while not done["flag"] and time.perf_counter() < deadline:
                app.processEvents()
                time.sleep(0.0002)
            tab.sig_finished.disconnect(finished)
            ticker.stop()
            blocks.append(max(0.0, max(state["gaps"], default=0.0) - 0.001))
            highlights.append(arrivals.get(ALIGN_TASK, start) - start)
            totals.append(max(arrivals.values(), default=start) - start)
            time.sleep(0.02)
        ms = 1000.0
        state["rows"].append((size, statistics.median(blocks) * ms, max(blocks) * ms,
                              statistics.median(highlights) * ms, max(highlights) * ms,
                              statistics.median(totals) * ms, max(totals) * ms))
    tab.shutdown()

    print(f"\nkeystroke -> results, {args.keys} keystrokes per size, every local metric "
          f"({os.cpu_count()} cores)")
    print(f"{'chars/side':>10} | {'GUI block ms':^15} | {'highlight ms':^15} | "
          f"{'all results ms':^15}")
    print(f"{'':>10} | {'median':>7} {'max':>7} | {'median':>7} {'max':>7} | "
          f"{'median':>7} {'max':>7}")
    for size, b_med, b_max, h_med, h_max, t_med, t_max in state["rows"]:
        print(f"{size:>10,} | {b_med:7.1f} {b_max:7.1f} | {h_med:7.1f} {h_max:7.1f} | "
              f"{t_med:7.1f} {t_max:7.1f}")
    app.quit()
    return 0


if __name__ == "__main__":
    sys.exit(main())
