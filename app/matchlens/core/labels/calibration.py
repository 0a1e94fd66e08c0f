"""Thresholds against human labels: confusion counts, a full sweep, ROC / PR curves, best F1.

Pure numpy, no Qt. A human label "pass" is the positive class; a row is *predicted* positive
when its score passes the threshold under the metric's direction (MAX: score >= t, MIN:
score <= t), the same rule as `results.passes`.

Rows without a score (NaN) or without a readable label are left out and counted, never
silently dropped: `Labelled.no_score` / `Labelled.no_label`.

Best threshold: the maximal F1 is often reached by several thresholds. `Sweep.best()` returns
all of them and suggests the *strictest* (the one that lets the fewest rows pass): when two
thresholds agree with the labels equally well, a quality gate should rather flag a row for
review than wave it through. The choice is the same for every metric and direction.

A best F1 means little on its own: the most lenient candidate lets every row pass, so the best
F1 is never below the "pass everything" F1, 2P / (2P + N). `Best` carries that baseline and how
many rows pass at the suggestion, and says plainly when the metric does no better than it.

`Sweep.best(decimals=2)` states thresholds at the precision the window shows them (0.67, not
0.6667) whenever a rounded value lets exactly the same rows pass.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from matchlens.core.metrics.registry import MetricSpec
from matchlens.core.results import Direction

MIN_LABELLED = 30  # below this the numbers swing by several points per row


def shown_decimals(spec: MetricSpec) -> int:
    """How many decimals a threshold of this metric is shown and suggested with (the window's
    number boxes, `threshold_text`, `calibrate`): none for integer metrics (edit distances)."""
    return 0 if spec.integer else 2


@dataclass(frozen=True)
class Confusion:
    """Counts at one threshold; the ratios are None where their denominator is 0."""

    tp: int
    fp: int
    tn: int
    fn: int

    @property
    def n(self) -> int:
        return self.tp + self.fp + self.tn + self.fn

    @property
    def precision(self) -> float | None:
        return _ratio(self.tp, self.tp + self.fp)

    @property
    def recall(self) -> float | None:
        return _ratio(self.tp, self.tp + self.fn)

    @property
    def f1(self) -> float | None:
        # 2PR/(P+R) written with counts: also defined (as 0) when precision is undefined.
        return _ratio(2 * self.tp, 2 * self.tp + self.fp + self.fn)

    @property
    def accuracy(self) -> float | None:
        return _ratio(self.tp + self.tn, self.n)

    @property
    def kappa(self) -> float | None:
        """Cohen's kappa between the metric's verdict and the human's: agreement beyond what
        chance gives with the same pass rates. None when undefined (no rows, or both raters
        say the same thing for every row, so chance agreement is already 1).

        (p_o - p_e) / (1 - p_e) with p_o = (TP + TN) / n and p_e the chance agreement,
        multiplied out over n²: 2 (TP·TN − FN·FP) / ((TP+FP)(FP+TN) + (TP+FN)(FN+TN)).
        """
        tp, fp, tn, fn = self.tp, self.fp, self.tn, self.fn
        den = (tp + fp) * (fp + tn) + (tp + fn) * (fn + tn)
        return 2 * (tp * tn - fn * fp) / den if den else None


def _ratio(num: int, den: int) -> float | None:
    return num / den if den else None


@dataclass(frozen=True)
class Labelled:
    """The rows that have both a score and a label, and how many were left out and why."""

    scores: np.ndarray  # float64
    labels: np.ndarray  # bool: True = a human said pass
    no_score: int  # rows with a label but no score (errored, invalid, missing)
    no_label: int  # rows with no readable label (whatever their score)

    @property
    def n(self) -> int:
        return int(self.scores.size)

    @property
    def positives(self) -> int:
        return int(self.labels.sum())

    @property
    def negatives(self) -> int:
        return self.n - self.positives

    def warning(self) -> str | None:
        """A sentence when the labelled rows are too few (or one-sided) to trust the numbers."""
        if self.n < MIN_LABELLED:
            rows = "1 row has" if self.n == 1 else f"{self.n} rows have"
            return (f"Only {rows} both a score and a label "
                    f"(fewer than {MIN_LABELLED}): treat these numbers as rough.")
        if self.positives == 0 or self.negatives == 0:
            which = "pass" if self.negatives == 0 else "fail"
            return f"Every labelled row is a {which}, so precision/recall trade-offs are undefined."
        return None

    def excluded_text(self) -> str:
        parts = []
        if self.no_label:
            parts.append(f"{self.no_label} without a label")
        if self.no_score:
            parts.append(f"{self.no_score} without a score")
        return f"left out: {', '.join(parts)}" if parts else "no row left out"


def labels_from(values: Sequence[bool | None] | np.ndarray) -> np.ndarray:
    """Labels as int8: 1 pass, 0 fail, -1 unknown (from bools/None or an int8 array)."""
    if isinstance(values, np.ndarray) and values.dtype != object:
        return values.astype(np.int8, copy=False)
    return np.fromiter((-1 if v is None else int(bool(v)) for v in values), dtype=np.int8,
                       count=len(values))


def labelled(scores: np.ndarray, labels: Sequence[bool | None] | np.ndarray) -> Labelled:
    """Keep the rows with a score and a label; count the rest.

    When every row is kept, `scores` is not copied: the result's scores are a read-only view of
    it (a million-row batch of ten metrics kept every score twice, ~80 MB more in the window).
    """
    scores = np.asarray(scores, dtype=float)
    codes = labels_from(labels)
    if scores.shape != codes.shape:
        raise ValueError("scores and labels must have the same length")
    has_label = codes >= 0
    has_score = ~np.isnan(scores)
    keep = has_label & has_score
    if keep.all():
        kept = scores.view()
        kept.flags.writeable = False
        return Labelled(scores=kept, labels=codes == 1, no_score=0, no_label=0)
    return Labelled(
        scores=scores[keep],
        labels=codes[keep] == 1,
        no_score=int((has_label & ~has_score).sum()),
        no_label=int((~has_label).sum()),
    )


def predicted_pass(scores: np.ndarray, threshold: float, direction: Direction) -> np.ndarray:
    """The threshold rule of `results.passes`, over an array."""
    if direction is Direction.MAX:
        return scores >= threshold
    return scores <= threshold


def confusion_at(data: Labelled, threshold: float, direction: Direction) -> Confusion:
    """Counts at one threshold, straight from the rule (the sweep's reference)."""
    predicted = predicted_pass(data.scores, threshold, direction)
    tp = int((predicted & data.labels).sum())
    fp = int((predicted & ~data.labels).sum())
    return Confusion(tp, fp, data.negatives - fp, data.positives - tp)


def count_passing(sorted_scores: np.ndarray, threshold: float, direction: Direction) -> int:
    """How many of the (ascending, NaN-free) scores pass: a binary search, for live dragging."""
    if direction is Direction.MAX:
        return int(sorted_scores.size - np.searchsorted(sorted_scores, threshold, side="left"))
    return int(np.searchsorted(sorted_scores, threshold, side="right"))


@dataclass(frozen=True)
class Best:
    """The suggested threshold (the strictest with the maximal F1), every tie, and the
    "pass everything" baseline it has to beat."""

    threshold: float
    f1: float
    ties: np.ndarray  # every threshold reaching the same F1, strictest first
    confusion: Confusion
    baseline_f1: float  # F1 when every labelled row passes: 2P / (2P + N)
    useful: bool  # the best F1 is strictly above the baseline

    @property
    def passing(self) -> int:
        """Labelled rows that pass at the suggested threshold."""
        return self.confusion.tp + self.confusion.fp

    def sentence(self, direction: Direction, metric: str = "this metric") -> str:
        sign = "≥" if direction is Direction.MAX else "≤"
        n = self.confusion.n
        where = f"{sign} {_num(self.threshold)}"
        rows = (f"all {n:,} labelled rows pass there" if self.passing == n
                else f"{self.passing:,} of {n:,} labelled rows pass there")
        if self.useful:
            text = (f"Best F1 {self.f1:.3f} at {where}: {rows}; passing every row would give "
                    f"F1 {self.baseline_f1:.3f}")
        else:
            text = (f"No useful threshold: the best F1, {self.f1:.3f} at {where} ({rows}), is no "
                    f"better than passing every row (F1 {self.baseline_f1:.3f}). By F1, {metric} "
                    f"does not separate the human labels")
        others = [t for t in self.ties.tolist() if t != self.threshold]
        if others:
            shown = ", ".join(_num(t) for t in others[:4]) + (" …" if len(others) > 4 else "")
            text += (f" (the same F1 at {len(others)} other threshold"
                     f"{'' if len(others) == 1 else 's'}: {shown}; the strictest is suggested)")
        return text + "."


def _num(x: float) -> str:
    return f"{x:g}" if float(x).is_integer() else f"{x:.4g}"


@dataclass(frozen=True)
class Sweep:
    """Counts at every candidate threshold (each unique score), strictest first.

    In that order `tp` and `fp` never decrease: a more lenient threshold only adds passing rows.
    """

    direction: Direction
    thresholds: np.ndarray
    tp: np.ndarray
    fp: np.ndarray
    positives: int
    negatives: int
    _keys: np.ndarray  # ascending "badness" keys of the thresholds, for at()

    @property
    def fn(self) -> np.ndarray:
        return self.positives - self.tp

    @property
    def tn(self) -> np.ndarray:
        return self.negatives - self.fp

    def confusion(self, k: int) -> Confusion:
        return Confusion(int(self.tp[k]), int(self.fp[k]), int(self.tn[k]), int(self.fn[k]))

    def at(self, threshold: float) -> Confusion:
        """Counts at any threshold (not only a candidate) by binary search: O(log n)."""
        key = -threshold if self.direction is Direction.MAX else threshold
        k = int(np.searchsorted(self._keys, key, side="right")) - 1
        if k < 0:  # stricter than every score: nothing passes
            return Confusion(0, 0, self.negatives, self.positives)
        return self.confusion(k)

    def f1(self) -> np.ndarray:
        den = 2 * self.tp + self.fp + self.fn
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(den > 0, 2 * self.tp / np.maximum(den, 1), np.nan)

    def precision(self) -> np.ndarray:
        # Every candidate lets at least the row holding it pass, so tp + fp >= 1.
        return self.tp / (self.tp + self.fp)

    def recall(self) -> np.ndarray:
        return self.tp / self.positives if self.positives else np.full(self.tp.shape, np.nan)

    def roc(self) -> tuple[np.ndarray, np.ndarray]:
        """(false positive rate, true positive rate) from (0, 0) to (1, 1); empty if one-sided."""
        if not self.positives or not self.negatives:
            return np.empty(0), np.empty(0)
        fpr = np.concatenate([[0.0], self.fp / self.negatives])
        tpr = np.concatenate([[0.0], self.tp / self.positives])
        return fpr, tpr

    def auc(self) -> float | None:
        """Area under the ROC curve (tied scores count half), None without both classes."""
        fpr, tpr = self.roc()
        if fpr.size == 0:
            return None
        return float(np.sum(np.diff(fpr) * (tpr[1:] + tpr[:-1]) / 2))

    def pr(self) -> tuple[np.ndarray, np.ndarray]:
        """(recall, precision) at every candidate threshold, strictest first."""
        return self.recall(), self.precision()

    def best(self, decimals: int | None = None) -> Best | None:
        """The strictest threshold with the maximal F1; None without a positive label.

        With `decimals`, each threshold is stated rounded to that many decimals when the
        rounded value lets exactly the same rows pass (else it stays the score itself).
        """
        if self.thresholds.size == 0 or self.positives == 0:
            return None
        num = 2 * self.tp
        den = 2 * self.tp + self.fp + self.fn  # > 0 since positives > 0
        k = int(np.argmax(num / den))
        # Ties compared exactly on the integer fractions, not on rounded floats.
        ties = np.flatnonzero(num * den[k] == num[k] * den)
        k = int(ties[0])  # the strictest: thresholds are ordered strictest first
        # Passing every row: TP = P, FP = N, FN = 0, so F1 = 2P / (2P + N).
        base_num, base_den = 2 * self.positives, 2 * self.positives + self.negatives
        useful = bool(num[k] * base_den > base_num * den[k])
        stated = np.array([self.stated(int(i), decimals) for i in ties])
        return Best(float(stated[0]), float(num[k] / den[k]), stated, self.confusion(k),
                    base_num / base_den, useful)

    def stated(self, k: int, decimals: int | None) -> float:
        """Candidate k's threshold at `decimals` precision if that lets the same rows pass."""
        exact = float(self.thresholds[k])
        if decimals is None:
            return exact
        scale = 10.0 ** decimals
        # The rows passing at candidate k also pass at any threshold down to (MAX) or up to
        # (MIN) the next candidate: try the nearest round value, then the one on the lenient side.
        lenient = math.floor(exact * scale) if self.direction is Direction.MAX \
            else math.ceil(exact * scale)
        same = self.confusion(k)
        for value in (round(exact, decimals), lenient / scale):
            if self.at(value) == same:
                return float(value) + 0.0
        return exact


def sweep(data: Labelled, direction: Direction) -> Sweep:
    """Counts at every unique score from two sorts and a binary search: O(n log n).

    Sorting and searching release the GIL (np.unique's inverse mapping held it ~50 ms a
    million rows, freezing a window that runs this in a worker thread).
    """
    # Sort by "badness": the best score first, so each prefix is what a threshold lets pass.
    keys = -data.scores if direction is Direction.MAX else data.scores
    ordered = np.sort(keys)
    new = np.ones(ordered.size, dtype=bool)
    np.not_equal(ordered[1:], ordered[:-1], out=new[1:])
    starts = np.flatnonzero(new)
    uniq = ordered[starts]
    passing = np.empty(starts.size, dtype=np.int64)  # rows whose key is <= uniq[k]
    passing[:-1] = starts[1:]
    passing[-1:] = ordered.size
    tp = np.searchsorted(np.sort(keys[data.labels]), uniq, side="right").astype(np.int64)
    fp = passing - tp
    thresholds = (-uniq if direction is Direction.MAX else uniq) + 0.0  # + 0.0: no -0.0
    return Sweep(direction, thresholds, tp, fp, data.positives, data.negatives, uniq)
