"""A `matchlens score` run imports only what it uses: what a default run leaves unloaded, and
that the same probe sees a module as soon as a run needs it (so the check can fail)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tests.cli.conftest import SAMPLE_CSV

# What a default run (the five text metrics, a CSV in, a CSV out) must not pay for: sacrebleu
# (~0.2 s), jsonpath-ng (only for `$` specs beyond keys and indexes), openai and the embeddings client (0.6-0.8 s;
# `semantic_similarity` runs only when named), Qt.
HEAVY = ("sacrebleu", "jsonpath_ng", "openai", "httpx", "PySide6", "pyqtgraph",
         "matchlens.embeddings.client", "matchlens.embeddings.cache", "matchlens.ui.app",
         "numba", "pandas", "pyarrow")
# The standard library's share, a few ms each on every run: TOML is parsed only for --config
# or --set (tomllib also loads datetime), a temporary copy is made only of a pipe or standard
# input, a random temporary name needs no OpenSSL (secrets loads hmac and _hashlib), and uuid
# only marks a number JSON cannot hold; the `regex` package compiles only a user's own pattern
# (`ignore_regex:`), and traceback (with linecache and tokenize) formats only a crash report.
# (tempfile is no longer on the list: a run on a file
# asks platformdirs where the user's data folder is, for the thresholds the window may have
# kept there for the dataset — core.dataset_thresholds — and platformdirs imports tempfile.)
UNNEEDED = ("tomllib", "secrets", "hmac", "uuid", "regex", "traceback")

PROBE = """
import json, sys
from matchlens.main import main
code = main(sys.argv[1:])
print(json.dumps({"code": code, "modules": sorted(sys.modules)}))
"""


def loaded_by(tmp_path, *args: str, data: str = str(SAMPLE_CSV)) -> set[str]:
    """The modules a real `matchlens score` process has imported by the time it is done."""
    out = tmp_path / "scored.csv"
    with open(SAMPLE_CSV, "rb") as stdin:  # read only when `data` is "-"
        done = subprocess.run(
            [sys.executable, "-c", PROBE, "score", data, "--expected", "expected",
             "--actual", "output_a", "--quiet", "-o", str(out), *args],
            stdin=stdin, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["code"] == 0 and out.exists()
    return set(report["modules"])


def test_a_default_run_leaves_the_heavy_packages_unloaded(tmp_path):
    loaded = loaded_by(tmp_path)
    assert "matchlens.core.metrics.levenshtein" in loaded  # the run did score
    assert sorted(m for m in HEAVY if m in loaded) == []
    assert sorted(m for m in UNNEEDED if m in loaded) == []


@pytest.mark.parametrize(("args", "module"), [
    (("--metrics", "bleu"), "sacrebleu"),
    # plain keys and indexes are walked without jsonpath-ng; a wildcard needs it
    (("--actual", "$.output_b.*"), "jsonpath_ng"),
])
def test_a_run_that_needs_a_package_imports_it(tmp_path, args, module):
    # the positive control: the probe above would see these if a default run loaded them
    assert module in loaded_by(tmp_path, *args)


def test_the_standard_modules_come_when_a_run_needs_them(tmp_path):
    # positive controls for UNNEEDED: a --set option's value is parsed as TOML; standard
    # input is copied to a temporary file first
    assert "tomllib" in loaded_by(tmp_path, "--set", "jaccard.case_sensitive=false")
    assert "tempfile" in loaded_by(tmp_path, data="-")
    assert "regex" in loaded_by(tmp_path, "--normalise", "ignore_regex:x+")


OWN_PROBE = """
import gc, json, os, sys, threading
import matchlens.main as entry
sys.argv = ["matchlens", *sys.argv[1:]]
collections = sum(g["collections"] for g in gc.get_stats())
leave = entry._finish  # the process ends in there (os._exit): report just before it

def report_then_leave(code):
    print(json.dumps({"code": code, "os_threads": len(os.listdir("/proc/self/task")),
                      "python_threads": threading.active_count(),
                      "collections": sum(g["collections"] for g in gc.get_stats())
                                     - collections}), flush=True)
    return leave(code)

entry._finish = report_then_leave
entry.main()  # no argv: this process's own command line, as the console script runs it
"""


def own_process_score(tmp_path, env: dict[str, str] | None = None) -> dict:
    """A real `score` process run as the console script runs it: its threads at the end (all
    of them, and those Python started) and the garbage collections it made."""
    done = subprocess.run(
        [sys.executable, "-c", OWN_PROBE, "score", str(SAMPLE_CSV), "--expected", "expected",
         "--actual", "output_a", "--quiet", "-o", str(tmp_path / "scored.csv")],
        capture_output=True, text=True, timeout=120, env=env)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["code"] == 0
    return report


def test_loading_sets_off_no_garbage_collection(tmp_path):
    """Importing numpy and every metric allocates enough for ~50 collections that free nothing
    (measured: 50 on this 200-row file without cli.preload, 8 with it: argparse's imports
    before it and the run's own); well under half of them are left."""
    assert own_process_score(tmp_path)["collections"] < 25


@pytest.mark.skipif(not sys.platform.startswith("linux") or len(os.sched_getaffinity(0)) < 2,
                    reason="counts threads in /proc; OpenBLAS starts no pool on one core")
def test_a_headless_run_starts_no_blas_thread_pool(tmp_path):
    """numpy's OpenBLAS starts a thread per core at import (~45 ms of CPU a run) that a
    headless run never uses: every thread of the process is one Python started (the main
    thread and the Ctrl+C watcher); a user's own OPENBLAS_NUM_THREADS still wins, which is
    also the control that this probe sees a BLAS pool when there is one."""
    env = {k: v for k, v in os.environ.items() if k not in ("OPENBLAS_NUM_THREADS",
                                                            "OMP_NUM_THREADS")}
    report = own_process_score(tmp_path, env)
    assert report["os_threads"] == report["python_threads"]
    report = own_process_score(tmp_path, {**env, "OPENBLAS_NUM_THREADS": "2"})
    assert report["os_threads"] == report["python_threads"] + 1  # OpenBLAS's second thread


HEADLESS_PROBE = """
import json, sys
import matchlens.main as entry
sys.argv = ["matchlens", *sys.argv[1:]]
leave = entry._finish  # the process ends in there (os._exit): report just before it

def report_then_leave(code):
    print(json.dumps({"code": code, "modules": sorted(sys.modules)}), flush=True)
    return leave(code)

entry._finish = report_then_leave
entry.main()  # no argv: this process's own command line, as the console script runs it
"""


@pytest.mark.parametrize("command", ["score", "calibrate", "diff"])
def test_a_headless_command_loads_no_window_code(tmp_path, command):
    """`score`, `calibrate` and `diff` run as the console script runs them import no module of
    the window (matchlens.ui) and no Qt; the probe sees what a run loads (its command module)."""
    expected, actual = tmp_path / "expected.txt", tmp_path / "actual.txt"
    expected.write_text("the capital of France is Paris\n", encoding="utf-8")
    actual.write_text("the capital of France is paris\n", encoding="utf-8")
    args = {"score": ["score", str(SAMPLE_CSV), "--expected", "expected", "--actual", "output_a",
                      "--quiet", "-o", str(tmp_path / "scored.csv")],
            "calibrate": ["calibrate", str(SAMPLE_CSV), "--expected", "expected", "--actual",
                          "output_a", "--label", "label", "--metric", "jaccard"],
            "diff": ["diff", str(expected), str(actual)]}[command]
    done = subprocess.run([sys.executable, "-c", HEADLESS_PROBE, *args], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["code"] == 0
    loaded = set(report["modules"])
    assert f"matchlens.cli.{command}" in loaded  # the probe sees the run's modules
    window = sorted(m for m in loaded if m.split(".")[0] == "PySide6"
                    or m == "matchlens.ui" or m.startswith("matchlens.ui."))
    assert window == []


def test_reading_the_command_line_loads_no_reader():
    # `--format`'s choices come from the reader registry, read only when argparse shows or
    # checks them: every start (the window's first paint included) would otherwise import every
    # reader module (~30 ms) before it knows it needs one.
    code = ("import sys; from matchlens.cli.parser import parse_args; "
            "parse_args(['compare', 'a.txt', 'b.txt']); parse_args(['score', 'x.csv', "
            "'--expected', 'e', '--actual', 'a']); "
            "print('matchlens.core.datasets' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60)
    assert done.stdout.strip() == "False", done.stderr
    given = ("import sys; from matchlens.cli.parser import parse_args; "
             "parse_args(['score', 'x', '--expected', 'e', '--actual', 'a', '--format', "
             "'parquet']); print('matchlens.core.datasets' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", given], capture_output=True, text=True,
                          timeout=60)
    assert done.stdout.strip() == "True", done.stderr  # checking a given --format reads it
