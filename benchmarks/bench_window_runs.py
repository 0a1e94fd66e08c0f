"""The batch window opening a joined run, offscreen: a 1M-row run, a 1M-row references file and
a 1M-row baseline (bench_runs.split: three CSV files, each shuffled, 1% of the ids missing from
each), as `matchlens batch run.csv --id id --references refs.csv --baseline base.csv` opens
them; measured until the Runs view shows its counts.

    QT_QPA_PLATFORM=offscreen .venv/bin/python benchmarks/bench_window_runs.py [--rows N]

Reports: time to read and join, to scored, to the Runs view's counts; the longest gap between
ticks of a 5 ms timer on the GUI thread (the window must not freeze: target <= 100 ms); the
window's peak RSS (ru_maxrss) and the scoring process's largest RSS, summed (the CLI's budget
for all processes is 1.5 GB); CPU seconds of the window process. The files are generated once
(seeded) and kept in the temp folder. The machine is shared: the load average is printed.

Issue 21 item 3 (the window's joins on the CLI's join), 1M rows a file, 2-core machine shared
with ~8 engineers (load average 4.4-8.7), before = 6628c54 (a dict a row), three runs each,
alternated; each figure is one run's (their medians are in the README):

| | before (3 runs) | after (3 runs) |
|---|---|---|
| read and join | 14.9, 15.1, 15.1 s | 8.3, 11.9, 18.0 s |
| window CPU, open to Runs view | 20.4, 19.9, 21.4 s | 12.7, 13.7, 17.2 s |
| CPU of all processes (time -f %U+%S) | 50.3, 48.6, 51.9 s | 37.7, 39.6, 45.9 s |
| window peak RSS | 1,813, 1,809, 1,820 MB | 1,851, 1,854, 1,809 MB |
| scoring process, largest RSS | 931, 920, 920 MB | 922, 931, 922 MB |
| longest gap while reading and joining | 396, 1,199, 323 ms | < 75, < 323, < 418 ms |
| longest gap, open to Runs view | 450, 1,199, 365 ms | 305, 636, 806 ms (scoring) |

A joined column over the opened file's column store (core/datasets/by_column.py: JoinedColumn
keeps the store's column instead of a list of a str a row), `--rows 300000`, before = a868cf4,
three runs each, alternated, load average 1.3-2.7:

| | before | after |
|---|---|---|
| window peak RSS (ru_maxrss) | 796, 762, 799 MB | 629, 650, 649 MB |
| window RSS while resolving columns | 766, 757, 769 MB | 603, 649, 647 MB |
| window + scoring process | 1,101, 1,076, 1,114 MB | 949, 969, 944 MB |
| CPU of all processes (time %U+%S) | 21.8, 14.6, 13.3 s | 12.3, 14.7, 15.3 s |

The join no longer stalls the window (pyarrow texts made a slice at a time; no dict a row);
the gaps left are while scoring and finishing, as before, and grow with the load. Memory is
where it was: the table's texts as Python strings in the window, the kept texts in the
scoring process.
"""

from __future__ import annotations

import argparse
import faulthandler
import os
import resource
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_batch_ui import ChildPeak, GapMeter, report_gaps, wait  # noqa: E402 - siblings
from bench_runs import split  # noqa: E402
from bench_score import make_dataset  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402


def files(rows: int) -> tuple[Path, Path, Path]:
    folder = Path(tempfile.gettempdir()) / f"matchlens_bench_window_runs_{rows}"
    names = [folder / f"{n}.csv" for n in ("run", "refs", "base")]
    if all(p.exists() for p in names):
        return names[0], names[1], names[2]
    folder.mkdir(exist_ok=True)
    print(f"writing three files of {rows:,} rows to {folder} …")
    pairs = folder / "pairs.csv"
    make_dataset(pairs, rows)
    out = split(pairs, folder / "unused.csv", folder)
    pairs.unlink()
    return out


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--trace-gaps", type=Path, metavar="FILE",
                        help="write every thread's stack to FILE when the window misses 40 ms")
    args = parser.parse_args()
    run, refs, base = files(args.rows)
    print(f"{args.rows:,} rows a file ({sum(p.stat().st_size for p in (run, refs, base)) / 1e6:.0f}"
          f" MB in all); load average {os.getloadavg()[0]:.1f}")

    app = QApplication(sys.argv[:1])
    from matchlens.ui import pyside_fixes
    from matchlens.ui.batch import BatchTab
    from matchlens.ui.batch.run_joins import Join
    from matchlens.ui.config_model import ConfigModel

    pyside_fixes.apply()
    tab = BatchTab(ConfigModel())
    tab.resize(1280, 720)
    tab.show()
    app.processEvents()
    meter = GapMeter(args.trace_gaps)
    child_peak = ChildPeak(tab)
    finished: list[float] = []
    tab.sig_finished.connect(lambda: finished.append(time.perf_counter()))
    cpu0 = time.process_time()
    meter.start()
    t0 = time.perf_counter()
    meter.phase = "reading and joining"
    tab.load(run, actuals=["actual"], id_spec="id",
             joins=(Join("reference", refs, None, "expected"),
                    Join("baseline", base, None, "actual")))
    wait(app, lambda: tab.table is not None or bool(finished), 1200)
    read_s = time.perf_counter() - t0
    meter.phase = "resolving columns"
    wait(app, lambda: tab.result is not None or bool(finished), 1200)
    meter.phase = "scoring"
    wait(app, lambda: bool(finished), 3600)
    scored_s = finished[0] - t0
    meter.phase = "finishing (sorts, comparison, Runs view)"
    wait(app, lambda: not tab.is_busy() and bool(tab.variants.runs.shown_counts), 1200)
    total = time.perf_counter() - t0
    cpu = time.process_time() - cpu0
    if tab.message.property("error"):
        print("the window said:", tab.message.text())
        return 1
    print(f"rows joined {len(tab.table):,}; read and join {read_s:.1f} s; scored "
          f"{scored_s:.1f} s; Runs view counted {total:.1f} s; window CPU {cpu:.1f} s "
          f"(user+sys, this process)")
    gap = report_gaps("open, join, score", meter.take())
    faulthandler.cancel_dump_traceback_later()
    tab.shutdown()
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print("window RSS, largest per phase: " + ", ".join(
        f"{phase} {mb:,.0f} MB" for phase, mb in meter.rss.items()))
    print(f"peak memory: window {peak:,.0f} MB (ru_maxrss); scoring process "
          f"{child_peak.mb:,.0f} MB (largest RSS); sum {peak + child_peak.mb:,.0f} MB; "
          f"load average {os.getloadavg()[0]:.1f}")
    print("no freeze (gap <= 100 ms):", "met" if gap <= 100 else "NOT met")
    return 0


if __name__ == "__main__":
    sys.exit(main())
