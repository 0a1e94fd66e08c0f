"""The Python API at scale: `matchlens.score` on a 1M-row DataFrame beside `matchlens score` on
the same rows, and `matchlens.dask` on a LocalCluster of 1 and 2 workers over 5M rows.

    .venv/bin/python benchmarks/bench_api.py [--rows 1000000] [--dask-rows 5000000]
                                             [--skip-dask] [--skip-single]

Targets (issue 15): the API scores a DataFrame at >= 80% of the command's rows/s (the same
scorer; it builds columns instead of writing text) within 2 GB peak RSS at 1M rows; Dask with
2 worker processes reaches a scaling efficiency (time with 1 worker / (2 x time with 2)) of
>= 0.7 on this 2-core machine, where the scheduler and the client share the cores too.

Every run is a separate process, so peak memory is that process's own (/usr/bin/time, and the
PSS of the process tree, as bench_score.py measures). `matchlens.score` in a script forks a
second scoring process for a big table, as the command does; in a notebook (where other
threads run) it scores in one: `notebook` rows run with an idle thread alive to show that.
Figures taken while other work runs are noisy: the load average is printed.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_score import _load, make_dataset, timed  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]

# One API run in a child process: read the CSV with pandas (not timed), score (timed).
API_RUN = r'''
import json, resource, sys, threading, time
import pandas as pd
import matchlens
src, mode = sys.argv[1], sys.argv[2]
if mode == "notebook":  # a live thread, as a Jupyter kernel has: no forked scoring process
    threading.Thread(target=threading.Event().wait, daemon=True).start()
data = src if mode == "path" else pd.read_csv(src, keep_default_na=False, dtype=str)
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
start = time.perf_counter()
scored = matchlens.score(data, expected="expected", actual="actual")
elapsed = time.perf_counter() - start
assert len(scored) == scored.attrs["matchlens"]["rows"]
open(sys.argv[3], "w").write(json.dumps({"seconds": elapsed, "rss_before_kib": before}))
'''

DASK_RUN = r'''
import json, resource, sys, time
import dask, dask.dataframe as dd
from distributed import Client, LocalCluster
import matchlens.dask

def peak_kib():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss

if __name__ == "__main__":
    folder, out, workers = sys.argv[1], sys.argv[2], int(sys.argv[3])
    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                      dashboard_address=None, memory_limit=0) as cluster, Client(cluster) as client:
        client.run(lambda: __import__("matchlens.api.scoring"))  # imports are not the work
        ddf = dd.read_parquet(folder)
        scored = matchlens.dask.score(ddf, expected="expected", actual="actual")
        start = time.perf_counter()
        _, summary = dask.compute(scored.to_parquet(out, compute=False),
                                  matchlens.dask.summary(scored))
        elapsed = time.perf_counter() - start
        peaks = client.run(peak_kib)
    open(sys.argv[4], "w").write(json.dumps({"seconds": elapsed, "rows": summary["rows"],
                      "partitions": ddf.npartitions, "worker_peak_kib": max(peaks.values())}))
'''


def child(script: Path, *args: str) -> tuple[dict, float, int, int]:
    """The child's JSON line, and its wall time, peak RSS and peak PSS of its process tree."""
    out = script.with_suffix(".json")
    elapsed, peak, pss = timed([sys.executable, str(script), *args, str(out)])
    return json.loads(out.read_text()), elapsed, peak, pss


def single(tmp: Path, rows: int) -> None:
    data = tmp / "pairs.csv"
    t0 = time.perf_counter()
    make_dataset(data, rows)
    print(f"dataset: {rows:,} rows, {data.stat().st_size / 1e6:.0f} MB "
          f"(made in {time.perf_counter() - t0:.1f} s); {os.cpu_count()} cores, {_load()}")
    cli_s, cli_peak, cli_pss = timed([sys.executable, "-m", "matchlens", "score", str(data),
                                      "--expected", "expected", "--actual", "actual",
                                      "--quiet", "-o", str(tmp / "cli.csv")])
    cli_rate = rows / cli_s
    print(f"  matchlens score (read, score, write CSV)  {cli_s:6.2f} s  {cli_rate:>10,.0f} "
          f"rows/s  peak {cli_peak / 1024:5.0f} MB, all processes {cli_pss / 1024:5.0f} MB")
    script = tmp / "api_run.py"
    script.write_text(API_RUN, encoding="utf-8")
    for mode, what in (("frame", "DataFrame in, script"), ("notebook", "DataFrame in, notebook"),
                       ("path", "the CSV's path in")):
        result, _, peak, pss = child(script, str(data), mode)
        rate = rows / result["seconds"]
        memory = max(peak, pss)
        extra = (peak - result["rss_before_kib"]) / 1024
        print(f"  matchlens.score ({what:<22}) {result['seconds']:6.2f} s  {rate:>10,.0f} rows/s"
              f"  peak {peak / 1024:5.0f} MB (+{extra:4.0f} MB over the input), all processes "
              f"{pss / 1024:5.0f} MB  [>= 80% of the command: "
              f"{'PASS' if rate >= 0.8 * cli_rate else 'MISS'}; <= 2048 MB: "
              f"{'PASS' if memory <= 2 * 1024 * 1024 else 'MISS'}]")


def parquet_folder(tmp: Path, rows: int, files: int) -> Path:
    """`rows` rows in `files` Parquet files: a million made pairs, repeated with new ids (a
    file never holds the same pair twice, so no partition scores less for repeats)."""
    import pyarrow as pa
    import pyarrow.csv as pacsv
    import pyarrow.parquet as pq

    data = tmp / "dask_pairs.csv"
    t0 = time.perf_counter()
    base = min(rows, 1_000_000)
    make_dataset(data, base, seed=11)
    table = pacsv.read_csv(data, convert_options=pacsv.ConvertOptions(
        column_types={"id": "string", "expected": "string", "actual": "string"}))
    data.unlink()
    folder = tmp / "parquet"
    folder.mkdir()
    size = -(-rows // files)
    for i in range(files):
        start = i * size
        stop = min(start + size, rows)
        piece = table.slice(start % base, stop - start)
        while piece.num_rows < stop - start:  # wrapped past the end of the base
            piece = pa.concat_tables([piece, table.slice(0, stop - start - piece.num_rows)])
        ids = pa.array([str(n) for n in range(start, stop)])
        pq.write_table(piece.set_column(0, "id", ids), folder / f"part-{i:03d}.parquet")
    print(f"dask dataset: {rows:,} rows in {files} Parquet files "
          f"(made in {time.perf_counter() - t0:.1f} s); {_load()}")
    return folder


def with_dask(tmp: Path, rows: int) -> None:
    folder = parquet_folder(tmp, rows, files=20)
    script = tmp / "dask_run.py"
    script.write_text(DASK_RUN, encoding="utf-8")
    times = {}
    for workers in (1, 2):
        result, wall, peak, pss = child(script, str(folder), str(tmp / f"out{workers}"),
                                        str(workers))
        times[workers] = result["seconds"]
        print(f"  matchlens.dask, {workers} worker{'s' if workers > 1 else ' '} "
              f"(score + write Parquet + summary)  {result['seconds']:6.2f} s  "
              f"{result['rows'] / result['seconds']:>10,.0f} rows/s  worker peak "
              f"{result['worker_peak_kib'] / 1024:5.0f} MB, all processes {pss / 1024:5.0f} MB "
              f"({result['partitions']} partitions)")
    efficiency = times[1] / (2 * times[2])
    print(f"  scaling efficiency 1 -> 2 workers: {efficiency:.2f} (speed-up "
          f"{times[1] / times[2]:.2f}x) [>= 0.7: {'PASS' if efficiency >= 0.7 else 'MISS'}]")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--dask-rows", type=int, default=5_000_000)
    parser.add_argument("--skip-single", action="store_true")
    parser.add_argument("--skip-dask", action="store_true")
    args = parser.parse_args()
    os.environ.setdefault("PYTHONPATH", str(ROOT / "app"))
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        if not args.skip_single:
            single(tmp, args.rows)
        if not args.skip_dask:
            with_dask(tmp, args.dask_rows)


if __name__ == "__main__":
    main()
