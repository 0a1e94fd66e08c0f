"""A run joined with other files by id as ONE table the window opens and scores (no Qt): the
opened file's rows, then a column for each file joined to it — the references of another file,
a baseline run's outputs, another run's outputs (one more variant) — matched by id.

The join is the command line's (`runs.outer_join` over run_files.KeyedFile: each joined file
read narrow, ids matched with pyarrow's `index_in`, the same unique / missing / no-common-id
sentences), so the rows and their order are `score --references --baseline`'s: the opened
file's rows in its order, then the references no output answers, then the baseline's ids the
run lacks ("gone"), then the ids only another run has. The window scores the joined table with
its ordinary mapping, so the table, the plots and the Runs view need nothing new.

The joined table holds no row of its own: its rows (`JoinedRows`) are made when asked for from
the opened file's row and the joined files' pyarrow arrays. Which file each row comes from is
kept (`present`), so "new" and "gone" are the core's labels (run_summary).
"""

from __future__ import annotations

from array import array
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np
import pyarrow as pa

from matchlens.core.datasets import Table
from matchlens.core.datasets.by_column import Cells, cells_of
from matchlens.core.datasets.column_store import ListLike
from matchlens.core.datasets.table import MISSING
from matchlens.core.scoring.batch import BatchResult, MetricJob
from matchlens.core.scoring.mapping import ColumnMapping
from matchlens.core.scoring.run_files import KeyedFile, Texts, narrow
from matchlens.core.scoring.run_scoring import BASELINE, RunsResult
from matchlens.core.scoring.run_summary import (
    VariantChange,
    compare_with_baseline,
    metric_codes,
    row_codes,
)
from matchlens.core.scoring.runs import Joined, outer_join
from matchlens.core.scoring.tally import Tally

OPENED = ""  # `present`'s key for the opened file's own rows (its output columns)
ROLES = ("reference", "baseline", "run")  # also the order files join in (the CLI's order)


@dataclass(frozen=True)
class JoinedFile:
    """A file to join, read narrow: its `role` ("reference", "baseline" or "run"), the SPEC of
    its values in `keyed`, and for a baseline the SPEC of its references (`expected`), which
    the rows only the baseline has take when no references file is joined (as `score
    --baseline` does)."""

    keyed: KeyedFile
    role: str
    value_spec: str
    expected: str | None = None

    def __post_init__(self) -> None:
        if self.role not in ROLES:
            raise ValueError(f"role must be one of {ROLES}, not {self.role!r}")


@dataclass(frozen=True)
class JoinedRun:
    """The joined table (kind "records"), the column holding each row's id, and for each
    joined column the row of each joined row in its own file, -1 where that file lacks the id
    (`rows[OPENED]`: in the opened file), and that file read narrow (`files`)."""

    table: Table
    id_column: str
    rows: dict[str, np.ndarray] = field(default_factory=dict)
    reference: str | None = None  # the column holding another file's references
    baseline: str | None = None  # the column holding the baseline run's outputs
    runs: tuple[str, ...] = ()  # columns holding other runs' outputs (added variants)
    files: dict[str, KeyedFile] = field(default_factory=dict)  # joined column -> its file
    ids: pa.Array | None = None  # each joined row's id, as text

    @property
    def sources(self) -> dict[str, str]:
        """Joined column -> its file's label."""
        return {column: keyed.label for column, keyed in self.files.items()}

    @property
    def in_run(self) -> np.ndarray:
        return self.rows[OPENED] >= 0

    def presence(self, column: str) -> np.ndarray:
        """The rows whose output in `column` comes from that column's file (an added run's, the
        baseline's; the opened file's for any other column)."""
        return self.rows.get(column, self.rows[OPENED]) >= 0


class JoinedRows(Sequence):
    """The joined table's rows as dicts, made when asked for (a block at a time when
    iterated): the opened file's row ({} past its rows) with each joined column's value where
    that file has one. Nothing is held per row: a row is the opened table's plus pyarrow
    arrays (run_files.Texts)."""

    __slots__ = ("base", "columns", "size")
    _BLOCK = 65_536

    def __init__(self, base: Table, size: int, columns: dict[str, Texts]) -> None:
        self.base, self.size, self.columns = base, size, columns

    def __len__(self) -> int:
        return self.size

    def rows(self, start: int, stop: int) -> list[dict]:
        """Rows [start, stop) as new dicts."""
        start, stop = max(0, start), min(stop, self.size)
        if stop <= start:
            return []
        count = len(self.base)
        own = self.base.rows[start:min(stop, count)] if start < count else []
        if self.base.is_delimited:
            names = self.base.columns
            made = [dict(zip(names, row, strict=False)) for row in own]
        else:
            made = [dict(row) for row in own]
        made.extend({} for _ in range(stop - start - len(made)))
        for name, texts in self.columns.items():
            for row, value in zip(made, texts[start:stop], strict=True):
                if value is not None:
                    row[name] = value
        return made

    def column(self, name: str) -> JoinedColumn:
        """Every row's cell in column `name` (by_column.ByColumn): the opened file's column as
        its rows give it (the column store's, not copied), then the joined values of the rows
        past it; a joined column from its pyarrow array. No dict a row."""
        own = cells_of(self.base, name) if name in self.base.column_index else None
        return JoinedColumn(own, self.columns.get(name), self.size)

    def __getitem__(self, key):  # noqa: ANN001 - an int or a slice, as a list takes
        if isinstance(key, slice):
            start, stop, step = key.indices(self.size)
            return self.rows(start, stop)[::step] if step != 1 else self.rows(start, stop)
        if key < 0:
            key += self.size
        if not 0 <= key < self.size:
            raise IndexError("row out of range")
        return self.rows(key, key + 1)[0]

    def __iter__(self):
        for start in range(0, self.size, self._BLOCK):
            yield from self.rows(start, start + self._BLOCK)


class JoinedColumn(ListLike):
    """One column of `JoinedRows` as cells (by_column.Cells): `own`, the opened file's cells,
    for its rows (None: it has no such column), then `texts` (run_files.Texts) for the rows
    past them, or for every row when `own` is None. A row no file gives a value is MISSING."""

    __slots__ = ("own", "size", "start", "texts")
    _BLOCK = 65_536

    def __init__(self, own: Cells | None, texts: Texts | None, size: int) -> None:
        self.own, self.texts, self.size = own, texts, size
        self.start = len(own) if own is not None else 0  # the first row `texts` gives

    def __len__(self) -> int:
        return self.size

    def _joined(self, start: int, stop: int) -> list:
        if self.texts is None:
            return [MISSING] * (stop - start)
        return [MISSING if v is None else v for v in self.texts[start:stop]]

    def __getitem__(self, key):  # noqa: ANN001 - an int or a slice, as a list takes
        if isinstance(key, slice):
            start, stop, step = key.indices(self.size)
            if step != 1:
                return self[start:stop][::step]
            out = self.own[start:min(stop, self.start)] if start < self.start else []
            return out + self._joined(max(start, self.start), stop) if stop > self.start \
                else out
        if key < 0:
            key += self.size
        if not 0 <= key < self.size:
            raise IndexError("row out of range")
        if key < self.start:
            return self.own[key]
        return self._joined(key, key + 1)[0]

    def __iter__(self) -> Iterator:
        if self.own is not None:
            yield from self.own
        for at in range(self.start, self.size, self._BLOCK):
            yield from self._joined(at, min(at + self._BLOCK, self.size))

    def not_text(self) -> Iterator[tuple[int, object]]:
        if self.own is not None:
            yield from self.own.not_text()
        if self.texts is None:
            yield from ((i, MISSING) for i in range(self.start, self.size))
            return
        for at in range(self.start, self.size, self._BLOCK):
            block = self.texts.block(at, min(at + self._BLOCK, self.size))
            missing = np.flatnonzero(block.is_null().to_numpy(zero_copy_only=False))
            yield from ((at + int(i), MISSING) for i in missing)


def join_table(run: Table, id_spec: str, files: Sequence[JoinedFile]) -> JoinedRun:
    """`run` joined with `files` on `id_spec` (see the module): DatasetError naming the file
    for an id missing from a row, given to two rows, or a file sharing no id with the run.
    Files join in role order (references, the baseline, other runs), each role in the order
    given."""
    files = sorted(files, key=lambda f: ROLES.index(f.role))  # a stable sort
    mine = narrow(run, id_spec)
    ids, rows = outer_join(mine, [f.keyed for f in files], id_spec)
    ids = ids.combine_chunks()
    n, count = len(ids), len(run)
    every = np.arange(n, dtype=np.int64)
    past_run = every >= count
    own_id = id_spec in run.column_index
    id_column = id_spec if own_id else _free_name(run.columns, "id")
    columns = list(run.columns) if own_id else [id_column, *run.columns]
    # the run's own rows keep their id as written (a JSON number stays one)
    values = {id_column: Texts(ids, np.where(past_run, every, -1) if own_id else None)}
    found = {OPENED: rows[0]}
    named: dict[str, object] = {"reference": None, "baseline": None}
    added: list[str] = []
    sources: dict[str, KeyedFile] = {}
    with_references = any(f.role == "reference" for f in files)
    for joined, where in zip(files, rows[1:], strict=True):
        keyed = joined.keyed
        wanted = joined.role if joined.role != "run" else Path(keyed.label).stem or "run"
        name = _free_name([*columns], wanted)
        columns.append(name)
        values[name] = Texts(keyed.values[joined.value_spec], where)
        found[name] = where
        sources[name] = keyed
        if joined.role == "run":
            added.append(name)
        else:
            named[joined.role] = name
        expected = joined.expected
        if joined.role == "baseline" and not with_references and expected \
                and expected in run.column_index and expected in keyed.values:
            gone = np.where(past_run, where, -1)
            values.setdefault(expected, Texts(keyed.values[expected], gone))
    lines = np.zeros(n, dtype=np.int64)
    for keyed, where in reversed(list(zip([mine, *(f.keyed for f in files)], rows,
                                          strict=True))):
        there = where >= 0
        lines[there] = keyed.lines[where[there]]
    notes = list(run.notes)
    for joined in files:
        notes.extend(note for note in joined.keyed.notes if note not in notes)
    table = replace(run, columns=columns, rows=JoinedRows(run, n, values),
                    lines=_like(run.lines, lines),
                    kind="records", delimiter=None, name=run.label, repeated={}, notes=notes)
    return JoinedRun(table, id_column, found, named["reference"], named["baseline"],
                     tuple(added), sources, ids)


def _like(lines: Sequence[int], joined: np.ndarray) -> Sequence[int]:
    """The joined lines held as the opened table holds its own (a list, an int64 array('q')
    as the window reads a CSV, a numpy array)."""
    if isinstance(lines, np.ndarray):
        return joined
    if isinstance(lines, array):
        out = array("q")
        out.frombytes(joined.astype(np.int64).tobytes())
        return out
    return joined.tolist()


def _free_name(columns: list[str], wanted: str) -> str:
    taken = set(columns)
    name, n = wanted, 2
    while name in taken:
        name, n = f"{wanted} ({n})", n + 1
    return name


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
    return variants_of(result, [variant], jobs)


def variants_of(result: BatchResult, variants: Sequence[str], jobs: Sequence[MetricJob],
                rename: str | None = None) -> BatchResult:
    """Some variants' arrays (shared, not copied) under `jobs`' thresholds; with `rename`,
    one variant named so."""
    names = [rename or v for v in variants]
    out = BatchResult(result.rows, names, list(jobs), done=result.done)
    for variant, name in zip(variants, names, strict=True):
        for job in jobs:
            key, mine = (variant, job.id), (name, job.id)
            out.scores[mine], out.status[mine] = result.scores[key], result.status[key]
            out.messages[mine] = result.messages.get(key, {})
            if key in result.refs:
                out.refs[mine] = result.refs[key]
    return out


def as_runs_result(run: JoinedRun, result: BatchResult, mapping: ColumnMapping,
                   expected: Sequence[str | None], outputs: dict[str, Sequence[str | None]]
                   ) -> RunsResult:
    """The window's scored join as the command line's `RunsResult`, which the reports read:
    this run's variants, the baseline's scores named BASELINE, the changes under the
    thresholds in `result.jobs`. The joined table stands for the run (its rows are already
    the joined rows, so each joined row is its own row there). `expected` and `outputs` are
    each row's reference and each variant's output (the window's resolved columns)."""
    base = run.baseline
    if base is None or base not in result.variants:
        raise ValueError("no baseline among the scored variants")
    own = [v for v in result.variants if v != base]
    jobs = list(result.jobs)
    mine = variants_of(result, own, jobs)
    joined = Joined(run.ids.to_pylist() if run.ids is not None else
                    [str(i) for i in range(result.rows)],
                    np.arange(result.rows, dtype=np.int64))
    tally = Tally.of(mine, list(run.table.lines), source=run.table.label)
    tally.unit = run.table.unit
    thresholds = {job.id: job.threshold for job in jobs}
    out = RunsResult(joined, replace(mapping, actuals=tuple(own)), mine, tally, expected)
    out.baseline = variants_of(result, [base], jobs, rename=BASELINE)
    out.baseline_outputs = outputs[base]
    out.changes = changes(run, result, thresholds)
    return out
