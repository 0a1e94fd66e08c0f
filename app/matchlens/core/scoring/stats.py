"""Per-metric numbers the batch tab shows while rows arrive: counts, histograms, pass rates.

No Qt. Chunks are added as they are scored (each costs O(chunk)); once scoring ends a worker
hands over the sorted scores (`SortedScores`), so a threshold drag is a binary search.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from matchlens.core.labels.calibration import Labelled, Sweep, count_passing, labelled, sweep
from matchlens.core.metrics.registry import (
    STATUS_ERROR,
    STATUS_INVALID,
    STATUS_MISSING,
    STATUS_SCORED,
    MetricSpec,
)
from matchlens.core.results import Direction
from matchlens.core.scoring.batch import BatchResult

FLOAT_BINS = 50  # bounded scores: 50 bins over the metric's natural range
MAX_INT_BINS = 60  # integer scores: one bin per value up to this many, then wider bins
_EDGE_EPS = 1e-9  # a score on a bin edge (0.02 with 0.02-wide bins) goes up, consistently


class Histogram:
    """Counts that grow chunk by chunk, on the metric's natural range.

    Bounded scores: fixed bins over [lo, hi]. Integer scores: one count per value (the upper
    end is the data's max). Other unbounded scores: the values are kept and binned on demand.
    """

    def __init__(self, spec: MetricSpec) -> None:
        self.lo, self.hi = spec.score_range
        self.integer = spec.integer
        self.counts = np.zeros(0 if self.integer or self.hi is None else FLOAT_BINS, np.int64)
        self._values: list[np.ndarray] = []  # only for unbounded non-integer metrics

    def add(self, scores: np.ndarray) -> None:
        x = scores[~np.isnan(scores)]
        if x.size == 0:
            return
        if self.integer:
            k = np.maximum(np.rint(x - self.lo), 0).astype(np.int64)
            more = np.bincount(k)
            if more.size > self.counts.size:
                self.counts = np.concatenate([self.counts,
                                              np.zeros(more.size - self.counts.size, np.int64)])
            self.counts[: more.size] += more
        elif self.hi is not None:
            scale = FLOAT_BINS / (self.hi - self.lo)
            k = np.clip(np.floor((x - self.lo) * scale + _EDGE_EPS), 0, FLOAT_BINS - 1)
            self.counts += np.bincount(k.astype(np.int64), minlength=FLOAT_BINS)
        else:
            self._values.append(x)

    def bars(self) -> tuple[np.ndarray, np.ndarray]:
        """(edges, counts) to draw: len(edges) == len(counts) + 1."""
        if self.integer:
            counts = self.counts if self.counts.size else np.zeros(1, np.int64)
            width = max(1, -(-counts.size // MAX_INT_BINS))  # ceil: at most ~60 bars
            if width > 1:
                padded = np.concatenate([counts, np.zeros(-counts.size % width, np.int64)])
                counts = padded.reshape(-1, width).sum(axis=1)
            edges = self.lo - 0.5 + width * np.arange(counts.size + 1)
            return edges, counts
        if self.hi is not None:
            return np.linspace(self.lo, self.hi, FLOAT_BINS + 1), self.counts
        x = np.concatenate(self._values) if self._values else np.zeros(0)
        top = float(x.max()) if x.size else self.lo + 1.0
        counts, edges = np.histogram(x, bins=FLOAT_BINS, range=(self.lo, max(top, self.lo + 1e-9)))
        return edges, counts


def bar_mask(spec: MetricSpec, scores: np.ndarray, index: int, lo: float, hi: float,
             last: bool) -> np.ndarray:
    """The rows a histogram bar counts: bar `index` of `Histogram.bars()`, spanning [lo, hi]
    (the last bar includes hi), by the rule `Histogram.add` bins with (NaN: no bar)."""
    low, high = spec.score_range
    with np.errstate(invalid="ignore"):
        if spec.integer:  # edges at half-integers: the value's integer decides
            v = np.rint(scores)
            return (v >= lo) & (v < hi)
        if high is not None:
            scale = FLOAT_BINS / (high - low)
            k = np.clip(np.floor((scores - low) * scale + _EDGE_EPS), 0, FLOAT_BINS - 1)
            return (k == index) & ~np.isnan(scores)
        return (scores >= lo) & ((scores <= hi) if last else (scores < hi))


class SortedScores:
    """One key's scored values in ascending order, for counts at any threshold and the median.

    Held as the distinct values and, for each, how many scores are at most it: a metric with
    few distinct scores (exact match: two) costs a few bytes instead of 8 per row, which at a
    million rows and ten keys is ~80 MB of the window. When most values are distinct the plain
    sorted array is kept (`upto` None), which is smaller then.
    """

    def __init__(self, scores: np.ndarray) -> None:
        """`scores`: the scored values (no NaN), in any order."""
        ordered = np.sort(scores)
        self.size = int(ordered.size)
        with np.errstate(invalid="ignore"):  # inf - inf: NaN, counted as a change (harmless)
            distinct = np.flatnonzero(np.diff(ordered)) if self.size else np.zeros(0, np.int64)
        if distinct.size + 1 > self.size // 2:
            self.values, self.upto = ordered, None
        else:  # the last index of each run of equal values, + 1
            self.values = ordered[np.append(distinct, self.size - 1)]
            self.upto = np.append(distinct + 1, self.size)

    def passing(self, threshold: float, direction: Direction) -> int:
        """How many scores pass `threshold` (`count_passing` over the sorted scores)."""
        if self.upto is None:
            return count_passing(self.values, threshold, direction)
        if direction is Direction.MAX:  # scores >= threshold: all but those below it
            i = int(np.searchsorted(self.values, threshold, side="left"))
            return self.size - (int(self.upto[i - 1]) if i else 0)
        i = int(np.searchsorted(self.values, threshold, side="right"))
        return int(self.upto[i - 1]) if i else 0

    def at(self, k: int) -> float:
        """The k-th smallest score (0-based)."""
        if self.upto is None:
            return float(self.values[k])
        return float(self.values[np.searchsorted(self.upto, k, side="right")])

    def median(self) -> float | None:
        """np.median of the scores."""
        if not self.size:
            return None
        with np.errstate(invalid="ignore"):  # -inf and inf in the middle: NaN, as np.median
            return float(np.mean([self.at((self.size - 1) // 2), self.at(self.size // 2)]))


class KeyStats:
    """One (variant, metric): status counts, running mean, histogram, pass counts."""

    def __init__(self, spec: MetricSpec, scores: np.ndarray) -> None:
        self.spec = spec
        self.scores = scores  # the live result array (filled as chunks arrive)
        self.done = 0
        self.status_counts = np.zeros(4, np.int64)
        self.total = 0.0
        self.histogram = Histogram(spec)
        self.sorted: SortedScores | None = None  # the scored values, once scoring ends

    def add(self, start: int, stop: int, status: np.ndarray) -> None:
        chunk = self.scores[start:stop]
        self.status_counts += np.bincount(status, minlength=4)[:4]
        self.total += float(np.nansum(chunk))
        self.histogram.add(chunk)
        self.done = max(self.done, stop)

    @property
    def scored(self) -> int:
        return int(self.status_counts[STATUS_SCORED])

    @property
    def mean(self) -> float | None:
        return self.total / self.scored if self.scored else None

    @property
    def median(self) -> float | None:
        return self.sorted.median() if self.sorted is not None else None

    def passed(self, threshold: float) -> int:
        """Rows passing `threshold`; rows without a score never pass."""
        if self.sorted is not None:
            return self.sorted.passing(threshold, self.spec.direction)
        part = self.scores[: self.done]
        with np.errstate(invalid="ignore"):
            ok = part >= threshold if self.spec.direction is Direction.MAX else part <= threshold
        return int(np.count_nonzero(ok))

    def summary_text(self, threshold: float | None) -> str:
        """Pass rate over ALL rows done ("pass 12.5% (10/80)"), then every count, the scored
        rows named as the mean's denominator: errored rows are never hidden."""
        c = self.status_counts
        # both denominators: the pass rate's (all rows, in its parentheses) and the mean's
        counts = (f"mean over {c[STATUS_SCORED]:,} scored · errored {c[STATUS_ERROR]:,} · "
                  f"invalid {c[STATUS_INVALID]:,} · missing {c[STATUS_MISSING]:,}")
        if threshold is None or not self.done:
            rate = "no threshold" if threshold is None else "–"
        else:
            passed = self.passed(threshold)
            rate = f"pass {passed / self.done:.1%} ({passed:,}/{self.done:,})"
        return f"{rate} · {counts}"


@dataclass
class Final:
    """What a worker computes once every row is scored (sorting is O(n log n), off the GUI)."""

    sorted: dict[tuple[str, str], SortedScores] = field(default_factory=dict)
    labelled: dict[tuple[str, str], Labelled] = field(default_factory=dict)
    sweeps: dict[tuple[str, str], Sweep] = field(default_factory=dict)


def finalize(result: BatchResult, labels: np.ndarray | None) -> Final:
    final = Final()
    for key in list(result.scores):
        scores = result.scores[key]
        final.sorted[key] = SortedScores(scores[result.status[key] == STATUS_SCORED])
        if labels is not None:
            data = labelled(scores, labels)
            final.labelled[key] = data
            final.sweeps[key] = sweep(data, result.job(key[1]).spec.direction)
    return final


def label_sweeps(result: BatchResult, codes: dict[str, np.ndarray],
                 cancel: Callable[[], bool] | None = None
                 ) -> tuple[dict[tuple[str, str], Labelled], dict[tuple[str, str], Sweep]] | None:
    """Calibration of every metric of the variants in `codes` (variant -> int8 labels), as
    `finalize` makes it: redone whenever a person labels a row. None once `cancel()` says a
    newer label made this one moot (checked between metrics)."""
    kept: dict[tuple[str, str], Labelled] = {}
    sweeps: dict[tuple[str, str], Sweep] = {}
    for variant, labels in codes.items():
        for job in result.jobs:
            if cancel is not None and cancel():
                return None
            key = (variant, job.id)
            kept[key] = labelled(result.scores[key], labels)
            sweeps[key] = sweep(kept[key], job.spec.direction)
    return kept, sweeps
