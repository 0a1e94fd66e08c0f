"""A `matchlens score` run imports only what it uses: what a default run leaves unloaded, and
that the same probe sees a module as soon as a run needs it (so the check can fail)."""

from __future__ import annotations

import json
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

PROBE = """
import json, sys
from matchlens.main import main
code = main(sys.argv[1:])
print(json.dumps({"code": code, "modules": sorted(sys.modules)}))
"""


def loaded_by(tmp_path, *args: str) -> set[str]:
    """The modules a real `matchlens score` process has imported by the time it is done."""
    out = tmp_path / "scored.csv"
    done = subprocess.run(
        [sys.executable, "-c", PROBE, "score", str(SAMPLE_CSV), "--expected", "expected",
         "--actual", "output_a", "--quiet", "-o", str(out), *args],
        capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["code"] == 0 and out.exists()
    return set(report["modules"])


def test_a_default_run_leaves_the_heavy_packages_unloaded(tmp_path):
    loaded = loaded_by(tmp_path)
    assert "matchlens.core.metrics.levenshtein" in loaded  # the run did score
    assert sorted(m for m in HEAVY if m in loaded) == []


@pytest.mark.parametrize(("args", "module"), [
    (("--metrics", "bleu"), "sacrebleu"),
    # plain keys and indexes are walked without jsonpath-ng; a wildcard needs it
    (("--actual", "$.output_b.*"), "jsonpath_ng"),
])
def test_a_run_that_needs_a_package_imports_it(tmp_path, args, module):
    # the positive control: the probe above would see these if a default run loaded them
    assert module in loaded_by(tmp_path, *args)
