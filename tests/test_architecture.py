"""The core/ui split is a checked contract, not a convention."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_import_linter_contracts_hold():
    lint = Path(sys.executable).with_name("lint-imports")
    done = subprocess.run([str(lint)], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr


def test_core_and_cli_leave_qt_and_openai_unloaded():
    code = (
        "import sys, matchlens.core.scoring.batch, matchlens.core.config, matchlens.cli.parser, "
        "matchlens.cli.score, matchlens.core.metrics.registry as r; r.all_metrics(); "
        "bad = [m for m in ('PySide6', 'pyqtgraph', 'superqt', 'openai', 'matchlens.ui') "
        "if m in sys.modules]; print(bad); sys.exit(1 if bad else 0)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr


def test_ruff_finds_nothing():
    ruff = Path(sys.executable).with_name("ruff")
    done = subprocess.run([str(ruff), "check", "app", "tests", "benchmarks"], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
