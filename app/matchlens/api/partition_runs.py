"""`matchlens.dask.score(ddf, ..., id=, references=, baseline=, baseline_actual=)`: the run,
the references and the baseline joined by Dask's own merge (an outer merge on the id, as text),
then each merged partition scored by the single-process code (`run_scoring.score_runs`, whose
pyarrow join there only re-pairs rows Dask already matched). The rows equal `matchlens.score`'s
row for row (their order is Dask's). Each partition carries its summary and its change counts:
`matchlens.dask.summary` gives the counts, pass rates, means, the change labels' counts, the
mean delta with its bootstrap interval and the sign test of every row, the numbers
`matchlens.score` gives (api.partial.merge_changes; each partition carries its deltas, 8 bytes
a compared row, for the interval).

The id must be a column of each frame. References and baseline values (any SPEC) are resolved
partition by partition before the merge, so only plain text columns travel with it.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from matchlens.api.inputs import load
from matchlens.api.partial import PARTIAL, Carried
from matchlens.api.plan import ScorePlan
from matchlens.api.runs import change_counts, joined_frame
from matchlens.core.datasets import resolve_column, table_from_columns
from matchlens.core.errors import ConfigError, DatasetError
from matchlens.core.metrics.registry import threads_per_process
from matchlens.core.scoring.mapping import ColumnMapping
from matchlens.core.scoring.run_scoring import RunFiles, score_runs

KEY = "__matchlens_id"
IN_RUN, IN_REF, IN_BASE = "__matchlens_in_run", "__matchlens_in_reference", \
    "__matchlens_in_baseline"
REF, BASE, BASE_REF = "__matchlens_reference", "__matchlens_baseline", \
    "__matchlens_baseline_reference"


def _keyed(part: Any, id_spec: str, marker: str, values: dict[str, str | None]) -> Any:
    """A partition's id as text, a presence marker, and each SPEC resolved (None: skipped
    when it cannot be resolved in this file)."""
    import pandas as pd

    table = load(part, [id_spec, *(s for s in values.values() if s)]).table
    out = {KEY: resolve_column(table, id_spec).values, marker: [True] * len(part)}
    for name, spec in values.items():
        try:
            out[name] = resolve_column(table, spec, require_match=False).values if spec else \
                [None] * len(part)
        except DatasetError:
            out[name] = [None] * len(part)
    return pd.DataFrame(out, index=part.index).astype(object).assign(
        **{marker: pd.array(out[marker], dtype="boolean")})


def _meta(names: list[str]) -> Any:
    import pandas as pd

    return pd.DataFrame({name: pd.Series(dtype="boolean" if name.startswith("__matchlens_in")
                                         else object) for name in names})


def _check_ids(frames: dict[str, Any]) -> None:
    """A repeated or missing id in any frame is one sentence (computed now, before the
    merge is planned)."""
    import dask

    checks = {}
    for name, frame in frames.items():
        counts = frame[KEY].value_counts()
        checks[name] = (counts[counts > 1].head(1, npartitions=-1, compute=False),
                        frame[KEY].isna().sum())
    done = dask.compute(checks)[0]
    for name, (repeated, missing) in done.items():
        if len(repeated):
            raise DatasetError(f"the id {repeated.index[0]!r} is on two rows of the {name}; "
                               "each row of a joined table needs its own id")
        if missing:
            raise DatasetError(f"{missing} rows of the {name} have no id; every row of a "
                               "joined table needs one")


def score_joined(ddf: Any, plan: ScorePlan, *, id: str | None, references: Any = None,  # noqa: A002
                 baseline: Any = None, baseline_actual: str | None = None) -> Any:
    """The merged, scored Dask DataFrame (see the module)."""
    import dask.dataframe as dd

    mapping = plan.mapping
    if not id or id not in ddf.columns:
        raise ConfigError("matchlens.dask.score joins on a column of every frame: give id= "
                          "a column name the Dask DataFrame has")
    if mapping.expected_any:
        raise ConfigError("matchlens.dask.score does not join references given several a row "
                          "(expected-any); use matchlens.score")
    if baseline is not None and not baseline_actual:
        raise ConfigError("a Dask baseline needs baseline_actual= (the column of its outputs)")
    run_keys = ddf.map_partitions(_keyed, id, IN_RUN, {}, meta=_meta([KEY, IN_RUN]))
    merged = ddf.assign(**{KEY: run_keys[KEY], IN_RUN: run_keys[IN_RUN]})
    frames = {"run": merged}
    for name, other, marker, values in (
            ("references", references, IN_REF, {REF: mapping.expected}),
            ("baseline", baseline, IN_BASE,
             {BASE: baseline_actual, BASE_REF: None if references is not None
              else mapping.expected})):
        if other is None:
            continue
        if not isinstance(other, dd.DataFrame):
            raise ConfigError(f"matchlens.dask.score takes the {name} as a Dask DataFrame too")
        keyed = other.map_partitions(_keyed, id, marker, values,
                                     meta=_meta([KEY, marker, *values]))
        frames[name] = keyed
    _check_ids(frames)
    for name, keyed in frames.items():
        if name != "run":
            merged = dd.merge(merged, keyed, on=KEY, how="outer")
    run_columns = [str(c) for c in ddf.columns]
    sample = ddf.head(1, npartitions=-1)
    if not len(sample):
        raise ConfigError("the Dask DataFrame has no rows to score")
    args = (plan, id, run_columns, references is not None, baseline is not None)
    probe = sample.assign(**{KEY: ["x"], IN_RUN: [True], REF: ["x"], IN_REF: [True],
                             BASE: ["x"], BASE_REF: ["x"], IN_BASE: [True]})
    meta = _score_part(probe, *args).iloc[:0]
    meta.attrs = {}
    return merged.map_partitions(_score_part, *args, meta=meta, enforce_metadata=False)


def _present(part: Any, marker: str) -> np.ndarray:
    if marker not in part.columns:
        return np.zeros(len(part), dtype=bool)
    return part[marker].fillna(False).to_numpy(dtype=bool)


def _score_part(part: Any, plan: ScorePlan, id_spec: str, run_columns: list[str],
                with_refs: bool, with_base: bool, partition_info: dict | None = None) -> Any:
    """One merged partition split back into its three tables and scored as one process
    would (sharing no id within a partition is fine: the merge has matched them); it carries
    its summary and its change counts for `matchlens.dask.summary`."""
    mapping = plan.mapping
    in_run, in_ref, in_base = (_present(part, m) for m in (IN_RUN, IN_REF, IN_BASE))
    keys = part[KEY].astype(object).tolist()
    run_part = part.loc[in_run, run_columns].assign(**{KEY: part.loc[in_run, KEY]})
    specs = [KEY, *mapping.actuals]
    if not with_refs and not mapping.expected_literal:
        specs.append(mapping.expected)
    run = load(run_part, specs).table
    refs = base = None
    expected = mapping
    if with_refs:
        rows = np.flatnonzero(in_ref)
        refs = table_from_columns({KEY: [keys[i] for i in rows],
                                   REF: part[REF].iloc[rows].tolist()}, "references")
        expected = ColumnMapping(REF, mapping.actuals, expected_literal=False)
        if mapping.expected_literal:
            expected = mapping
    if with_base:
        rows = np.flatnonzero(in_base)
        columns = {KEY: [keys[i] for i in rows], BASE: part[BASE].iloc[rows].tolist()}
        if not with_refs and not mapping.expected_literal:
            columns[mapping.expected] = part[BASE_REF].iloc[rows].tolist()
        base = table_from_columns(columns, "baseline")
    with threads_per_process(1):  # one core a task, as matchlens.dask.score's (partitions.py)
        runs = score_runs(RunFiles(run, KEY, refs, base, BASE if with_base else None,
                                   require_common=False), expected, plan.jobs())
    frame = joined_frame(run_part[run_columns], runs, id_spec)
    number = int(partition_info["number"]) if partition_info else 0
    frame.attrs[PARTIAL] = Carried(number, runs.tally,
                                   change_counts(runs) if runs.changes else None)
    return frame
