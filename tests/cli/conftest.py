"""Helpers for running `matchlens score` for real: in-process (fast) and as a subprocess."""

from __future__ import annotations

import csv
import hashlib
import io
import json
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from matchlens.main import main

REPO = Path(__file__).resolve().parents[2]
SAMPLES = REPO / "resources" / "samples"
SAMPLE_CSV = SAMPLES / "qa_extraction_sample.csv"
SAMPLE_JSONL = SAMPLES / "qa_extraction_sample.jsonl"
PYTHON = Path(sys.executable)  # the venv's python when run as the README says
MATCHLENS_SCRIPT = PYTHON.parent / "matchlens"  # the console script pip installed

# The contract's default metrics, in its order (cli.md: "the five text metrics").
DEFAULT_METRICS = ("exact_match", "contains", "levenshtein_distance", "levenshtein_similarity",
                   "jaccard")


@dataclass
class Run:
    code: int
    out: str
    err: str

    @property
    def err_lines(self) -> list[str]:
        return [line for line in self.err.splitlines() if line.strip()]

    def table(self) -> tuple[list[str], list[list[str]]]:
        return parse_csv(self.out)

    def records(self) -> list[dict[str, str]]:
        header, rows = self.table()
        return [dict(zip(header, row, strict=True)) for row in rows]


def parse_csv(text: str) -> tuple[list[str], list[list[str]]]:
    csv.field_size_limit(2**31 - 1)  # the 10 MB cell
    rows = list(csv.reader(io.StringIO(text, newline="")))
    return rows[0], rows[1:]


def read_csv_file(path: Path) -> tuple[list[str], list[list[str]]]:
    return parse_csv(path.read_text(encoding="utf-8"))


def read_jsonl_file(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def snapshot(folder: Path) -> dict[str, str]:
    """Every file under `folder` (relative name -> hash; folders as 'dir')."""
    out = {}
    for path in sorted(folder.rglob("*")):
        rel = str(path.relative_to(folder))
        out[rel] = "dir" if path.is_dir() else sha256(path)
    return out


def run_in_process(capsys, *args) -> Run:
    """`matchlens score ...` through the real entry point, in this process."""
    capsys.readouterr()  # drop anything printed before
    code = main([str(a) for a in args])
    captured = capsys.readouterr()
    run = Run(code, captured.out, captured.err)
    assert_no_traceback(run)
    return run


def run_process(*args, how: str = "module", cwd: Path | None = None,
                env: dict[str, str] | None = None, timeout: float = 60) -> Run:
    """A real process: `python -m matchlens ...` (how="module") or the installed script."""
    command = ([str(PYTHON), "-m", "matchlens"] if how == "module" else [str(MATCHLENS_SCRIPT)])
    full_env = {**os.environ, "PYTHONIOENCODING": "utf-8", **(env or {})}
    done = subprocess.run([*command, *map(str, args)], cwd=cwd, env=full_env,
                          capture_output=True, timeout=timeout)
    run = Run(done.returncode, done.stdout.decode("utf-8"), done.stderr.decode("utf-8"))
    assert_no_traceback(run)
    return run


def assert_no_traceback(run: Run) -> None:
    assert "Traceback" not in run.err, run.err
    assert "Traceback" not in run.out[:10_000]
    assert "Exception ignored" not in run.err, run.err


def assert_one_line_error(run: Run, *needles: str) -> str:
    """Exit 2 and exactly one line on stderr (no traceback), holding every needle."""
    assert run.code == 2, (run.code, run.err)
    assert len(run.err_lines) == 1, run.err
    line = run.err_lines[0]
    for needle in needles:
        assert needle in line, (needle, line)
    return line


# A spreadsheet reads these as numbers; any other cell starting with = + - @ is a formula.
_PLAIN_NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?", re.ASCII)


def as_written(cell: str) -> str:
    """How a text cell appears in the CSV output: formula-safe. The contract names = + - @;
    a leading tab or CR is escaped too (OWASP's list: some spreadsheets skip them first)."""
    if cell[:1] in ("=", "+", "-", "@", "\t", "\r") and not _PLAIN_NUMBER.fullmatch(cell):
        return "'" + cell
    return cell


def score_columns(metrics, variants=None) -> list[str]:
    """The added columns, as the contract orders them."""
    if not variants or len(variants) == 1:
        return [name for m in metrics for name in (m, f"{m}_pass")]
    return [name for v in variants for m in metrics for name in (f"{m}@{v}", f"{m}_pass@{v}")]


@pytest.fixture
def cli(capsys):
    """cli("score", DATA, ...) -> Run, in-process."""
    return lambda *args: run_in_process(capsys, *args)


@pytest.fixture
def sample_csv(tmp_path) -> Path:
    """A copy of the shipped CSV; the test fails if any run changed a byte of it."""
    path = tmp_path / SAMPLE_CSV.name
    shutil.copyfile(SAMPLE_CSV, path)
    before = sha256(path)
    assert before == sha256(SAMPLE_CSV)
    yield path
    assert sha256(path) == before, "the input file was modified"


@pytest.fixture
def sample_jsonl(tmp_path) -> Path:
    path = tmp_path / SAMPLE_JSONL.name
    shutil.copyfile(SAMPLE_JSONL, path)
    before = sha256(path)
    yield path
    assert sha256(path) == before, "the input file was modified"


@pytest.fixture(scope="session")
def sample_rows() -> list[dict[str, str]]:
    """The shipped CSV read with the standard library (the independent reading)."""
    with open(SAMPLE_CSV, newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))
