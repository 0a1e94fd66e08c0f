"""Writing a run joined across files (core.scoring.run_scoring's `RunsResult`): one row per id.

Columns: the run file's own (empty on a row the run lacks, but for the id), with a leading `id`
when `--id` is a JSONPath; `reference` (with `--references`: the reference text) and
`baseline_output` (with `--baseline`); then per variant and metric `<id>` and `<id>_pass` as
`matchlens score` writes them, and with a baseline `<id>_baseline`, `<id>_delta`, `<id>_change`;
then `change` (suffixed `@<variant>` when there are several variants). A reference no output
answers has `_pass` false where the metric has a threshold.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from matchlens.core.atomic import atomic_writer
from matchlens.core.datasets import json_numbers
from matchlens.core.datasets.table import ROW_LIST_KINDS, Table
from matchlens.core.errors import DatasetError, OutputError
from matchlens.core.output.csv_text import csv_column, csv_line, utf8_safe
from matchlens.core.scoring.run_scoring import RunsResult
from matchlens.core.scoring.run_summary import LABELS

_BLOCK = 50_000


def _free_name(name: str, taken: set[str]) -> str:
    out, k = name, 2
    while out in taken:
        out, k = f"{name} ({k})", k + 1
    return out


@dataclass(frozen=True)
class Added:
    """One added column, held as arrays: `kind` "text" (a list of str/None), "score" (floats,
    NaN where empty; `integer` for a count metric), "verdict" (1/0/-1) or "label" (codes into
    run_summary.LABELS)."""

    name: str
    kind: str
    values: Any
    integer: bool = False

    def typed(self) -> list:
        """One Python value a row: str/None, float/int/None, bool/None, label text."""
        return self.typed_part(0, len(self.values))

    def typed_part(self, start: int, stop: int) -> list:
        """`typed()` of rows [start, stop)."""
        part = self.values[start:stop]
        if self.kind == "score":
            return [None if x != x else (int(x) if self.integer else x) for x in part.tolist()]
        if self.kind == "verdict":
            return [None if v < 0 else bool(v) for v in part.tolist()]
        if self.kind == "label":
            return _LABELS[part].tolist()
        return list(part)

    def texts(self, start: int, stop: int) -> list[str]:
        """The CSV cells of rows [start, stop) (formula-safe where text)."""
        part = self.values[start:stop]
        if self.kind == "score":
            distinct, codes = np.unique(part, return_inverse=True)  # NaN sorts last, once
            words = np.array([_number(x, self.integer) for x in distinct.tolist()] or [""],
                             dtype=object)
            return words[codes.reshape(-1)].tolist() if len(part) else []
        if self.kind == "verdict":
            return _VERDICTS[part + 1].tolist()
        if self.kind == "label":
            return _LABELS[part].tolist()
        return csv_column(["" if v is None else v for v in part])


_LABELS = np.array(LABELS, dtype=object)
_VERDICTS = np.array(["", "false", "true"], dtype=object)


def _number(x: float, integer: bool) -> str:
    if x != x:
        return ""
    return str(int(x)) if integer else repr(x)


def added_columns(runs: RunsResult, table_columns: list[str], id_spec: str) -> list[Added]:
    """The added columns, in order (see the module)."""
    taken = set(table_columns)
    out: list[Added] = []
    if id_spec not in table_columns:
        out.append(Added(_free_name("id", taken), "text", runs.joined.ids))
    if runs.joined.reference_rows is not None:
        out.append(Added(_free_name("reference", taken), "text", runs.expected))
    if runs.baseline_outputs is not None:
        out.append(Added(_free_name("baseline_output", taken), "text", runs.baseline_outputs))
    result = runs.result
    several = len(result.variants) > 1
    changes = {change.variant: change for change in runs.changes}
    for variant in result.variants:
        suffix = f"@{variant}" if several else ""
        for job in result.jobs:
            integer = job.spec.integer
            verdicts = result.verdicts(variant, job.id).copy()
            if runs.unanswered is not None and job.threshold is not None:
                verdicts[runs.unanswered] = 0  # a missing case is not a passing case
            out.append(Added(f"{job.id}{suffix}", "score", result.scores[(variant, job.id)],
                             integer))
            out.append(Added(f"{job.id}_pass{suffix}", "verdict", verdicts.astype(np.int64)))
            change = changes.get(variant)
            if change is not None:
                metric = change.metrics[job.id]
                out.append(Added(f"{job.id}_baseline{suffix}", "score", metric.baseline,
                                 integer))
                out.append(Added(f"{job.id}_delta{suffix}", "score", metric.delta, integer))
                out.append(Added(f"{job.id}_change{suffix}", "label", metric.codes))
    for variant, change in changes.items():
        out.append(Added(f"change@{variant}" if several else "change", "label", change.codes))
    clash = taken & {column.name for column in out}
    if clash:
        raise OutputError(f"the run already has column(s) {', '.join(sorted(clash))} (is it a "
                          "scored table?); score the original file or rename those columns")
    return out


def runs_columns(runs: RunsResult, table_columns: list[str], id_spec: str
                 ) -> list[tuple[str, list]]:
    """(name, one typed value a row) of every added column (the Python API's DataFrame)."""
    return [(column.name, column.typed())
            for column in added_columns(runs, table_columns, id_spec)]


def _input_texts(table, rows: np.ndarray, ids: list[str], id_spec: str) -> list[list[str]]:
    """The run's own cells of some joined rows, column by column, formula-safe: row k is
    `table`'s row `rows[k]`, or empty where -1 (the run lacks the id), but for the id,
    `ids[k]`."""
    width = len(table.columns)
    empty = [""] * width
    picked_rows = rows.tolist()
    if table.kind in ROW_LIST_KINDS:
        picked = [table.rows[r] if r >= 0 else empty for r in picked_rows]
    else:
        picked = [[table.cell_text(r, c) or "" for c in table.columns] if r >= 0 else empty
                  for r in picked_rows]
    columns = [list(cells) for cells in zip(*picked, strict=True)] if picked else \
        [[] for _ in range(width)]
    if id_spec in table.column_index:
        column = columns[table.column_index[id_spec]]
        for k, r in enumerate(picked_rows):
            if r < 0:
                column[k] = ids[k]
    return [csv_column(cells) for cells in columns]


def _record(table, r: int, id_spec: str, key: str) -> dict[str, Any]:
    """A run's row as read (row `r` of `table`), or only its id where the run lacks it."""
    if r >= 0:
        row = table.rows[r]
        return dict(row) if isinstance(row, dict) else \
            dict(zip(table.columns, row, strict=True))
    return {id_spec: key} if id_spec in table.column_index else {}


def _blocks(runs: RunsResult, run: Table | Iterable[Table]
            ) -> Iterator[tuple[Table, int, int, np.ndarray]]:
    """(a table of the run, start, stop, rows of that table) for every block of joined rows,
    in order: the run's rows as its pieces come (the joined rows begin with the run's rows in
    the run's order), then the rows only another file has (no row of the run, -1)."""
    pieces = [run] if isinstance(run, Table) else run
    offset = 0
    shape = None
    for piece in pieces:
        shape = shape or piece
        for start in range(0, len(piece), _BLOCK):
            stop = min(start + _BLOCK, len(piece))
            rows = runs.joined.run_rows[offset + start:offset + stop]
            if not isinstance(run, Table):  # a piece: its rows numbered from its start
                rows = np.where(rows >= 0, rows - offset, -1)
            yield piece, offset + start, offset + stop, rows
        offset += len(piece)
        if offset > int(runs.joined.in_run.sum()):
            break
    if shape is None:
        return
    if offset != int(runs.joined.in_run.sum()):  # the file was changed while it was read
        raise DatasetError(f"has {offset:,} rows now and had {int(runs.joined.in_run.sum()):,} "
                           "when it was joined: it changed while it was read; run again",
                           file=shape.label)
    for start in range(offset, len(runs.joined), _BLOCK):
        stop = min(start + _BLOCK, len(runs.joined))
        yield shape, start, stop, np.full(stop - start, -1, dtype=np.int64)


def write_runs(path: Path | None, runs: RunsResult, run: Table | Iterable[Table], id_spec: str,
               write=None) -> None:
    """The joined table as CSV (to `path`, or through `write` for standard output) or JSON
    Lines (`path` ending .jsonl), atomically. `run` is the run's whole table, or its pieces
    in order (read again from its file: the run is never held whole); the first piece names
    the columns."""
    pieces = iter([run] if isinstance(run, Table) else run)
    first = next(pieces, None)
    if first is None:
        raise ValueError("the run has no table")
    source = run if isinstance(run, Table) else itertools.chain([first], pieces)
    added = added_columns(runs, list(first.columns), id_spec)
    names = [*first.columns, *(column.name for column in added)]
    if path is None:
        _csv(write, names, runs, source, id_spec, added)
        return
    suffix = path.suffix.lower()
    if suffix not in (".csv", ".jsonl"):
        raise OutputError(f"{path}: the output must end in .csv or .jsonl")
    try:
        with atomic_writer(path, newline="") as handle:
            if suffix == ".csv":
                _csv(handle.write, names, runs, source, id_spec, added)
            else:
                _jsonl(handle.write, runs, source, id_spec, added)
    except OSError as err:
        raise OutputError(f"{path}: cannot write ({err.strerror or err})") from None


def _jsonl(write, runs: RunsResult, source, id_spec: str, added: list[Added]) -> None:
    ids = runs.joined.ids
    for table, start, stop, rows in _blocks(runs, source):
        values = [(column.name, column.typed_part(start, stop)) for column in added]
        lines = []
        for k, r in enumerate(rows.tolist()):
            record = _record(table, r, id_spec, ids[start + k])
            for name, part in values:
                record[name] = part[k]
            lines.append(json_numbers.dumps(record, ensure_ascii=True) + "\n")
        write("".join(lines))


def _csv(write, names, runs, source, id_spec, added: list[Added]) -> None:
    write(utf8_safe(csv_line(names) + "\n")[0])
    ids = runs.joined.ids
    for table, start, stop, rows in _blocks(runs, source):
        columns = _input_texts(table, rows, ids[start:stop], id_spec)
        columns += [column.texts(start, stop) for column in added]
        text = "".join([",".join(cells) + "\n" for cells in zip(*columns, strict=True)])
        write(utf8_safe(text)[0])
