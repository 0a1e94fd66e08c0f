"""What moved text, the overview ruler and collapsing add to a 100k-character keystroke.

    QT_QPA_PLATFORM=offscreen PYTHONPATH=app .venv/bin/python \
        benchmarks/bench_compare_features.py [--size 100000] [--keys 25] [--widen]

One real CompareTab, its lanes run as threads of this process (MATCHLENS_COMPUTE=thread), so
every CPU second of a keystroke is this process's: `time.process_time` from the key press until
every local result has answered and the window has painted it (a settle of 30 ms; both waits
are a sleeping event loop, so idle time costs no CPU). Typing goes into the actual side of
bench_compare_keystroke's pair (one
'#' every 200 characters, lines of ~10 words). The configurations alternate keystroke by
keystroke, so a slow spell of a shared machine hits them all:

  base        moves off (`find_moves` finds none), ruler off (hidden, given no table, but
              keeping its 12 px: the editors are as wide as with the ruler), collapse off
  +moves      moved-text detection on (as shipped)
  +ruler      the overview ruler on (as shipped)
  +collapse   Collapse toggled on
  all         as shipped with Collapse on

Columns: median CPU ms per keystroke and its overhead over `base`; median wall ms from the key
to the last result (threads share one GIL here: the window's own lanes are processes, see
bench_compare_keystroke for its latency). Target (issue 25): the three together add at most 10%.

Measured 2026-11-26, 2 cores shared with other sessions (load 5-7), --keys 10, two runs of
each checkout alternating (median CPU ms per keystroke, overhead over base):
                base          +moves        +ruler        +collapse     all
  before      86.4 / 92.5   +14.7/+15.2%  +10.2/+16.7%  +15.2/+14.5%  113.6 (+31.5%) / 104.8 (+13.3%)
  after       73.2 / 71.2   +2.1/+10.2%   +3.2/+6.4%    +2.3/+7.8%     85.5 (+16.8%) /  82.9 (+16.5%)
The whole keystroke costs a fifth less CPU; the three features together still add ~12 ms
(+16%), over the 10% target. Measured one at a time in one process (less noise): moves
(`find_moves`, pieces of the unchanged side kept) ~4 ms, the ruler's marks and paint ~1.1 ms a
side, collapsing ~0.7 ms (bench_collapse).

Then (branch cmpkeys) the word metrics incremental (bench_keystroke_tasks), moves re-cutting only
the edited sentences and pairing only the pieces out of place, the ruler and the folds sharing
each side's line starts and marks, the ruler drawn from a pixmap, the folds not re-applied when
a keystroke leaves them as they were, the placeholders found host by host. 2 shared cores at
load 7-10 (worse than above), --keys 10, three runs alternating with a868cf4 (the after runs were
taken while the collapse and ruler changes were still landing), CPU ms per keystroke:
                base               all (moves + ruler + collapse)
  before      79.2  76.9  81.7     91.3 (+15.3%)  94.7 (+23.2%)  101.2 (+23.9%)
  after       40.6  43.4  39.9     50.2 (+23.6%)  51.7 (+19.1%)   43.7  (+9.6%)
Final code, two more runs alternating at load 7.8-8.6:
  before      69.9  70.4           88.0 (+25.9%)  84.6 (+20.3%)
  after       36.7  37.0           41.2 (+12.2%)  43.6 (+17.8%)
The whole keystroke costs half the CPU; the three features add 3.8-9.6 ms instead of 12-20 ms,
but as a share of a base that halved, about +10-20%: still over the 10% target on this noisy
machine. Measured one at a time (bench_compare_features_parts.py, thread CPU time, steadier):
  moves inside the highlight task (find_moves on vs off, alternating keystrokes, 15 each):
      before 11.6 -> 17.3 ms (+5.7)      after 8.1 -> 10.1 ms (+2.0)
  the window's set_table + paint (ruler / collapse on vs off, 12 keystrokes each):
      before base 5.2, +ruler 6.4, +collapse 8.2, both 9.0 ms
      after  base 2.9, +ruler 3.5, +collapse 3.4, both 4.1 ms
so moves + ruler + collapse now cost ~3 ms of a ~40 ms keystroke (~8%), against ~9.5 ms of
~80 ms before.

Re-measured 2026-11-27 on a quiet machine (load 0.8), every branch of the round merged,
--keys 40, two runs (CPU ms per keystroke, overhead over base; wall ms):
      base 47.6 / 51.2; +moves +9.3% / +2.8%; +ruler +11.3% / +11.0%; +collapse +9.1% / +5.8%;
      all 57.0 (+19.9%, wall 51.6 against 44.4) / 60.3 (+17.8%, wall 52.6 against 47.2)
so the three together still add ~9 ms of CPU (~18%): over the 10% target.

Then (branch features2, before = d8c7a0c): the ruler keeps its marks' pixmap when a keystroke's
table puts the same rectangles on the same pixels (it was re-drawn, ~340 fillRects, on every
keystroke's paint) and repaints only for a moved outline; moves keep the unchanged side's piece
ids, read rapidfuzz's opcodes as tuples and cache `long_enough` (find_moves at the end of a 100k
text, thread CPU, medians of 37 keystrokes, three runs: 3.42 3.26 3.32 -> 2.34 2.51 2.56 ms);
a side's folds are kept by text and marked lines (the side not typed into is not folded again).
Quiet machine (load 0.7-0.9, 2 cores), --keys 25, two runs alternating, CPU ms per keystroke:
                base          +moves        +ruler        +collapse     all
  before      40.9 / 41.8   +1.6/+11.3%   +6.5/+21.7%   +2.6/+12.8%   50.5 (+23.4%) / 52.9 (+26.6%)
  after       45.1 / 42.5   +3.6/+4.8%    +3.9/+14.6%   +5.0/+22.0%   50.7 (+12.4%) / 50.8 (+19.5%)
The keystroke's own noise (+-5 ms run to run, base itself 40.9-45.1) is as large as what the
three cost: the waiting loops poll processEvents every 0.2-2 ms, so a slower keystroke also
burns more polling CPU. "all" went from +23-27% to +12-20%, still over the 10% target here;
the parts (bench_compare_features_parts, --keys 15, two runs alternating) were within noise of
each other (window: before base 3.20/3.75, both 3.76/5.16; after 3.62/3.46, both 4.03/4.36 ms).
The waits then became an event loop that sleeps until the last result (no polling); two more
runs alternating, same load, --keys 25:
                base          +moves        +ruler        +collapse     all
  before      47.8 / 43.0   +4.2/+9.2%    +5.3/+12.8%   +6.5/+3.4%    58.4 (+22.2%) / 53.0 (+23.3%)
  after       49.7 / 38.9   +7.3/-1.1%    -0.6/+8.9%    +2.4/+11.1%   56.1 (+12.8%) / 45.7 (+17.7%)

Until 2026-11-27 `base` hid the ruler and let the editors take its 12 px (482 px of viewport
instead of 469 in this window): with word wrap every line then breaks elsewhere and the
document lays out differently, so "+ruler" (and "all") also counted a narrower editor's
layout, not the ruler. Now a hidden ruler keeps its place (`setRetainSizeWhenHidden`) and
every configuration's editor is as wide (the last column prints the viewport widths seen);
`--widen` restores the old base. Keeping the geometry, rather than fixing the editors' width,
is what a user's choice would be: with or without marks, the window keeps its panes. Same code
(611794f), load 2.5-5.7, --keys 25, two runs each alternating, CPU ms per keystroke:
                base          +moves        +ruler        +collapse     all
  --widen     38.9 / 32.8   +18.7/+6.7%   +13.0/+7.6%   +22.1/+8.7%   50.1 (+28.9%) / 38.4 (+17.1%)
  same width  36.7 / 35.9   -1.6/+3.3%    -3.5/-0.3%    -6.6/+2.6%    37.3 (+1.6%)  / 39.1 (+8.8%)
so with the editors equally wide the three together add 0.6-3.2 ms (+2-9%), within the target.

Then (branch cmp5) profiled what remains: `--profile PREFIX` (cProfile on the GUI thread's
CPU clock, one file per configuration), and thread CPU per piece without the profiler
(`time.thread_time` around each method, Collapse on, 30 keystrokes at the end of the actual
text): the window's share is ruler `set_table` 0.5-0.8 ms a keystroke (its marks 0.4, the
outline's visible lines 0.2), folds 0.3, the placeholders' paint 0.25; the lane's share is moves,
`find_moves` ~2 ms (cut pieces 0.35, piece ids 0.2, rapidfuzz's Indel script of the ids 0.35,
gaps 0.4, pairing 0.6). Cut: the side not typed into keeps its ruler marks when the new table
marks it alike (`overview.ruler_marks`: one `_ruler_marks` a keystroke instead of two), and the
outline's lines come from one hit test (`firstVisibleBlock` and the bottom-right corner) instead
of `visible_positions`' three: ruler `set_table` 0.65 / 0.78 -> 0.55 / 0.42 ms, the outline
0.17 / 0.22 -> 0.07 / 0.06 ms (two runs each, alternating). Tried and dropped: numpy for the
moves' gaps and pairing (the same 2.0-2.5 ms: at ~1,500 pieces converting the opcodes costs
what the Python loops did). Whole keystrokes, before = 611794f, load 3.4-3.8, --keys 25, two
runs alternating, CPU ms (overhead over base):
                base          +moves        +ruler        +collapse     all
  before      52.7 / 51.9   +3.2/-0.1%    -3.2/-0.2%    -0.1/-0.9%    58.5 (+11.0%) / 56.0 (+8.1%)
  after       55.2 / 48.4   +2.4/+3.6%    -7.1/-5.5%    +3.4/+1.4%    60.4 (+9.5%)  / 52.5 (+8.6%)
The base keystroke itself moved by 7 ms between runs (the machine's other sessions): the three
features add 4-6 ms (+8-11%), of which the pieces above account for ~3.5 ms; the cut (~0.25 ms)
is below what whole keystrokes can resolve here.

Quiet re-measure, every branch merged (2026-11-27 04:12, load 0.9-1.1; base keeps the ruler's
width), CPU ms per keystroke, all three against base:
  --keys 25: 41.8 -> 45.6 (+9.0%), 44.4 -> 45.0 (+1.5%)
  --keys 40: 44.2 -> 47.1 (+6.6%), 44.2 -> 47.8 (+8.2%)
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

CONFIGS = {"base": (False, False, False), "+moves": (True, False, False),
           "+ruler": (False, True, False), "+collapse": (False, False, True),
           "all": (True, True, True)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=100_000)
    parser.add_argument("--keys", type=int, default=12, help="keystrokes per configuration")
    parser.add_argument("--profile", metavar="PREFIX",
                        help="cProfile the GUI thread's keystrokes: PREFIX-<config>.prof each")
    parser.add_argument("--widen", action="store_true",
                        help="the old base: a hidden ruler gives its width to the editor")
    args = parser.parse_args()
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    os.environ["MATCHLENS_COMPUTE"] = "thread"

    from PySide6.QtCore import QEventLoop, QTimer
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication

    import matchlens.core.diff.readable.chunks as chunks
    from matchlens.ui import pyside_fixes
    from matchlens.ui.compare.compare_tab import CompareTab
    from matchlens.ui.config_model import ConfigModel

    real_find_moves = chunks.find_moves
    pyside_fixes.apply()
    app = QApplication(sys.argv[:1])
    tab = CompareTab(ConfigModel())
    tab.resize(1400, 850)
    tab.show()
    editor = tab.editor("actual")
    rulers = [pane.ruler for pane in tab.panes.values()]
    real_set_table = {id(r): r.set_table for r in rulers}
    for r in rulers:  # a hidden ruler keeps its place: the editors' width never changes
        policy = r.sizePolicy()
        policy.setRetainSizeWhenHidden(not args.widen)
        r.setSizePolicy(policy)
    widths: dict[str, set[int]] = {name: set() for name in CONFIGS}

    def configure(moves: bool, ruler: bool, collapse: bool) -> None:
        chunks.find_moves = real_find_moves if moves else (lambda *_a, **_k: [])
        for r in rulers:
            r.set_table = real_set_table[id(r)] if ruler else (lambda _t: None)
            r.setVisible(ruler)
        if tab.action_collapse.isChecked() != collapse:
            tab.action_collapse.setChecked(collapse)

    def wait_idle() -> None:
        deadline = time.perf_counter() + 60
        while tab.is_busy() and time.perf_counter() < deadline:
            app.processEvents()
            time.sleep(0.001)
        settle = time.perf_counter() + 0.05  # and painted
        while time.perf_counter() < settle:
            app.processEvents()
            time.sleep(0.002)

    expected, actual = make_pair(args.size)
    tab.set_texts(expected, actual)
    wait_idle()
    editor.moveCursor(editor.textCursor().MoveOperation.End)
    import cProfile

    # GUI-thread CPU time (the lanes are other threads; idle waits cost none)
    profiles = ({name: cProfile.Profile(time.thread_time) for name in CONFIGS}
                if args.profile else {})
    cpu: dict[str, list[float]] = {name: [] for name in CONFIGS}
    wall: dict[str, list[float]] = {name: [] for name in CONFIGS}
    for k in range(args.keys + 1):
        for name, flags in CONFIGS.items():
            configure(*flags)
            QTest.keyClick(editor, "x")  # the configuration's own first keystroke, unmeasured
            wait_idle()
            done = {"flag": False}

            def finished(done: dict = done) -> None:
                done["flag"] = True

            tab.sig_finished.connect(finished)
            # An event loop that sleeps until the last result (no polling: a loop of
            # processEvents would burn CPU in proportion to the wait), then 30 ms more for the
            # paint; a 30 s timer ends a keystroke that never finishes.
            loop = QEventLoop()
            tab.sig_finished.connect(loop.quit)
            guard = QTimer(singleShot=True, interval=30_000)
            guard.timeout.connect(loop.quit)
            if k and profiles:
                profiles[name].enable()
            c0, w0 = time.process_time(), time.perf_counter()
            QTimer.singleShot(0, lambda ch="abcdefghij"[k % 10]: QTest.keyClick(editor, ch))
            guard.start()
            if not done["flag"]:
                loop.exec()
            w1 = time.perf_counter()
            guard.stop()
            tab.sig_finished.disconnect(loop.quit)
            QTimer.singleShot(30, loop.quit)
            loop.exec()
            c1 = time.process_time()
            if k and profiles:
                profiles[name].disable()
            tab.sig_finished.disconnect(finished)
            widths[name].add(editor.viewport().width())
            if k:  # the first round warms every configuration up
                cpu[name].append((c1 - c0) * 1000)
                wall[name].append((w1 - w0) * 1000)
    for name, profile in profiles.items():
        profile.dump_stats(f"{args.profile}-{name.strip('+')}.prof")
    configure(True, True, False)
    tab.shutdown()
    base = statistics.median(cpu["base"])
    print(f"{args.size:,} characters a side, {args.keys} keystrokes per configuration, "
          f"load {os.getloadavg()[0]:.1f}")
    print(f"{'':<10} | {'CPU ms':>7} {'+%':>6} | {'wall ms':>7} | editor px")
    for name in CONFIGS:
        med = statistics.median(cpu[name])
        print(f"{name:<10} | {med:7.1f} {100 * (med - base) / base:+5.1f}% | "
              f"{statistics.median(wall[name]):7.1f} | {sorted(widths[name])}")
    app.quit()
    return 0


if __name__ == "__main__":
    sys.exit(main())
