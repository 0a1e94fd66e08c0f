"""Arrow (Parquet) values as the text a person sees, so they are scored and written back as such.

`to_pylist` gives Python objects JSON has no type for: bytes, dates, times, durations, decimals,
NaN. Scored as their repr, `b"Paris"` was `"b'Paris'"` (exact match 0 against `Paris`). Here:

- bytes: decoded as UTF-8 (a byte that is not UTF-8 is kept as a `\\xNN` escape);
- dates, times, timestamps: ISO 8601 (`2024-01-02`, `2024-01-02T03:04:05+00:00`);
- durations: ISO 8601 (`P1DT2H3M4.5S`);
- decimals: a `JsonNumber` holding their digits (`1.10` stays `1.10`, bare in JSON output);
- NaN and ±inf floats: missing, as the Python API treats NaN (a null in JSON output).

Nested values (structs, lists, maps) are converted inside too. A value Python cannot hold (a
date after the year 9999) is one sentence naming its row and column.
"""

from __future__ import annotations

import datetime as dt
import math
from decimal import Decimal
from typing import Any

from matchlens.core.datasets.json_numbers import JsonNumber
from matchlens.core.errors import DatasetError


def _plain_type(t) -> bool:
    """True for types whose Python values are already JSON values (str, int, bool, null)."""
    import pyarrow.types as pt

    return (pt.is_string(t) or pt.is_large_string(t) or pt.is_integer(t) or pt.is_boolean(t)
            or pt.is_null(t) or getattr(pt, "is_string_view", lambda _t: False)(t))


def column_values(array, column: str, first_row: int, file: str) -> list[Any]:
    """The values of one column of a batch, as JSON values (see the module docstring).
    `first_row` is the 1-based row number of the batch's first row (for messages)."""
    import pyarrow.types as pt

    try:
        values = array.to_pylist()
    except (ValueError, OverflowError, ArithmeticError) as exc:
        raise _unreadable(array, column, first_row, file, exc) from None
    if _plain_type(array.type):
        return values
    if pt.is_floating(array.type):
        return [None if v is not None and not math.isfinite(v) else v for v in values]
    return [plain(v) for v in values]


def _unreadable(array, column: str, first_row: int, file: str, exc: Exception) -> DatasetError:
    """The sentence for a value Python cannot hold, naming the first such row."""
    for i in range(len(array)):
        try:
            array[i].as_py()
        except (ValueError, OverflowError, ArithmeticError) as err:
            exc = err
            row = first_row + i
            break
    else:
        row = first_row
    return DatasetError(f"holds a value Python cannot represent ({exc}; a date is read only "
                        "between the years 1 and 9999)", file=file, row=row, column=column,
                        unit="row")


def plain(value: Any) -> Any:
    """One value made a JSON value whose text is what a person sees."""
    if value is None or isinstance(value, str | bool | int):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, bytes | bytearray | memoryview):
        return bytes(value).decode("utf-8", errors="backslashreplace")
    if isinstance(value, Decimal):
        return JsonNumber(str(value)) if value.is_finite() else None
    if isinstance(value, dt.datetime | dt.date | dt.time):
        return value.isoformat()
    if isinstance(value, dt.timedelta):
        own = getattr(value, "isoformat", None)  # pandas' Timedelta (nanoseconds) has one
        return own() if own is not None else iso_duration(value)
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):  # a map arrives as a list of (key, value) tuples
        return [plain(v) for v in value]
    return str(value)


def iso_duration(value: dt.timedelta) -> str:
    """`timedelta(days=1, hours=2, seconds=4.5)` -> 'P1DT2H0M4.5S' (the form pandas writes)."""
    sign = "-" if value < dt.timedelta(0) else ""
    value = abs(value)
    hours, rest = divmod(value.seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    fraction = f".{value.microseconds:06d}".rstrip("0") if value.microseconds else ""
    return f"{sign}P{value.days}DT{hours}H{minutes}M{seconds}{fraction}S"
