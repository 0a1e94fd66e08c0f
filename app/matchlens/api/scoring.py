"""`matchlens.score`: a table in, the scored table out as a pandas DataFrame.

The same steps as `matchlens score`, from the same functions: the plan (metrics, thresholds,
options), the core pipeline's `score_table` (the column specs resolved, every metric scored,
the summary tallied) and the command's column names. Only the last step differs: columns in a
DataFrame instead of text in a file. A test checks the two agree row for row.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from matchlens.api.frames import scored_frame
from matchlens.api.inputs import Loaded, load
from matchlens.api.plan import ConfigLike, ScorePlan, make_plan


def score(data: Any, expected: str | None = None, actual: str | Sequence[str] | None = None,
          *, metrics: str | Sequence[str] | None = None, config: ConfigLike = None,
          normalise: str | Sequence[str] | None = None, overrides: Sequence[str] = (),
          expected_literal: str | None = None, encoding: str | None = None,
          delimiter: str | None = None, records: str | None = None,
          sheet: str | None = None, id: str | None = None,  # noqa: A002 - the CLI's --id
          references: Any = None, baseline: Any = None, baseline_actual: str | None = None
          ) -> Any:
    """Score `data` and return a pandas DataFrame: its columns unchanged, then `<metric>` and
    `<metric>_pass` per metric (suffixed `@<actual>` with several actual columns), exactly the
    columns `matchlens score` writes. The summary is in `.attrs["matchlens"]`.

    data       a pandas or polars DataFrame, a pyarrow Table, or a path to any file
               `matchlens score` reads (`encoding=`, `delimiter=`, `records=`, `sheet=` as
               its flags)
    expected   a column, or a JSONPath starting with `$` (a cell holding JSON is parsed);
               or `expected_literal=` one text for every row
    actual     a column or JSONPath, or a list of them (prompt variants)
    metrics    metric ids (a list, or "a,b" / "all" as `--metrics`); default as the command
    config     a thresholds TOML file (what the app saves, or a scored table's sidecar), or a
               dict shaped like it: {"metrics": {"jaccard": {"threshold": 0.6}}}
    normalise  every text metric's normalisation, as `--normalise` ("squad", or steps)
    overrides  `ID.OPTION=VALUE` texts, as `--set`
    id, references, baseline, baseline_actual
               as `--id`, `--references`, `--baseline`, `--baseline-actual`: rows of several
               tables (paths or DataFrames) joined by id, the baseline rescored, and the
               columns `<metric>_baseline`, `_delta`, `_change` and `change` (api/runs.py)

    Raises MatchLensError (ConfigError, DatasetError) with one sentence naming the problem.
    """
    from matchlens.core.output.summary import summary_dict

    plan = make_plan(expected, actual if actual is not None else (), metrics=metrics,
                     config=config, overrides=overrides, normalise=normalise,
                     expected_literal=expected_literal)
    if references is not None or baseline is not None:
        from matchlens.api.runs import score_joined

        return score_joined(data, plan, id=id, references=references, baseline=baseline,
                            baseline_actual=baseline_actual,
                            reading={"encoding": encoding, "delimiter": delimiter,
                                     "records": records, "sheet": sheet})
    loaded = load(data, specs(plan), encoding=encoding, delimiter=delimiter, records=records,
                  sheet=sheet)
    frame, tally = score_loaded(loaded, plan)
    frame.attrs["matchlens"] = summary_dict(tally)
    return frame


def specs(plan: ScorePlan) -> list[str]:
    """The SPECs the run reads: the expected one (not a literal) and every actual one."""
    mapping = plan.mapping
    return ([] if mapping.expected_literal else [mapping.expected]) + list(mapping.actuals)


def score_loaded(loaded: Loaded, plan: ScorePlan) -> tuple[Any, Any]:
    """The scored DataFrame and its Tally (a Dask partition is one `loaded`)."""
    from matchlens.core.scoring.batch import BatchResult
    from matchlens.core.scoring.pipeline import score_table

    jobs = plan.jobs()
    if not len(loaded.table):  # nothing to score (a Dask meta frame): the columns alone
        from matchlens.core.datasets import resolve_column
        from matchlens.core.scoring.tally import Tally

        for spec in specs(plan):
            if not spec.startswith("$") or spec in loaded.table.column_index:
                resolve_column(loaded.table, spec)  # an unknown column: its sentence now
        variants = plan.mapping.variants
        result = BatchResult.empty(0, variants, jobs)
        return (scored_frame(loaded.input_frame(), result, loaded.source),
                Tally(loaded.source, variants, jobs, unit=loaded.table.unit))
    result, tally = score_table(loaded.table, plan.mapping, jobs)
    return scored_frame(loaded.input_frame(), result, loaded.source), tally
