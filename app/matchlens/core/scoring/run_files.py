"""The references and the baseline of a joined run, kept narrow (no Qt): of each file only the
id, the line of each row and the values of the SPECs the run needs (the reference text, the
baseline's output), held as pyarrow string arrays rather than Python rows.

`read_keyed` reads such a file piece by piece (`iter_tables`: CSV, TSV, JSON Lines and Parquet
are never held whole, so a 1M-row references file costs its two columns); `narrow` does the same
for a table already in memory (a DataFrame given to the Python API, a Dask partition). Both
check the ids as a join needs them: present on every row and unique (a repeated id names both
rows).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from matchlens.core.datasets import Cancelled, Table, iter_tables, resolve_column
from matchlens.core.errors import DatasetError
from matchlens.core.jsonpath import parse_simple

# The C allocator, not pyarrow's default (mimalloc): the pieces' arrays are built while Python
# frees each piece's rows, and mimalloc keeps the pages it freed (70 MB more at 1M rows).
POOL = pa.system_memory_pool()


PIECE_ROWS = 65_536  # rows of a table in memory narrowed at a time
ARROW_SLICE = 16_384  # texts made one pyarrow array at a time
_SURROGATE = re.compile("[\ud800-\udfff]")


def arrow_texts(values: Sequence[str | None]) -> pa.Array:
    """Texts as an Arrow string array. Arrow holds UTF-8 only: a lone surrogate (which only a
    JSON escape such as "\\ud800" can bring) is read as U+FFFD, the replacement character."""
    if len(values) > ARROW_SLICE:
        # a slice at a time: pa.array holds the GIL for its whole call (~50 ms for 100k texts
        # of a few hundred bytes), which froze the window while its worker read a join
        return pa.concat_arrays([arrow_texts(values[i:i + ARROW_SLICE])
                                 for i in range(0, len(values), ARROW_SLICE)], memory_pool=POOL)
    try:
        return pa.array(values, pa.string(), memory_pool=POOL)
    except UnicodeEncodeError:
        return pa.array([v if v is None else _SURROGATE.sub("\ufffd", v) for v in values],
                        pa.string(), memory_pool=POOL)


@dataclass(frozen=True, eq=False)
class KeyedFile:
    """One file of a join, narrowed: `ids` (text), `lines[i]` where row i is in the file, and
    per SPEC its values (null where a row has none, the reason in `reasons[spec][i]`)."""

    label: str
    unit: str
    ids: pa.Array
    lines: np.ndarray
    values: dict[str, pa.Array] = field(default_factory=dict)
    reasons: dict[str, dict[int, str]] = field(default_factory=dict)
    notes: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if len(self.lines) != len(self.ids) or \
                any(len(v) != len(self.ids) for v in self.values.values()):
            raise ValueError("a keyed file needs one id, line and value a row")

    def __len__(self) -> int:
        return len(self.ids)

    def keep(self, mask: np.ndarray) -> KeyedFile:
        """The rows where `mask` is true (reasons renumbered)."""
        rows = np.flatnonzero(mask)
        if len(rows) == len(self):
            return self
        new = np.full(len(self), -1, dtype=np.int64)
        new[rows] = np.arange(len(rows))
        picked = pa.array(rows, pa.int64())
        return KeyedFile(self.label, self.unit, self.ids.take(picked), self.lines[rows],
                         {s: v.take(picked) for s, v in self.values.items()},
                         {s: {int(new[i]): why for i, why in r.items() if new[i] >= 0}
                          for s, r in self.reasons.items()}, self.notes)


def answered(keyed: KeyedFile, spec: str) -> KeyedFile:
    """A baseline that is itself a joined scored table, without the rows its run did not
    answer (an empty output at `spec`: a reference that run had no output for)."""
    outputs = keyed.values[spec]
    return keyed.keep(pc.fill_null(pc.not_equal(outputs, ""), False)
                      .to_numpy(zero_copy_only=False))


class _Gather:
    """Pieces of one file narrowed and put together (see the module)."""

    def __init__(self, id_spec: str, specs: Sequence[str], optional: Sequence[str]) -> None:
        self.id_spec = id_spec
        self.specs = list(dict.fromkeys([*specs, *optional]))
        self.optional = set(optional) - set(specs)
        self.skipped: set[str] = set()  # optional SPECs this file cannot resolve
        self.ids: list[pa.Array] = []
        self.lines: list[np.ndarray] = []
        self.values: dict[str, list[pa.Array]] = {s: [] for s in self.specs}
        self.reasons: dict[str, dict[int, str]] = {s: {} for s in self.specs}
        self.matched: dict[str, int] = {}
        self.first_miss: dict[str, tuple[int, str | None]] = {}
        self.rows = 0
        self.label = self.unit = ""
        self.notes: list[str] = []

    def add(self, table: Table) -> None:
        self.label, self.unit = table.label, table.unit
        self.notes.extend(n for n in table.notes if n not in self.notes)
        self.ids.append(arrow_texts(piece_ids(table, self.id_spec)))
        self.lines.append(np.asarray(table.lines, dtype=np.int64))
        for spec in self.specs:
            if spec in self.skipped:
                column = None
            else:
                try:
                    column = resolve_column(table, spec, require_match=False)
                except DatasetError:
                    if spec not in self.optional:
                        raise
                    self.skipped.add(spec)
                    column = None
            if column is None:
                self.values[spec].append(pa.nulls(len(table), pa.string(), memory_pool=POOL))
                continue
            self.values[spec].append(arrow_texts(column.values))
            self.reasons[spec].update((self.rows + i, why) for i, why in column.reasons.items())
            if column.matched is not None:
                self.matched[spec] = self.matched.get(spec, 0) + column.matched
                if not column.matched and spec not in self.first_miss:
                    self.first_miss[spec] = (table.lines[0] if table.lines else 1,
                                             column.first_miss)
        self.rows += len(table)

    def done(self) -> KeyedFile:
        for spec, count in self.matched.items():
            if count == 0 and spec not in self.optional:
                line, why = self.first_miss[spec]
                steps = parse_simple(spec)
                column = steps[0] if steps and isinstance(steps[0], str) else None
                detail = f" (first row: {why})" if why else ""
                raise DatasetError(f"the JSONPath {spec} matches nothing in any of the "
                                   f"{self.rows:,} rows{detail}", file=self.label, row=line,
                                   column=column, unit=self.unit)
        # one array a column: a join takes rows at random, which costs a search per row in
        # a chunked array (3 s a million); the pieces are freed as each column is joined up
        ids = _joined_up(self.ids)
        lines = np.concatenate(self.lines) if self.lines else np.zeros(0, dtype=np.int64)
        check_unique(ids, lines, self.label, self.unit, self.id_spec)
        values = {s: _joined_up(v) for s, v in self.values.items()}
        pa.default_memory_pool().release_unused()  # value_counts' and the like's pages
        return KeyedFile(self.label, self.unit, ids, lines, values, self.reasons,
                         tuple(self.notes))


def _joined_up(pieces: list[pa.Array]) -> pa.Array:
    """The pieces of a column as one array (emptied from `pieces`)."""
    if not pieces:
        return pa.array([], pa.string())
    out = pieces[0] if len(pieces) == 1 else pa.concat_arrays(pieces, memory_pool=POOL)
    pieces.clear()
    return out


def piece_ids(table: Table, id_spec: str) -> list[str]:
    """The id of every row of a table (or a piece of one): DatasetError naming the file for an
    unknown id column and for a row without an id."""
    try:
        column = resolve_column(table, id_spec, require_match=False)
    except DatasetError as err:
        raise DatasetError(f"{err.reason} (the --id must name a column or path of every "
                           "file joined)", file=err.file, row=err.row, column=err.column,
                           unit=err.unit) from None
    ids = column.values
    if None in ids:
        i = ids.index(None)
        why = column.reasons.get(i)
        raise DatasetError(f"{table.label}, {table.unit} {table.lines[i]} has no id at "
                           f"{id_spec} (--id); every row of a joined file needs one"
                           f"{f': {why}' if why else ''}")
    return ids


def check_unique(ids: pa.Array, lines: np.ndarray, label: str, unit: str, id_spec: str) -> None:
    """DatasetError naming the first id given to two rows, and both rows."""
    counts = pc.value_counts(ids)
    repeated = counts.filter(pc.greater(counts.field("counts"), 1))
    if not len(repeated):
        return
    first = repeated.field("values")[0].as_py()
    rows = np.flatnonzero(pc.equal(ids, first).to_numpy(zero_copy_only=False))
    raise DatasetError(f"the id {first!r} (--id {id_spec}) is on two rows, {unit} "
                       f"{lines[rows[0]]} and {unit} {lines[rows[1]]}; each row of a joined "
                       "file needs its own id", file=label)


def narrow(table: Table, id_spec: str, specs: Sequence[str] = (),
           optional: Sequence[str] = ()) -> KeyedFile:
    """A table in memory narrowed to its ids and `specs` (DatasetError for an unknown or
    unmatched one); `optional` SPECs this table cannot resolve are null throughout."""
    gather = _Gather(id_spec, specs, optional)
    gather.label, gather.unit = table.label, table.unit
    # in pieces: one pyarrow call on a million strings holds the GIL (the window's worker
    # thread would freeze the window for its length); a JSON array's reasons name an object
    # by its number in the table, so it stays whole
    if table.kind == "json" or len(table) <= PIECE_ROWS:
        gather.add(table)
    else:
        for start in range(0, len(table), PIECE_ROWS):
            gather.add(table.piece(start, start + PIECE_ROWS))
    return gather.done()


# The reading options as `score` names them, and the option each file's own copy is called by
_OPTIONS = ("records", "sheet", "format", "encoding")


def read_keyed(path: str | os.PathLike, id_spec: str, specs: Sequence[str] = (),
               optional: Sequence[str] = (), *, reading: dict | None = None,
               option_prefix: str | None = None, chunk_rows: int = 100_000,
               cancel: Callable[[], bool] | None = None) -> KeyedFile:
    """A file read piece by piece and narrowed (see `narrow`). `reading` holds `read_table`'s
    options (records, sheet, format, encoding); `option_prefix` ("references") renames the
    options a message suggests (`--records` -> `--references-records`), so a message about the
    references file names the option that reads it. `cancel`, asked between pieces: true
    raises Cancelled (the window's Cancel)."""
    gather = _Gather(id_spec, specs, optional)
    try:
        for piece in iter_tables(path, chunk_rows=chunk_rows, **(reading or {})):
            if cancel is not None and cancel():
                raise Cancelled()
            gather.add(piece)
        if not gather.label:
            gather.label, gather.unit = str(path), "line"
        return gather.done()
    except DatasetError as err:
        if option_prefix is None:
            raise
        raise DatasetError(renamed_options(err.reason, option_prefix), file=err.file,
                           row=err.row, column=err.column, unit=err.unit) from None


def renamed_options(text: str, prefix: str) -> str:
    """`--records`, `--sheet`, `--format`, `--encoding` in a message become `--<prefix>-...`."""
    return re.sub(rf"--({'|'.join(_OPTIONS)})\b", rf"--{prefix}-\1", text)


class Texts(Sequence):
    """A column of texts (None where a row has none) held by pyarrow and read as a Python
    sequence: an index gives a str or None, a slice a list. With `rows`, row i is
    `array[rows[i]]` (None where rows[i] is -1): a file's column in the joined order, taken a
    slice at a time, never copied whole. A 1M-row column costs its bytes, not a million
    Python strings; only the rows asked for become strings."""

    __slots__ = ("array", "rows")
    _BLOCK = 65_536

    def __init__(self, array: pa.Array | pa.ChunkedArray, rows: np.ndarray | None = None
                 ) -> None:
        self.array = array
        self.rows = rows

    def __len__(self) -> int:
        return len(self.array) if self.rows is None else len(self.rows)

    def block(self, start: int, stop: int) -> pa.Array | pa.ChunkedArray:
        """Rows [start, stop) as a pyarrow array."""
        if self.rows is None:
            return self.array.slice(start, max(0, stop - start))
        rows = self.rows[start:stop]
        return pc.take(self.array, pa.array(rows, pa.int64(), mask=rows < 0),
                       memory_pool=POOL)

    def __getitem__(self, key):  # noqa: ANN001 - an int or a slice, as a list takes
        if isinstance(key, slice):
            start, stop, step = key.indices(len(self))
            if step != 1:
                return self[start:stop][::step]
            return self.block(start, stop).to_pylist()
        if key < 0:
            key += len(self)
        if not 0 <= key < len(self):
            raise IndexError("row out of range")
        if self.rows is None:
            return self.array[key].as_py()
        row = int(self.rows[key])
        return None if row < 0 else self.array[row].as_py()

    def __iter__(self):
        for start in range(0, len(self), self._BLOCK):
            yield from self[start:start + self._BLOCK]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Texts | list | tuple):
            return len(self) == len(other) and list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment] - compared by value, like a list

    def __repr__(self) -> str:
        return f"Texts({len(self)} rows)"

    def blocks(self, fn) -> np.ndarray:  # noqa: ANN001 - pyarrow array -> numpy array
        """`fn` of each block, joined: a per-row result without the whole column at once."""
        parts = [fn(self.block(start, start + self._BLOCK))
                 for start in range(0, len(self), self._BLOCK)]
        return np.concatenate(parts) if parts else np.zeros(0, dtype=bool)

    def nulls(self) -> np.ndarray:
        """True where a row has no text."""
        return self.blocks(lambda a: a.is_null().to_numpy(zero_copy_only=False))

    def same_as(self, other: Texts) -> np.ndarray:
        """True where both have a text and it is the same."""
        if len(other) != len(self):
            raise ValueError("texts of different lengths")
        out = np.zeros(len(self), dtype=bool)
        for start in range(0, len(self), self._BLOCK):
            stop = min(start + self._BLOCK, len(self))
            equal = pc.equal(self.block(start, stop), other.block(start, stop))
            out[start:stop] = pc.fill_null(equal, False).to_numpy(zero_copy_only=False)
        return out
