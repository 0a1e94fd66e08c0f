"""Several references per row (`--expected-any`): each metric keeps the best one.

Every (reference, actual) pair is scored by the ordinary batch path (so normalisation, the
sharing of work between metrics and both cores apply as usual), then each row keeps, per metric,
the highest score of a maximised metric or the lowest of a minimised one; ties go to the first
reference. `refs` records the 0-based index of the winner (-1 where no reference scored).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from matchlens.core.datasets import json_numbers
from matchlens.core.datasets.columns import ColumnValues, resolve_column
from matchlens.core.datasets.table import Table
from matchlens.core.errors import DatasetError
from matchlens.core.metrics.registry import STATUS_MISSING, STATUS_SCORED
from matchlens.core.results import Direction
from matchlens.core.scoring.batch import BatchResult, MetricJob, score_chunk
from matchlens.core.scoring.parallel import run_to_completion


@dataclass
class ReferenceLists:
    """The references of every row; None where a row has none, with the reason in `reasons`."""

    lists: list[list[str] | None]
    reasons: dict[int, str] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.lists)


def parse_references(value: str | None) -> list[str] | None:
    """One cell: a JSON array of texts (numbers are taken as the text they were written with:
    `[1.10]` is "1.10", `[1e400]` "1e400"); a cell that is not a JSON array is one reference.
    ValueError with a reason for anything else."""
    if value is None:
        return None
    if not value.lstrip().startswith("["):
        return [value]
    try:
        items = json_numbers.loads(value)
    except RecursionError:
        raise ValueError("a JSON array nested too deeply to read") from None
    except ValueError as err:
        raise ValueError(f"not a JSON array of reference texts ({err})") from None
    if not isinstance(items, list):
        raise ValueError("not a JSON array of reference texts")
    out = []
    for i, item in enumerate(items):
        if isinstance(item, str):
            out.append(item)
        elif isinstance(item, int | float | json_numbers.JsonNumber) and \
                not isinstance(item, bool):
            out.append(json_numbers.dumps(item))
        else:
            raise ValueError(f"reference {i} is {json.dumps(item)[:40]}, not a text")
    return out or None


def reference_lists(table: Table, spec: str) -> ReferenceLists:
    """The `--expected-any SPEC` of every row (a column or JSONPath holding a JSON array)."""
    return references_from_column(table, resolve_column(table, spec), spec)


def references_from_column(table: Table, column: ColumnValues, spec: str) -> ReferenceLists:
    """Every cell of a resolved column read as a list of references (see parse_references);
    a cell that cannot be read, or an empty list, is a missing row with its reason."""
    lists: list[list[str] | None] = []
    reasons = dict(column.reasons)
    for i, value in enumerate(column.values):
        try:
            refs = parse_references(value)
        except ValueError as err:
            refs = None
            reasons[i] = str(DatasetError(str(err), file=_label(table), row=table.lines[i],
                                          column=spec))
        if refs is None and value is not None and i not in reasons:
            reasons[i] = str(DatasetError("no reference answers (an empty list)",
                                          file=_label(table), row=table.lines[i],
                                          column=spec))
        lists.append(refs)
    return ReferenceLists(lists, reasons)


def _label(table: Table) -> str:
    return str(getattr(table, "label", None) or table.path)


def score_any(references: Sequence[list[str] | None],
              actuals: Mapping[str, Sequence[str | None]],
              jobs: Sequence[MetricJob]) -> BatchResult:
    """Score every row against each of its references; keep the best per metric (the whole
    batch at once, on both cores where it pays)."""
    flat_expected, flat_actuals, counts = _flatten(references, actuals)
    flat = run_to_completion(flat_expected, flat_actuals, list(jobs))
    return _keep_best(flat, counts, list(actuals), jobs)


def score_any_block(references: Sequence[list[str] | None],
                    actuals: Mapping[str, Sequence[str | None]], jobs: Sequence[MetricJob],
                    cancel: Callable[[], bool] | None = None) -> BatchResult | None:
    """`score_any` for one block of rows, in this process (the window's chunks); None as soon
    as `cancel()` is true."""
    flat_expected, flat_actuals, counts = _flatten(references, actuals)
    chunk = score_chunk(flat_expected, flat_actuals, jobs, cancel=cancel)
    if chunk is None:
        return None
    flat = BatchResult.empty(len(flat_expected), list(actuals), list(jobs))
    flat.add(chunk)
    flat.done = flat.rows
    return _keep_best(flat, counts, list(actuals), jobs)


def _flatten(references: Sequence[list[str] | None],
             actuals: Mapping[str, Sequence[str | None]]):
    """One (reference, actual) pair per reference of every row, row after row."""
    rows = len(references)
    counts = np.fromiter((len(r) if r else 0 for r in references), dtype=np.int64, count=rows)
    flat_expected = [text for refs in references if refs for text in refs]
    owner = np.repeat(np.arange(rows), counts).tolist()  # flat pair -> row
    flat_actuals = {variant: [values[i] for i in owner] for variant, values in actuals.items()}
    return flat_expected, flat_actuals, counts


def _keep_best(flat: BatchResult, counts: np.ndarray, variants: list[str],
               jobs: Sequence[MetricJob]) -> BatchResult:
    """Per row and metric, the best of its consecutive flat pairs."""
    rows = len(counts)
    with_refs = np.flatnonzero(counts > 0)
    result = BatchResult.empty(rows, variants, list(jobs))
    starts = np.concatenate(([0], np.cumsum(counts[with_refs])[:-1])).astype(np.int64)
    group_sizes = counts[with_refs]
    for key in result.keys():  # noqa: SIM118 - a method, not a dict
        refs = np.full(rows, -1, dtype=np.int64)
        result.refs[key] = refs
        if not len(with_refs):
            continue
        scores, status = flat.scores[key], flat.status[key]
        first = _best_in_groups(scores, starts, group_sizes, result.job(key[1]).spec.direction)
        chosen = starts + first
        result.scores[key][with_refs] = scores[chosen]
        result.status[key][with_refs] = status[chosen]
        scored = status[chosen] == STATUS_SCORED
        refs[with_refs[scored]] = first[scored]
        messages = flat.messages[key]
        if messages:
            result.messages[key] = {int(with_refs[g]): messages[int(c)]
                                    for g, c in enumerate(chosen.tolist()) if c in messages}
    for key in result.keys():  # noqa: SIM118 - rows without references stay missing
        result.status[key][counts == 0] = STATUS_MISSING
    result.done = rows
    return result


def _best_in_groups(scores: np.ndarray, starts: np.ndarray, sizes: np.ndarray,
                    direction: Direction) -> np.ndarray:
    """Per group of consecutive pairs, the 0-based index of its best score (ties: the first;
    a group with no score: 0, whose status and message the row then shows)."""
    signed = scores if direction is Direction.MAX else -scores
    ranked = np.where(np.isnan(signed), -np.inf, signed)
    best = np.maximum.reduceat(ranked, starts)
    local = np.arange(len(scores)) - np.repeat(starts, sizes)
    at_best = ranked == np.repeat(best, sizes)
    return np.minimum.reduceat(np.where(at_best, local, np.iinfo(np.int64).max), starts)
