"""The summary of a scored table as a dict, from partial summaries that combine exactly.

`matchlens.score` summarises its one table as one part; `matchlens.dask` summarises each
partition where it was scored and combines the parts. Counts and pass rates add up exactly.
Means are exact too: each part keeps its sum as two floats (the correctly rounded sum and the
correctly rounded rest), so the combined sum is the correctly rounded sum of every score,
whatever the partitioning. The median is exact while the distinct scores are few enough to
keep (every metric with rounded or integer scores); past that a part keeps a 1025-point sketch
of its distribution and the median says `median_exact: False`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from matchlens.core.batch import BatchResult
from matchlens.core.metrics.registry import STATUS_SCORED

PARTITION_DISTINCT = 65_536  # distinct scores a Dask partition keeps exactly
COMBINED_DISTINCT = 1_000_000  # ... and all partitions together
SKETCH_POINTS = 1025
NOTES = 5  # reasons for missing values kept, as the command prints them
_COUNTS = ("scored", "invalid", "errored", "missing")

Part = dict[str, Any]


def partial(result: BatchResult, *, partition: int = 0, distinct_cap: int | None = None,
            notes: Sequence[tuple[int, str]] = ()) -> Part:
    """What one table (or partition) contributes. `notes`: (row, sentence) of missing
    values, as the command notes them."""
    variants: dict[str, Any] = {}
    for variant in result.variants:
        metrics = {}
        for job in result.jobs:
            key = (variant, job.id)
            s = result.summary(variant, job.id)
            scored = result.scores[key][result.status[key] == STATUS_SCORED]
            metrics[job.id] = {
                **{name: getattr(s, name) for name in _COUNTS},
                "passed": s.passed, "failed": s.failed,
                "sum": _exact_sum(scored, job.spec.integer),
                "values": _values(scored, distinct_cap),
                "why": _reasons(result.messages[key], partition),
            }
        gated = any(job.threshold is not None for job in result.jobs)
        passed = int(result.row_passes(variant).sum()) if gated else None
        variants[variant] = {"metrics": metrics, "passed": passed}
    return {
        "rows": result.rows,
        "partitions": 1,
        "jobs": {job.id: {"threshold": job.threshold, "direction": str(job.spec.direction)}
                 for job in result.jobs},
        "variants": variants,
        "notes": [(partition, row, text) for row, text in notes][:NOTES],
    }


def combine(parts: Iterable[Part]) -> Part:
    parts = list(parts)
    if len(parts) == 1:
        return parts[0]
    first = parts[0]
    variants: dict[str, Any] = {}
    for variant, data in first["variants"].items():
        metrics = {}
        for metric_id in data["metrics"]:
            each = [p["variants"][variant]["metrics"][metric_id] for p in parts]
            metrics[metric_id] = {
                **{name: sum(m[name] for m in each) for name in _COUNTS},
                "passed": _sum_or_none(m["passed"] for m in each),
                "failed": _sum_or_none(m["failed"] for m in each),
                "sum": _combined_sum([m["sum"] for m in each]),
                "values": _combined_values([m["values"] for m in each]),
                "why": _combined_reasons([m["why"] for m in each]),
            }
        passed = _sum_or_none(p["variants"][variant]["passed"] for p in parts)
        variants[variant] = {"metrics": metrics, "passed": passed}
    notes = sorted(note for p in parts for note in p["notes"])[:NOTES]
    return {"rows": sum(p["rows"] for p in parts),
            "partitions": sum(p["partitions"] for p in parts),
            "jobs": first["jobs"], "variants": variants, "notes": notes}


def finalize(part: Part, source: str | None = None) -> dict[str, Any]:
    """The summary a person reads (the `.attrs["matchlens"]` dict)."""
    rows = part["rows"]
    variants = {}
    why = []
    for variant, data in part["variants"].items():
        metrics = {}
        for metric_id, m in data["metrics"].items():
            job = part["jobs"][metric_id]
            median, exact = _median(m["values"])
            metrics[metric_id] = {
                "threshold": job["threshold"],
                "direction": job["direction"],
                "rows": rows,
                **{name: m[name] for name in _COUNTS},
                "mean": math.fsum(m["sum"]) / m["scored"] if m["scored"] else None,
                "median": median,
                "median_exact": exact,
                "passed": m["passed"],
                "failed": m["failed"],
                "pass_rate": _rate(m["passed"], rows),
            }
            for message, (count, partition, row) in m["why"].items():
                why.append({"variant": variant, "metric": metric_id, "message": message,
                            "rows": count, "partition": partition, "row": row})
        variants[variant] = {"rows": rows, "passed": data["passed"],
                             "pass_rate": _rate(data["passed"], rows), "metrics": metrics}
    why.sort(key=lambda w: (-w["rows"], w["partition"], w["row"]))
    return {
        "source": source,
        "rows": rows,
        "partitions": part["partitions"],
        "metrics": list(part["jobs"]),
        "variants": variants,
        "why": why,
        "notes": [text for _, _, text in part["notes"]],
    }


def _rate(passed: int | None, rows: int) -> float | None:
    """Share of ALL rows (a row without a score does not pass), as the command reports it."""
    return None if passed is None or rows == 0 else passed / rows


def _sum_or_none(values: Iterable[int | None]) -> int | None:
    values = list(values)
    return None if any(v is None for v in values) else sum(values)  # type: ignore[arg-type]


# --- sums -------------------------------------------------------------------------------------

def _exact_sum(scored: np.ndarray, integer: bool) -> tuple[float, float]:
    """(s, r): s the correctly rounded sum, r the correctly rounded rest (sum - s)."""
    if not scored.size:
        return 0.0, 0.0
    if integer and abs(scored).sum() < 2.0 ** 52:  # whole numbers add up exactly in floats
        return float(scored.sum()), 0.0
    values = scored.tolist()
    total = math.fsum(values)
    values.append(-total)
    return total, math.fsum(values)


def _combined_sum(sums: Sequence[tuple[float, float]]) -> tuple[float, float]:
    values = [x for pair in sums for x in pair]
    total = math.fsum(values)
    values.append(-total)
    return total, math.fsum(values)


# --- distributions for the median ------------------------------------------------------------

def _values(scored: np.ndarray, cap: int | None) -> dict[str, Any]:
    points, counts = np.unique(scored, return_counts=True)
    values = {"points": points, "weights": counts.astype(np.float64), "exact": True}
    return values if cap is None or points.size <= cap else _sketch(values)


def _sketch(values: dict[str, Any]) -> dict[str, Any]:
    """SKETCH_POINTS points at evenly spaced ranks, each weighing an equal share."""
    points, weights = values["points"], values["weights"]
    total = float(weights.sum())
    cumulative = np.cumsum(weights)
    targets = (np.arange(SKETCH_POINTS) + 0.5) * (total / SKETCH_POINTS)
    at = np.minimum(np.searchsorted(cumulative, targets), points.size - 1)
    return {"points": points[at], "weights": np.full(SKETCH_POINTS, total / SKETCH_POINTS),
            "exact": False}


def _combined_values(parts: Sequence[dict[str, Any]]) -> dict[str, Any]:
    points = np.concatenate([p["points"] for p in parts])
    weights = np.concatenate([p["weights"] for p in parts])
    exact = all(p["exact"] for p in parts)
    if exact:
        points, inverse = np.unique(points, return_inverse=True)
        weights = np.bincount(inverse.ravel(), weights=weights, minlength=points.size)
        merged = {"points": points, "weights": weights, "exact": True}
        return merged if points.size <= COMBINED_DISTINCT else _sketch(merged)
    order = np.argsort(points, kind="stable")
    merged = {"points": points[order], "weights": weights[order], "exact": False}
    return merged if points.size <= 4 * SKETCH_POINTS else _sketch(merged)


def _median(values: dict[str, Any]) -> tuple[float | None, bool]:
    points, weights = values["points"], values["weights"]
    if not points.size:
        return None, values["exact"]
    cumulative = np.cumsum(weights)
    if not values["exact"]:
        at = int(np.searchsorted(cumulative, cumulative[-1] / 2))
        return float(points[min(at, points.size - 1)]), False
    n = int(round(cumulative[-1]))
    # the element of 0-based rank r sits where the running count first exceeds r
    low = int(np.searchsorted(cumulative, (n - 1) // 2, side="right"))
    high = int(np.searchsorted(cumulative, n // 2, side="right"))
    if low == high:
        return float(points[low]), True
    return (float(points[low]) + float(points[high])) / 2, True  # as numpy's median does


# --- why rows have no score ------------------------------------------------------------------

def _reasons(messages: dict[int, str], partition: int) -> dict[str, list[int]]:
    """sentence -> [rows, partition, first row]."""
    out: dict[str, list[int]] = {}
    for row in sorted(messages):
        entry = out.get(messages[row])
        if entry is None:
            out[messages[row]] = [1, partition, row]
        else:
            entry[0] += 1
    return out


def _combined_reasons(parts: Sequence[dict[str, list[int]]]) -> dict[str, list[int]]:
    out: dict[str, list[int]] = {}
    for part in parts:
        for message, (count, partition, row) in part.items():
            entry = out.get(message)
            if entry is None:
                out[message] = [count, partition, row]
            else:
                entry[0] += count
                if (partition, row) < (entry[1], entry[2]):
                    entry[1], entry[2] = partition, row
    return out
