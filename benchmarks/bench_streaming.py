"""`matchlens score` streams: peak memory against the row count, and each input format at 1M rows.

    .venv/bin/python benchmarks/bench_streaming.py                  # both parts
    .venv/bin/python benchmarks/bench_streaming.py --growth 100000,1000000,10000000
    .venv/bin/python benchmarks/bench_streaming.py --formats-rows 1000000 --skip-growth

Targets (issue 12): a 10,000,000-row CSV scored with the default metrics within 600 MB peak
RSS (the run read every row before: 9M rows took 7 GB), and memory that does not grow with the
row count (only the distinct scores and the reasons are kept, for the exact summary). The
formats part prints rows/s and peak memory for the same 1M pairs as CSV, JSON Lines, JSON,
Parquet and .xlsx (a .json document and a workbook are read whole: their peak is expected to
grow). Memory is measured as in bench_score.py: the peak RSS of the largest process
(/usr/bin/time) and the peak PSS of the process tree (a big piece is scored with a forked
worker). The 10M-row dataset is the 1M-row one ten times over, each copy's texts prefixed with
its number so no pair repeats. Timings on a shared 2-core machine are noisy: the load average
is printed.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_score import _load, make_dataset, timed  # noqa: E402 - a sibling script

TARGET_MB = 600
COMMAND = [sys.executable, "-m", "matchlens", "score"]


def repeat_dataset(base: Path, path: Path, rows: int) -> None:
    """`rows` rows from `base` (id, expected, actual), copy k's texts prefixed "k " so every
    pair is new; text-level, so ten million rows take seconds, not minutes."""
    with base.open(encoding="utf-8") as handle:
        header, *lines = handle.read().splitlines(keepends=True)
    written = 0
    with path.open("w", encoding="utf-8") as out:
        out.write(header)
        copy = 0
        while written < rows:
            take = lines[: rows - written]
            if copy == 0:
                out.writelines(take)
            else:
                prefix = f"{copy} "
                out.writelines(_prefixed(line, prefix, copy, len(lines)) for line in take)
            written += len(take)
            copy += 1


def _prefixed(line: str, prefix: str, copy: int, size: int) -> str:
    ident, rest = line.split(",", 1)
    expected, actual = next(csv.reader([rest]))
    return f"{int(ident) + copy * size},\"{prefix}{expected}\",\"{prefix}{actual}\"\n"


def run(data: Path, out: Path, *extra: str) -> tuple[float, int, int]:
    return timed([*COMMAND, str(data), "--expected", "expected", "--actual", "actual",
                  "--quiet", "-o", str(out), *extra])


def growth(tmp: Path, base: Path, counts: list[int]) -> None:
    print(f"\n-- peak memory against rows (CSV, default metrics) -- {_load()}")
    peaks = []
    for rows in counts:
        data = tmp / f"rows{rows}.csv"
        repeat_dataset(base, data, rows)
        elapsed, peak, pss = run(data, tmp / "out.csv")
        memory = max(peak, pss) / 1024
        peaks.append(memory)
        print(f"{rows:>11,} rows: {elapsed:7.1f} s, {rows / elapsed:>9,.0f} rows/s, peak "
              f"{peak / 1024:5.0f} MB (largest process), {pss / 1024:5.0f} MB (all, PSS)")
        data.unlink()
        (tmp / "out.csv").unlink()
    if counts and counts[-1] >= 10_000_000:
        verdict = "PASS" if peaks[-1] <= TARGET_MB else "MISS"
        print(f"10M rows within {TARGET_MB} MB: {verdict} ({peaks[-1]:.0f} MB)")
    if len(peaks) > 1:
        print(f"growth from {counts[0]:,} to {counts[-1]:,} rows: {peaks[-1] - peaks[0]:+.0f} MB "
              f"for {counts[-1] / counts[0]:.0f}x the rows")


def formats(tmp: Path, base: Path, rows: int) -> None:
    import pyarrow as pa
    import pyarrow.csv as pacsv
    import pyarrow.parquet as pq

    print(f"\n-- each format at {rows:,} rows (default metrics) -- {_load()}")
    data = tmp / "pairs.csv"
    repeat_dataset(base, data, rows)
    table = pacsv.read_csv(data, convert_options=pacsv.ConvertOptions(
        column_types={"id": pa.int64(), "expected": pa.string(), "actual": pa.string()}))
    files = {"csv": data}
    files["parquet"] = tmp / "pairs.parquet"
    pq.write_table(table, files["parquet"], row_group_size=100_000)
    records = table.to_pylist()
    files["jsonl"] = tmp / "pairs.jsonl"
    with files["jsonl"].open("w", encoding="utf-8") as out:
        out.writelines(json.dumps(r, ensure_ascii=False) + "\n" for r in records)
    files["json"] = tmp / "pairs.json"
    files["json"].write_text(json.dumps(records, ensure_ascii=False), encoding="utf-8")
    if rows <= 1_048_575:  # an Excel sheet's limit
        import xlsxwriter

        files["xlsx"] = tmp / "pairs.xlsx"
        book = xlsxwriter.Workbook(str(files["xlsx"]), {"constant_memory": True})
        sheet = book.add_worksheet()
        sheet.write_row(0, 0, ["id", "expected", "actual"])
        for i, r in enumerate(records, 1):
            sheet.write_row(i, 0, [r["id"], r["expected"], r["actual"]])
        book.close()
    del records, table
    for kind, path in files.items():
        started = time.perf_counter()
        elapsed, peak, pss = run(path, tmp / "out.csv")
        del started
        print(f"{kind:>8}: {path.stat().st_size / 1e6:6.0f} MB in, {elapsed:6.1f} s, "
              f"{rows / elapsed:>9,.0f} rows/s, peak {peak / 1024:5.0f} MB (largest process), "
              f"{pss / 1024:5.0f} MB (all, PSS)")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--growth", default="100000,1000000,10000000",
                        help="row counts for the memory-growth part")
    parser.add_argument("--formats-rows", type=int, default=1_000_000)
    parser.add_argument("--skip-growth", action="store_true")
    parser.add_argument("--skip-formats", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        base = tmp / "base.csv"
        started = time.perf_counter()
        make_dataset(base, 1_000_000)
        print(f"base dataset: 1,000,000 rows, {base.stat().st_size / 1e6:.0f} MB "
              f"(made in {time.perf_counter() - started:.0f} s)")
        if not args.skip_growth:
            growth(tmp, base, [int(n) for n in args.growth.split(",")])
        if not args.skip_formats:
            formats(tmp, base, args.formats_rows)


if __name__ == "__main__":
    main()
