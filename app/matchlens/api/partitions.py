"""`matchlens.dask`: score a Dask DataFrame partition by partition, on one machine or a cluster.

    pip install 'matchlens[dask]'

    import matchlens.dask
    scored = matchlens.dask.score(ddf, expected="expected", actual="output")  # a Dask DataFrame
    summary = matchlens.dask.summary(scored)                                   # lazy, a dict
    scored.to_parquet("scored/")              # or: dask.compute(written, summary), one pass

Each partition goes through `matchlens.score`'s own scorer (`score_loaded`), so the rows equal
the single-process ones; the columns (and the meta Dask plans with) come from the same code,
run on the empty meta frame. Each partition carries its summary (the core's `Tally`, what
`matchlens score` prints) in `attrs`; `summary(scored)` merges them in a Dask reduction: the
counts, pass rates, means and medians are those of every row, exactly (a Tally keeps each
distinct score with its count, so its memory grows with distinct scores, not rows).

An API key never travels in the task graph: a task carries metric ids, thresholds, options and
the endpoint URL, and a worker that embeds reads the key where the command would, from its own
keyring or its own OPENAI_API_KEY (set it in the workers' environment, e.g.
`LocalCluster(env={...})` or the `dask worker` service). Its embeddings cache is the on-disk one
of the machine it runs on, shared by the workers of that machine.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

try:
    import dask.dataframe as dd
except ImportError as err:  # the optional extra is not installed
    raise ImportError("matchlens.dask needs Dask: pip install 'matchlens[dask]'") from err

from matchlens.api.inputs import load
from matchlens.api.partial import PARTIAL, Carried, merge_changes
from matchlens.api.plan import ConfigLike, ScorePlan, make_plan
from matchlens.api.scoring import score_loaded, specs
from matchlens.core.errors import ConfigError
from matchlens.core.scoring.tally import merge_tallies

SOURCE = "Dask DataFrame"


def score(ddf: Any, expected: str | None = None, actual: str | Sequence[str] | None = None,
          *, metrics: str | Sequence[str] | None = None, config: ConfigLike = None,
          normalise: str | Sequence[str] | None = None, overrides: Sequence[str] = (),
          expected_literal: str | None = None, id: str | None = None,  # noqa: A002
          references: Any = None, baseline: Any = None, baseline_actual: str | None = None
          ) -> Any:
    """A Dask DataFrame: `ddf`'s columns, then the score and `_pass` columns of
    `matchlens.score` (same arguments), computed partition by partition when Dask computes.
    With `references=` / `baseline=` (Dask DataFrames) and `id=` (a column of each), the
    frames are joined by Dask's merge first (api/partition_runs.py).

    Unknown columns and bad options raise here, before anything is computed.
    """
    if not isinstance(ddf, dd.DataFrame):
        raise ConfigError(f"matchlens.dask.score takes a Dask DataFrame, not "
                          f"{type(ddf).__module__}.{type(ddf).__name__} (matchlens.score "
                          "scores a pandas or polars DataFrame)")
    plan = make_plan(expected, actual if actual is not None else (), metrics=metrics,
                     config=config, overrides=overrides, normalise=normalise,
                     expected_literal=expected_literal)
    if references is not None or baseline is not None:
        from matchlens.api.partition_runs import score_joined

        return score_joined(ddf, plan, id=id, references=references, baseline=baseline,
                            baseline_actual=baseline_actual)
    meta, _ = score_loaded(load(ddf._meta, specs(plan)), plan)  # checks the columns, too
    meta.attrs = {}
    return ddf.map_partitions(_score_partition, plan, meta=meta, enforce_metadata=False)


def _score_partition(part: Any, plan: ScorePlan, partition_info: dict | None = None) -> Any:
    from matchlens.core.metrics.registry import threads_per_process

    number = int(partition_info["number"]) if partition_info else 0
    # One core per task: Dask runs a task per worker thread; the C++ metrics would otherwise
    # each use every core of the machine, and a second worker would have none left to add.
    with threads_per_process(1):
        frame, tally = score_loaded(load(part, specs(plan)), plan)
    frame.attrs[PARTIAL] = Carried(number, tally)
    return frame


def summary(scored: Any) -> Any:
    """The summary of a DataFrame `score` returned, as a lazy Dask scalar: `.compute()` gives
    the dict `matchlens.score` puts in `.attrs["matchlens"]`.

    Computed alone it scores the partitions again unless `scored` was persisted; computed
    together with the scored frame or a write of it (`dask.compute(scored.to_parquet(...,
    compute=False), summary)`) each partition is scored once.
    """
    # a dict as meta makes the result a Dask scalar (computes to the dict itself)
    return scored.reduction(chunk=_chunk, combine=_combine, aggregate=_aggregate, meta={},
                            split_every=8)


def _chunk(part: Any) -> Any:
    import pandas as pd

    carried = part.attrs.get(PARTIAL)
    if not isinstance(carried, Carried):
        raise ConfigError("matchlens.dask.summary takes the DataFrame matchlens.dask.score "
                          "returned: this one's partitions carry no scoring summary")
    if carried.tally.rows != len(part):
        raise ConfigError(f"a partition has {len(part)} rows but {carried.tally.rows} were "
                          "scored: take the summary of the DataFrame matchlens.dask.score "
                          "returned, before filtering or repartitioning it")
    return pd.Series([[carried]], dtype=object)


def _parts(combined: Any) -> list[Carried]:
    """The partitions' Carried Dask hands over: lists of them in a Series, or in the first
    column of a frame."""
    column = combined.iloc[:, 0] if hasattr(combined, "columns") else combined
    return [pair for pairs in column.tolist() for pair in pairs]


def _combine(combined: Any) -> Any:
    """Partitions passed on as they are: merged once, at the end, so each reason keeps the
    partition where it first happened."""
    import pandas as pd

    return pd.Series([_parts(combined)], dtype=object)


def _aggregate(combined: Any) -> dict:
    from matchlens.core.output.summary import summary_dict

    parts = _parts(combined)
    tally = merge_tallies([(part.number, part.tally) for part in parts])
    tally.source = SOURCE
    out = summary_dict(tally, partitions=len(parts))
    changes = [part.changes for part in parts if part.changes is not None]
    if changes:
        out["baseline"] = merge_changes(changes)
    return out
