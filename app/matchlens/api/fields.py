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
from matchlens.core.diff.json_fields import COLUMNS, field_rows
from matchlens.core.scoring.fields import count_fields


def fields(data: Any, expected: str | None = None, actual: str | Sequence[str] | None = None,
           *, config: ConfigLike = None, overrides: Sequence[str] = (),
           options: Mapping[str, Any] | None = None, by_index: bool = False,
           expected_literal: str | None = None, encoding: str | None = None,
           delimiter: str | None = None, records: str | None = None,
           sheet: str | None = None) -> Any:
    """A pandas DataFrame with the columns `matchlens fields` writes: path, expected, equal,
    differs, missing, extra, accuracy (and `variant` first, with several `actual`). The header
    (rows, invalid, the reasons) is in `.attrs["matchlens"]`.

    options   json_distance's options, over the config's: {"array_match": "unordered"}
    by_index  keep array indices in paths (`$.items[2].price`) instead of `[*]`
    Other arguments as `matchlens.score`. Raises MatchLensError with one sentence.
    """
    import pandas as pd

    plan = make_plan(expected, actual if actual is not None else (), metrics="json_distance",
                     config=config, overrides=overrides, expected_literal=expected_literal)
    walk_options = dict(plan.config.settings("json_distance").options)
    walk_options.update(options or {})
    mapping = plan.mapping
    specs = ([] if mapping.expected_literal else [mapping.expected]) + list(mapping.actuals)
    loaded = load(data, specs, encoding=encoding, delimiter=delimiter, records=records,
                  sheet=sheet)
    tally = count_fields([loaded.table], mapping, walk_options, by_index=by_index)
    several = len(tally.variants) > 1
    columns = (["variant"] if several else []) + list(COLUMNS)
    frame = pd.DataFrame(field_rows(tally), columns=["variant", *COLUMNS])[columns]
    frame.attrs["matchlens"] = tally.summary()
    return frame
