"""`matchlens.score`: a table in, the scored table out as a pandas DataFrame.

The same steps as `matchlens score`, from the same functions: the plan (metrics, thresholds,
options), the column specs resolved by the core, `run_to_completion` for the scores and the
command's column names. Only the last step differs: columns in a DataFrame instead of text in
a file. A test checks the two agree row for row.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from matchlens.api.frames import scored_frame
from matchlens.api.inputs import Loaded, load
from matchlens.api.plan import ConfigLike, ScorePlan, make_plan
from matchlens.api.summary import Part, finalize, partial


def score(data: Any, expected: str | None = None, actual: str | Sequence[str] | None = None,
          *, metrics: str | Sequence[str] | None = None, config: ConfigLike = None,
          normalise: str | Sequence[str] | None = None, overrides: Sequence[str] = (),
          expected_literal: str | None = None, encoding: str | None = None,
          delimiter: str | None = None) -> Any:
    """Score `data` and return a pandas DataFrame: its columns unchanged, then `<metric>` and
    `<metric>_pass` per metric (suffixed `@<actual>` with several actual columns), exactly the
    columns `matchlens score` writes. The summary is in `.attrs["matchlens"]`.

    data       a pandas or polars DataFrame, a pyarrow Table, or a path to any file
               `matchlens score` reads (`encoding=` and `delimiter=` as its flags)
    expected   a column, or a JSONPath starting with `$` (a cell holding JSON is parsed);
               or `expected_literal=` one text for every row
    actual     a column or JSONPath, or a list of them (prompt variants)
    metrics    metric ids (a list, or "a,b" / "all" as `--metrics`); default as the command
    config     a thresholds TOML file (what the app saves, or a scored table's sidecar), or a
               dict shaped like it: {"metrics": {"jaccard": {"threshold": 0.6}}}
    overrides  `ID.OPTION=VALUE` texts, as `--set`

    Raises MatchLensError (ConfigError, DatasetError) with one sentence naming the problem.
    """
    plan = make_plan(expected, actual if actual is not None else (), metrics=metrics,
                     config=config, overrides=overrides, normalise=normalise,
                     expected_literal=expected_literal)
    loaded = load(data, specs(plan), encoding=encoding, delimiter=delimiter)
    frame, part = score_loaded(loaded, plan)
    frame.attrs["matchlens"] = finalize(part, loaded.source)
    return frame


def specs(plan: ScorePlan) -> list[str]:
    return ([plan.expected] if plan.expected is not None else []) + list(plan.actual)


def score_loaded(loaded: Loaded, plan: ScorePlan, *, partition: int = 0,
                 distinct_cap: int | None = None) -> tuple[Any, Part]:
    """The scored DataFrame and its partial summary (a Dask partition is one `loaded`)."""
    from matchlens.core.batch import run_to_completion
    from matchlens.core.datasets import literal_column, resolve_column
    from matchlens.core.datasets.columns import ColumnValues
    from matchlens.score_command import _missing_reasons

    table = loaded.table
    jobs = plan.jobs()

    def column(spec: str) -> ColumnValues:
        if spec in loaded.texts:
            return ColumnValues(loaded.texts[spec])
        if not len(table) and spec.startswith("$") and spec not in table.column_index:
            return ColumnValues([])  # a JSONPath cannot match in no rows: nothing to say
        return resolve_column(table, spec)

    if plan.expected_literal is not None:
        expected = literal_column(table, plan.expected_literal)
    else:
        expected = column(plan.expected)  # type: ignore[arg-type]
    actuals = {spec: column(spec) for spec in plan.actual}
    result = run_to_completion(expected.values, {k: v.values for k, v in actuals.items()}, jobs)
    frame = scored_frame(loaded.input_frame(), result, loaded.source)
    notes = list(enumerate(_missing_reasons(expected, actuals)))
    return frame, partial(result, partition=partition, distinct_cap=distinct_cap, notes=notes)
