"""What changed since the baseline, per row and per metric (no Qt): the change labels, the
deltas, their counts, the mean delta with its interval and the paired test (the Variants
view's own, `variants.paired_comparison`).

Per metric and row (`<id>_change`):
* `new` the baseline lacks the id; `gone` this run lacks it;
* `regressed` / `improved`: the metric's verdict flipped, pass → not pass / not pass → pass
  (a row without a score does not pass);
* else `worse` / `better`: the score moved in the metric's bad / good direction (a score lost
  is worse, a score gained better);
* else `same` (equal scores, or neither side has one).
Per row (`change`): `regressed` when the row passed every thresholded metric in the baseline and
does not now, `improved` for the reverse, else `same` (or `new` / `gone`). A row neither run
answers (a reference only) is `same`: both miss it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from matchlens.core.results import Direction
from matchlens.core.scoring.batch import BatchResult
from matchlens.core.scoring.variants import PairedComparison, paired_comparison

# The labels, in the order the summary lists them; a label array holds indexes into this.
LABELS = ("regressed", "improved", "worse", "better", "same", "new", "gone")
REGRESSED, IMPROVED, WORSE, BETTER, SAME, NEW, GONE = range(len(LABELS))


@dataclass(frozen=True)
class MetricChange:
    """One metric of one variant against the baseline: per row the baseline's score, the delta
    (this − baseline, NaN where either has none) and the label code (`LABELS[code]`)."""

    variant: str
    metric_id: str
    baseline: np.ndarray
    delta: np.ndarray
    codes: np.ndarray  # int8 into LABELS
    comparison: PairedComparison  # baseline (a) against this run (b), rows with both scores

    @property
    def counts(self) -> dict[str, int]:
        """Rows per label, every label present (0 when none)."""
        counted = np.bincount(self.codes, minlength=len(LABELS))
        return dict(zip(LABELS, (int(c) for c in counted), strict=True))

    def labels(self) -> list[str]:
        return np.array(LABELS, dtype=object)[self.codes].tolist()


@dataclass(frozen=True)
class VariantChange:
    """One variant (an `--actual`) against the baseline: every metric, and the row labels."""

    variant: str
    metrics: dict[str, MetricChange]
    codes: np.ndarray  # the row's `change`, int8 into LABELS (regressed/improved/same/new/gone)

    @property
    def regressed_rows(self) -> int:
        """Rows that passed every thresholded metric before and do not now."""
        return int((self.codes == REGRESSED).sum())

    @property
    def improved_rows(self) -> int:
        return int((self.codes == IMPROVED).sum())

    def labels(self) -> list[str]:
        return np.array(LABELS, dtype=object)[self.codes].tolist()


def metric_codes(before: np.ndarray, after: np.ndarray, verdict_before: np.ndarray | None,
                 verdict_after: np.ndarray | None, direction: Direction,
                 in_baseline: np.ndarray, in_run: np.ndarray) -> np.ndarray:
    """The label code of every row for one metric (see the module's rules). `verdict_*` are
    1/0/-1 arrays, None for a metric without a threshold."""
    codes = np.full(before.shape, SAME, dtype=np.int8)
    had, has = ~np.isnan(before), ~np.isnan(after)
    delta = np.where(had & has, after - before, 0.0)
    good = delta > 0 if direction is Direction.MAX else delta < 0
    bad = delta < 0 if direction is Direction.MAX else delta > 0
    codes[good | (~had & has)] = BETTER
    codes[bad | (had & ~has)] = WORSE
    if verdict_before is not None and verdict_after is not None:
        passed, passes = verdict_before == 1, verdict_after == 1
        codes[passed & ~passes] = REGRESSED
        codes[~passed & passes] = IMPROVED
    return _presence(codes, in_baseline, in_run)


def row_codes(passed_before: np.ndarray | None, passes_now: np.ndarray | None,
              in_baseline: np.ndarray, in_run: np.ndarray) -> np.ndarray:
    """The row's `change`: from passing every thresholded metric (None: no threshold, so every
    row present on both sides is `same`)."""
    codes = np.full(in_run.shape, SAME, dtype=np.int8)
    if passed_before is not None and passes_now is not None:
        codes[passed_before & ~passes_now] = REGRESSED
        codes[~passed_before & passes_now] = IMPROVED
    return _presence(codes, in_baseline, in_run)


def _presence(codes: np.ndarray, in_baseline: np.ndarray, in_run: np.ndarray) -> np.ndarray:
    codes[in_run & ~in_baseline] = NEW
    codes[in_baseline & ~in_run] = GONE
    codes[~in_baseline & ~in_run] = SAME
    return codes


def compare_with_baseline(run: BatchResult, baseline: BatchResult, base_variant: str,
                          in_baseline: np.ndarray, in_run: np.ndarray) -> list[VariantChange]:
    """Every variant of `run` against the one variant of `baseline` (both scored on the same
    joined rows, with the same jobs: the baseline rescored with this run's thresholds)."""
    thresholded = any(job.threshold is not None for job in run.jobs)
    passed_before = baseline.row_passes(base_variant) if thresholded else None
    out = []
    for variant in run.variants:
        metrics = {}
        for job in run.jobs:
            before = baseline.scores[(base_variant, job.id)]
            after = run.scores[(variant, job.id)]
            verdicts = ((baseline.verdicts(base_variant, job.id), run.verdicts(variant, job.id))
                        if job.threshold is not None else (None, None))
            both = in_baseline & in_run
            with np.errstate(invalid="ignore"):
                delta = np.where(both, after - before, np.nan)
            codes = metric_codes(before, after, *verdicts, job.spec.direction,
                                 in_baseline, in_run)
            comparison = paired_comparison(np.where(both, before, np.nan),
                                           np.where(both, after, np.nan), job.spec.direction,
                                           names=("baseline", variant))
            metrics[job.id] = MetricChange(variant, job.id, before, delta, codes, comparison)
        passes_now = run.row_passes(variant) if thresholded else None
        out.append(VariantChange(variant, metrics,
                                 row_codes(passed_before, passes_now, in_baseline, in_run)))
    return out


def format_changes(changes: list[VariantChange], baseline_label: str) -> str:
    """The summary's lines: per metric the label counts, the mean delta with its 95% interval
    and the paired test; then "N rows regressed (passed before, fail now)" per variant."""
    out = [f"compared with the baseline {baseline_label} (rescored with this run's metrics "
           "and thresholds):"]
    several = len(changes) > 1
    for change in changes:
        head = f"  {change.variant}: " if several else "  "
        for metric_id, metric in change.metrics.items():
            counts = ", ".join(f"{n:,} {label}" for label, n in metric.counts.items())
            out.append(f"{head}{metric_id}: {counts}")
            out.append(f"{head}  {metric.comparison.sentence(metric_id)}")
        rows = change.regressed_rows
        out.append(f"{head}{rows:,} row{'' if rows == 1 else 's'} regressed (passed before, "
                   f"fail now); {change.improved_rows:,} improved")
    return "\n".join(out)
