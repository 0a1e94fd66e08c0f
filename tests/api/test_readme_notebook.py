"""The README's "In a notebook" examples run as written (extracted from README.md)."""

from __future__ import annotations

import re

import pandas as pd

from tests.api.conftest import release_dask_threads
from tests.cli.conftest import REPO


def notebook_blocks() -> list[str]:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    section = text.split("## In a notebook", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```python\n(.*?)```", section, flags=re.DOTALL)


def test_the_readme_notebook_examples_run(monkeypatch):
    blocks = notebook_blocks()
    assert len(blocks) == 2
    monkeypatch.chdir(REPO)  # the example reads the shipped sample by its relative path
    namespace: dict = {}
    exec(compile(blocks[0], "README.md (notebook)", "exec"), namespace)
    scored, summary = namespace["scored"], namespace["summary"]
    assert len(scored) == 200 and "levenshtein_similarity_pass@output_b" in scored
    assert 0 < summary["variants"]["output_b"]["pass_rate"] <= 1
    try:
        exec(compile(blocks[1], "README.md (dask)", "exec"), namespace)
    finally:
        release_dask_threads()
    scored_df, dask_summary = namespace["scored_df"], namespace["summary"]
    assert isinstance(scored_df, pd.DataFrame) and len(scored_df) == 200
    assert dask_summary["rows"] == 200 and dask_summary["partitions"] == 4
