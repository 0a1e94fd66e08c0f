"""A long pair with its paragraphs shuffled, opened in the compare tab: when does the
Levenshtein distance panel show the exact distance, when its counts, when the exact highlight.

    QT_QPA_PLATFORM=offscreen PYTHONPATH=app .venv/bin/python \
        benchmarks/bench_reordered_panel.py [--size 100000] [--runs 2] [--app OTHER/app ...] \
        [--shot-pending a.png --shot-final b.png] [--timeout 900]

The pair is bench_reordered's (bench_alignment's prose, blocks of 40 lines shuffled, 1%
character edits), --size characters a side. Each run is a fresh process (with several --app
folders they alternate, so a slow spell of a shared machine hits each checkout): a real
CompareTab at 1280x720 with its lane processes prewarmed gets both texts (`set_texts`, as
`matchlens compare A B` does). Seconds of wall clock from that call to:

  first hl    the first highlight on screen (the preview at 300k+ characters)
  distance    the levenshtein_distance panel shows its final score (the exact distance)
  counts      the panel shows its final explanation (the script's substitutions, insertions
              and deletions)
  exact hl    the highlight drawn from the minimal script (the table is `exact`)
  all         every local task answered
  cpu         CPU seconds of the window and its lanes together (getrusage, self + children)
With --shot-pending the first --app's first run saves the window when the panel first shows a
distance while its counts are still coming; with --shot-final when everything has answered.

Measured 2026-11-27 (branch cmp5; before = 611794f, where the panel waited for the script),
2 cores shared with other sessions, lanes as processes, alternating, wall seconds:
  100k a side (load 3.3-4.0; a third run of each, at load 4.4-8.9 while a test suite started,
  left out: after 51.6 / 23.0 / 51.8, before 13.3 / 13.4 / 13.4):
                first hl  distance  counts  exact hl   all   cpu
    before  run 1   5.7     5.8      5.8     5.7      8.1   7.7
            run 2   5.0     5.1      5.1     5.0      7.5   6.1
    after   run 1   6.6     1.3      6.7     6.6      9.3   6.9
            run 2   6.2     2.1      6.4     6.2     10.3   7.5
  The exact distance is on screen 1.3-2.1 s after opening instead of 5-6 s. The exact
  highlight comes ~1 s later here, within this machine's run-to-run spread: in one process the
  first answer costs 0.55 s of CPU and the highlight 0.45 s less after it (the distance it would
  have computed is kept), ~0.08 s more in all (the anchored bound is worked out twice).
  1M a side, one run each (each takes minutes; "-": not within --timeout):
                       first hl  distance  counts  exact hl   all    cpu
    load 5-6  before     22.0    222.0     222.0   222.0    245.8  206.3
              after      11.5    169.5     322.3   322.1    363.8  217.2
    load 7-9  before     61.2    555.1     555.1   555.0    597.5  241.4
    (a suite  after      56.2    446.5       -       -        -    180.3 (stopped at 600 s)
    running)
  The distance comes ~50-110 s sooner (it is the highlight's own exact distance, ~35 s of CPU
  in the preview's band, kept for the panel); the script itself is rapidfuzz's, minutes of CPU
  here, and the highlight's wall times at this size say more about the machine than the code
  (CPU 206 vs 217 s in the quieter pair of runs).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
PANEL = "levenshtein_distance"
COLUMNS = ("first hl", "distance", "counts", "exact hl", "all", "cpu")


def child(args: argparse.Namespace) -> None:
    sys.path.insert(0, str(HERE))
    from bench_reordered import reordered_pair
    from PySide6.QtCore import QEventLoop, QTimer
    from PySide6.QtWidgets import QApplication

    from matchlens.ui import pyside_fixes
    from matchlens.ui.compare.compare_tab import CompareTab
    from matchlens.ui.config_model import ConfigModel

    expected, actual = reordered_pair(args.size, 40, 0.01)
    pyside_fixes.apply()
    app = QApplication(sys.argv[:1])
    tab = CompareTab(ConfigModel())
    tab.resize(1280, 720)
    tab.show()
    tab.scheduler.prewarm()
    app.processEvents()
    time.sleep(1.0)  # the lanes' processes start and import
    app.processEvents()
    panel = tab.panels[PANEL]
    events: list[tuple[float, str, str, str, bool | None]] = []
    shots: dict[str, bool] = {}

    def shoot(path: str | None, key: str) -> None:
        if path and not shots.get(key):
            shots[key] = True
            QTimer.singleShot(100, lambda: tab.grab().save(path))

    def seen(name: str, _payload: object) -> None:  # after the tab's own slot has shown it
        table = tab.current_table()
        events.append((time.perf_counter() - start, name, panel.score_label.text(),
                       panel.explanation.text(), None if table is None else table.exact))
        if name.endswith("~first") and PANEL in tab.scheduler.pending():
            shoot(args.shot_pending, "pending")

    tab.scheduler.sig_result.connect(seen)
    loop = QEventLoop()
    tab.sig_finished.connect(loop.quit)
    guard = QTimer(singleShot=True, interval=int(args.timeout * 1000))
    guard.timeout.connect(loop.quit)
    start = time.perf_counter()
    tab.set_texts(expected, actual)
    guard.start()
    loop.exec()
    finished = time.perf_counter() - start if guard.isActive() else None
    if args.shot_final:
        QTimer.singleShot(100, loop.quit)
        loop.exec()
        tab.grab().save(args.shot_final)
    tab.shutdown()
    usage = [resource.getrusage(who) for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)]
    final_score, final_text = panel.score_label.text(), panel.explanation.text()

    def first(test) -> float | None:  # noqa: ANN001
        return next((e[0] for e in events if test(e)), None)

    out = {"first hl": first(lambda e: e[4] is not None),
           "distance": first(lambda e: e[2] == final_score),
           "counts": first(lambda e: e[3] == final_text),
           "exact hl": first(lambda e: e[4] is True),
           "all": finished,
           "cpu": sum(u.ru_utime + u.ru_stime for u in usage),
           "score": final_score, "explanation": final_text,
           "events": [e[:3] for e in events if e[1] in (PANEL, PANEL + "~first")]}
    print(json.dumps(out))
    app.quit()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--app", action="append", default=[], help="an app folder to measure")
    parser.add_argument("--shot-pending")
    parser.add_argument("--shot-final")
    parser.add_argument("--timeout", type=float, default=900.0)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args)
        return 0
    apps = args.app or [str(HERE.parent / "app")]
    results: dict[str, list[dict]] = {app: [] for app in apps}
    for run in range(args.runs):
        for app in apps:
            env = {**os.environ, "PYTHONPATH": app, "QT_QPA_PLATFORM": "offscreen"}
            cmd = [sys.executable, __file__, "--child", "--size", str(args.size),
                   "--timeout", str(args.timeout)]
            for flag in ("shot_pending", "shot_final"):
                if getattr(args, flag) and run == 0 and app == apps[0]:
                    cmd += [f"--{flag.replace('_', '-')}", getattr(args, flag)]
            load = os.getloadavg()[0]
            proc = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)
            lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("{")]
            if not lines:
                print(proc.stderr[-2000:], file=sys.stderr)
                continue
            out = json.loads(lines[-1])
            results[app].append(out)
            cells = " ".join("      -" if out[c] is None else f"{out[c]:7.1f}" for c in COLUMNS)
            print(f"run {run + 1} load {load:4.1f} {app}\n   {cells}   "
                  f"{out['score']}: {out['explanation']}", flush=True)
    print(f"{args.size:,} characters a side, seconds ({' / '.join(COLUMNS)}), medians:")
    for app, runs in results.items():
        cells = []
        for c in COLUMNS:
            values = [r[c] for r in runs if r[c] is not None]
            cells.append(f"{statistics.median(values):7.1f}" if values else "      -")
        print(f"  {' '.join(cells)}   {app}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
