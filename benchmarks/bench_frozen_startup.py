"""Start-up of the standalone (frozen) app against the installed one, in the same run.

    packaging/build.sh   # once: dist/matchlens/
    QT_QPA_PLATFORM=offscreen .venv/bin/python benchmarks/bench_frozen_startup.py [--runs 7]

Both start with no arguments (the compare tab on the sample pair, the batch tab on the sample
dataset) and measure from launch to an interactive window: MATCHLENS_STARTUP_PROBE (see
matchlens/ui/startup_probe.py, the same probe bench_startup.py injects) prints when the compare
tab's expected editor has painted and the event loop turned once more, then when the Batch tab
is built, and quits. Runs alternate frozen/installed so a busy moment of the machine hits both;
the first run of each warms the disk cache and is not counted. Installed = the console script
`.venv/bin/matchlens` with its bytecode caches, as an installed app has them.

Target (issue 26): frozen median <= 1.2x installed.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGET = 1.2


def one_run(command: list[str], home: Path) -> tuple[float, float]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.setdefault("QT_QPA_PLATFORM", "offscreen")
    # A clean settings folder, the same for both: nothing of the user's settings changes the
    # window (a remembered file, a bigger table).
    env.update(XDG_CONFIG_HOME=str(home / "config"), XDG_DATA_HOME=str(home / "data"))
    start = time.time()
    env["MATCHLENS_STARTUP_PROBE"] = repr(start)
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120,
                          check=False)
    found = {}
    for line in done.stdout.splitlines():
        if line.startswith(("STARTUP ", "BATCH ")):
            found[line.split()[0]] = float(line.split()[1])
    if "STARTUP" in found and "BATCH" in found:
        return found["STARTUP"], found["BATCH"]
    raise RuntimeError(f"{command[0]}: no start-up figure (exit {done.returncode}):\n"
                       f"{done.stderr[-2000:]}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--app", type=Path, default=ROOT / "dist" / "matchlens" / "matchlens")
    parser.add_argument("--installed", type=Path, default=ROOT / ".venv" / "bin" / "matchlens")
    args = parser.parse_args()
    if not args.app.exists():
        print(f"no {args.app}: run packaging/build.sh first", file=sys.stderr)
        return 2
    kinds = {"frozen": [str(args.app)], "installed": [str(args.installed)]}
    shown: dict[str, list[float]] = {k: [] for k in kinds}
    batch: dict[str, list[float]] = {k: [] for k in kinds}
    with tempfile.TemporaryDirectory(prefix="matchlens-bench-") as tmp:
        home = Path(tmp)
        for command in kinds.values():
            one_run(command, home)  # cold: fills the disk cache
        for i in range(args.runs):
            order = list(kinds) if i % 2 == 0 else list(reversed(kinds))
            for kind in order:
                seconds, batch_seconds = one_run(kinds[kind], home)
                shown[kind].append(seconds)
                batch[kind].append(batch_seconds)
                print(f"  {kind:9}  interactive after {seconds:.3f} s, Batch tab built after "
                      f"{batch_seconds:.3f} s", flush=True)
    print(f"start-up to an interactive window, warm, {args.runs} runs each "
          f"({os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}):")
    for kind in kinds:
        print(f"  {kind:9}  median {statistics.median(shown[kind]):.3f} s "
              f"(min {min(shown[kind]):.3f}, max {max(shown[kind]):.3f}); Batch tab built: "
              f"median {statistics.median(batch[kind]):.3f} s")
    ratio = statistics.median(shown["frozen"]) / statistics.median(shown["installed"])
    verdict = "within" if ratio <= TARGET else "OVER"
    print(f"  frozen / installed = {ratio:.2f}x ({verdict} the {TARGET}x target)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
