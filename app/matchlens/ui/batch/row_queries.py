"""What the compare view asks the batch tab about one of its rows (no widgets of its own): the
pair to open with its caption, the references of a row that has several, and the next or
previous row in the table's current order (all rows, or the failing ones)."""

from __future__ import annotations

import numpy as np

from matchlens.core.scoring.batch import BatchResult
from matchlens.core.scoring.mapping import Prepared
from matchlens.core.scoring.view_order import ROW_FAIL, ROW_PASS, ROW_PROBLEM, failing_mask
from matchlens.ui.batch.table_model import BatchTableModel

VERDICT_WORDS = {ROW_PASS: "pass", ROW_FAIL: "fail", ROW_PROBLEM: "no score"}


def pair_for_row(prepared: Prepared | None, model: BatchTableModel, row: int,
                 label_words: list[str]) -> tuple[str, str, str] | None:
    """(expected, actual of the variant shown, a caption: the row, its id, the variant, its
    verdict, `label_words`, what it lacks); None for a row the session does not have."""
    if prepared is None or not 0 <= row < prepared.rows:
        return None
    variant = model.variant()
    expected = prepared.expected[row]
    actual = prepared.actuals[variant][row]
    parts = [f"row {row + 1} of {prepared.rows}"]
    if prepared.ids is not None and prepared.ids[row]:
        parts[0] += f" (id {prepared.ids[row]})"
    parts.append(variant)
    verdict = VERDICT_WORDS.get(model.row_code(row))
    if verdict:
        parts.append(verdict)
    parts.extend(label_words)
    if expected is None or actual is None:
        parts.append("no expected value" if expected is None else "no actual value")
    return expected or "", actual or "", " · ".join(parts)


def references_for_row(prepared: Prepared | None, result: BatchResult | None, variant: str,
                       row: int) -> tuple[list[str], int, str] | None:
    """With several references a row: (the references, the one to open, why that one).

    The one to open is the reference that won the first metric (in the mapping's order)
    that scored the row; the compare view steps through the others."""
    if prepared is None or prepared.references is None or not 0 <= row < prepared.rows:
        return None
    refs = prepared.references[row]
    if not refs:
        return None
    for job in (result.jobs if result is not None else []):
        won = result.refs.get((variant, job.id))
        if won is not None and won[row] >= 0:
            return refs, int(won[row]), f"best for {job.spec.label}"
    return refs, 0, "the first"


def neighbour_row(model: BatchTableModel, row: int, step: int, failing_only: bool = False
                  ) -> int | None:
    """The next (step > 0) or previous row in the table's current sort/filter order."""
    order = model.order()
    if order.size == 0 or step == 0:
        return None
    hits = np.flatnonzero(order == row)
    if hits.size:
        pos = int(hits[0])
        candidates = np.arange(pos + 1, order.size) if step > 0 else np.arange(pos - 1, -1, -1)
    else:  # the row is filtered out: continue from its place in file order
        candidates = np.flatnonzero(order > row) if step > 0 else np.flatnonzero(order < row)[::-1]
    if failing_only:
        data = model.view_data()
        if data is None:
            return None
        failing = failing_mask(data)
        candidates = candidates[failing[order[candidates]]]
    skip = abs(step) - 1 if not failing_only else 0
    if candidates.size <= skip:
        return None
    return int(order[candidates[skip]])
