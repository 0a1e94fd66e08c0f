"""The batch tab: score a whole dataset, see distributions, tune thresholds."""

from matchlens.ui.batch.tab import BatchTab

__all__ = ["BatchTab"]
