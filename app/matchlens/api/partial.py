"""What a partition `matchlens.dask.score` scored carries to `matchlens.dask.summary`: its
number and its summary (the core's `Tally`) and, for a run joined with a baseline, its share of
what changed (`api.runs.change_counts`); and the merge of those shares into the summary's
"baseline" entry."""

from __future__ import annotations

from typing import Any

import numpy as np

from matchlens.core.scoring.run_summary import LABELS
from matchlens.core.scoring.variants import CONFIDENCE, bootstrap_interval, sign_test

PARTIAL = "matchlens_partial"  # the attrs key of a scored partition's Carried


class Carried:
    """A partition's number and Tally in `attrs`. pandas compares attrs with `==` when it
    concatenates frames (a numpy array there raises) and deep-copies them on every operation:
    this compares by identity (concatenated partitions drop it, as they should: their rows are
    no longer one partition's) and is shared, not copied (nothing changes it)."""

    __slots__ = ("changes", "number", "tally")

    def __init__(self, number: int, tally: Any, changes: dict | None = None) -> None:
        self.number = number
        self.tally = tally
        self.changes = changes  # a joined run's: api.runs.change_counts

    def __eq__(self, other: object) -> bool:
        return self is other

    __hash__ = object.__hash__

    def __deepcopy__(self, memo: dict) -> Carried:
        return self

    def __reduce__(self):
        return Carried, (self.number, self.tally, self.changes)


def merge_changes(parts: list[dict]) -> dict:
    """The partitions' change counts summed into `api.runs.changes_dict`'s shape: the label
    counts, regressed and improved rows, the mean delta and the sign test's p are those of
    every row, exactly (they are sums); the bootstrap interval is drawn from every partition's
    deltas put together, with the single process's seed, resamples and method
    (variants.bootstrap_interval, which does not depend on the rows' order): the same numbers."""
    out: dict[str, Any] = {}
    deltas: dict[tuple[str, str], list[np.ndarray]] = {}
    for part in parts:
        for variant, counts in part.items():
            into = out.setdefault(variant, {"regressed_rows": 0, "improved_rows": 0,
                                            "metrics": {}})
            into["regressed_rows"] += counts["regressed_rows"]
            into["improved_rows"] += counts["improved_rows"]
            for metric_id, metric in counts["metrics"].items():
                total = into["metrics"].setdefault(metric_id, dict.fromkeys(
                    (*LABELS, "delta_sum", "pairs", "wins", "losses"), 0))
                for key in total:
                    total[key] += metric[key]
                deltas.setdefault((variant, metric_id), []).append(metric["deltas"])
    for variant, into in out.items():
        for metric_id, total in into["metrics"].items():
            pairs = total["pairs"]
            low, high, _ = bootstrap_interval(np.concatenate(deltas[(variant, metric_id)]))
            into["metrics"][metric_id] = {
                **{label: total[label] for label in LABELS},
                "mean_delta": total["delta_sum"] / pairs if pairs else None,
                "ci_low": low, "ci_high": high, "confidence": CONFIDENCE,
                "p_value": sign_test(total["wins"], total["losses"]), "pairs": pairs}
    return out
