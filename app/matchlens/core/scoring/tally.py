"""A run's summary, kept piece by piece: exact counts, means, medians and reasons while the
rows themselves stream past (`matchlens score` never holds them all).

Only what the summary needs is kept: per metric the distinct scores with their counts (a
median needs every score, but the default metrics take few distinct values: 0/1, edit counts,
similarities rounded to 0.01), the status counts and the pass count; per reason for a missing
or unscored row, its count and its first line. Memory grows with distinct scores and distinct
reasons, not with rows.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import numpy as np

from matchlens.core.metrics.registry import (
    STATUS_ERROR,
    STATUS_INVALID,
    STATUS_MISSING,
    STATUS_SCORED,
)
from matchlens.core.scoring.batch import BatchResult, MetricSummary

_COMPACT_AT = 200_000  # distinct values waiting before they are merged


class ValueCounts:
    """A multiset of floats as (distinct values, counts): exact mean and median."""

    def __init__(self) -> None:
        self._values = np.empty(0)
        self._counts = np.empty(0, dtype=np.int64)
        self._pending: list[tuple[np.ndarray, np.ndarray]] = []
        self._waiting = 0

    def add(self, scores: np.ndarray) -> None:
        if not scores.size:
            return
        values, counts = np.unique(scores, return_counts=True)
        self._pending.append((values, counts.astype(np.int64)))
        self._waiting += values.size
        if self._waiting >= _COMPACT_AT:
            self._compact()

    def _compact(self) -> None:
        if not self._pending:
            return
        values = np.concatenate([self._values, *(v for v, _ in self._pending)])
        counts = np.concatenate([self._counts, *(c for _, c in self._pending)])
        self._values, inverse = np.unique(values, return_inverse=True)
        self._counts = np.bincount(inverse.reshape(-1), weights=counts,
                                   minlength=self._values.size).astype(np.int64)
        self._pending, self._waiting = [], 0

    def merge(self, other: ValueCounts) -> None:
        """Add another multiset (a Dask partition's): the result is as if every score had been
        added here."""
        other._compact()
        if other._values.size:
            self._pending.append((other._values, other._counts))
            self._waiting += other._values.size
            if self._waiting >= _COMPACT_AT:
                self._compact()

    def items(self) -> tuple[np.ndarray, np.ndarray]:
        """(distinct values ascending, their counts): a histogram's input."""
        self._compact()
        return self._values, self._counts

    @property
    def n(self) -> int:
        self._compact()
        return int(self._counts.sum())

    def mean(self) -> float | None:
        n = self.n
        return float(np.dot(self._values, self._counts) / n) if n else None

    def median(self) -> float | None:
        """As numpy's median of the values themselves: the middle one, or the mean of the
        two middle ones."""
        n = self.n
        if not n:
            return None
        ends = np.cumsum(self._counts)  # the last 0-based position of each value, plus one
        low = self._values[np.searchsorted(ends, (n - 1) // 2, side="right")]
        high = self._values[np.searchsorted(ends, n // 2, side="right")]
        return float((low + high) / 2)


@dataclass
class Reason:
    """One distinct reason: how many rows, and where the first one is."""

    count: int
    first_line: int
    detail: str  # the first row's own sentence (what exactly was missing)
    partition: int = 0  # where `first_line` counts from, when pieces were tallied apart (Dask)


@dataclass
class MetricTally:
    threshold: float | None
    rows: int = 0
    counts: dict[int, int] = field(default_factory=dict)  # status -> rows
    passed: int = 0
    failed: int = 0
    values: ValueCounts = field(default_factory=ValueCounts)
    problems: dict[str, Reason] = field(default_factory=dict)  # errored/invalid sentences

    def summary(self) -> MetricSummary:
        thresholded = self.threshold is not None
        return MetricSummary(
            rows=self.rows, scored=self.counts.get(STATUS_SCORED, 0),
            invalid=self.counts.get(STATUS_INVALID, 0),
            errored=self.counts.get(STATUS_ERROR, 0),
            missing=self.counts.get(STATUS_MISSING, 0),
            mean=self.values.mean(), median=self.values.median(),
            passed=self.passed if thresholded else None,
            failed=self.failed if thresholded else None)


@dataclass
class VariantTally:
    rows: int = 0
    with_values: int = 0  # rows with both an expected and an actual value
    passing: int = 0  # rows passing every thresholded metric
    # (label, kind) -> rows: the label says which value ("no reference at $.x"), the kind
    # why (the row's sentence with its numbers blanked: "line #, ...: $.x has no key 'y'")
    missing: dict[tuple[str, str], Reason] = field(default_factory=dict)

    def missing_by_label(self) -> dict[str, int]:
        totals: dict[str, int] = {}
        for (label, _kind), reason in self.missing.items():
            totals[label] = totals.get(label, 0) + reason.count
        return totals
    metrics: dict[str, MetricTally] = field(default_factory=dict)


@dataclass
class Tally:
    """The summary of a run, fed one scored piece at a time (`add`)."""

    source: str
    variants: list[str]
    jobs: list  # MetricJob
    notes: list[str] = field(default_factory=list)
    unit: str = "line"  # how row places are named: "line", or "row" (spreadsheet, Parquet)
    rows: int = 0
    per_variant: dict[str, VariantTally] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for variant in self.variants:
            self.per_variant[variant] = VariantTally(
                metrics={job.id: MetricTally(job.threshold) for job in self.jobs})

    @property
    def thresholded(self) -> bool:
        return any(job.threshold is not None for job in self.jobs)

    def add_notes(self, notes: list[str]) -> None:
        for note in notes:
            if note not in self.notes:
                self.notes.append(note)

    def add(self, result: BatchResult, lines: list[int],
            missing: dict[str, list[tuple[str, dict[int, str], np.ndarray]]]) -> None:
        """One scored piece: `result` (rows numbered from 0 in the piece), the line of each
        row, and per variant the (label, reasons by row, mask of rows without a value) of its
        expected and actual columns."""
        n = result.rows
        self.rows += n
        for variant in self.variants:
            tally = self.per_variant[variant]
            tally.rows += n
            absent = np.zeros(n, dtype=bool)
            for label, reasons, mask in missing.get(variant, []):
                absent |= mask
                if reasons:
                    _count_reasons(tally.missing, label, reasons, lines)
            tally.with_values += int(n - absent.sum())
            if self.thresholded:
                tally.passing += int(result.row_passes(variant).sum())
            for job in self.jobs:
                _add_metric(tally.metrics[job.id], result, variant, job.id, lines)

    def summary(self, variant: str, metric_id: str) -> MetricSummary:
        return self.per_variant[variant].metrics[metric_id].summary()

    def overall_pass_rate(self, variant: str) -> float:
        """Share of all rows passing every thresholded metric (rows with no score do not)."""
        tally = self.per_variant[variant]
        return tally.passing / tally.rows if tally.rows else 0.0

    @classmethod
    def of(cls, result: BatchResult, lines: list[int] | None = None, source: str = "",
           missing: dict | None = None) -> Tally:
        """The summary of a whole BatchResult (the window's and `calibrate`'s way)."""
        tally = cls(source, list(result.variants), list(result.jobs))
        tally.add(result, lines if lines is not None else list(range(1, result.rows + 1)),
                  missing or {})
        return tally


_NUMBER = re.compile(r"\d+")


def _count_reasons(groups: dict[tuple[str, str], Reason], label: str, reasons: dict[int, str],
                   lines: list[int]) -> None:
    """Rows grouped by why: the same sentence but for its numbers (line, object, index)."""
    for row in sorted(reasons):
        sentence = reasons[row]
        key = (label, _NUMBER.sub("#", sentence))
        group = groups.get(key)
        if group is None:
            groups[key] = Reason(1, lines[row], sentence)
        else:
            group.count += 1


def _add_metric(tally: MetricTally, result: BatchResult, variant: str, metric_id: str,
                lines: list[int]) -> None:
    key = (variant, metric_id)
    status = result.status[key][: result.done]
    scores = result.scores[key][: result.done]
    tally.rows += int(status.size)
    kinds, counts = np.unique(status, return_counts=True)
    for kind, count in zip(kinds.tolist(), counts.tolist(), strict=True):
        tally.counts[kind] = tally.counts.get(kind, 0) + count
    tally.values.add(scores[status == STATUS_SCORED])
    if tally.threshold is not None:
        verdicts = result.verdicts(variant, metric_id)[: result.done]
        tally.passed += int((verdicts == 1).sum())
        tally.failed += int((verdicts == 0).sum())
    for row, message in sorted(result.messages.get(key, {}).items()):
        group = tally.problems.get(message)
        if group is None:
            tally.problems[message] = Reason(1, lines[row], message)
        else:
            group.count += 1


def merge_tallies(parts: list[tuple[int, Tally]]) -> Tally:
    """One Tally from tallies of parts of a table kept apart (Dask partitions), each with its
    number: counts add up, value multisets merge (so means and medians are those of every
    score), and each reason keeps the part and line where it first happens."""
    parts = sorted(parts, key=lambda part: part[0])
    first = parts[0][1]
    out = Tally(first.source, list(first.variants), list(first.jobs), unit=first.unit)
    for number, tally in parts:
        out.rows += tally.rows
        out.add_notes(tally.notes)
        for variant in out.variants:
            into, part = out.per_variant[variant], tally.per_variant[variant]
            into.rows += part.rows
            into.with_values += part.with_values
            into.passing += part.passing
            _merge_reasons(into.missing, part.missing, number)
            for metric_id, metric in part.metrics.items():
                target = into.metrics[metric_id]
                target.rows += metric.rows
                for status, count in metric.counts.items():
                    target.counts[status] = target.counts.get(status, 0) + count
                target.passed += metric.passed
                target.failed += metric.failed
                target.values.merge(metric.values)
                _merge_reasons(target.problems, metric.problems, number)
    return out


def _merge_reasons(into: dict, part: dict, number: int) -> None:
    for key, reason in part.items():
        known = into.get(key)
        if known is None:
            into[key] = Reason(reason.count, reason.first_line, reason.detail, number)
        else:
            known.count += reason.count
