"""The reports' own CPU in one process: a file scored once (held in memory), then the three
reports fed every piece and written, timed alone (thread CPU seconds and wall, medians). What
`bench_reports.py` measures whole-process, without the scoring's noise.

    .venv/bin/python benchmarks/bench_reports_feed.py --rows 300000 --rounds 3
    .venv/bin/python benchmarks/bench_reports_feed.py --data big.csv    # a file of your own
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path
from statistics import median

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_score import _load, make_dataset  # noqa: E402 - a sibling script

from matchlens.core.config import Config  # noqa: E402
from matchlens.core.datasets import iter_tables  # noqa: E402
from matchlens.core.output.reports.outputs import ReportOutputs, ReportPaths  # noqa: E402
from matchlens.core.output.reports.rows import report_chunks  # noqa: E402
from matchlens.core.scoring import plan  # noqa: E402
from matchlens.core.scoring.mapping import ColumnMapping  # noqa: E402
from matchlens.core.scoring.pipeline import score_stream  # noqa: E402
from matchlens.core.scoring.tally import Tally  # noqa: E402

THRESHOLDS = ["exact_match.threshold=1", "levenshtein_similarity.threshold=0.7"]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=300_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--data", help="a CSV with expected and actual (else made)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        data = Path(args.data) if args.data else folder / "pairs.csv"
        if not args.data:
            make_dataset(data, args.rows)
        planned = plan.make_plan(plan.shape_config(Config(), overrides=THRESHOLDS), None)
        mapping = ColumnMapping("expected", ("actual",))
        first = next(iter_tables(data, chunk_rows=50_000))
        tally = Tally(first.label, mapping.variants, planned.jobs, unit=first.unit)
        scored = list(score_stream(iter_tables(data, chunk_rows=50_000), mapping,
                                   planned.jobs, tally))
        cpu, wall = [], []
        for _ in range(args.rounds):
            # every round from cold: the reports remember their last diffs (rows.report_chunks)
            getattr(report_chunks, "cache_clear", lambda: None)()
            paths = ReportPaths(folder / "r.html", folder / "s.md", folder / "j.xml")
            c0, w0 = time.thread_time(), time.perf_counter()
            outputs = ReportOutputs(paths, mapping, planned.jobs, source=first.label,
                                    id_column="id")
            for piece, result in scored:
                outputs.feed(piece, result)
            outputs.finish(tally, input_path=None, options={})
            cpu.append(time.thread_time() - c0)
            wall.append(time.perf_counter() - w0)
        size = (folder / "j.xml").stat().st_size
    print(f"{sum(len(p) for p, _ in scored):,} rows: the reports {median(cpu):.2f} s CPU "
          f"(rounds {', '.join(f'{c:.2f}' for c in cpu)}), {median(wall):.2f} s wall; "
          f"results.xml {size / 1e6:.1f} MB; {_load()}")


if __name__ == "__main__":
    main()
