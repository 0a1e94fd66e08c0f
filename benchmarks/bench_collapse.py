"""What collapsing unchanged text adds to a keystroke's highlight, at 10k, 100k and 1M characters.

    QT_QPA_PLATFORM=offscreen PYTHONPATH=app .venv/bin/python benchmarks/bench_collapse.py

For each size, two pairs: the keystroke benchmark's (one '#' every 200 characters, lines of ~10
words: differences on most lines, little to fold) and prose in paragraphs with a sentence
changed every ~40 lines (most lines fold). Columns, CPU seconds of this process
(`time.process_time`, so other processes on a shared machine are not counted), minimum of
--runs samples, the samples of the three columns interleaved:

  highlight   `span_table.table_for` in the readable view: the exact script, the readable
              chunks and the moves (what a keystroke computes in a lane before anything shows)
  folds       `core.diff.folding.side_folds` for both sides (the window, after the table)
  apply       `ui.compare.collapse.Collapser.apply` on two real editors holding the texts,
              as after a keystroke: the folds of the new table once more (one character was
              typed into a line, so the blocks are numbered as before)
  +%          (folds + apply) / highlight: what collapsing adds to each keystroke
  toggle      the same apply from nothing folded (turning Collapse on; once, not per key)

The highlight is computed on fresh copies of the texts each time (`core.text.edit_script`
keeps the last scripts by the texts' identity, and a keystroke makes new texts).

Target (issue 25): moves, the ruler and collapsing add at most 10% at 100k characters.
Measured 2026-11-26 (2 cores shared with ~8 other sessions, load ~12; CPU seconds, min of 5):
      chars pair       | highlight   folds   apply |    +% |  toggle
     10,000 keystroke  |    0.0014  0.0003  0.0000 | +21.5% |  0.0004
     10,000 paragraphs |    0.0013  0.0002  0.0000 | +20.8% |  0.0009
    100,000 keystroke  |    0.0126  0.0006  0.0001 |  +5.3% |  0.0009
    100,000 paragraphs |    0.0100  0.0006  0.0003 |  +8.8% |  0.0064
(before the keystroke path touched only the changed blocks, apply was 3.6-5.8 ms at 100k,
+35-64%). Collapsing is off by default and costs nothing then.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_compare_keystroke import make_pair  # noqa: E402

READABLE = {"case_sensitive": True, "granularity": "char", "view": "readable", "normalise": []}
WORDS = ("the of and a to in is was it for on with as by at from that this be are answer model "
         "reference light water sugar energy cell plant oxygen").split()


def paragraphs(size: int, seed: int = 5) -> tuple[str, str]:
    """Prose, a sentence a line, a blank line every 5; the copy changes every 40th line."""
    rng = random.Random(seed)
    lines, length = [], 0
    while length < size:
        line = " ".join(rng.choice(WORDS) for _ in range(rng.randint(6, 16))).capitalize() + "."
        if len(lines) % 6 == 5:
            line = ""
        lines.append(line)
        length += len(line) + 1
    actual = list(lines)
    for i in range(7, len(actual), 40):
        actual[i] = actual[i].replace(" the ", " a ", 1) + " And one more clause."
    return "\n".join(lines) + "\n", "\n".join(actual) + "\n"


def cpu(fn) -> float:  # noqa: ANN001
    start = time.process_time()
    fn()
    return time.process_time() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10000,100000,1000000")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

    from PySide6.QtWidgets import QApplication

    from matchlens.core.diff.folding import no_folds, side_folds
    from matchlens.core.diff.span_table import table_for
    from matchlens.ui.compare.collapse import Collapser
    from matchlens.ui.compare.editors import DiffEditor

    app = QApplication(sys.argv[:1])
    editors = {side: DiffEditor(side) for side in ("expected", "actual")}
    for editor in editors.values():
        editor.resize(600, 700)
        editor.show()
    collapsers = {side: Collapser(editor) for side, editor in editors.items()}
    print(f"{'chars':>9} {'pair':<10} | {'highlight':>9} {'folds':>7} {'apply':>7} | {'+%':>5} | {'toggle':>7}")
    for size in (int(s) for s in args.sizes.split(",")):
        runs = args.runs if size <= 100_000 else 1
        for name, (expected, actual) in (("keystroke", make_pair(size)),
                                         ("paragraphs", paragraphs(size))):
            editors["expected"].set_text(expected)
            editors["actual"].set_text(actual)
            app.processEvents()
            table = table_for(expected, actual, READABLE)
            folds = {side: side_folds(table, side, text) for side, text in
                     (("expected", expected), ("actual", actual))}
            t_high, t_folds, t_apply, t_toggle = [], [], [], []

            def apply_both(folds: dict = folds) -> None:
                for side, collapser in collapsers.items():
                    collapser.apply(folds[side])

            for _ in range(runs):
                e_copy, a_copy = (expected + "x")[:-1], (actual + "x")[:-1]
                t_high.append(cpu(lambda e=e_copy, a=a_copy: table_for(e, a, READABLE)))
                t_folds.append(cpu(lambda e=expected, a=actual, t=table: (
                    side_folds(t, "expected", e), side_folds(t, "actual", a))))
                for collapser in collapsers.values():
                    collapser.apply(no_folds())
                t_toggle.append(cpu(apply_both))
                t_apply.append(cpu(apply_both))
            high, fold, apply = min(t_high), min(t_folds), min(t_apply)
            print(f"{size:>9,} {name:<10} | {high:9.4f} {fold:7.4f} {apply:7.4f} | "
                  f"{(fold + apply) / high:+5.1%} | {min(t_toggle):7.4f}  "
                  f"({len(folds['expected'].ranges)} folds, "
                  f"{folds['expected'].hidden_count():,} lines folded)")
    app.quit()
    return 0


if __name__ == "__main__":
    sys.exit(main())
