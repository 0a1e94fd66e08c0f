"""Which values a run compares, the one `ColumnMapping` of the command line, the Python API,
Dask and the window; and the per-row values it resolves to for the window (no Qt).

Kept free of Qt so the window's worker thread can run it and tests can call it directly.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from matchlens.core.datasets import (
    Table,
    check_columns,
    guess_columns,
    literal_column,
    parse_label,
    resolve_column,
)
from matchlens.core.errors import DatasetError


@dataclass(frozen=True)
class ColumnMapping:
    """Which columns (or JSONPaths, or a fixed text) play which part.

    `expected` is a SPEC (a column name, or a JSONPath starting with `$`); with
    `expected_literal` it is the one text every row is compared with; with `expected_any` it
    selects several references a row (a JSON array), and each metric keeps the best. Each
    actual SPEC is a variant. `metrics`, `label` and `id` are the window's choices (the metrics
    ticked, a human pass/fail column, the row ids); a headless run's metrics are its jobs.
    """

    expected: str
    actuals: tuple[str, ...]
    metrics: tuple[str, ...] = ()
    label: str | None = None
    id: str | None = None
    expected_literal: bool = False  # `expected` is the same text for every row
    # `expected` holds several references a row (a JSON array): each metric keeps the best
    expected_any: bool = False

    @property
    def variants(self) -> list[str]:
        """The actual SPECs, each once, in order."""
        return list(dict.fromkeys(self.actuals))

    @property
    def recorded(self) -> str:
        """How a sidecar records the reference: the SPEC, `literal:TEXT` or `any:SPEC`."""
        if self.expected_literal:
            return f"literal:{self.expected}"
        return f"any:{self.expected}" if self.expected_any else self.expected

    def problems(self) -> list[str]:
        """Sentences saying why this mapping cannot be scored (empty when it can)."""
        out = []
        if not self.expected and not self.expected_literal:
            out.append("Choose the expected column (or type a $.json.path).")
        if self.expected_literal and self.expected_any:
            out.append("Choose either one fixed expected text or several references a row.")
        if not self.actuals:
            out.append("Tick at least one actual column.")
        if not self.metrics:
            out.append("Tick at least one metric.")
        return out


@dataclass
class Prepared:
    """One value per row for every part of the mapping; None where a row has none."""

    expected: list[str | None]
    actuals: dict[str, list[str | None]]
    ids: list[str | None] | None
    labels: np.ndarray | None  # int8: 1 human pass, 0 human fail, -1 no readable label
    notes: list[str] = field(default_factory=list)  # a few reasons why values are missing
    # with ColumnMapping.expected_any: every row's references (`expected` then holds the cells)
    references: list[list[str] | None] | None = None

    @property
    def rows(self) -> int:
        return len(self.expected)


def guess_mapping(table: Table, metrics: tuple[str, ...], expected: str | None = None,
                  actuals: list[str] | None = None, label: str | None = None) -> ColumnMapping:
    """The caller's choices where given, else the guesses from column names."""
    guess = guess_columns(table.columns)
    if actuals:
        chosen_actuals = tuple(actuals)
    elif table.variants:  # the outputs a format names (promptfoo: one per prompt/provider)
        chosen_actuals = tuple(table.variants)
    else:
        chosen_actuals = tuple(c for c in guess["actual"] if c != (expected or guess["expected"]))
    return ColumnMapping(
        expected=expected or guess["expected"] or "",
        actuals=chosen_actuals,
        metrics=metrics,
        label=label if label is not None else guess["label"],
        id=guess["id"],
    )


def check_mapping(table: Table, mapping: ColumnMapping) -> None:
    """Fail early, with the file named, on a column that is not there (JSONPaths are checked
    when resolved)."""
    named = [] if mapping.expected_literal else [mapping.expected]
    check_columns(table, [*named, *mapping.actuals, mapping.label, mapping.id])


def prepare(table: Table, mapping: ColumnMapping) -> Prepared:
    """Resolve every mapped column; DatasetError when one cannot be resolved at all."""
    problems = mapping.problems()
    if problems:
        raise DatasetError(" ".join(problems), file=str(table.path))
    check_mapping(table, mapping)
    references = None
    if mapping.expected_literal:
        expected = literal_column(table, mapping.expected)
    elif mapping.expected_any:
        from matchlens.core.scoring.references import reference_lists

        lists = reference_lists(table, mapping.expected)
        references = lists.lists
        expected = resolve_column(table, mapping.expected)
        expected.reasons.update(lists.reasons)
    else:
        expected = resolve_column(table, mapping.expected)
    # what reading changed (renamed header cells, where the rows came from), then examples of
    # rows without a value
    notes = [*table.notes, *list(expected.reasons.values())[:2]]
    actuals = {}
    for spec in dict.fromkeys(mapping.actuals):
        column = resolve_column(table, spec)
        actuals[spec] = column.values
        notes.extend(list(column.reasons.values())[:2])
    ids = resolve_column(table, mapping.id).values if mapping.id else None
    labels = None
    if mapping.label:
        texts = resolve_column(table, mapping.label).values
        labels = np.fromiter((_label_code(t) for t in texts), dtype=np.int8, count=len(texts))
        unreadable = int(sum(1 for t, code in zip(texts, labels.tolist(), strict=True)
                             if code < 0 and t not in (None, "")))
        if unreadable:
            one = unreadable == 1
            notes.append(f"{unreadable} label{'' if one else 's'} in column {mapping.label!r} "
                         f"{'is' if one else 'are'} neither pass nor fail (true/false, 1/0, "
                         f"yes/no are read too); {'that row is' if one else 'those rows are'} "
                         "left out of calibration.")
    return Prepared(expected.values, actuals, ids, labels, notes, references)


def _label_code(text: str | None) -> int:
    value = parse_label(text)
    return -1 if value is None else int(value)
