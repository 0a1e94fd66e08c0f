"""`matchlens score --html --markdown --junit` at scale: the report's size and what the three
outputs add to the run's time.

    .venv/bin/python benchmarks/bench_reports.py                 # 1M rows, 2 rounds
    .venv/bin/python benchmarks/bench_reports.py --rows 100000 --rounds 1

Targets (issue 23): with a 1M-row run the HTML report is at most 5 MB (only the listed rows
are embedded) and the three outputs add at most 10% to the run's time. The same dataset as
bench_score.py (id, expected, actual; 30% of the outputs equal their reference) with
exact_match ≥ 1 and levenshtein_similarity ≥ 0.7, so most rows fail one metric: every failing
row gets a readable diff in the JUnit file. The runs alternate (plain, with reports) so a
change in the machine's load hits both; the shared 2-core machine is noisy: the load average
is printed. The best of the rounds of each is compared.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_score import _load, make_dataset, timed  # noqa: E402 - a sibling script

HTML_MB, OVERHEAD = 5.0, 0.10


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        data = folder / "pairs.csv"
        make_dataset(data, args.rows)
        base = [sys.executable, "-m", "matchlens", "score", str(data), "--expected", "expected",
                "--actual", "actual", "--quiet", "--set", "exact_match.threshold=1",
                "--set", "levenshtein_similarity.threshold=0.7", "-o", str(folder / "out.csv")]
        reports = ["--html", str(folder / "r.html"), "--markdown", str(folder / "s.md"),
                   "--junit", str(folder / "j.xml")]
        plain, full = [], []
        for _ in range(args.rounds):
            plain.append(timed(base)[0])
            full.append(timed(base + reports)[0])
        sizes = {name: (folder / name).stat().st_size for name in ("r.html", "s.md", "j.xml")}
    added = min(full) / min(plain) - 1
    print(f"{args.rows:,} rows, {_load()}")
    print(f"  score alone:        {min(plain):7.1f} s  (rounds: "
          f"{', '.join(f'{t:.1f}' for t in plain)})")
    print(f"  with the 3 reports: {min(full):7.1f} s  (rounds: "
          f"{', '.join(f'{t:.1f}' for t in full)})  +{added:.1%} (target ≤ {OVERHEAD:.0%})")
    print(f"  report.html {sizes['r.html'] / 1e6:.2f} MB (target ≤ {HTML_MB} MB), "
          f"summary.md {sizes['s.md']:,} characters' bytes, results.xml "
          f"{sizes['j.xml'] / 1e6:.1f} MB")


if __name__ == "__main__":
    main()
