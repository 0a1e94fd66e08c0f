"""Rows of several files matched by a key (`--id`): a run's outputs, the references of another
file and an earlier run (the baseline), joined with pyarrow's hash join (no Python dict of
rows), and the per-row values each file gives once joined (no Qt).

The result has one row per id found in any file: the run's rows in the run's order, then the
references no output answers (in the references' order), then the baseline's ids this run lacks
("gone"), in the baseline's order. Each file's ids must be unique and present on every row; a
file sharing no id with the run is an error, never a join by row order.

Ids are compared as text (`Table.cell_text`): the JSON number 7 and the string "7" are one id,
so a CSV of references joins a JSON Lines run.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from matchlens.core.datasets import Table, resolve_column
from matchlens.core.datasets.columns import ColumnValues
from matchlens.core.errors import DatasetError


@dataclass(frozen=True)
class Joined:
    """The rows of a joined run: the key of each, and where it comes from in each file (-1
    where that file lacks the id)."""

    ids: list[str]
    run_rows: np.ndarray
    reference_rows: np.ndarray | None = None
    baseline_rows: np.ndarray | None = None

    def __post_init__(self) -> None:
        for rows in (self.run_rows, self.reference_rows, self.baseline_rows):
            if rows is not None and len(rows) != len(self.ids):
                raise ValueError("every file's row index needs one entry per joined row")

    def __len__(self) -> int:
        return len(self.ids)

    @property
    def in_run(self) -> np.ndarray:
        return self.run_rows >= 0

    @property
    def in_baseline(self) -> np.ndarray:
        if self.baseline_rows is None:
            return np.zeros(len(self.ids), dtype=bool)
        return self.baseline_rows >= 0


def key_values(table: Table, spec: str) -> list[str]:
    """The id of every row of `table`: DatasetError naming the file for an unknown id column,
    a row without an id, or an id given to two rows (both named)."""
    try:
        column = resolve_column(table, spec)
    except DatasetError as err:
        raise DatasetError(f"{err.reason} (the --id must name a column or path of every "
                           "file joined)", file=err.file, row=err.row, column=err.column,
                           unit=err.unit) from None
    ids = column.values
    if None in ids:
        i = ids.index(None)
        why = column.reasons.get(i)
        raise DatasetError(f"{_where(table, i)} has no id at {spec} (--id); every row of a "
                           f"joined file needs one{f': {why}' if why else ''}")
    keys = pa.array(ids, pa.string())
    counts = pc.value_counts(keys)
    repeated = counts.filter(pc.greater(counts.field("counts"), 1))
    if len(repeated):
        first = repeated.field("values")[0].as_py()
        rows = np.flatnonzero(pc.equal(keys, first).to_numpy(zero_copy_only=False))
        raise DatasetError(f"the id {first!r} (--id {spec}) is on two rows, {table.unit} "
                           f"{table.lines[int(rows[0])]} and {table.unit} "
                           f"{table.lines[int(rows[1])]}; each row of a joined file needs its "
                           "own id", file=table.label)
    return ids


def _where(table: Table, i: int) -> str:
    return f"{table.label}, {table.unit} {table.lines[i]}"


def join_runs(run: Table, id_spec: str, references: Table | None = None,
              baseline: Table | None = None, *, require_common: bool = True) -> Joined:
    """The outer join of the run with the references and the baseline on `id_spec`: each
    file's ids looked up in the ids gathered so far with pyarrow's hash lookup
    (`pyarrow.compute.index_in`), the ids found nowhere appended in the file's order.

    DatasetError when a file shares no id with the run ("none of the 400 ids of today.jsonl
    is in refs.jsonl"), unless `require_common` is false (a piece of a join made elsewhere:
    a Dask partition)."""
    run_ids = key_values(run, id_spec)
    ids = list(run_ids)
    union = pa.chunked_array([pa.array(run_ids, pa.string())], pa.string())
    rows: dict[str, np.ndarray] = {"run": np.arange(len(run_ids), dtype=np.int64)}
    for name, table in (("reference", references), ("baseline", baseline)):
        if table is None:
            continue
        keys = key_values(table, id_spec)
        arrow = pa.array(keys, pa.string())
        where = pc.fill_null(pc.index_in(arrow, value_set=union), -1).to_numpy()
        found = where >= 0
        in_run = int((where[found] < len(run_ids)).sum())
        if require_common and run_ids and keys and not in_run:
            raise DatasetError(f"none of the {len(run_ids):,} ids of {run.label} is in "
                               f"{table.label} (--id {id_spec}; its first id is {keys[0]!r}, "
                               f"the run's {run_ids[0]!r})")
        new = np.flatnonzero(~found)
        before = len(ids)
        ids.extend(keys[i] for i in new.tolist())
        union = pa.chunked_array([*union.chunks, arrow.take(pa.array(new))], pa.string())
        for other in rows:
            rows[other] = np.concatenate([rows[other], np.full(len(new), -1, dtype=np.int64)])
        mine = np.full(len(ids), -1, dtype=np.int64)
        mine[where[found]] = np.flatnonzero(found)
        mine[before:] = new
        rows[name] = mine
    return Joined(ids, rows["run"], rows.get("reference"), rows.get("baseline"))


def take(values: list, rows: np.ndarray) -> list:
    """`values` gathered in the joined order: None where the file lacks the id."""
    if not len(rows):
        return []
    source = np.empty(len(values) + 1, dtype=object)
    source[:-1] = values
    source[-1] = None
    return source[np.where(rows < 0, len(values), rows)].tolist()


def take_reasons(column: ColumnValues, rows: np.ndarray) -> dict[int, str]:
    """A column's reasons (why a row has no value), renumbered to the joined rows."""
    if not column.reasons:
        return {}
    where = np.full(len(column.values), -1, dtype=np.int64)
    present = np.flatnonzero(rows >= 0)
    where[rows[present]] = present
    return {int(where[i]): why for i, why in column.reasons.items() if where[i] >= 0}
