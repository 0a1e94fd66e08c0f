"""`matchlens.fields`: which JSON fields are wrong, and how often, as a pandas DataFrame.

The same count as `matchlens fields` (core.scoring.fields over the one `ColumnMapping`, with
json_distance's options from `config=` / `overrides=` / `options=`): one row per leaf path,
worst accuracy first, a `variant` column when there are several actual columns.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from matchlens.api.inputs import load
from matchlens.api.plan import ConfigLike, make_plan
from matchlens.api.runs import baseline_and_id
from matchlens.core.diff.json_fields import COLUMNS, FieldTally, field_rows
from matchlens.core.output.baseline_file import answered_only
from matchlens.core.scoring.fields import count_fields
from matchlens.core.scoring.fields_runs import count_joined_fields
from matchlens.core.scoring.mapping import ColumnMapping
from matchlens.core.scoring.run_scoring import RunFiles


def fields(data: Any, expected: str | None = None, actual: str | Sequence[str] | None = None,
           *, config: ConfigLike = None, overrides: Sequence[str] = (),
           options: Mapping[str, Any] | None = None, by_index: bool = False,
           expected_literal: str | None = None, encoding: str | None = None,
           delimiter: str | None = None, records: str | None = None,
           sheet: str | None = None, id: str | None = None,  # noqa: A002 - the CLI's name
           references: Any = None, baseline: Any = None, baseline_actual: str | None = None
           ) -> Any:
    """A pandas DataFrame with the columns `matchlens fields` writes: path, expected, equal,
    differs, missing, extra, accuracy (and `variant` first, with several `actual`). The header
    (rows, invalid, the reasons) is in `.attrs["matchlens"]`.

    options   json_distance's options, over the config's: {"array_match": "unordered"}
    by_index  keep array indices in paths (`$.items[2].price`) instead of `[*]`
    id, references, baseline, baseline_actual
              as `--id`, `--references`, `--baseline`, `--baseline-actual`: rows of several
              tables (paths or DataFrames) joined by id as `matchlens.score` joins them; the
              baseline's block (variant `baseline`) follows this run's
    Other arguments as `matchlens.score`. Raises MatchLensError with one sentence.
    """
    import pandas as pd

    plan = make_plan(expected, actual if actual is not None else (), metrics="json_distance",
                     config=config, overrides=overrides, expected_literal=expected_literal)
    walk_options = dict(plan.config.settings("json_distance").options)
    walk_options.update(options or {})
    mapping = plan.mapping
    reading = {"encoding": encoding, "delimiter": delimiter, "records": records,
               "sheet": sheet}
    if references is not None or baseline is not None:
        tally = joined_tally(data, mapping, walk_options, by_index, reading, id=id,
                             references=references, baseline=baseline,
                             baseline_actual=baseline_actual)
    else:
        specs = ([] if mapping.expected_literal else [mapping.expected]) + list(mapping.actuals)
        loaded = load(data, specs, **reading)
        tally = count_fields([loaded.table], mapping, walk_options, by_index=by_index)
    several = len(tally.variants) > 1
    columns = (["variant"] if several else []) + list(COLUMNS)
    frame = pd.DataFrame(field_rows(tally), columns=["variant", *COLUMNS])[columns]
    frame.attrs["matchlens"] = tally.summary()
    return frame


def joined_tally(data: Any, mapping: ColumnMapping, options: Mapping[str, Any], by_index: bool,
                 reading: dict, *, id: str | None, references: Any, baseline: Any,  # noqa: A002
                 baseline_actual: str | None) -> FieldTally:
    """The tables loaded (paths or DataFrames) and joined by id (core.scoring.fields_runs)."""
    choice, id_spec = baseline_and_id(baseline, baseline_actual, id)
    own_reference = references is None and not mapping.expected_literal
    run = load(data, [id_spec, *([mapping.expected] if own_reference else []),
                      *mapping.actuals], **reading)
    refs = None
    if references is not None:
        wanted = [] if mapping.expected_literal else [mapping.expected]
        refs = load(references, [id_spec, *wanted], encoding=reading.get("encoding")).table
    base = None
    if choice is not None:
        wanted = [id_spec, choice.actual]
        if own_reference:
            wanted.append(mapping.expected)  # a row only the baseline has: its reference
        base = load(baseline, wanted, encoding=reading.get("encoding")).table
        if choice.joined:
            base = answered_only(base, choice.actual)
    files = RunFiles(run.table, id_spec, refs, base, choice.actual if choice else None)
    tally, _joined = count_joined_fields(files, mapping, options, by_index=by_index)
    return tally
