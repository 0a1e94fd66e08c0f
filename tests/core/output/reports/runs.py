"""Test helper: score columns held in memory in pieces and feed the reports, as
`matchlens score` does (core.scoring.pipeline.score_stream → core.output.reports); and a run
joined with its baseline, as `score --baseline --id` does (core.scoring.run_scoring →
reports.outputs.write_joined_reports)."""

from __future__ import annotations

from pathlib import Path

from matchlens.core.config import Config
from matchlens.core.datasets import table_from_columns
from matchlens.core.output.reports.model import ReportData
from matchlens.core.output.reports.outputs import (
    ReportOutputs,
    ReportPaths,
    write_joined_reports,
)
from matchlens.core.scoring import plan
from matchlens.core.scoring.mapping import ColumnMapping
from matchlens.core.scoring.pipeline import score_stream
from matchlens.core.scoring.run_scoring import RunFiles, score_runs
from matchlens.core.scoring.tally import Tally

THRESHOLDS = ("levenshtein_similarity.threshold=0.7", "exact_match.threshold=1")


def run_reports(folder: Path, columns: dict[str, list], *, actual=("actual",), worst: int = 50,
                piece_rows: int = 1_000, overrides=THRESHOLDS,
                metrics: str = "exact_match,levenshtein_similarity,levenshtein_distance",
                id_column: str | None = None, label_column: str | None = None,
                html: bool = True, markdown: bool = True, junit: bool = True,
                helper: bool = False) -> ReportData:
    """`helper`: the JUnit testcases and the hash worked out by the forked report helper, as
    `matchlens score` does where it can fork (it must start: asserted)."""
    config = plan.shape_config(Config(), overrides=list(overrides))
    planned = plan.make_plan(config, metrics)
    whole = table_from_columns(columns, name="data.csv")
    pieces = [whole.piece(i, i + piece_rows) for i in range(0, max(len(whole), 1), piece_rows)]
    mapping = ColumnMapping("expected", tuple(actual))
    tally = Tally(whole.label, mapping.variants, planned.jobs, unit=whole.unit)
    paths = ReportPaths(folder / "r.html" if html else None,
                        folder / "s.md" if markdown else None,
                        folder / "j.xml" if junit else None, worst)
    outputs = ReportOutputs(paths, mapping, planned.jobs, source=whole.label,
                            id_column=id_column, label_column=label_column, helper=helper)
    assert not helper or outputs.helper is not None, "the report helper did not start"
    try:
        for piece, result in score_stream(pieces, mapping, planned.jobs, tally):
            outputs.feed(piece, result)
        return outputs.finish(tally, input_path=None, options={})
    finally:
        outputs.close()


def run_joined_reports(folder: Path, run: dict[str, list], baseline: dict[str, list], *,
                       actual: str = "actual", worst: int = 50, overrides=THRESHOLDS,
                       metrics: str = "exact_match,levenshtein_similarity",
                       html: bool = True, markdown: bool = True, junit: bool = True
                       ) -> ReportData:
    """A run and its baseline (columns in memory, both with `id`, `expected` and `actual`)
    joined on `id` and reported as `score --baseline --id` does."""
    config = plan.shape_config(Config(), overrides=list(overrides))
    planned = plan.make_plan(config, metrics)
    today = table_from_columns(run, name="today.jsonl")
    before = table_from_columns(baseline, name="yesterday.jsonl")
    mapping = ColumnMapping("expected", (actual,))
    runs = score_runs(RunFiles(today, "id", None, before, actual), mapping, planned.jobs)
    paths = ReportPaths(folder / "r.html" if html else None,
                        folder / "s.md" if markdown else None,
                        folder / "j.xml" if junit else None, worst)
    return write_joined_reports(paths, runs, today, None, before, options={})
