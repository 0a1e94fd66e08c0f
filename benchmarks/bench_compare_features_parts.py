"""Moves, the ruler and collapsing at 100k characters, one at a time, in thread CPU time.

    QT_QPA_PLATFORM=offscreen PYTHONPATH=app .venv/bin/python \\
        benchmarks/bench_compare_features_parts.py [--keys 12]

bench_compare_features measures whole keystrokes, whose noise on a shared machine is larger than
what the three features cost. This measures each where it runs, with `time.thread_time`:

  moves      the highlight task (a lane's work) with find_moves on and off, alternating
             keystrokes typed into the middle of the actual text
  window     the window's `set_table` and the paint after it, with the ruler and Collapse on
             or off (base, +ruler, +collapse, both), the table computed beforehand

Figures (2026-11-26, before = a868cf4) are in bench_compare_features' docstring.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_compare_keystroke import make_pair  # noqa: E402

OPTIONS = {"case_sensitive": True, "granularity": "char", "view": "readable", "normalise": []}


def moves_cost(keys: int) -> dict[str, float]:
    import matchlens.core.diff.readable.chunks as chunks
    from matchlens.core.diff.pair import run_task, warm_up
    from matchlens.core.diff.span_table import ALIGN_TASK

    warm_up([ALIGN_TASK])
    expected, actual = make_pair(100_000)
    real = chunks.find_moves
    cpu: dict[bool, list[float]] = {True: [], False: []}
    for k in range(keys + 1):
        for on in (False, True):
            chunks.find_moves = real if on else (lambda *_a, **_k: [])
            at = len(actual) // 2 + 37 * k
            actual = actual[:at] + "abcdefghij"[k % 10] + actual[at:]
            start = time.thread_time()
            run_task(ALIGN_TASK, expected, actual, OPTIONS)
            if k:
                cpu[on].append((time.thread_time() - start) * 1000)
    chunks.find_moves = real
    return {"moves off": statistics.median(cpu[False]), "moves on": statistics.median(cpu[True])}


def window_cost(keys: int) -> dict[str, float]:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    os.environ["MATCHLENS_COMPUTE"] = "thread"
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication

    from matchlens.core.diff.pair import run_task
    from matchlens.core.diff.span_table import ALIGN_TASK
    from matchlens.ui import pyside_fixes
    from matchlens.ui.compare.compare_tab import CompareTab
    from matchlens.ui.config_model import ConfigModel

    pyside_fixes.apply()
    app = QApplication.instance() or QApplication(sys.argv[:1])
    tab = CompareTab(ConfigModel())
    tab.resize(1400, 850)
    tab.show()

    def idle() -> None:
        deadline = time.perf_counter() + 30
        while tab.is_busy() and time.perf_counter() < deadline:
            app.processEvents()
            time.sleep(0.001)
        settle = time.perf_counter() + 0.05
        while time.perf_counter() < settle:
            app.processEvents()
            time.sleep(0.002)

    expected, actual = make_pair(100_000)
    tab.set_texts(expected, actual)
    idle()
    editor = tab.editor("actual")
    editor.moveCursor(editor.textCursor().MoveOperation.End)
    rulers = [pane.ruler for pane in tab.panes.values()]
    for r in rulers:  # a hidden ruler keeps its place: the editors are as wide in every config
        policy = r.sizePolicy()
        policy.setRetainSizeWhenHidden(True)
        r.setSizePolicy(policy)
    real = {id(r): r.set_table for r in rulers}
    configs = {"base": (False, False), "+ruler": (True, False), "+collapse": (False, True),
               "both": (True, True)}
    cpu: dict[str, list[float]] = {name: [] for name in configs}
    for k in range(keys + 1):
        for name, (ruler, collapse) in configs.items():
            for r in rulers:
                r.set_table = real[id(r)] if ruler else (lambda _t: None)
                r.setVisible(ruler)
            if tab.action_collapse.isChecked() != collapse:
                tab.action_collapse.setChecked(collapse)
            idle()
            QTest.keyClick(editor, "abcdefghij"[k % 10])
            idle()
            table = run_task(ALIGN_TASK, *tab.texts(), OPTIONS)
            start = time.thread_time()
            tab.set_table(table)
            app.processEvents()  # the paint
            app.processEvents()
            if k:
                cpu[name].append((time.thread_time() - start) * 1000)
    tab.shutdown()
    return {name: statistics.median(values) for name, values in cpu.items()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keys", type=int, default=12)
    args = parser.parse_args()
    print(f"median CPU ms per keystroke, load {os.getloadavg()[0]:.1f}")
    for name, value in {**moves_cost(args.keys), **window_cost(args.keys)}.items():
        print(f"  {name:<10} {value:7.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
