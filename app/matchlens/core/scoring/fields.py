"""`fields` over a dataset: the table's pieces read one at a time (as `score` streams them),
each piece's reference and output columns resolved by the one `ColumnMapping`, their pairs
counted into a `FieldTally` (core.diff.json_fields). Memory stays flat: a piece is let go
before the next is read, and only the per-path counts are kept.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from matchlens.core.datasets import ColumnValues, Table, literal_column, resolve_column
from matchlens.core.diff.json_fields import FieldTally
from matchlens.core.errors import ConfigError, DatasetError
from matchlens.core.jsonpath import parse_simple
from matchlens.core.scoring.mapping import ColumnMapping


def count_fields(tables: Iterable[Table], mapping: ColumnMapping,
                 options: Mapping[str, Any] | None = None, *, by_index: bool = False
                 ) -> FieldTally:
    """Every piece's pairs counted; DatasetError for an unknown column or a JSONPath that
    matches nothing in any row (as `score` says it)."""
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

    for table in tables:
        if mapping.expected_literal:
            expected = literal_column(table, mapping.expected)
        else:
            expected = resolve(table, mapping.expected)
        actuals = {spec: resolve(table, spec).values for spec in mapping.variants}
        tally.add(expected.values, actuals)
        del table, expected, actuals  # let the piece go before the next is read
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
