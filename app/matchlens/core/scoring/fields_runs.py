"""`fields` across files: a run's outputs, the references of another file and an earlier run
(the baseline), matched by `--id` with the one join of `score --baseline` (runs.join_runs), then
counted by the one `FieldTally`. The baseline's outputs are one more variant of the tally,
`baseline`, walked against the same references with the same options, so its block of the
table sits beside this run's and the two read alike.

Rows follow the join: a reference no output answers counts under its variant as "the output is
missing" (the reference set is the denominator, as for `score`), a row of the run whose id has
no reference as "the reference is missing", and a row only the baseline has ("gone") as a
missing output of this run and a compared row of the baseline.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from matchlens.core.datasets import Table, resolve_column
from matchlens.core.diff.json_fields import FieldTally
from matchlens.core.errors import ConfigError, DatasetError
from matchlens.core.scoring.mapping import ColumnMapping
from matchlens.core.scoring.run_scoring import BASELINE, RunFiles
from matchlens.core.scoring.runs import Joined, join_runs, take


def baseline_variant(variants: tuple[str, ...] | list[str]) -> str:
    """The baseline's name in the table's `variant` column: `baseline`, unless an output
    column of the run is already called that (then `baseline (earlier run)`)."""
    return BASELINE if BASELINE not in variants else f"{BASELINE} (earlier run)"


def count_joined_fields(files: RunFiles, mapping: ColumnMapping,
                        options: Mapping[str, Any] | None = None, *, by_index: bool = False,
                        track_rows: bool = False) -> tuple[FieldTally, Joined]:
    """The tally of every joined row (see the module) and the join (its ids name the rows a
    tracked tally notes). DatasetError for a bad id (missing, repeated, no id in common) or an
    unresolvable SPEC; ConfigError for --expected-any (one reference a row)."""
    if mapping.expected_any:
        raise ConfigError("fields compares one reference a row: give --expected or "
                          "--expected-literal, not --expected-any")
    run, refs, base = files.run, files.references, files.baseline
    joined = join_runs(run, files.id, refs, base, require_common=files.require_common)
    expected = joined_expected(joined, mapping, files)
    actuals = {spec: take(resolve_column(run, spec).values, joined.run_rows)
               for spec in mapping.variants}
    variants = list(mapping.variants)
    if base is not None:
        name = baseline_variant(variants)
        variants.append(name)
        actuals[name] = take(resolve_column(base, files.baseline_actual or "").values,
                             joined.baseline_rows)
    tally = FieldTally(variants, options, by_index=by_index, track_rows=track_rows)
    tally.add(expected, actuals)
    return tally, joined


def joined_expected(joined: Joined, mapping: ColumnMapping, files: RunFiles
                    ) -> list[str | None]:
    """Each joined row's reference: the literal; else the references file's value (None where
    it lacks the id); else the run's own, and for a row only the baseline has, the baseline
    file's value at the same SPEC (as `score --baseline` reads it)."""
    n = len(joined)
    if mapping.expected_literal:
        return [mapping.expected] * n
    if files.references is not None:
        column = resolve_column(files.references, mapping.expected)
        return take(column.values, joined.reference_rows)
    expected = take(resolve_column(files.run, mapping.expected).values, joined.run_rows)
    if files.baseline is not None and joined.baseline_rows is not None:
        gone = [i for i in range(n) if joined.run_rows[i] < 0 and joined.baseline_rows[i] >= 0]
        if gone:
            values = _values_or_none(files.baseline, mapping.expected)
            if values is not None:
                for i in gone:
                    expected[i] = values[int(joined.baseline_rows[i])]
    return expected


def _values_or_none(table: Table, spec: str) -> list | None:
    """The column's values, or None when `table` lacks it (a baseline file need not hold the
    references)."""
    try:
        return resolve_column(table, spec, require_match=False).values
    except DatasetError:
        return None
