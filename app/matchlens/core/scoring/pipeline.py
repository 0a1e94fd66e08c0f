"""The scoring pipeline, the one way a dataset is scored: a table (or a stream of table pieces,
or the resolved values of one) in, scores and a summary out.

* `score_table`: one whole `Table` (read from any file by `read_table`, or built from a
  DataFrame's columns); the `ColumnMapping`'s SPECs resolved on it, every metric scored, the
  `BatchResult` and a `Tally` (the summary) returned. The Python API, Dask's partitions and
  `matchlens calibrate` score this way.
* `score_stream`: the same for the pieces `iter_tables` hands out, one piece at a time, so
  `matchlens score` never holds a whole file: the caller writes each scored piece before the
  next is read.
* `score_values`: resolved values already joined across files (run_scoring.py: a run, its
  references and its baseline matched by id), scored piece by piece on both cores.
* `score_chunks`: resolved values scored chunk by chunk, cancellable, with a `Progress` after
  each `Chunk`: the window's worker shows the rows as they come. Each chunk is scored by
  `score_rows` in this process, or by the caller's `scorer` (the window's scoring
  process, which itself runs `score_rows`).

Beneath it, batch.py scores a chunk and parallel.py a whole batch (on two processes where it
pays); references.py keeps the best of several references a row.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from matchlens.core.datasets import (
    ColumnValues,
    Table,
    check_columns,
    literal_column,
    resolve_column,
)
from matchlens.core.errors import DatasetError
from matchlens.core.jsonpath import parse_simple
from matchlens.core.scoring.batch import BatchResult, Chunk, MetricJob, Progress, score_chunk
from matchlens.core.scoring.forked import reap_workers
from matchlens.core.scoring.mapping import ColumnMapping
from matchlens.core.scoring.parallel import begin_to_completion, run_to_completion
from matchlens.core.scoring.references import (
    references_from_column,
    score_any,
    score_any_block,
)
from matchlens.core.scoring.tally import Tally


@dataclass
class _Matches:
    """Per SPEC across the pieces: did anything match, and the first miss (for the error)."""

    matched: dict[str, int] = field(default_factory=dict)
    first_miss: dict[str, tuple[str, int, str | None, str]] = field(default_factory=dict)
    rows: int = 0
    begun: int = 0  # rows of the pieces whose scoring has begun

    @property
    def waiting(self) -> bool:
        """True while some JSONPath has matched no row yet."""
        return any(count == 0 for count in self.matched.values())


def score_table(table: Table, mapping: ColumnMapping, jobs: Sequence[MetricJob]
                ) -> tuple[BatchResult, Tally]:
    """Score one whole table: its BatchResult (row i of the table is row i of the result) and
    its summary. DatasetError for an unknown or ambiguous column, or a JSONPath that matches
    nothing in any row."""
    tally = Tally(table.label, mapping.variants, list(jobs), unit=table.unit)
    results = list(score_stream([table], mapping, jobs, tally))
    return results[0][1], tally


def score_stream(tables: Iterable[Table], mapping: ColumnMapping, jobs: Sequence[MetricJob],
                 tally: Tally) -> Iterator[tuple[Table, BatchResult]]:
    """(piece, its BatchResult) for every piece, in order; `tally` gathers the summary. A
    JSONPath that matches nothing in a piece is fine as long as it matches in some piece;
    pieces are held back until every JSONPath has matched somewhere, so a path that matches
    nothing in the whole file is a DatasetError before anything is handed out.

    A pipeline: while piece k is being scored by a forked worker (parallel.py), the
    caller gets piece k-1 to write and piece k+1 is read; then this process joins the scoring
    of piece k, and once every score of piece k is in, the worker of piece k+1 starts before
    the result of piece k is filled in and summed up. So reading, writing and summing up no
    longer leave the second core idle.
    """
    actuals = mapping.variants
    seen = _Matches()
    scored: list[tuple[Table, BatchResult]] = []  # in order, not handed out yet
    pieces = iter(tables)
    table = next(pieces, None)
    pending = following = None
    try:
        if table is not None:
            pending = _begin(table, mapping, jobs, actuals, seen, tally)
        while pending is not None:
            if not seen.waiting:
                while scored:  # popped: the caller's reference is the last one
                    yield scored.pop(0)
            table = next(pieces, None)
            pending.scoring.join()
            if table is not None:  # its worker starts before this piece's result is filled in
                following = _begin(table, mapping, jobs, actuals, seen, tally)
            result = pending.scoring.complete()
            done, pending = pending, None
            seen.rows += len(done.table)
            tally.add(result, done.table.lines,
                      _missing(mapping, done.expected, done.columns, done.cells))
            scored.append((done.table, result))
            pending, following = following, None
    finally:
        for unfinished in (pending, following):
            if unfinished is not None:  # an error, or the caller stopped: no worker left
                unfinished.abort()
        reap_workers()
    _check_matched(seen)
    while scored:
        yield scored.pop(0)


@dataclass
class _Pending:
    """A piece being scored: `scoring.join()` then `scoring.complete()` give its BatchResult."""

    table: Table
    expected: ColumnValues
    columns: dict[str, ColumnValues]
    scoring: Any  # parallel.begin_to_completion's, or _Done
    cells: frozenset[str | None] = frozenset()  # the specs (None: expected) of cells, `_cells`

    def abort(self) -> None:
        self.scoring.abort()


class _Done:
    def __init__(self, result: BatchResult) -> None:
        self.result = result

    def join(self) -> None:
        """Scored already."""

    def complete(self) -> BatchResult:
        return self.result

    def abort(self) -> None:
        """Nothing runs."""


def _begin(table: Table, mapping: ColumnMapping, jobs: Sequence[MetricJob], actuals: list[str],
           seen: _Matches, tally: Tally) -> _Pending:
    """Resolve the columns of a piece and start scoring it (a forked worker starts now, where
    the piece is worth two processes)."""
    tally.add_notes(table.notes)
    check_columns(table, [None if mapping.expected_literal else mapping.expected, *actuals])
    columns = {spec: _resolve(table, spec, seen) for spec in actuals}
    cells: set[str | None] = {spec for spec, column in columns.items() if _cells(table, column)}
    values = {k: v.values for k, v in columns.items()}
    if mapping.expected_literal:
        expected = literal_column(table, mapping.expected)
    else:
        expected = _resolve(table, mapping.expected, seen)
        if _cells(table, expected):
            cells.add(None)
    if mapping.expected_any:
        cells.discard(None)
        references = references_from_column(table, expected, mapping.expected)
        expected = ColumnValues([None if r is None else "" for r in references.lists],
                                references.reasons)
        scoring = _Done(score_any(references.lists, values, list(jobs)))
    else:
        scoring = begin_to_completion(expected.values, values, list(jobs),
                                      run_rows=seen.begun + len(table))
    seen.begun += len(table)
    return _Pending(table, expected, columns, scoring, frozenset(cells))


def _cells(table: Table, column: ColumnValues) -> bool:
    """True for a column by name of a delimited table: its values are the rows' cell strings
    (Table.is_delimited), so no value is None and `_absent` need not look at each one (a
    million scattered strings cost ~0.2 s to look at)."""
    return table.is_delimited and column.matched is None and not column.reasons


def _resolve(table: Table, spec: str, seen: _Matches) -> ColumnValues:
    values = resolve_column(table, spec, require_match=False)
    if values.matched is not None:
        seen.matched[spec] = seen.matched.get(spec, 0) + values.matched
        if not values.matched and spec not in seen.first_miss:
            seen.first_miss[spec] = (table.label, table.lines[0] if table.lines else 1,
                                     values.first_miss, table.unit)
    return values


def _check_matched(seen: _Matches) -> None:
    """The error `resolve_column` gives a whole table, for a path no piece matched."""
    for spec, count in seen.matched.items():
        if count == 0:
            label, line, why, unit = seen.first_miss[spec]
            detail = f" (first row: {why})" if why else ""
            steps = parse_simple(spec)
            column = steps[0] if steps and isinstance(steps[0], str) else None
            raise DatasetError(f"the JSONPath {spec} matches nothing in any of the "
                               f"{seen.rows:,} rows{detail}", file=label, row=line,
                               column=column, unit=unit)


def _missing(mapping: ColumnMapping, expected: ColumnValues,
             actuals: dict[str, ColumnValues], cells: frozenset[str | None] = frozenset()
             ) -> dict[str, list[tuple[str, dict[int, str], np.ndarray]]]:
    """Per variant, why rows have no value: grouped under "no reference at $.x" or
    "no output in column 'y'"."""
    out = {}
    exp = _absent(expected, None in cells)
    for spec, column in actuals.items():
        groups = []
        if not mapping.expected_literal:
            groups.append((_label("reference", mapping.expected), expected.reasons, exp))
        groups.append((_label("output", spec), column.reasons, _absent(column, spec in cells)))
        out[spec] = groups
    return out


def _label(role: str, spec: str) -> str:
    return f"no {role} at {spec}" if spec.startswith("$") else f"no {role} in column {spec!r}"


def _absent(column: ColumnValues, cells: bool = False) -> np.ndarray:
    """Rows without a value. `cells`: the column is a delimited table's cells (`_cells`)."""
    mask = np.zeros(len(column), dtype=bool)
    if column.reasons:
        mask[list(column.reasons)] = True
    if not cells and None in column.values and len(column.reasons) < len(column.values):
        mask |= np.fromiter((v is None for v in column.values), dtype=bool,
                            count=len(column.values))
    return mask


def score_values(expected: Sequence[str | None], actuals: Mapping[str, Sequence[str | None]],
                 jobs: Sequence[MetricJob], *,
                 references: Sequence[list[str] | None] | None = None,
                 chunk_rows: int = 100_000) -> BatchResult:
    """Values already resolved (and joined by id, core.scoring.run_scoring) scored as a
    table's are: on both cores where it pays; with `references`, the best of each row's.
    `chunk_rows` rows at a time, so the scoring's own copies (normalised texts, distinct
    pairs) stay those of one piece, as when `score_stream` scores a file."""
    total = len(expected)
    out = BatchResult.empty(total, list(actuals), list(jobs))
    for start in range(0, total, chunk_rows):
        stop = min(start + chunk_rows, total)
        values = {key: column[start:stop] for key, column in actuals.items()}
        if references is not None:
            part = score_any(references[start:stop], values, list(jobs))
        else:
            part = run_to_completion(list(expected[start:stop]), values, list(jobs))
        out.add(Chunk(start, stop, part.scores, part.status,
                      {key: {start + row: text for row, text in rows.items()}
                       for key, rows in part.messages.items()},
                      part.refs))
    out.done = total
    return out


def score_chunks(expected: Sequence[str | None], actuals: Mapping[str, Sequence[str | None]],
                 jobs: Sequence[MetricJob], *, chunk_rows: int = 50_000,
                 references: Sequence[list[str] | None] | None = None,
                 cancel: Callable[[], bool] | None = None,
                 scorer: Callable[[int, int], Chunk | None] | None = None,
                 clock: Callable[[], float] = time.perf_counter,
                 ) -> Iterator[Progress | Chunk]:
    """Resolved values scored `chunk_rows` rows at a time: a Progress first, then a Chunk and
    a Progress for every chunk. Stops (returns) as soon as `cancel()` is true between metrics,
    so a chunk is the longest wait.

    `references`: several references a row (`expected` then holds the cells, for show), each
    metric keeps the best. `scorer(start, stop)` scores rows [start, stop) elsewhere (the
    window's scoring process); None from it stops the run. By default `score_rows` scores
    each chunk in this process.
    """
    if scorer is None:
        def scorer(start: int, stop: int) -> Chunk | None:
            return score_rows(expected[start:stop],
                              {v: values[start:stop] for v, values in actuals.items()}, jobs,
                              start=start, cancel=cancel,
                              references=None if references is None else references[start:stop])
    total = len(expected)
    started = clock()
    yield Progress(0, total, 0.0)
    for start in range(0, total, chunk_rows):
        stop = min(start + chunk_rows, total)
        chunk = scorer(start, stop)
        if chunk is None:
            return
        yield chunk
        yield Progress(stop, total, clock() - started)


def score_rows(expected: Sequence[str | None], actuals: Mapping[str, Sequence[str | None]],
               jobs: Sequence[MetricJob], *, start: int = 0,
               references: Sequence[list[str] | None] | None = None,
               cancel: Callable[[], bool] | None = None) -> Chunk | None:
    """One block of resolved rows scored in this process, numbered from `start` (with
    `references`, the best of each row's references); None once `cancel()` is true."""
    if references is None:
        return score_chunk(expected, actuals, jobs, start, cancel)
    best = score_any_block(references, actuals, jobs, cancel)
    if best is None:
        return None
    return Chunk(start, start + best.rows, best.scores, best.status,
                 {key: {start + row: text for row, text in rows.items()}
                  for key, rows in best.messages.items()}, best.refs)

