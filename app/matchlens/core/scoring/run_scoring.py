"""A run scored across files (no Qt): the outputs of one file, the references of another, an
earlier run as the baseline, joined by id (runs.py) and scored by the one pipeline
(`pipeline.score_values`), the baseline's outputs in the same pass with this run's metrics,
options and thresholds; then what changed (run_summary.py).

`score_runs` returns a `RunsResult`: the joined rows, this run's `BatchResult` and summary
(`Tally`), the baseline's `BatchResult` and the `VariantChange` of every variant. The command
line writes it (core.output.runs_table), the Python API turns it into a DataFrame and the
reports read it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from matchlens.core.datasets import Table, resolve_column
from matchlens.core.datasets.columns import ColumnValues
from matchlens.core.errors import DatasetError
from matchlens.core.scoring.batch import BatchResult, MetricJob
from matchlens.core.scoring.mapping import ColumnMapping
from matchlens.core.scoring.pipeline import score_values
from matchlens.core.scoring.references import reference_lists
from matchlens.core.scoring.run_summary import VariantChange, compare_with_baseline
from matchlens.core.scoring.runs import Joined, join_runs, take, take_reasons
from matchlens.core.scoring.tally import Tally

BASELINE = "baseline"  # the variant name of the baseline's outputs in `RunsResult.baseline`
_SCORED_TOGETHER = "\x00baseline"  # never a SPEC a user can type


@dataclass(frozen=True)
class RunFiles:
    """The files of a run: its outputs (`run`), and where given the references and the
    baseline (with the SPEC of the baseline's output), all matched on `id`."""

    run: Table
    id: str
    references: Table | None = None
    baseline: Table | None = None
    baseline_actual: str | None = None
    # False for a piece of a join made elsewhere (a Dask partition): sharing no id is fine
    require_common: bool = True

    def __post_init__(self) -> None:
        if self.baseline is not None and not self.baseline_actual:
            raise ValueError("a baseline needs the SPEC of its outputs (baseline_actual)")


@dataclass
class RunsResult:
    """Everything a joined run gives, one entry per joined row (runs.Joined's order)."""

    joined: Joined
    mapping: ColumnMapping
    result: BatchResult  # this run's variants
    tally: Tally  # this run's summary (the pass rate's denominator: every joined row)
    expected: list[str | None]  # the reference text of each row ("" with several references)
    baseline: BatchResult | None = None  # one variant, BASELINE
    baseline_outputs: list[str | None] | None = None
    changes: list[VariantChange] = field(default_factory=list)
    # rows with a reference and no output: no score, `_pass` false (a missing case is not a
    # passing case); only when the references come from their own file
    unanswered: np.ndarray | None = None

    @property
    def regressed_rows(self) -> int:
        """The most rows any variant regressed (the `--fail-on-regression` gate's count)."""
        return max((change.regressed_rows for change in self.changes), default=0)


def score_runs(files: RunFiles, mapping: ColumnMapping, jobs: Sequence[MetricJob]) -> RunsResult:
    """Join `files` by id and score them (see the module). DatasetError for a bad id (missing
    column, repeated, absent from a row, no id in common) or an unresolvable SPEC."""
    run, refs, base = files.run, files.references, files.baseline
    joined = join_runs(run, files.id, refs, base, require_common=files.require_common)
    n = len(joined)
    lines = _lines(joined, run, refs, base)
    source_rows = joined.reference_rows if refs is not None else joined.run_rows
    source = refs if refs is not None else run
    references = None
    missing_groups: list[tuple[str, dict[int, str], np.ndarray]] = []
    if mapping.expected_literal:
        expected = [mapping.expected] * n
    elif mapping.expected_any:
        lists = reference_lists(source, mapping.expected)
        references = take(lists.lists, source_rows)
        expected = ["" if r is not None else None for r in references]
        missing_groups.append((f"no reference at {mapping.expected}",
                               take_reasons(_as_column(lists), source_rows),
                               np.array([r is None for r in references], dtype=bool)))
    else:
        column = resolve_column(source, mapping.expected)
        expected = take(column.values, source_rows)
        reasons = take_reasons(column, source_rows)
        if refs is None and base is not None:
            _fill_from_baseline(expected, reasons, base, mapping.expected, joined)
        missing_groups.append((_label("reference", mapping.expected), reasons,
                               np.array([e is None for e in expected], dtype=bool)))
    if refs is not None:
        lacking = joined.reference_rows < 0
        reasons = _sentences(lacking & joined.in_run, lines, run, f"its id is not in {refs.label}")
        if base is not None:
            reasons.update(_sentences(lacking & ~joined.in_run, lines, base,
                                      f"its id is not in {refs.label}"))
        missing_groups.append((f"no reference for the id in {refs.label}", reasons, lacking))
    actuals: dict[str, list] = {}
    columns = {spec: resolve_column(run, spec) for spec in mapping.variants}
    for spec, column in columns.items():
        actuals[spec] = take(column.values, joined.run_rows)
    baseline_outputs = None
    if base is not None:
        column = resolve_column(base, files.baseline_actual or "")
        baseline_outputs = take(column.values, joined.baseline_rows)
        actuals[_SCORED_TOGETHER] = baseline_outputs
    scored = score_values(expected, actuals, jobs, references=references)
    result = _only(scored, mapping.variants)
    tally = Tally(run.label, mapping.variants, list(jobs), unit=run.unit)
    tally.add_notes([*run.notes, *(refs.notes if refs is not None else [])])
    unanswered = None
    if refs is not None:
        unanswered = ~joined.in_run & (joined.reference_rows >= 0)
    missing = {}
    for spec, column in columns.items():
        groups = list(missing_groups)
        groups.append((_label("output", spec), take_reasons(column, joined.run_rows),
                       joined.in_run & np.array([a is None for a in actuals[spec]], dtype=bool)))
        if unanswered is not None:
            groups.append((f"no output for the id in {run.label}",
                           _sentences(unanswered, lines, refs, f"its id is not in {run.label}"),
                           unanswered))
        missing[spec] = groups
    tally.add(result, lines, missing)
    out = RunsResult(joined, mapping, result, tally, expected, unanswered=unanswered)
    if base is not None:
        out.baseline = _only(scored, [_SCORED_TOGETHER], rename=BASELINE)
        out.baseline_outputs = baseline_outputs
        out.changes = compare_with_baseline(result, out.baseline, BASELINE,
                                            joined.in_baseline, joined.in_run)
    return out


def _label(role: str, spec: str) -> str:
    return f"no {role} at {spec}" if spec.startswith("$") else f"no {role} in column {spec!r}"


def _as_column(lists) -> ColumnValues:
    return ColumnValues(lists.lists, lists.reasons)


def _lines(joined: Joined, run: Table, refs: Table | None, base: Table | None) -> list[int]:
    """Each joined row's line: in the run, else in the references, else in the baseline."""
    lines = np.zeros(len(joined), dtype=np.int64)
    for table, rows in ((base, joined.baseline_rows), (refs, joined.reference_rows),
                        (run, joined.run_rows)):
        if table is None or rows is None:
            continue
        present = rows >= 0
        lines[present] = np.asarray(table.lines, dtype=np.int64)[rows[present]]
    return lines.tolist()


def _sentences(mask: np.ndarray, lines: list[int], table: Table, why: str) -> dict[int, str]:
    """The reason of each row in `mask`, in words the summary groups (numbers aside)."""
    return {int(i): f"{table.label}, {table.unit} {lines[i]}: {why}"
            for i in np.flatnonzero(mask)}


def _fill_from_baseline(expected: list, reasons: dict[int, str], base: Table, spec: str,
                        joined: Joined) -> None:
    """Without a references file the run's own references are used; a row only the baseline
    has takes the baseline file's reference at the same SPEC, where it has one."""
    gone = np.flatnonzero(joined.in_baseline & ~joined.in_run)
    if not len(gone):
        return
    try:
        column = resolve_column(base, spec, require_match=False)
    except DatasetError:
        return
    rows = joined.baseline_rows
    for i in gone.tolist():
        expected[i] = column.values[rows[i]]
        reasons.pop(i, None)


def _only(result: BatchResult, variants: list[str], rename: str | None = None) -> BatchResult:
    """The columns of some variants of a BatchResult (renamed, for the baseline's)."""
    def name(variant: str) -> str:
        return rename if rename is not None else variant

    out = BatchResult(result.rows, [name(v) for v in variants], result.jobs, done=result.done)
    for (variant, metric_id) in result.keys():  # noqa: SIM118 - a method, not a dict
        if variant in variants:
            key = (name(variant), metric_id)
            out.scores[key] = result.scores[(variant, metric_id)]
            out.status[key] = result.status[(variant, metric_id)]
            out.messages[key] = result.messages.get((variant, metric_id), {})
            if (variant, metric_id) in result.refs:
                out.refs[key] = result.refs[(variant, metric_id)]
    return out
