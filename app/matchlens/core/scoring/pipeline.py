"""The scoring pipeline: a table (or a stream of table pieces) in, scores and a summary out.

`score_table` is the core every front end shares: it takes a `Table` (read from any file by
`read_table`, or built from columns in memory with `table_from_columns`, a DataFrame's say),
resolves the expected and actual SPECs on it, scores every metric and returns the
`BatchResult` with a `Tally` (the summary). `score_stream` does the same for the pieces
`iter_tables` hands out, one piece at a time, so `matchlens score` never holds a whole file:
the caller writes each scored piece before the next is read.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from matchlens.core.datasets import ColumnValues, Table, literal_column, resolve_column
from matchlens.core.errors import DatasetError
from matchlens.core.jsonpath import parse_simple
from matchlens.core.scoring.batch import BatchResult, MetricJob, begin_to_completion
from matchlens.core.scoring.parallel import reap_workers
from matchlens.core.scoring.references import references_from_column, score_any
from matchlens.core.scoring.tally import Tally


@dataclass(frozen=True)
class Mapping:
    """Which values to compare: the expected SPEC (or one literal text) and the actual SPECs
    (each a variant). A SPEC is a column name or a JSONPath starting with `$`."""

    expected: str | None
    actuals: Sequence[str]
    expected_literal: str | None = None
    # a SPEC selecting several references a row (a JSON array): each metric keeps the best
    expected_any: str | None = None

    def __post_init__(self) -> None:
        given = [v for v in (self.expected, self.expected_literal, self.expected_any)
                 if v is not None]
        if len(given) != 1:
            raise ValueError("give one of an expected SPEC, an expected literal or a SPEC of "
                             "several references")
        if not self.actuals:
            raise ValueError("give at least one actual SPEC")


@dataclass
class _Matches:
    """Per SPEC across the pieces: did anything match, and the first miss (for the error)."""

    matched: dict[str, int] = field(default_factory=dict)
    first_miss: dict[str, tuple[str, int, str | None]] = field(default_factory=dict)
    rows: int = 0

    @property
    def waiting(self) -> bool:
        """True while some JSONPath has matched no row yet."""
        return any(count == 0 for count in self.matched.values())


def score_table(table: Table, mapping: Mapping, jobs: Sequence[MetricJob]
                ) -> tuple[BatchResult, Tally]:
    """Score one whole table: its BatchResult (row i of the table is row i of the result) and
    its summary. DatasetError for an unknown or ambiguous column, or a JSONPath that matches
    nothing in any row."""
    tally = Tally(table.label, list(dict.fromkeys(mapping.actuals)), list(jobs),
                  unit=table.unit)
    results = list(score_stream([table], mapping, jobs, tally))
    return results[0][1], tally


def score_stream(tables: Iterable[Table], mapping: Mapping, jobs: Sequence[MetricJob],
                 tally: Tally) -> Iterator[tuple[Table, BatchResult]]:
    """(piece, its BatchResult) for every piece, in order; `tally` gathers the summary. A
    JSONPath that matches nothing in a piece is fine as long as it matches in some piece;
    pieces are held back until every JSONPath has matched somewhere, so a path that matches
    nothing in the whole file is a DatasetError before anything is handed out.

    A pipeline: while piece k is being scored by a forked worker (core.parallel_batch), the
    caller gets piece k-1 to write and piece k+1 is read; then this process joins the scoring
    of piece k, and once every score of piece k is in, the worker of piece k+1 starts before
    the result of piece k is filled in and summed up. So reading, writing and summing up no
    longer leave the second core idle.
    """
    actuals = list(dict.fromkeys(mapping.actuals))
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
            tally.add(result, done.table.lines, _missing(mapping, done.expected, done.columns))
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
    scoring: Any  # batch.begin_to_completion's, or _Done

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


def _begin(table: Table, mapping: Mapping, jobs: Sequence[MetricJob], actuals: list[str],
           seen: _Matches, tally: Tally) -> _Pending:
    """Resolve the columns of a piece and start scoring it (a forked worker starts now, where
    the piece is worth two processes)."""
    tally.add_notes(table.notes)
    columns = {spec: _resolve(table, spec, None, seen) for spec in actuals}
    values = {k: v.values for k, v in columns.items()}
    if mapping.expected_any is not None:
        references = references_from_column(
            table, _resolve(table, mapping.expected_any, None, seen), mapping.expected_any)
        expected = ColumnValues([None if r is None else "" for r in references.lists],
                                references.reasons)
        scoring = _Done(score_any(references.lists, values, list(jobs)))
    else:
        expected = _resolve(table, mapping.expected, mapping.expected_literal, seen)
        scoring = begin_to_completion(expected.values, values, list(jobs))
    return _Pending(table, expected, columns, scoring)


def _resolve(table: Table, spec: str | None, literal: str | None,
             seen: _Matches) -> ColumnValues:
    if spec is None:
        return literal_column(table, literal or "")
    values = resolve_column(table, spec, require_match=False)
    if values.matched is not None:
        seen.matched[spec] = seen.matched.get(spec, 0) + values.matched
        if not values.matched and spec not in seen.first_miss:
            seen.first_miss[spec] = (table.label, table.lines[0] if table.lines else 1,
                                     values.first_miss)
    return values


def _check_matched(seen: _Matches) -> None:
    """The error `resolve_column` gives a whole table, for a path no piece matched."""
    for spec, count in seen.matched.items():
        if count == 0:
            label, line, why = seen.first_miss[spec]
            detail = f" (first row: {why})" if why else ""
            steps = parse_simple(spec)
            column = steps[0] if steps and isinstance(steps[0], str) else None
            raise DatasetError(f"the JSONPath {spec} matches nothing in any of the "
                               f"{seen.rows:,} rows{detail}", file=label, row=line,
                               column=column)


def _missing(mapping: Mapping, expected: ColumnValues, actuals: dict[str, ColumnValues]
             ) -> dict[str, list[tuple[str, dict[int, str], np.ndarray]]]:
    """Per variant, why rows have no value: grouped under "no reference at $.x" or
    "no output in column 'y'"."""
    out = {}
    exp = _absent(expected)
    for spec, column in actuals.items():
        groups = []
        reference = mapping.expected or mapping.expected_any
        if reference is not None:
            groups.append((_label("reference", reference), expected.reasons, exp))
        groups.append((_label("output", spec), column.reasons, _absent(column)))
        out[spec] = groups
    return out


def _label(role: str, spec: str) -> str:
    return f"no {role} at {spec}" if spec.startswith("$") else f"no {role} in column {spec!r}"


def _absent(column: ColumnValues) -> np.ndarray:
    mask = np.zeros(len(column), dtype=bool)
    if column.reasons:
        mask[list(column.reasons)] = True
    if None in column.values and len(column.reasons) < len(column.values):
        mask |= np.fromiter((v is None for v in column.values), dtype=bool,
                            count=len(column.values))
    return mask
