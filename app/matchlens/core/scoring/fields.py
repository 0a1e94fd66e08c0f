"""`fields` over a dataset: the table's pieces read one at a time (as `score` streams them),
each piece's reference and output columns resolved by the one `ColumnMapping`, their pairs
counted into a `FieldTally` (core.diff.json_fields). Memory stays flat: a piece is let go
before the next is read, and only the per-path counts are kept.

Two cores: a piece's rows are counted in chunks shared with a forked child (forked.py's
`share_chunks`); the chunks' counts are added in the rows' order, so the table and its header
are those of one process. The next piece is read once the child is done (reading it meanwhile
held two pieces, and the collector paused for the child's sake, at once: the peak grew with
the rows).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from matchlens.core.datasets import ColumnValues, Table, literal_column, resolve_column
from matchlens.core.diff.json_fields import FieldTally
from matchlens.core.errors import ConfigError, DatasetError
from matchlens.core.jsonpath import parse_simple
from matchlens.core.scoring.forked import can_fork, reap_workers, share_chunks
from matchlens.core.scoring.mapping import ColumnMapping

CHUNK_ROWS = 10_000  # rows a process takes at a time
# A fork costs a few milliseconds and its child's pages: below this many rows a piece is
# counted here alone (one chunk would leave the child nothing to share).
FORK_MIN_ROWS = 2 * CHUNK_ROWS


def count_fields(tables: Iterable[Table], mapping: ColumnMapping,
                 options: Mapping[str, Any] | None = None, *, by_index: bool = False,
                 parallel: bool = True) -> FieldTally:
    """Every piece's pairs counted; DatasetError for an unknown column or a JSONPath that
    matches nothing in any row (as `score` says it). `parallel`: with a forked child where
    it pays (`can_fork`)."""
    if mapping.expected_any:
        raise ConfigError("fields compares one reference a row: give --expected or "
                          "--expected-literal, not --expected-any")
    tally = FieldTally(mapping.variants, options, by_index=by_index)
    matched: dict[str, int] = {}
    first_miss: dict[str, tuple] = {}

    def resolve(table: Table, spec: str) -> ColumnValues:
        values = resolve_column(table, spec, require_match=False)
        if values.matched is not None:
            matched[spec] = matched.get(spec, 0) + values.matched
            if not values.matched and spec not in first_miss:
                first_miss[spec] = (table.label, table.lines[0] if table.lines else 1,
                                    values.first_miss, table.unit)
        return values

    try:
        for table in tables:
            if mapping.expected_literal:
                expected = literal_column(table, mapping.expected)
            else:
                expected = resolve(table, mapping.expected)
            actuals = {spec: resolve(table, spec).values for spec in mapping.variants}
            if parallel and len(expected.values) >= FORK_MIN_ROWS and can_fork():
                shared = Shared(tally, expected.values, actuals)
                try:
                    shared.finish(tally)
                except BaseException:  # Ctrl+C or an error: the child goes too
                    shared.abort()
                    raise
                del shared
            else:
                tally.add(expected.values, actuals)
            del table, expected, actuals  # let the piece go before the next is read
    finally:
        reap_workers()
    for spec, count in matched.items():
        if count == 0:
            label, line, why, unit = first_miss[spec]
            detail = f" (first row: {why})" if why else ""
            steps = parse_simple(spec)
            column = steps[0] if steps and isinstance(steps[0], str) else None
            raise DatasetError(f"the JSONPath {spec} matches nothing in any of the "
                               f"{tally.rows:,} rows{detail}", file=label, row=line,
                               column=column, unit=unit)
    return tally


class Shared:
    """One piece counted in chunks by this process and a forked child: each chunk into a
    FieldTally of its own (`part()`), added to the run's tally in the rows' order."""

    def __init__(self, tally: FieldTally, expected: Sequence[str | None],
                 actuals: Mapping[str, Sequence[str | None]]) -> None:
        self.variants, self.options = list(tally.variants), tally.options
        self.by_index = tally.walker.by_index
        self.expected, self.actuals = expected, actuals
        n = len(expected)
        self.spans = [(start, min(start + CHUNK_ROWS, n)) for start in range(0, n, CHUNK_ROWS)]
        self.forked = share_chunks(len(self.spans), self.work)

    def work(self, i: int, found: dict) -> None:
        start, stop = self.spans[i]
        part = FieldTally(self.variants, self.options, by_index=self.by_index)
        part.add(self.expected[start:stop],
                 {v: values[start:stop] for v, values in self.actuals.items()})
        found[i] = part.part()

    def finish(self, tally: FieldTally) -> None:
        found: dict = {}
        done = self.forked.finish(found)
        for i in range(len(self.spans)):
            if i not in done:  # a child that failed: its chunks are counted here
                self.work(i, found)
            tally.merge_part(found[i])
        self.let_go()

    def let_go(self) -> None:
        """Drop the piece: the fork's own objects refer to each other (and to `work`), and
        pieces are read with the cyclic collector paused, so only this frees the rows."""
        self.expected, self.actuals, self.forked = (), {}, None

    def abort(self) -> None:
        if self.forked is not None:
            self.forked.abort()
        self.let_go()
