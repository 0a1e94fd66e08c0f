"""Which rows of a piece are scored and which fail (`scored_rows`, `failing_rows`: the run's
JUnit feed and the report helper's remote decide alike, without pyarrow), how many failing
rows a variant gets a readable diff for (JUNIT_DIFFS), and small integer codes for the failing
rows of a 1M-row run, made without sorting: which text a
failing score is written as (`text_keys`: the number `failing_sentence` prints, read from the
score's value), each column's distinct keys numbered (`dense_codes`), and the distinct
combinations of several such columns (`combination_codes`: one JUnit failure message each).

A piece of 50,000 rows holds tens of thousands of failing scores but a few hundred distinct
texts (0.01 steps); `np.unique` sorts every score to find them. Here a key is computed per
score and the keys, few and close together, are numbered by counting (`np.bincount`), in
one pass; `np.unique` remains the fallback for keys spread too wide to count.
"""

from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal

import numpy as np

from matchlens.core.metrics.registry import STATUS_SCORED
from matchlens.core.scoring.batch import BatchResult, MetricJob

# Failing rows per variant whose JUnit body is a readable diff (see JunitFeed.bodies); the cut
# is said in each testsuite's `matchlens.diffs` property and in the bodies past it.
JUNIT_DIFFS = 1_000

# Keys are numbered by counting when they span at most this many values (or the rows' count):
# a table of that size a column, not a sort.
_COUNTED = 1 << 16
# A score whose hundredths lie this close to a half (plus the product's own rounding, relative)
# is rounded exactly (Decimal), as `format` does: the float product `score * 100` may sit on
# the other side of the half.
_NEAR_HALF = 1e-6
_LARGEST = 1e12  # past this, float hundredths lose the units: such scores are not keyed


def text_keys(scores: np.ndarray, threshold: float, integer: bool) -> np.ndarray | None:
    """An int64 key per score such that two scores with the same key are written the same by
    `rows.failing_sentence` (against `threshold`; `integer`: the metric counts): a whole score
    written as a whole number keys its value (odd keys), any other its hundredths rounded half
    to even, as `format(score, ".2f")` rounds (even keys). None when some score cannot be
    keyed so (not finite, negative or -0.0, beyond 1e12): then sort instead."""
    if scores.size == 0:
        return np.zeros(0, dtype=np.int64)
    if (not np.isfinite(scores).all() or np.signbit(scores).any()
            or float(scores.max()) > _LARGEST):
        return None
    whole = scores == np.floor(scores)
    if not (integer or float(threshold).is_integer()):
        whole[:] = False  # `failing_sentence` writes a whole score as 0.00 then
    hundredths = scores * 100.0
    keys = np.rint(hundredths)
    margin = _NEAR_HALF + hundredths * 1e-14
    near = (np.abs(hundredths - np.floor(hundredths) - 0.5) < margin) & ~whole
    if near.any():
        at = np.flatnonzero(near)
        values, inverse = np.unique(scores[at], return_inverse=True)  # few: a sort is cheap
        exact = [round(Decimal(v).scaleb(2)) for v in values.tolist()]  # half to even
        keys[at] = np.asarray(exact, dtype=np.float64)[inverse.reshape(-1)]
    out = keys.astype(np.int64) * 2
    out[whole] = scores[whole].astype(np.int64) * 2 + 1
    return out


def dense_codes(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each key's number among the distinct keys (0, 1, … in the order of the keys' values) and
    the position of one row holding each distinct key (its first)."""
    n = len(keys)
    if n == 0:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    low, high = int(keys.min()), int(keys.max())
    if high - low >= max(_COUNTED, n):
        _, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
        return inverse.reshape(-1).astype(np.int64, copy=False), first
    shifted = keys - low
    firsts = np.full(high - low + 1, n, dtype=np.int64)
    np.minimum.at(firsts, shifted, np.arange(n, dtype=np.int64))
    present = np.flatnonzero(firsts < n)
    number = np.zeros(high - low + 1, dtype=np.int64)
    number[present] = np.arange(len(present), dtype=np.int64)
    return number[shifted], firsts[present]


def combination_codes(columns: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """For rows described by several columns of small non-negative codes: the position of the
    first row of each distinct combination, and each row's combination number (an index into
    the first). Column by column in one dimension, renumbered (dense_codes) whenever the
    combined key would leave int64 — `np.unique(axis=0)` sorts rows as opaque records, which
    costs seconds at 1M rows."""
    n = len(columns[0]) if columns else 0
    key = np.zeros(n, dtype=np.int64)
    for column in columns:
        size = int(column.max()) + 1 if n else 1
        if int(key.max(initial=0)) >= (1 << 62) // size:  # renumbered: the key stays in range
            key = dense_codes(key)[0]
        key = key * size + column
    which, first = dense_codes(key)
    return first, which


def scored_rows(result: BatchResult, variant: str, judged: list[MetricJob]) -> np.ndarray:
    """The rows of `variant` scored by at least one of the metrics that judge them (the
    others are skipped testcases)."""
    scored = np.zeros(result.rows, dtype=bool)
    for job in judged:
        scored |= result.status[(variant, job.id)] == STATUS_SCORED
    return scored


def failing_rows(verdicts: Iterable[np.ndarray], scored: np.ndarray) -> np.ndarray:
    """The scored rows that some thresholded metric fails (its verdict 0)."""
    failing = np.zeros(len(scored), dtype=bool)
    for verdict in verdicts:
        failing |= verdict == 0
    return failing & scored
