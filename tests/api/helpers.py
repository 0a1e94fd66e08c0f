"""Shared by the API tests: a scored DataFrame as plain Python rows, comparable with the
records `matchlens score -o out.jsonl` writes."""

from __future__ import annotations

import math
from typing import Any


def plain(value: Any) -> Any:
    """None for every missing value (NaN, <NA>, None); numpy scalars as Python values."""
    if value is None:
        return None
    if isinstance(value, dict | list | str):
        return value
    import pandas as pd

    if pd.isna(value):
        return None
    if hasattr(value, "item"):
        value = value.item()
    if isinstance(value, float) and math.isnan(value):
        return None
    return value


def frame_rows(frame) -> list[dict[str, Any]]:
    columns = list(frame.columns)
    return [{c: plain(v) for c, v in zip(columns, row, strict=True)}
            for row in frame.itertuples(index=False, name=None)]


def cli_rows(records: list[dict[str, Any]], columns: list[str]) -> list[dict[str, Any]]:
    """JSONL records with every column present (a key a JSON row lacks reads as None)."""
    return [{c: record.get(c) for c in columns} for record in records]
