"""The cost of reading .xls error cells and serial 60 with xlrd (core/datasets/xls_scan.py).

    .venv/bin/python benchmarks/bench_xls_scan.py [--rows 60000]

An .xls sheet is read by calamine; xlrd parses it a second time only when calamine's reading
has an empty cell (an error cell reads as one) or a 1900-02-28. Prints read_table's time for a
sheet with no empty cell (calamine alone) and for the same sheet with one empty cell (calamine,
then xlrd), and xlrd's scan alone. Measured 2026-11-26 on the shared 2-core machine, 60,000
rows x 3 columns (5 MB): 0.45 s without an empty cell, 1.9 s with one (scan alone 1.3 s).
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import xlwt

from matchlens.core.datasets import read_table
from matchlens.core.datasets.xls_scan import scan_xls


def write(path: Path, rows: int, hole: bool) -> Path:
    book = xlwt.Workbook()
    sheet = book.add_sheet("S")
    for column, title in enumerate(["expected", "actual", "n"]):
        sheet.write(0, column, title)
    for row in range(1, rows + 1):
        sheet.write(row, 0, f"text {row}")
        if not (hole and row == rows // 2):
            sheet.write(row, 1, f"other {row}")
        sheet.write(row, 2, row * 1.5)
    book.save(str(path))
    return path


def timed(work) -> float:
    start = time.perf_counter()
    work()
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=60_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        full = write(Path(tmp) / "full.xls", args.rows, hole=False)
        holed = write(Path(tmp) / "holed.xls", args.rows, hole=True)
        print(f"{args.rows:,} rows x 3 columns, {full.stat().st_size / 2**20:.1f} MiB")
        print(f"  no empty cell (calamine alone): {timed(lambda: read_table(full)):.2f} s")
        print(f"  one empty cell (then xlrd):     {timed(lambda: read_table(holed)):.2f} s")
        print(f"  xlrd's scan alone:              {timed(lambda: scan_xls(holed, 'S')):.2f} s")


if __name__ == "__main__":
    main()
