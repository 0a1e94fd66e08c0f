"""Writing a run joined across files (core.scoring.run_scoring's `RunsResult`): one row per id.

Columns: the run file's own (empty on a row the run lacks, but for the id), with a leading `id`
when `--id` is a JSONPath; `reference` (with `--references`: the reference text) and
`baseline_output` (with `--baseline`); then per variant and metric `<id>` and `<id>_pass` as
`matchlens score` writes them, and with a baseline `<id>_baseline`, `<id>_delta`, `<id>_change`;
then `change` (suffixed `@<variant>` when there are several variants). A reference no output
answers has `_pass` false where the metric has a threshold.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

from matchlens.core.atomic import atomic_writer
from matchlens.core.datasets import json_numbers
from matchlens.core.datasets.table import MISSING
from matchlens.core.errors import OutputError
from matchlens.core.output.scored_table import csv_column, csv_line, utf8_safe
from matchlens.core.scoring.run_scoring import RunsResult

_BLOCK = 50_000


def _free_name(name: str, taken: set[str]) -> str:
    out, k = name, 2
    while out in taken:
        out, k = f"{name} ({k})", k + 1
    return out


def runs_columns(runs: RunsResult, table_columns: list[str], id_spec: str
                 ) -> list[tuple[str, Any]]:
    """(name, values) of the added columns: arrays or lists with one typed value a row
    (float NaN / None where empty)."""
    taken = set(table_columns)
    out: list[tuple[str, Any]] = []
    if id_spec not in table_columns:
        out.append((_free_name("id", taken), runs.joined.ids))
    if runs.joined.reference_rows is not None:
        out.append((_free_name("reference", taken), runs.expected))
    if runs.baseline_outputs is not None:
        out.append((_free_name("baseline_output", taken), runs.baseline_outputs))
    result = runs.result
    several = len(result.variants) > 1
    changes = {change.variant: change for change in runs.changes}
    for variant in result.variants:
        suffix = f"@{variant}" if several else ""
        for job in result.jobs:
            integer = job.spec.integer
            scores = result.scores[(variant, job.id)]
            verdicts = result.verdicts(variant, job.id).copy()
            if runs.unanswered is not None and job.threshold is not None:
                verdicts[runs.unanswered] = 0  # a missing case is not a passing case
            out.append((f"{job.id}{suffix}", _numbers(scores, integer)))
            out.append((f"{job.id}_pass{suffix}",
                        [None if v < 0 else bool(v) for v in verdicts.tolist()]))
            change = changes.get(variant)
            if change is not None:
                metric = change.metrics[job.id]
                out.append((f"{job.id}_baseline{suffix}", _numbers(metric.baseline, integer)))
                out.append((f"{job.id}_delta{suffix}", _numbers(metric.delta, integer)))
                out.append((f"{job.id}_change{suffix}", metric.labels()))
    for variant, change in changes.items():
        out.append((f"change@{variant}" if several else "change", change.labels()))
    clash = taken & {name for name, _ in out}
    if clash:
        raise OutputError(f"the run already has column(s) {', '.join(sorted(clash))} (is it a "
                          "scored table?); score the original file or rename those columns")
    return out


def _numbers(values: np.ndarray, integer: bool) -> list:
    return [None if x != x else (int(x) if integer else x) for x in values.tolist()]


def _text(value: Any) -> str:
    if value is None or value is MISSING:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return value
    if isinstance(value, float):
        return repr(value)
    return json_numbers.dumps(value)


def _records(runs: RunsResult, table, id_spec: str, added: list[tuple[str, Any]]
             ) -> Iterator[tuple[list[str], list[Any]]]:
    """Blocks of rows: (header, None) first, then (None, [row dicts])."""
    rows = runs.joined.run_rows
    ids = runs.joined.ids
    for start in range(0, len(rows), _BLOCK):
        block = []
        for i in range(start, min(start + _BLOCK, len(rows))):
            r = int(rows[i])
            if r >= 0:
                record = dict(table.rows[r]) if isinstance(table.rows[r], dict) else \
                    dict(zip(table.columns, table.rows[r], strict=True))
            else:
                record = {}
                if id_spec in table.column_index:
                    record[id_spec] = ids[i]
            for name, values in added:
                record[name] = values[i]
            block.append(record)
        yield block


def write_runs(path: Path | None, runs: RunsResult, table, id_spec: str, write=None) -> None:
    """The joined table as CSV (to `path`, or through `write` for standard output) or JSON
    Lines (`path` ending .jsonl), atomically."""
    added = runs_columns(runs, list(table.columns), id_spec)
    names = [*table.columns, *(name for name, _ in added)]
    if path is None:
        _csv(write, names, runs, table, id_spec, added)
        return
    suffix = path.suffix.lower()
    if suffix not in (".csv", ".jsonl"):
        raise OutputError(f"{path}: the output must end in .csv or .jsonl")
    try:
        with atomic_writer(path, newline="") as handle:
            if suffix == ".csv":
                _csv(handle.write, names, runs, table, id_spec, added)
            else:
                for block in _records(runs, table, id_spec, added):
                    handle.write("".join(json_numbers.dumps(record, ensure_ascii=True) + "\n"
                                         for record in block))
    except OSError as err:
        raise OutputError(f"{path}: cannot write ({err.strerror or err})") from None


def _csv(write, names, runs, table, id_spec, added) -> None:
    write(utf8_safe(csv_line(names) + "\n")[0])
    for block in _records(runs, table, id_spec, added):
        columns = [csv_column([_text(record.get(name)) for record in block]) for name in names]
        text = "".join(",".join(cells) + "\n" for cells in zip(*columns, strict=True))
        write(utf8_safe(text)[0])
