"""scipy.optimize.linear_sum_assignment, scipy's own compiled solver (its `_lsap` extension,
copied from the build's scipy by packaging/matchlens.spec): the one name MatchLens imports."""

from scipy.optimize._lsap import linear_sum_assignment

__all__ = ["linear_sum_assignment"]
