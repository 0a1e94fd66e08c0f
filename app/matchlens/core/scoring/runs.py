"""Rows of several files matched by a key (`--id`): a run's outputs, the references of another
file and an earlier run (the baseline), joined with pyarrow's hash join (no Python dict of
rows), and the per-row values each file gives once joined (no Qt).

The result has one row per id found in any file: the run's rows in the run's order, then the
references no output answers (in the references' order), then the baseline's ids this run lacks
("gone"), in the baseline's order. Each file's ids must be unique and present on every row; a
file sharing no id with the run is an error, never a join by row order.

Ids are compared as text (a JSON number as written): the JSON number 7 and the string "7" are
one id, so a CSV of references joins a JSON Lines run; 7.0 and 7 are two.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from matchlens.core.datasets import Table
from matchlens.core.datasets.columns import ColumnValues
from matchlens.core.errors import DatasetError
from matchlens.core.scoring.run_files import (
    KeyedFile,
    narrow,
)


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


def join_runs(run: Table | KeyedFile, id_spec: str, references: KeyedFile | Table | None = None,
              baseline: KeyedFile | Table | None = None, *,
              require_common: bool = True) -> Joined:
    """The outer join of the run with the references and the baseline on `id_spec`
    (`outer_join`). The references and the baseline may come narrowed already
    (run_files.KeyedFile, whose ids were checked when it was read).

    DatasetError when a file shares no id with the run ("none of the 400 ids of today.jsonl
    is in refs.jsonl"), unless `require_common` is false (a piece of a join made elsewhere:
    a Dask partition)."""
    mine_first = narrow(run, id_spec) if isinstance(run, Table) else run
    names = [name for name, other in (("reference", references), ("baseline", baseline))
             if other is not None]
    others = [narrow(other, id_spec) if isinstance(other, Table) else other
              for other in (references, baseline) if other is not None]
    ids, rows = outer_join(mine_first, others, id_spec, require_common=require_common)
    found = dict(zip(names, rows[1:], strict=True))
    return Joined(ids.to_pylist(), rows[0], found.get("reference"), found.get("baseline"))


def outer_join(first: KeyedFile, others: Sequence[KeyedFile], id_spec: str, *,
               require_common: bool = True) -> tuple[pa.ChunkedArray, list[np.ndarray]]:
    """The outer join of `first` with each of `others` in turn: each file's ids looked up in
    the ids gathered so far with pyarrow's hash lookup (`pyarrow.compute.index_in`), the ids
    found nowhere appended in the file's order. Returns the joined ids and, per file (`first`
    then `others`), the row of each joined id in that file (-1 where it lacks the id).

    DatasetError when one of `others` shares no id with `first`, unless `require_common` is
    false."""
    run_count = len(first)
    union = pa.chunked_array([first.ids], pa.string())
    rows = [np.arange(run_count, dtype=np.int64)]
    for keyed in others:
        keys = keyed.ids
        where = pc.fill_null(pc.index_in(keys, value_set=union), -1).to_numpy()
        found = where >= 0
        in_run = int((where[found] < run_count).sum())
        if require_common and run_count and len(keys) and not in_run:
            raise DatasetError(f"none of the {run_count:,} ids of {first.label} is in "
                               f"{keyed.label} (--id {id_spec}; its first id is "
                               f"{keys[0].as_py()!r}, the run's {first.ids[0].as_py()!r})")
        new = np.flatnonzero(~found)
        before = len(union)
        added = keys.take(pa.array(new, pa.int64()))
        union = pa.chunked_array([*union.chunks, added], pa.string())
        rows = [np.concatenate([r, np.full(len(new), -1, dtype=np.int64)]) for r in rows]
        mine = np.full(len(union), -1, dtype=np.int64)
        mine[where[found]] = np.flatnonzero(found)
        mine[before:] = new
        rows.append(mine)
    return union, rows


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
    return renumber(column.reasons, len(column.values), rows)


def renumber(reasons: dict[int, str], size: int, rows: np.ndarray) -> dict[int, str]:
    """Reasons keyed by a file's row (of `size` rows), keyed by the joined rows instead."""
    if not reasons:
        return {}
    where = np.full(size, -1, dtype=np.int64)
    present = np.flatnonzero(rows >= 0)
    where[rows[present]] = present
    return {int(where[i]): why for i, why in reasons.items() if where[i] >= 0}
