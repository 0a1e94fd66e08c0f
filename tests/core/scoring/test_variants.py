"""core.variants: the sign test by hand, the bootstrap interval's behaviour, the plain words."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from matchlens.core.results import Direction
from matchlens.core.scoring import variants
from matchlens.core.scoring.variants import paired_comparison, sign_test

MAX, MIN = Direction.MAX, Direction.MIN


def test_sign_test_by_hand():
    assert sign_test(0, 0) == 1.0  # nothing but ties: no evidence
    # 5 wins, 0 losses: P(X <= 0) = 1/32, two-sided 2/32.
    assert sign_test(5, 0) == pytest.approx(0.0625)
    assert sign_test(0, 5) == pytest.approx(0.0625)
    # 8 vs 2: P(X <= 2) = (1 + 10 + 45) / 1024 = 56/1024, two-sided 112/1024.
    assert sign_test(8, 2) == pytest.approx(112 / 1024)
    # 3 vs 3: doubling the tail 2 * 42/64 exceeds 1, capped.
    assert sign_test(3, 3) == 1.0


def _slow_sign_test(wins: int, losses: int) -> float:
    m, k = wins + losses, min(wins, losses)
    if m == 0:
        return 1.0
    extreme = sum(math.comb(m, i) for i in range(m + 1) if i <= k or i >= m - k)
    return float(min(Fraction(1), Fraction(extreme, 2**m)))


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 60), st.integers(0, 60))
def test_sign_test_matches_counting_outcomes(wins, losses):
    assert sign_test(wins, losses) == pytest.approx(_slow_sign_test(wins, losses), rel=1e-12)


@pytest.mark.parametrize("wins, losses", [(520, 480), (600, 400), (500, 500), (700, 300)])
def test_log_space_tail_agrees_with_exact_sum(wins, losses):
    m, k = wins + losses, min(wins, losses)
    exact = sum(math.comb(m, i) for i in range(k + 1)) / 2**m
    assert math.exp(variants._log_tail(m, k)) == pytest.approx(exact, rel=1e-9)


def test_large_sign_test_is_finite_and_fast():
    # 1,000,000 untied rows: must not sum a million big integers.
    assert sign_test(500_000, 500_000) == 1.0
    assert sign_test(501_500, 498_500) < 0.01  # +3000 out of 1e6 is ~3 sd


def test_constant_improvement_has_a_zero_width_interval():
    a = np.array([0.5, 0.6, 0.7, 0.8])
    result = paired_comparison(a, a + 0.1, MAX, names=("output_a", "output_b"))
    # Every resample of identical differences has mean 0.1.
    assert result.ci_low == pytest.approx(0.1) and result.ci_high == pytest.approx(0.1)
    assert result.winner == "b"
    assert (result.b_better, result.a_better, result.ties) == (4, 0, 0)
    assert result.sentence("Jaccard").startswith("output_b beats output_a on Jaccard")


def test_lower_is_better_direction():
    a = np.array([3.0, 4.0, 5.0, 6.0])
    result = paired_comparison(a, a - 1, MIN)
    assert result.mean_diff == pytest.approx(-1.0)
    assert result.winner == "b"  # B's distances are lower
    assert result.b_better == 4
    worse = paired_comparison(a, a + 1, MIN)
    assert worse.winner == "a" and "is worse than" in worse.sentence()


def test_missing_scores_are_left_out_and_counted():
    a = np.array([0.5, np.nan, 0.7, 0.9])
    b = np.array([0.5, 0.8, np.nan, 0.9])
    result = paired_comparison(a, b, MAX)
    assert result.n == 2 and result.excluded == 2
    assert result.ties == 2 and result.winner is None
    assert "2 rows without both scores are left out" in result.sentence()
    assert "No clear difference" in result.sentence()


def test_no_common_rows():
    result = paired_comparison(np.array([np.nan]), np.array([1.0]), MAX)
    assert result.n == 0 and result.ci_low is None and result.winner is None
    assert "cannot be compared" in result.sentence()


def test_interval_is_reproducible_and_about_right():
    rng = np.random.default_rng(42)
    a = rng.uniform(0, 1, 400)
    b = a + rng.normal(0.05, 0.1, 400)
    first = paired_comparison(a, b, MAX)
    second = paired_comparison(a, b, MAX)
    assert (first.ci_low, first.ci_high) == (second.ci_low, second.ci_high)  # fixed seed
    d = b - a
    assert first.ci_low < d.mean() < first.ci_high
    # Normal theory: half width ~ 1.96 * sd / sqrt(n).
    half = 1.96 * d.std(ddof=1) / math.sqrt(d.size)
    assert (first.ci_high - first.ci_low) / 2 == pytest.approx(half, rel=0.2)
    assert first.winner == "b"


def test_draw_budget_lowers_the_resample_count():
    a = np.zeros(1000)
    b = np.ones(1000)
    result = paired_comparison(a, b, MAX, draw_budget=10_000)
    assert result.resamples == variants.MIN_RESAMPLES
    assert paired_comparison(a[:10], b[:10], MAX).resamples == variants.RESAMPLES


def test_many_rows_resampled_as_counts_match_resampling_rows():
    # 60,000 differences in {-1, 0, 1}: the counts path (multinomial over the 3 values) must
    # give the distribution of the mean that drawing 60,000 rows gives: the normal one with
    # sd = sqrt(var(d) / n)
    from matchlens.core.scoring.variants import bootstrap_means

    rng = np.random.default_rng(5)
    d = rng.choice([-1.0, 0.0, 1.0], size=60_000, p=[0.2, 0.5, 0.3])
    means = bootstrap_means(d, 2000, seed=1)
    assert means.shape == (2000,)
    assert abs(means.mean() - d.mean()) < 0.001
    expected_sd = d.std() / np.sqrt(d.size)  # ~0.0029
    assert abs(means.std() / expected_sd - 1) < 0.1


def test_interval_does_not_depend_on_the_rows_order():
    # Dask gathers a run's deltas partition by partition, in its own order: the interval must
    # be that of the same values in any order (bootstrap_means sorts them before drawing)
    rng = np.random.default_rng(8)
    a = rng.uniform(0, 1, 500)
    b = a + rng.normal(0.02, 0.2, 500)
    order = rng.permutation(500)
    first = paired_comparison(a, b, MAX)
    shuffled = paired_comparison(a[order], b[order], MAX)
    assert (first.ci_low, first.ci_high) == (shuffled.ci_low, shuffled.ci_high)
    assert first.ci_low < first.ci_high
    low, high, used = variants.bootstrap_interval((b - a)[order][::-1])
    assert (low, high, used) == (first.ci_low, first.ci_high, variants.RESAMPLES)
