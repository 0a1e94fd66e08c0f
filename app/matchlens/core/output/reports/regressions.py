"""The reports of a run joined across files (`score --references/--baseline --id`): the joined
rows handed to the reports in pieces, and the baseline's regressions section.

A joined run is held whole (core.scoring.run_scoring's `RunsResult`), so its rows are cut into
pieces of `PIECE_ROWS` and each becomes a small in-memory Table whose columns are named by the
run's own SPECs (`resolve_column` takes a column name before a JSONPath): the reports' collector
reads it as it reads a piece of a one-file run. Only the public outputs of the join are read:
the joined ids and rows, this run's and the baseline's scores, the change labels per row.

The regressions section, per variant: the counts per metric (the summary's labels, mean delta
with its interval, the sign test) and the regressed rows, worst first — most thresholded metrics
regressed, then the largest move in the bad direction of each thresholded metric in the run's
order (a score lost counts as the largest), then the row order — each shown three ways: the reference, the baseline's output
against it and this output against it (the chunks `matchlens diff --json` gives).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from matchlens.core.datasets import Table, resolve_column
from matchlens.core.metrics.registry import STATUS_SCORED
from matchlens.core.output.reports.model import (
    MetricChangeCounts,
    Regression,
    RegressionSection,
    VariantRegressions,
)
from matchlens.core.output.reports.rows import failing_sentence, fails, row_diff
from matchlens.core.results import Direction
from matchlens.core.scoring.batch import BatchResult
from matchlens.core.scoring.references import parse_references, reference_lists
from matchlens.core.scoring.run_files import KeyedFile
from matchlens.core.scoring.run_scoring import BASELINE, RunsResult
from matchlens.core.scoring.run_summary import REGRESSED
from matchlens.core.scoring.runs import take

PIECE_ROWS = 20_000
ID_COLUMN = "\x00id"  # the joined ids' column: never a name a file has


@dataclass(frozen=True)
class JoinedTexts:
    """The texts of every joined row: the reference cell (a JSON array's text with
    --expected-any), each variant's output, the baseline's output, the id and its line."""

    expected: list[str | None]
    actual: dict[str, list[str | None]]
    ids: list[str]
    lines: list[int]
    unit: str


def joined_texts(runs: RunsResult, run: Table, references: Table | None = None,
                 baseline: Table | None = None) -> JoinedTexts:
    """The texts the reports show, gathered in the joined order from the files."""
    joined, mapping = runs.joined, runs.mapping
    expected = list(runs.expected)
    if mapping.expected_any and not mapping.expected_literal:
        source = references if references is not None else run
        rows = joined.reference_rows if references is not None else joined.run_rows
        if isinstance(source, KeyedFile):  # read narrow: the cells' texts were kept
            cells = [_references_or_none(v) for v in source.values[mapping.expected].to_pylist()]
        else:
            cells = reference_lists(source, mapping.expected).lists
        lists = take(cells, rows)
        expected = [None if refs is None else json.dumps(refs, ensure_ascii=False)
                    for refs in lists]
    actual = {spec: take(_values(run, spec), joined.run_rows) for spec in mapping.variants}
    lines = np.zeros(len(joined), dtype=np.int64)
    for table, rows in ((baseline, joined.baseline_rows), (references, joined.reference_rows),
                        (run, joined.run_rows)):
        if table is not None and rows is not None:
            present = rows >= 0
            lines[present] = np.asarray(table.lines, dtype=np.int64)[rows[present]]
    return JoinedTexts(expected, actual, list(joined.ids), lines.tolist(), run.unit)


def _references_or_none(cell: str | None) -> list[str] | None:
    """A cell's references; None where it has none (its reason was said when it was scored)."""
    try:
        return parse_references(cell)
    except ValueError:
        return None


def _values(table: Table | KeyedFile, spec: str) -> list[str | None]:
    """A SPEC's texts in a file's row order: a whole table resolves it; a file read narrow
    for the join (run_files.KeyedFile) kept it."""
    if isinstance(table, KeyedFile):
        return table.values[spec].to_pylist()
    return resolve_column(table, spec, require_match=False).values


def result_rows(result: BatchResult, start: int, stop: int) -> BatchResult:
    """Rows [start, stop) of a result, as a result of their own."""
    n = max(0, min(stop, result.rows) - start)
    out = BatchResult(n, list(result.variants), list(result.jobs),
                      {k: v[start:start + n] for k, v in result.scores.items()},
                      {k: v[start:start + n] for k, v in result.status.items()},
                      {k: {r - start: m for r, m in v.items() if start <= r < start + n}
                       for k, v in result.messages.items()}, n)
    out.refs.update({k: v[start:start + n] for k, v in result.refs.items()})
    return out


def joined_pieces(runs: RunsResult, texts: JoinedTexts, label: str,
                  piece_rows: int = PIECE_ROWS
                  ) -> Iterator[tuple[Table, BatchResult, dict[str, np.ndarray]]]:
    """The joined rows as (piece table, its scores, per variant the rows that regressed)."""
    mapping = runs.mapping
    expected_name = None if mapping.expected_literal else mapping.expected
    names = [ID_COLUMN, *([expected_name] if expected_name else []), *mapping.variants]
    codes = {change.variant: change.codes for change in runs.changes}
    for start in range(0, len(texts.ids), piece_rows):
        stop = min(start + piece_rows, len(texts.ids))
        columns = [texts.ids[start:stop]]
        if expected_name:
            columns.append(texts.expected[start:stop])
        columns += [texts.actual[spec][start:stop] for spec in mapping.variants]
        rows = [{name: value for name, value in zip(names, cells, strict=True)
                 if value is not None} for cells in zip(*columns, strict=True)]
        piece = Table(Path(label), names, rows, texts.lines[start:stop], "records", None,
                      "utf-8", name=label, unit=texts.unit)
        regressed = {v: c[start:stop] == REGRESSED for v, c in codes.items()}
        yield piece, result_rows(runs.result, start, stop), regressed


def regression_section(runs: RunsResult, texts: JoinedTexts, baseline_label: str,
                       worst: int) -> RegressionSection | None:
    """The baseline's section of the reports (None without a baseline)."""
    if runs.baseline is None or runs.baseline_outputs is None:
        return None
    variants = []
    for change in runs.changes:
        metrics = tuple(
            MetricChangeCounts(metric_id, m.counts, m.comparison.n, m.comparison.mean_diff,
                               m.comparison.ci_low, m.comparison.ci_high,
                               m.comparison.confidence, m.comparison.p_value,
                               m.comparison.sentence(metric_id))
            for metric_id, m in change.metrics.items())
        order = _worst_first(runs, change)[: max(0, worst)]
        rows = tuple(_regression(runs, texts, change.variant, int(i)) for i in order)
        variants.append(VariantRegressions(change.variant, change.regressed_rows,
                                           change.improved_rows, metrics, rows))
    return RegressionSection(baseline_label, tuple(variants), worst)


def _worst_first(runs: RunsResult, change) -> np.ndarray:
    """The regressed rows of one variant, worst first (see the module)."""
    rows = np.flatnonzero(change.codes == REGRESSED)
    if not len(rows):
        return rows
    thresholded = [job for job in runs.result.jobs if job.threshold is not None]
    flipped = sum((change.metrics[job.id].codes[rows] == REGRESSED).astype(np.int64)
                  for job in thresholded)
    drops = []
    for job in thresholded:
        delta = change.metrics[job.id].delta[rows]
        drop = -delta if job.spec.direction is Direction.MAX else delta
        drops.append(np.where(np.isnan(drop), np.inf, drop))
    # np.lexsort: the last key sorts first
    return rows[np.lexsort((rows, *(-d for d in reversed(drops)), -np.asarray(flipped)))]


def _scores(result: BatchResult, variant: str, row: int) -> dict[str, float | None]:
    return {job.id: (float(result.scores[(variant, job.id)][row])
                     if result.status[(variant, job.id)][row] == STATUS_SCORED else None)
            for job in result.jobs}


def _reference(cell: str | None, result: BatchResult, variant: str, row: int) -> str | None:
    """With --expected-any, the reference the first metric found best for this output."""
    if cell is None or not cell.lstrip().startswith("["):
        return cell
    try:
        refs = parse_references(cell) or []
    except ValueError:
        return cell
    best = result.refs.get((variant, result.jobs[0].id)) if result.jobs else None
    if best is not None and 0 <= best[row] < len(refs):
        return refs[int(best[row])]
    return refs[0] if refs else cell


def _regression(runs: RunsResult, texts: JoinedTexts, variant: str, row: int) -> Regression:
    result = runs.result
    base = runs.baseline if runs.baseline is not None else BatchResult.empty(
        result.rows, [BASELINE], result.jobs)
    outputs = runs.baseline_outputs or [None] * result.rows
    any_refs = runs.mapping.expected_any and not runs.mapping.expected_literal
    cell = runs.mapping.expected if runs.mapping.expected_literal else texts.expected[row]
    expected = _reference(cell, result, variant, row) if any_refs else cell
    scores = _scores(result, variant, row)
    failing = [failing_sentence(job.id, s, float(job.threshold), job.spec.direction,
                                job.spec.integer)
               for job in result.jobs if job.threshold is not None
               and (s := scores[job.id]) is not None
               and fails(s, float(job.threshold), job.spec.direction)]
    now = row_diff(index=row, line=texts.lines[row], row_id=texts.ids[row], variant=variant,
                   expected=expected, actual=texts.actual[variant][row], scores=scores,
                   failing=failing)
    base_expected = _reference(cell, base, BASELINE, row) if any_refs else cell
    then = row_diff(index=row, line=texts.lines[row], row_id=texts.ids[row], variant=BASELINE,
                    expected=base_expected, actual=outputs[row],
                    scores=_scores(base, BASELINE, row))
    # with --expected-any another reference may have been best for the baseline's output
    other = then.expected if then.expected != now.expected else None
    return Regression(now, then.actual, then.chunks, then.scores, other)
