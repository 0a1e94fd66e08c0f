"""`matchlens.score(..., id=, references=, baseline=, baseline_actual=)`: a run joined across
tables (paths or DataFrames) by id, scored with the baseline rescored, as one pandas DataFrame
with the columns `matchlens score` writes for it (core.output.runs_table's `runs_columns`)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import numpy as np

from matchlens.api.inputs import load
from matchlens.api.plan import ScorePlan
from matchlens.core.errors import ConfigError
from matchlens.core.output.baseline_file import BaselineChoice, answered_only, choose_baseline
from matchlens.core.output.runs_table import runs_columns
from matchlens.core.output.summary import summary_dict
from matchlens.core.scoring.run_scoring import RunFiles, RunsResult, score_runs


def baseline_and_id(baseline: Any, baseline_actual: str | None, id: str | None  # noqa: A002
                    ) -> tuple[BaselineChoice | None, str]:
    """How to read `baseline=` (a scored table's sidecar, or `baseline_actual`), and the row
    key: `id=`, else the one the baseline's sidecar recorded; ConfigError when there is none."""
    choice = None
    if baseline is not None:
        path = Path(baseline) if isinstance(baseline, str | os.PathLike) else None
        choice = choose_baseline(path, baseline_actual)
    id_spec = id or (choice.recorded_id if choice else None)
    if not id_spec:
        raise ConfigError("references= and baseline= match rows by a key: give id= (the "
                          "column or JSONPath holding each row's id)")
    return choice, id_spec


def score_joined(data: Any, plan: ScorePlan, *, id: str | None, references: Any = None,  # noqa: A002
                 baseline: Any = None, baseline_actual: str | None = None,
                 reading: dict | None = None) -> Any:
    """The joined, scored DataFrame; its `.attrs["matchlens"]` holds the summary and, with a
    baseline, `"baseline"`: per variant the regressed rows and per metric the change counts,
    the mean delta with its 95% interval and the sign test's p."""
    reading = reading or {}
    choice, id_spec = baseline_and_id(baseline, baseline_actual, id)
    mapping = plan.mapping
    run = load(data, [id_spec, *mapping.actuals], **reading)
    refs = None
    if references is not None:
        wanted = [] if mapping.expected_literal else [mapping.expected]
        refs = load(references, [id_spec, *wanted], encoding=reading.get("encoding"))
    base = None
    if choice is not None:
        base = load(baseline, [id_spec, choice.actual], encoding=reading.get("encoding"))
    base_table = base.table if base is not None else None
    if base_table is not None and choice.joined:
        base_table = answered_only(base_table, choice.actual)
    runs = score_runs(RunFiles(run.table, id_spec, refs.table if refs else None, base_table,
                               choice.actual if choice else None), mapping, plan.jobs())
    frame = joined_frame(run.input_frame(), runs, id_spec)
    summary = summary_dict(runs.tally)
    if runs.changes:
        summary["baseline"] = changes_dict(runs)
    frame.attrs["matchlens"] = summary
    return frame


def joined_frame(input_frame: Any, runs: RunsResult, id_spec: str) -> Any:
    """The run's columns gathered in the joined order (empty rows where the run lacks the id,
    but for the id), then the added columns, typed."""
    import pandas as pd

    rows = runs.joined.run_rows
    plain = input_frame.reset_index(drop=True)
    plain.columns = [str(c) for c in plain.columns]
    out = plain.reindex(pd.Index(np.where(rows < 0, -1, rows))).reset_index(drop=True)
    if id_spec in out.columns and (rows < 0).any():
        # the run's own ids as they were typed; the other files' ids as text
        original = plain[id_spec].astype(object).tolist()
        out[id_spec] = pd.array([original[r] if r >= 0 else key for r, key in
                                 zip(rows.tolist(), runs.joined.ids, strict=True)],
                                dtype=object)
    added = {name: _typed(name, values) for name, values in
             runs_columns(runs, list(out.columns), id_spec)}
    out = pd.concat([out, pd.DataFrame(added)], axis=1)
    out.attrs = {}
    return out


def _typed(name: str, values: list) -> Any:
    import pandas as pd

    if "_pass" in name:
        return pd.array(values, dtype="boolean")
    present = [v for v in values if v is not None]
    if present and all(isinstance(v, int) and not isinstance(v, bool) for v in present):
        return pd.array(values, dtype="Int64")
    numbers = all(isinstance(v, int | float) and not isinstance(v, bool) for v in present)
    if numbers and (present or not name.endswith("change")):
        return np.array([np.nan if v is None else v for v in values], dtype=float)
    return pd.array(values, dtype=object)


def changes_dict(runs: RunsResult) -> dict:
    """Per variant: regressed/improved rows, per metric the label counts and the paired
    comparison with the baseline, unrounded."""
    out = {}
    for change in runs.changes:
        metrics = {}
        for metric_id, metric in change.metrics.items():
            c = metric.comparison
            metrics[metric_id] = {**metric.counts, "mean_delta": c.mean_diff,
                                  "ci_low": c.ci_low, "ci_high": c.ci_high,
                                  "confidence": c.confidence, "p_value": c.p_value,
                                  "pairs": c.n}
        out[change.variant] = {"regressed_rows": change.regressed_rows,
                               "improved_rows": change.improved_rows, "metrics": metrics}
    return out


def change_counts(runs: RunsResult) -> dict:
    """Per variant the parts of `changes_dict` that add up across pieces of a run (a Dask
    partition's share): regressed/improved rows and per metric the label counts, the sum of
    the deltas, the pairs and the sign test's wins and losses, and the deltas themselves
    (float64, 8 bytes a compared row: the bootstrap interval needs them all;
    api.partial.merge_changes)."""
    out = {}
    for change in runs.changes:
        metrics = {}
        for metric_id, metric in change.metrics.items():
            c = metric.comparison
            both = ~np.isnan(metric.delta)
            deltas = metric.delta[both]
            metrics[metric_id] = {**metric.counts, "delta_sum": float(deltas.sum()),
                                  "pairs": c.n, "wins": c.b_better, "losses": c.a_better,
                                  "deltas": deltas}
        out[change.variant] = {"regressed_rows": change.regressed_rows,
                               "improved_rows": change.improved_rows, "metrics": metrics}
    return out
