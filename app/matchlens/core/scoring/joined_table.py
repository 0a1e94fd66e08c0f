"""A run joined with other files by id as ONE table the window opens and scores (no Qt): the
opened file's rows, then a column for each file joined to it — the references of another file,
a baseline run's outputs, another run's outputs (one more variant) — matched by id.

`score --references/--baseline` joins once and scores (run_scoring.py); the window joins step by
step (`matchlens batch --references`, then "Add a run…", …) and scores the joined table with its
ordinary mapping, so the table, the plots and the Variants view need nothing new. The rows and
their order are the core join's (runs.join_runs): the opened file's rows in its order, then each
joined file's ids the table lacks, in that file's order. Ids are compared as text, each file's
ids must be unique and present, and a file sharing no id is an error (runs.key_values).

Which file each row comes from is kept (`present`), so "new" and "gone" are the core's labels
(run_summary.compare_with_baseline).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from matchlens.core.datasets import Table, resolve_column
from matchlens.core.datasets.source import gc_paused, settle
from matchlens.core.errors import DatasetError
from matchlens.core.scoring.batch import BatchResult, MetricJob
from matchlens.core.scoring.run_summary import (
    VariantChange,
    compare_with_baseline,
    metric_codes,
    row_codes,
)
from matchlens.core.scoring.runs import key_values, take

OPENED = ""  # `present`'s key for the opened file's own rows (its output columns)
ROLES = ("reference", "baseline", "run")


@dataclass(frozen=True)
class JoinedRun:
    """The joined table (kind "records": a dict per row), the column holding each row's id,
    and for each joined column the rows its own file has (`present[OPENED]`: the opened
    file's rows)."""

    table: Table
    id_column: str
    present: dict[str, np.ndarray] = field(default_factory=dict)
    reference: str | None = None  # the column holding another file's references
    baseline: str | None = None  # the column holding the baseline run's outputs
    runs: tuple[str, ...] = ()  # columns holding other runs' outputs (added variants)
    sources: dict[str, str] = field(default_factory=dict)  # joined column -> its file's label

    @property
    def in_run(self) -> np.ndarray:
        return self.present[OPENED]

    def presence(self, column: str) -> np.ndarray:
        """The rows whose output in `column` comes from that column's file (an added run's, the
        baseline's; the opened file's for any other column)."""
        return self.present.get(column, self.in_run)


def start(table: Table, id_spec: str) -> JoinedRun:
    """The opened file as a joined table of one file: DatasetError for an id missing from a
    row or given to two rows (both named)."""
    ids = key_values(table, id_spec)
    id_column = id_spec if id_spec in table.column_index else _free_name(table.columns, "id")
    columns = list(table.columns) if id_column in table.columns else [id_column,
                                                                       *table.columns]
    with gc_paused():  # a million new dicts, no cycles: see source.settle
        if table.is_delimited:
            names = table.columns
            rows = [dict(zip(names, row, strict=False)) for row in table.rows]
        else:
            rows = [dict(row) for row in table.rows]
        if id_column not in table.column_index:
            for row, key in zip(rows, ids, strict=True):
                row[id_column] = key
        settle(rows)
    joined = replace(table, columns=columns, rows=rows, kind="records", delimiter=None,
                     name=table.label, repeated={})
    return JoinedRun(joined, id_column, {OPENED: np.ones(len(rows), dtype=bool)})


def add_file(run: JoinedRun, other: Table, id_spec: str, value_spec: str, role: str,
             expected: str | None = None) -> JoinedRun:
    """`run` with `other`'s values at `value_spec` as one more column, matched on `id_spec`
    (the key of `other`'s rows; the joined table's own ids are in its id column). `run`'s row
    dicts are extended in place (a million copies cost seconds): use the result, not `run`.

    `role` "reference" (the references), "baseline" (an earlier run's outputs) or "run" (another
    run's outputs, one more variant). A baseline row the table lacks ("gone") takes the
    baseline file's reference at `expected` (the mapping's expected SPEC), where it has one, as
    `score --baseline` does without a references file.
    """
    if role not in ROLES:
        raise ValueError(f"role must be one of {ROLES}, not {role!r}")
    table = run.table
    mine = [row[run.id_column] for row in table.rows]
    theirs = key_values(other, id_spec)
    where = pc.fill_null(pc.index_in(pa.array(theirs, pa.string()),
                                     value_set=pa.array(mine, pa.string())), -1).to_numpy()
    found = where >= 0
    if mine and theirs and not found.any():
        raise DatasetError(f"none of the {len(mine):,} ids of {table.label} is in "
                           f"{other.label} (id {id_spec}; its first id is {theirs[0]!r}, "
                           f"the table's {mine[0]!r})")
    new = np.flatnonzero(~found)
    n = len(mine) + len(new)
    other_rows = np.full(n, -1, dtype=np.int64)
    other_rows[where[found]] = np.flatnonzero(found)
    other_rows[len(mine):] = new
    values = take(resolve_column(other, value_spec).values, other_rows)
    name = _column_name(run, other, role)
    rows = list(table.rows)
    lines = list(table.lines)
    other_lines = other.lines
    with gc_paused():
        for i in new.tolist():
            rows.append({run.id_column: theirs[i]})
            lines.append(other_lines[i])
        for row, value in zip(rows, values, strict=True):
            if value is not None:
                row[name] = value
        if role == "baseline" and expected and len(new):
            _fill_expected(rows, len(mine), other, new, expected)
        settle(rows)
    present = {key: np.concatenate([mask, np.zeros(len(new), dtype=bool)])
               for key, mask in run.present.items()}
    present[name] = other_rows >= 0
    joined = replace(table, columns=[*table.columns, name], rows=rows, lines=lines,
                     notes=[*table.notes, *other.notes])
    changes: dict[str, object] = {"table": joined, "present": present,
                                  "sources": {**run.sources, name: other.label}}
    if role == "reference":
        changes["reference"] = name
    elif role == "baseline":
        changes["baseline"] = name
    else:
        changes["runs"] = (*run.runs, name)
    return replace(run, **changes)


def _column_name(run: JoinedRun, other: Table, role: str) -> str:
    """"reference", "baseline", or the other run's file stem; made unique in the table."""
    wanted = role if role != "run" else Path(other.label).stem or "run"
    return _free_name(run.table.columns, wanted)


def _free_name(columns: list[str], wanted: str) -> str:
    taken = set(columns)
    name, n = wanted, 2
    while name in taken:
        name, n = f"{wanted} ({n})", n + 1
    return name


def _fill_expected(rows: list[dict], start: int, base: Table, new: np.ndarray,
                   expected: str) -> None:
    """The rows from `start` on (the baseline's ids the table lacked) take the baseline's
    reference at `expected`, when that SPEC is a column name the baseline has (a JSONPath
    cannot be written back into a row: those rows keep no reference, and say so)."""
    if expected.startswith("$") or expected not in base.column_index:
        return
    column = resolve_column(base, expected, require_match=False)
    for offset, i in enumerate(new.tolist()):
        value = column.values[i]
        if value is not None:
            rows[start + offset][expected] = value


def changes(run: JoinedRun, result: BatchResult, thresholds: dict[str, float | None]
            ) -> list[VariantChange]:
    """Every scored variant but the baseline against the baseline column, with `thresholds`
    (the window's now): the core's labels, deltas and paired tests
    (run_summary.compare_with_baseline), each variant with the rows its own file has. Empty
    without a baseline among `result`'s variants."""
    base = run.baseline
    if base is None or base not in result.variants:
        return []
    jobs = [replace(job, threshold=thresholds.get(job.id, job.threshold)) for job in result.jobs]
    out = []
    for variant in result.variants:
        if variant == base:
            continue
        out.extend(compare_with_baseline(_one(result, variant, jobs), _one(result, base, jobs),
                                         base, run.presence(base), run.presence(variant)))
    return out


def change_codes(run: JoinedRun, result: BatchResult, variant: str,
                 thresholds: dict[str, float | None]) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """`changes` without the paired tests, for one variant: (each row's `change`, each metric's
    label codes), the core's own rules (run_summary.metric_codes / row_codes), cheap enough to
    follow a dragged threshold."""
    base = run.baseline
    if base is None or base not in result.variants or variant not in result.variants:
        raise ValueError(f"no baseline to compare {variant!r} with")
    in_base, in_run = run.presence(base), run.presence(variant)
    limits = {job.id: thresholds.get(job.id, job.threshold) for job in result.jobs}
    gated = any(limit is not None for limit in limits.values())
    metrics = {}
    for job in result.jobs:
        limit = limits[job.id]
        verdicts = ((result.verdicts(base, job.id, limit), result.verdicts(variant, job.id, limit))
                    if limit is not None else (None, None))
        metrics[job.id] = metric_codes(result.scores[(base, job.id)],
                                       result.scores[(variant, job.id)], *verdicts,
                                       job.spec.direction, in_base, in_run)
    rows = row_codes(result.row_passes(base, limits) if gated else None,
                     result.row_passes(variant, limits) if gated else None, in_base, in_run)
    return rows, metrics


def _one(result: BatchResult, variant: str, jobs: list[MetricJob]) -> BatchResult:
    """One variant's arrays (shared, not copied) under `jobs`' thresholds."""
    out = BatchResult(result.rows, [variant], jobs, done=result.done)
    for job in jobs:
        key = (variant, job.id)
        out.scores[key], out.status[key] = result.scores[key], result.status[key]
        out.messages[key] = result.messages.get(key, {})
    return out
