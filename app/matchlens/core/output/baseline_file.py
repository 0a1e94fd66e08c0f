"""A baseline run read back (`--baseline BASE`, `matchlens.score(baseline=...)`): which column
holds its outputs and which id it was joined on, from the sidecar `score -o` wrote beside it
(`<BASE>.matchlens.toml`), or from `--baseline-actual`; and, for a table that was itself a
joined run, the rows its run did not answer left out."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, replace
from pathlib import Path

from matchlens.core.datasets import Table, resolve_column
from matchlens.core.errors import ConfigError, DatasetError
from matchlens.core.output.scored_table import sidecar_path


@dataclass(frozen=True)
class BaselineChoice:
    """The baseline's output SPEC, the id its sidecar records (or None), and whether it was
    a joined run (its sidecar records `references`)."""

    actual: str
    recorded_id: str | None = None
    joined: bool = False


def sidecar_record(base: Path) -> dict | None:
    """The [matchlens] table of BASE's sidecar, None when BASE has no sidecar; DatasetError
    naming the sidecar when it cannot be read."""
    sidecar = sidecar_path(Path(base))
    if not sidecar.exists():
        return None
    try:
        with open(sidecar, "rb") as handle:
            record = tomllib.load(handle).get("matchlens")
    except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError) as err:
        raise DatasetError(f"the sidecar of the baseline cannot be read ({err})",
                           file=str(sidecar)) from None
    if not isinstance(record, dict):
        raise DatasetError("the sidecar of the baseline has no [matchlens] table (it is a "
                           "thresholds file, not a scored table's sidecar)", file=str(sidecar))
    return record


def choose_baseline(base: Path | None, baseline_actual: str | None) -> BaselineChoice:
    """What BASE's sidecar and `baseline_actual` say (see BaselineChoice). `base` None: a
    table in memory, which needs `baseline_actual`."""
    record = sidecar_record(base) if base is not None else None
    recorded_id = record.get("id") if record else None
    recorded_id = recorded_id if isinstance(recorded_id, str) else None
    joined = bool(record and record.get("references"))
    if baseline_actual:
        return BaselineChoice(baseline_actual, recorded_id, joined)
    if record is None:
        where = f"{base}: no sidecar ({sidecar_path(Path(base)).name}) says" if base else \
            "a baseline table in memory does not say"
        raise ConfigError(f"{where} which column holds its outputs; give --baseline-actual "
                          "SPEC (baseline_actual= in Python)")
    actual = record.get("actual")
    if not isinstance(actual, list) or not actual or \
            not all(isinstance(a, str) for a in actual):
        raise DatasetError("the sidecar of the baseline records no output column (actual)",
                           file=str(sidecar_path(Path(base))))
    if len(actual) > 1:
        raise ConfigError(f"{base} holds {len(actual)} outputs ({', '.join(actual)}); name "
                          "the one to compare with in --baseline-actual (baseline_actual=)")
    return BaselineChoice(actual[0], recorded_id, joined)


def answered_only(base: Table, spec: str) -> Table:
    """A joined scored table has a row for each reference its run did not answer, with an
    empty output: those rows were no output of that run, so they are left out. (In a CSV an
    empty output and no output read the same: an empty output of a joined table is left out
    too.)"""
    values = resolve_column(base, spec).values
    keep = [i for i, value in enumerate(values) if value not in (None, "")]
    if len(keep) == len(values):
        return base
    return replace(base, rows=[base.rows[i] for i in keep],
                   lines=[base.lines[i] for i in keep])
