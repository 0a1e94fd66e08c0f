"""The columns a scored table adds to its input: `<id>`, `<id>_pass` (and `<id>_ref` with
several references) per metric, suffixed `@<variant>` with several variants; their values
per metric; and the check that none of them is already an input column."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from matchlens.core.errors import ConfigError
from matchlens.core.scoring.batch import BatchResult


@dataclass(frozen=True)
class ScoreColumn:
    name: str
    variant: str
    metric_id: str
    is_pass: bool
    is_ref: bool = False  # `<id>_ref`: which of several references won (--expected-any)


def score_columns(result: BatchResult) -> list[ScoreColumn]:
    """The added columns, suffixed `@<variant>` when there are several variants."""
    several = len(result.variants) > 1
    out = []
    for variant in result.variants:
        suffix = f"@{variant}" if several else ""
        for job in result.jobs:
            out.append(ScoreColumn(f"{job.id}{suffix}", variant, job.id, False))
            out.append(ScoreColumn(f"{job.id}_pass{suffix}", variant, job.id, True))
            if (variant, job.id) in result.refs:
                out.append(ScoreColumn(f"{job.id}_ref{suffix}", variant, job.id, False, True))
    return out


def check_collisions(input_columns: Sequence[str], result: BatchResult,
                     source: str | Path | None = None) -> None:
    clash = sorted(set(input_columns) & {c.name for c in score_columns(result)})
    if clash:
        where = f"{source}: " if source is not None else ""
        raise ConfigError(
            f"{where}the input already has column(s) {', '.join(clash)} (is it a scored "
            "table?); score the original file or rename those columns")


def metric_columns(result: BatchResult
                    ) -> list[tuple[np.ndarray, bool, np.ndarray, np.ndarray | None]]:
    """(scores, integer, verdicts, winning references or None) of every metric, in the order
    of the added columns (each metric adds its score, its _pass and maybe its _ref column)."""
    out = []
    for col in score_columns(result):
        if not col.is_pass and not col.is_ref:
            spec = result.job(col.metric_id).spec
            key = (col.variant, col.metric_id)
            out.append((result.scores[key], spec.integer,
                        result.verdicts(col.variant, col.metric_id), result.refs.get(key)))
    return out

