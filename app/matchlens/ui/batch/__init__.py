"""The batch tab: score a whole dataset, see distributions, tune thresholds.

`BatchTab` is imported lazily so that the scoring child process (`score_child`), which lives in
this package, never loads Qt.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from matchlens.ui.batch.tab import BatchTab

__all__ = ["BatchTab"]


def __getattr__(name: str) -> Any:
    if name == "BatchTab":
        from matchlens.ui.batch.tab import BatchTab

        return BatchTab
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
