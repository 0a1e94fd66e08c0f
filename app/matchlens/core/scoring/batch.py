"""The batch engine's types and its per-chunk step (no Qt): a metric job, the result arrays of a
run (`BatchResult`), a chunk of scores and the progress of a run, and `score_chunk`, which
scores one block of rows in this process.

Distinct pairs are found in pair_dedup.py; a whole batch is scored by parallel.py (on two
processes where it pays); pipeline.py is the one way a dataset is scored, over both.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from matchlens.core.datasets.source import gc_paused
from matchlens.core.metrics.registry import (
    STATUS_ERROR,
    STATUS_INVALID,
    STATUS_MISSING,
    STATUS_SCORED,
    MetricSpec,
    sharing_work,
)
from matchlens.core.results import passes
from matchlens.core.scoring.pair_dedup import Pairs, unique_pairs


@dataclass(frozen=True)
class MetricJob:
    """A metric as configured for one run."""

    spec: MetricSpec
    threshold: float | None
    options: Mapping[str, Any]

    @property
    def id(self) -> str:
        return self.spec.id


@dataclass(frozen=True)
class Progress:
    done: int
    total: int
    elapsed: float

    @property
    def rate(self) -> float:
        return self.done / self.elapsed if self.elapsed > 0 else 0.0

    @property
    def remaining(self) -> float | None:
        """Seconds left at the current rate, None until there is a rate."""
        return (self.total - self.done) / self.rate if self.rate > 0 else None


@dataclass(frozen=True)
class Chunk:
    """Scores of rows [start, stop) for every (variant, metric)."""

    start: int
    stop: int
    scores: dict[tuple[str, str], np.ndarray]
    status: dict[tuple[str, str], np.ndarray]
    messages: dict[tuple[str, str], dict[int, str]]  # absolute row index -> sentence
    # several references per row (core.references): the winning reference's index per row
    refs: dict[tuple[str, str], np.ndarray] = field(default_factory=dict)


@dataclass
class MetricSummary:
    rows: int
    scored: int
    invalid: int
    errored: int
    missing: int
    mean: float | None
    median: float | None
    passed: int | None
    failed: int | None

    @property
    def pass_rate(self) -> float | None:
        """Share of ALL rows that passed: errored or missing rows count as not passing."""
        if self.passed is None or self.rows == 0:
            return None
        return self.passed / self.rows


@dataclass
class BatchResult:
    """Result arrays per (variant, metric); NaN where no score."""

    rows: int
    variants: list[str]
    jobs: list[MetricJob]
    scores: dict[tuple[str, str], np.ndarray] = field(default_factory=dict)
    status: dict[tuple[str, str], np.ndarray] = field(default_factory=dict)
    messages: dict[tuple[str, str], dict[int, str]] = field(default_factory=dict)
    done: int = 0  # rows scored so far (all rows once complete)
    # With several references per row (core.references): the index of the reference that won,
    # -1 where none scored; empty otherwise.
    refs: dict[tuple[str, str], np.ndarray] = field(default_factory=dict)

    @classmethod
    def empty(cls, rows: int, variants: Sequence[str], jobs: Sequence[MetricJob]) -> BatchResult:
        result = cls(rows, list(variants), list(jobs))
        for key in result.keys():  # noqa: SIM118 - a method, not a dict
            result.scores[key] = np.full(rows, np.nan)
            result.status[key] = np.full(rows, STATUS_MISSING, dtype=np.int8)
            result.messages[key] = {}
        return result

    def keys(self) -> list[tuple[str, str]]:
        return [(v, job.id) for v in self.variants for job in self.jobs]

    def job(self, metric_id: str) -> MetricJob:
        return next(job for job in self.jobs if job.id == metric_id)

    def add(self, chunk: Chunk) -> None:
        for key, values in chunk.scores.items():
            self.scores[key][chunk.start:chunk.stop] = values
            self.status[key][chunk.start:chunk.stop] = chunk.status[key]
            self.messages[key].update(chunk.messages[key])
        for key, values in chunk.refs.items():
            self.refs.setdefault(key, np.full(self.rows, -1, dtype=np.int64))
            self.refs[key][chunk.start:chunk.stop] = values
        self.done = max(self.done, chunk.stop)

    def verdicts(self, variant: str, metric_id: str, threshold: float | None | object = ...
                 ) -> np.ndarray:
        """1 pass, 0 fail, -1 no verdict (no threshold, or no score) for every row."""
        job = self.job(metric_id)
        limit = job.threshold if threshold is ... else threshold
        return verdict_array(self.scores[(variant, metric_id)], job.spec, limit)  # type: ignore[arg-type]

    def row_passes(self, variant: str, thresholds: Mapping[str, float | None] | None = None
                   ) -> np.ndarray:
        """True where a row passes every thresholded metric (a row with no score does not)."""
        ok = np.ones(self.rows, dtype=bool)
        for job in self.jobs:
            limit = (thresholds or {}).get(job.id, job.threshold)
            if limit is None:
                continue
            ok &= self.verdicts(variant, job.id, limit) == 1
        return ok

    def summary(self, variant: str, metric_id: str, threshold: float | None | object = ...
                ) -> MetricSummary:
        scores = self.scores[(variant, metric_id)][: self.done]
        status = self.status[(variant, metric_id)][: self.done]
        scored = scores[status == STATUS_SCORED]
        verdicts = self.verdicts(variant, metric_id, threshold)[: self.done]
        has_threshold = bool((verdicts != -1).any()) or self._threshold(metric_id, threshold) is not None
        return MetricSummary(
            rows=self.done,
            scored=int(scored.size),
            invalid=int((status == STATUS_INVALID).sum()),
            errored=int((status == STATUS_ERROR).sum()),
            missing=int((status == STATUS_MISSING).sum()),
            mean=float(scored.mean()) if scored.size else None,
            median=float(np.median(scored)) if scored.size else None,
            passed=int((verdicts == 1).sum()) if has_threshold else None,
            failed=int((verdicts == 0).sum()) if has_threshold else None,
        )

    def _threshold(self, metric_id: str, threshold: float | None | object) -> float | None:
        return self.job(metric_id).threshold if threshold is ... else threshold  # type: ignore[return-value]


def verdict_array(scores: np.ndarray, spec: MetricSpec, threshold: float | None) -> np.ndarray:
    out = np.full(scores.shape, -1, dtype=np.int8)
    if threshold is None:
        return out
    valid = ~np.isnan(scores)
    ok = passes(spec.direction, scores[valid], threshold)
    out[valid] = np.where(ok, 1, 0)
    return out


def score_chunk(expected: Sequence[str | None], actuals: Mapping[str, Sequence[str | None]],
                jobs: Sequence[MetricJob], start: int = 0,
                cancel: Callable[[], bool] | None = None) -> Chunk | None:
    """The scores of one block of rows, numbered from `start` (every variant, every metric),
    in this process; None as soon as `cancel()` is true (asked between metrics, so a block is
    the longest wait). Rows with a missing expected or actual value get STATUS_MISSING and no
    score."""
    scores, status, messages = {}, {}, {}
    # The work makes no reference cycles, and a cyclic collection would walk every row of a
    # big table again and again: paused while a chunk is scored.
    with gc_paused():
        for variant, actual in actuals.items():
            pairs = unique_pairs(expected, actual)
            with sharing_work():  # folded texts, edit distances: once for all the metrics
                for job in jobs:
                    if cancel is not None and cancel():
                        return None
                    key = (variant, job.id)
                    scores[key], status[key], messages[key] = score_unique(job, pairs, start)
    return Chunk(start, start + len(expected), scores, status, messages)


def score_unique(job: MetricJob, pairs: Pairs, offset: int
                 ) -> tuple[np.ndarray, np.ndarray, dict[int, str]]:
    """One metric over distinct pairs: every row gets its pair's score, status and message
    (message rows numbered from `offset`)."""
    if pairs.inverse is None:  # every row present and distinct: the metric's arrays as they are
        if not pairs.expected:
            return np.full(0, np.nan), np.full(0, STATUS_MISSING, dtype=np.int8), {}
        many = job.spec.many(pairs.expected, pairs.actual, job.options)
        messages = {offset + i: text for i, text in many.messages.items()}
        return (np.asarray(many.scores, dtype=np.float64), many.status.astype(np.int8),
                messages)
    n = pairs.rows
    scores = np.full(n, np.nan)
    status = np.full(n, STATUS_MISSING, dtype=np.int8)
    messages: dict[int, str] = {}
    if not pairs.expected:
        return scores, status, messages
    many = job.spec.many(pairs.expected, pairs.actual, job.options)
    present = pairs.inverse >= 0
    where = pairs.inverse[present]
    scores[present] = many.scores[where]
    status[present] = many.status[where]
    if many.messages:
        for row in np.flatnonzero(present):
            message = many.messages.get(int(pairs.inverse[row]))
            if message is not None:
                messages[offset + int(row)] = message
    return scores, status, messages
