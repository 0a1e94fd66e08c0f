"""Does prompt variant B beat variant A? A paired comparison of two score columns (no Qt).

Both variants are scored on the same rows, so the comparison is per row: d = B − A.

* The mean difference with a percentile bootstrap confidence interval (resampling rows, a fixed
  seed so the same data always gives the same interval). B beats A when the interval excludes 0
  on B's side — above 0 for a higher-is-better metric, below 0 for a lower-is-better one.
* A sign test: on how many rows B is better, worse, tied; the two-sided exact binomial p-value
  of the better/worse split (ties dropped), computed with math.comb.

Rows where either variant has no score are left out and counted (`excluded`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from matchlens.core.results import Direction

RESAMPLES = 2000
SEED = 0
# Resampling cost is rows × resamples draws; past this budget fewer resamples are drawn
# (never fewer than MIN_RESAMPLES). At a million rows the interval is a hair wide anyway.
DRAW_BUDGET = 40_000_000
MIN_RESAMPLES = 200
CONFIDENCE = 0.95  # the interval's level unless a caller asks for another
_EXACT_LIMIT = 1000  # above this many untied rows the binomial tail is summed in log space


@dataclass(frozen=True)
class PairedComparison:
    name_a: str
    name_b: str
    direction: Direction
    n: int  # rows with both scores
    excluded: int  # rows where either score is missing
    mean_a: float | None
    mean_b: float | None
    mean_diff: float | None  # mean of B − A
    ci_low: float | None
    ci_high: float | None
    confidence: float
    resamples: int
    b_better: int
    a_better: int
    ties: int
    p_value: float  # two-sided sign test

    @property
    def winner(self) -> str | None:
        """'b' or 'a' when the interval excludes 0, else None."""
        if self.ci_low is None or self.ci_high is None:
            return None
        higher_wins = self.direction is Direction.MAX
        if self.ci_low > 0:
            return "b" if higher_wins else "a"
        if self.ci_high < 0:
            return "a" if higher_wins else "b"
        return None

    def sentence(self, metric: str = "this metric") -> str:
        """The answer in plain words, with the numbers that back it."""
        a, b = self.name_a, self.name_b
        if self.n == 0:
            return f"No row has scores for both {a} and {b}, so they cannot be compared."
        level = f"{self.confidence:.0%}"
        interval = f"{level} CI {_signed(self.ci_low)} to {_signed(self.ci_high)}"
        detail = (f"mean {b} − {a} = {_signed(self.mean_diff)} ({interval}) over {self.n} rows; "
                  f"{b} better on {self.b_better}, worse on {self.a_better}, tied on {self.ties} "
                  f"(sign test {_p(self.p_value)}).")
        if self.winner == "b":
            head = f"{b} beats {a} on {metric}: the interval excludes 0."
        elif self.winner == "a":
            head = f"{b} is worse than {a} on {metric}: the interval excludes 0."
        else:
            head = f"No clear difference between {b} and {a} on {metric}: the interval includes 0."
        if self.excluded:
            detail += f" {self.excluded} rows without both scores are left out."
        if self.n < 10:
            detail += " Very few rows: read this as a hint, not a result."
        return f"{head} {detail}"


def _signed(x: float | None) -> str:
    return "–" if x is None else f"{x:+.3f}"


def _p(p: float) -> str:
    return "p < 0.0001" if p < 1e-4 else f"p = {p:.4f}" if p < 0.01 else f"p = {p:.3f}"


def paired_comparison(a: np.ndarray, b: np.ndarray, direction: Direction, *,
                      names: tuple[str, str] = ("A", "B"), resamples: int = RESAMPLES,
                      seed: int = SEED, confidence: float = CONFIDENCE,
                      draw_budget: int = DRAW_BUDGET) -> PairedComparison:
    a = np.asarray(a, dtype=float)
    b = np.asarray(b, dtype=float)
    if a.shape != b.shape:
        raise ValueError("both variants must have one score per row")
    if not 0 < confidence < 1:
        raise ValueError("confidence must be between 0 and 1")
    both = ~np.isnan(a) & ~np.isnan(b)
    d = b[both] - a[both]
    n = int(d.size)
    better = d > 0 if direction is Direction.MAX else d < 0
    worse = d < 0 if direction is Direction.MAX else d > 0
    b_better, a_better = int(better.sum()), int(worse.sum())
    low, high, used = bootstrap_interval(d, resamples=resamples, seed=seed,
                                         confidence=confidence, draw_budget=draw_budget)
    return PairedComparison(
        name_a=names[0], name_b=names[1], direction=direction, n=n,
        excluded=int(a.size - n),
        mean_a=float(a[both].mean()) if n else None,
        mean_b=float(b[both].mean()) if n else None,
        mean_diff=float(d.mean()) if n else None,
        ci_low=low, ci_high=high, confidence=confidence, resamples=used,
        b_better=b_better, a_better=a_better, ties=n - b_better - a_better,
        p_value=sign_test(b_better, a_better),
    )


def bootstrap_interval(d: np.ndarray, *, resamples: int = RESAMPLES, seed: int = SEED,
                       confidence: float = CONFIDENCE, draw_budget: int = DRAW_BUDGET
                       ) -> tuple[float | None, float | None, int]:
    """The percentile bootstrap interval of the mean of `d` (no NaN) and the resamples drawn
    (fewer past `draw_budget`); (None, None, 0) without rows. A function of the values alone,
    not of their order (bootstrap_means sorts them): the deltas of a run's rows gathered from
    Dask partitions in any order give the single process's interval."""
    n = int(d.size)
    if not n:
        return None, None, 0
    used = resamples if n * resamples <= draw_budget else max(MIN_RESAMPLES, draw_budget // n)
    means = bootstrap_means(d, used, seed)
    alpha = 1 - confidence
    low, high = (float(x) for x in np.quantile(means, [alpha / 2, 1 - alpha / 2]))
    return low, high, used


# Above this many rows, differences taking few distinct values are resampled as counts
_COUNTS_FROM = 50_000
_COUNTS_DISTINCT = 2_000


def bootstrap_means(d: np.ndarray, resamples: int, seed: int) -> np.ndarray:
    """Means of `resamples` resamples of `d` (with replacement), drawn in bounded batches.

    Many rows whose differences take few distinct values (0/±1 of a pass/fail metric, edit
    counts, similarities in hundredths) are resampled as how often each value is drawn: one
    multinomial draw over the distinct values per resample, the same distribution as drawing
    n rows, in O(distinct) instead of O(n) (a million rows: milliseconds, not seconds).

    The rows are drawn from `d` sorted, so the means depend on the values, not their order."""
    rng = np.random.default_rng(seed)
    n = d.size
    if n >= _COUNTS_FROM:
        values, counts = np.unique(d, return_counts=True)
        if values.size <= _COUNTS_DISTINCT:
            drawn = rng.multinomial(n, counts / n, size=resamples)
            return drawn @ values / n
    d = np.sort(d)
    means = np.empty(resamples)
    # ~4 MB of indexes at a time: each draw and gather is one numpy call holding the GIL, and
    # 4 million at once held it ~40 ms (a window painting beside this thread froze that long)
    batch = max(1, 500_000 // n)
    for start in range(0, resamples, batch):
        stop = min(start + batch, resamples)
        idx = rng.integers(0, n, size=(stop - start, n))
        means[start:stop] = d[idx].mean(axis=1)
    return means


def sign_test(wins: int, losses: int) -> float:
    """Two-sided exact binomial test of wins vs losses under p = 1/2 (ties already dropped)."""
    m = wins + losses
    if m == 0:
        return 1.0
    k = min(wins, losses)
    if m <= _EXACT_LIMIT:
        tail = sum(math.comb(m, i) for i in range(k + 1)) / 2**m  # exact integers, one division
    else:
        tail = math.exp(_log_tail(m, k))
    return min(1.0, 2 * tail)


def _log_tail(m: int, k: int) -> float:
    """log P(X <= k), X ~ Binomial(m, 1/2): the same sum in log space (log-sum-exp).

    Walks down from C(m, k) with C(m, i-1) = C(m, i) * i / (m - i + 1), as cumulative log sums.
    """
    log_ck = math.lgamma(m + 1) - math.lgamma(k + 1) - math.lgamma(m - k + 1)
    i = np.arange(k, 0, -1, dtype=float)
    logs = log_ck + np.concatenate([[0.0], np.cumsum(np.log(i) - np.log(m - i + 1))])
    top = logs.max()
    return float(top + math.log(np.exp(logs - top).sum()) + m * math.log(0.5))
