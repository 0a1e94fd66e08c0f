"""From a table and a SPEC (a column name or a JSONPath) to one text value per row.

A JSONPath is evaluated on the row; its first step may name a column whose cell holds JSON text,
which is parsed only then (and only when it starts with `{` or `[`, or is a ```json fence). Paths
made of plain keys and indexes (`$.output.entity`, `$.items[0]`) are walked directly; any other
path (`$..x`, filters, wildcards) goes through jsonpath-ng.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from matchlens.core.datasets import json_numbers
from matchlens.core.datasets.by_column import ByColumn, Cells
from matchlens.core.datasets.column_store import TextColumn
from matchlens.core.datasets.headers import ambiguous_column
from matchlens.core.datasets.jsonfiles import describe
from matchlens.core.datasets.table import MISSING, Table
from matchlens.core.errors import DatasetError
from matchlens.core.jsonpath import parse_simple, quote_digit_keys, step_text
from matchlens.core.text.elide import elide

_FENCE = re.compile(r"\s*```[A-Za-z0-9_-]*[ \t]*\r?\n(.*?)\r?\n?```\s*\Z", re.DOTALL)


@dataclass
class ColumnValues:
    """One value per row; None where the row has none, with the reason in `reasons[i]`."""

    values: list[str | None]
    reasons: dict[int, str] = field(default_factory=dict)
    matched: int | None = None  # rows a JSONPath matched (None: a column by name)
    first_miss: str | None = None  # why a JSONPath missed the first row it missed

    def __len__(self) -> int:
        return len(self.values)


def literal_column(table: Table, text: str) -> ColumnValues:
    """The same text for every row (--expected-literal)."""
    return ColumnValues([text] * len(table))


def resolve_column(table: Table, spec: str, require_match: bool = True) -> ColumnValues:
    """A column by name, or a JSONPath when `spec` starts with `$` (and is not a column name).

    DatasetError for an unknown or ambiguous column, an invalid JSONPath, or (with
    `require_match`) one that matches nothing in any row; rows it misses get None and a reason
    naming their line and column. Streaming callers pass `require_match=False` and check
    `matched` over all the pieces.
    """
    if spec in table.column_index or not spec.startswith("$"):
        return _by_name(table, spec)
    return _by_path(table, spec, require_match)


def unknown_column(table: Table, name: str, spec: str | None = None) -> DatasetError:
    import difflib

    lowered = {c.lower(): c for c in reversed(table.columns)}
    close = [lowered[name.lower()]] if name.lower() in lowered else [
        lowered[m] for m in difflib.get_close_matches(name.lower(), list(lowered), n=1)]
    hint = f"; did you mean {close[0]!r}?" if close else ""
    # names as long as a JSON object (promptfoo's CSV) are cut in the middle in the list
    shown = ", ".join(repr(elide(c, 48)) for c in table.columns[:40])
    more = f" and {len(table.columns) - 40} more" if len(table.columns) > 40 else ""
    used = f" for {spec}" if spec else ""
    return DatasetError(f"there is no column {name!r}{used}{hint} (columns: {shown}{more})",
                        file=table.label)


def check_columns(table: Table, names: list[str | None]) -> None:
    """DatasetError naming every one of `names` (column names; JSONPaths and None are skipped)
    that `table` does not have, in one sentence: not only the first one looked up."""
    missing = list(dict.fromkeys(name for name in names if name and not name.startswith("$")
                                 and name not in table.column_index))
    if len(missing) == 1:
        raise unknown_column(table, missing[0])  # with its "did you mean"
    if missing:
        raise unknown_columns(table, missing)


def unknown_columns(table: Table, names: list[str]) -> DatasetError:
    """One sentence naming each of several columns that are not there."""
    listed = ", ".join(repr(n) for n in names[:-1]) + f" and {names[-1]!r}"
    single = unknown_column(table, names[0]).reason
    return DatasetError(f"there are no columns {listed}{single[single.index(' (columns: '):]}",
                        file=table.label)


def check_unambiguous(table: Table, name: str) -> None:
    """A used column whose name the header repeats is an error (an unused one is not)."""
    positions = table.repeated.get(name)
    if positions:
        renamed = [table.columns[p - 1] for p in positions[1:]]
        raise ambiguous_column(table.label, name, positions, renamed, table.header_line,
                               table.unit)


def _by_name(table: Table, name: str) -> ColumnValues:
    if name not in table.column_index:
        raise unknown_column(table, name)
    check_unambiguous(table, name)
    if isinstance(table.rows, ByColumn):  # the window's column store, a run joined by id
        return _by_cells(table, table.rows.column(name), name)
    if table.is_delimited:
        at = table.column_index[name]
        # A comprehension, not list(map(itemgetter(at), rows)): that is one C call holding the
        # GIL for the whole column (0.2 s a million rows), and the window, whose worker thread
        # runs this, froze for its length (bench_batch_ui: 871 ms gap, 53 ms with this).
        return ColumnValues([row[at] for row in table.rows])
    values: list[str | None] = []
    reasons: dict[int, str] = {}
    for i, row in enumerate(table.rows):
        value = row.get(name, MISSING)
        if isinstance(value, str):
            values.append(value)
            continue
        if value is MISSING or value is None:
            why = "the value is null" if value is None else f"the row has no {name!r}"
            reasons[i] = _reason(table, i, name, why)
            values.append(None)
        else:
            values.append(_text(value))
    return ColumnValues(values, reasons)


def _by_cells(table: Table, column: Cells, name: str) -> ColumnValues:
    """A column given whole (by_column.ByColumn) as a sequence over its cells (no str object
    a row): its cells where they are text; None (with a reason) or compact JSON text where they
    are not."""
    if table.is_delimited:
        return ColumnValues(column)  # every cell of a CSV or a sheet is a str
    overrides: dict[int, str | None] = {}
    reasons: dict[int, str] = {}
    for i, value in column.not_text():
        if value is MISSING or value is None:
            why = "the value is null" if value is None else f"the row has no {name!r}"
            reasons[i] = _reason(table, i, name, why)
            overrides[i] = None
        else:
            overrides[i] = _text(value)
    return ColumnValues(TextColumn(column, overrides) if overrides else column, reasons)


def _text(value: Any) -> str:
    """A matched value as text: strings as is, anything else as compact JSON."""
    if isinstance(value, str):
        return value
    if type(value) is int:
        return str(value)  # what json.dumps gives, without its overhead
    return json_numbers.dumps(value)  # 1e400 as written; dates, Parquet bytes: text


def _reason(table: Table, i: int, column: str | None, text: str) -> str:
    where = table.where(i)
    if where:
        text = f"{where}: {text}"
    return str(DatasetError(text, file=table.label, row=table.lines[i], column=column,
                            unit=table.unit))


@dataclass(frozen=True)
class _Plan:
    """A compiled JSONPath split into its first key (a column) and the rest."""

    whole: Any
    first: str | None  # the column the first step names, if it is a plain key
    steps: tuple[str | int, ...] | None  # the rest as plain keys/indexes, when it is that simple
    rest: Any  # the rest as a jsonpath-ng expression (Root() when the path is just `$.col`)
    prefix: str = "$"  # how messages write the first step: `$.col` or `$["odd col"]`


@lru_cache(maxsize=128)
def _compile(spec: str) -> _Plan:
    """ValueError when `spec` is not a JSONPath we can read. Plain keys and indexes are
    parsed here (digit-led keys and dotted names in brackets included); the rest by
    jsonpath-ng."""
    steps = parse_simple(spec)
    if steps is not None and isinstance(steps[0], str):
        first = steps[0]
        return _Plan(None, first, tuple(steps[1:]), None, _step_text("$", first))
    from jsonpath_ng.ext import parse as parse_jsonpath  # imported on first use: CLI start-up

    try:
        whole = parse_jsonpath(quote_digit_keys(spec))
    except RecursionError:
        raise ValueError("it is nested too deeply to read") from None
    except Exception as exc:  # jsonpath-ng raises lexer, parser and plain exceptions alike
        raise ValueError(str(exc) or type(exc).__name__) from None
    split = _split_first(whole)
    if split is None:
        return _Plan(whole, None, None, None)
    first, rest = split
    return _Plan(whole, first, _simple_steps(rest), rest, _step_text("$", first))


def _single_key(node: Any) -> str | None:
    from jsonpath_ng import jsonpath as jp

    if type(node) is jp.Fields and len(node.fields) == 1 and node.fields[0] != "*":
        return node.fields[0]
    return None


def _spine(node: Any) -> tuple[Any, list[tuple[type, Any]]]:
    """The innermost node of a path and its steps outward, without recursion: jsonpath-ng nests
    one node per step, and a 5,000-step path would exhaust Python's stack."""
    from jsonpath_ng import jsonpath as jp

    steps: list[tuple[type, Any]] = []
    while type(node) in (jp.Child, jp.Descendants, jp.Where):
        steps.append((type(node), node.right))
        node = node.left
    steps.reverse()
    return node, steps


def _split_first(node: Any) -> tuple[str, Any] | None:
    """`$.a.b[0]` -> ("a", `$.b[0]`); None when the path does not start with a plain key."""
    from jsonpath_ng import jsonpath as jp

    base, steps = _spine(node)
    if type(base) is not jp.Root or not steps or steps[0][0] is not jp.Child:
        return None
    key = _single_key(steps[0][1])
    if key is None:
        return None
    rest: Any = jp.Root()
    for kind, right in steps[1:]:
        rest = kind(rest, right)
    return key, rest


def _simple_steps(node: Any) -> tuple[str | int, ...] | None:
    """The path as plain keys and indexes, or None when it uses more of JSONPath."""
    from jsonpath_ng import jsonpath as jp

    base, steps = _spine(node)
    if type(base) is not jp.Root:
        return None
    out: list[str | int] = []
    for kind, right in steps:
        if kind is not jp.Child:
            return None
        key = _single_key(right)
        if key is not None:
            out.append(key)
        elif type(right) is jp.Index and len(right.indices) == 1:
            out.append(right.indices[0])
        else:
            return None
    return tuple(out)


def _step_text(prefix: str, step: str | int) -> str:
    return step_text(prefix, step, ensure_ascii=True)


def load_json_text(text: str) -> tuple[Any, str | None]:
    """(value, None) when a cell holds JSON (an object/array, possibly in a ``` fence), else
    (None, why not)."""
    stripped = text.lstrip()
    if stripped.startswith("```"):
        match = _FENCE.match(stripped)
        stripped = match.group(1).lstrip() if match else stripped
    if not stripped.startswith(("{", "[")):
        return None, "the cell holds text, not JSON"
    try:
        return json_numbers.loads(stripped), None
    except json.JSONDecodeError as exc:
        return None, f"the cell is not valid JSON: {exc.msg} (line {exc.lineno} of the cell, " \
                     f"character {exc.colno})"
    except RecursionError:
        return None, "the cell holds JSON nested too deeply to read"


def _walk(value: Any, steps: tuple[str | int, ...], prefix: str) -> tuple[Any, str | None]:
    """Follow plain keys and indexes; on a miss, say where (`prefix` names the start)."""
    for done, step in enumerate(steps):
        if isinstance(step, str):
            if isinstance(value, dict) and step in value:
                value = value[step]
                continue
        elif isinstance(value, list) and -len(value) <= step < len(value):
            value = value[step]
            continue
        return MISSING, _miss(value, step, prefix, steps[:done])
    return value, None


def _miss(value: Any, step: str | int, prefix: str, walked: tuple[str | int, ...]) -> str:
    for key in walked:
        prefix = _step_text(prefix, key)
    if isinstance(step, str):
        if isinstance(value, dict):
            return f"{prefix} has no key {step!r}"
        return f"{prefix} is {describe(value)}, not an object"
    if isinstance(value, list):
        return f"{prefix} has {len(value)} items, so no [{step}]"
    return f"{prefix} is {describe(value)}, not an array"


def _as_data(value: Any) -> Any:
    if isinstance(value, str):
        parsed, why_not = load_json_text(value)
        return value if why_not else parsed
    return value


def _find(expression: Any, data: Any) -> tuple[Any, str | None]:
    """The first jsonpath-ng match, or MISSING (a filter comparing a string with a number, say,
    raises inside jsonpath-ng: that row just has no value)."""
    try:
        found = expression.find(data)
    except Exception as exc:  # any failure inside the library means "no match here"
        return MISSING, f"jsonpath-ng could not evaluate it here ({type(exc).__name__}: {exc})"
    return (found[0].value, None) if found else (MISSING, None)


def _evaluate(table: Table, i: int, plan: _Plan) -> tuple[Any, str | None]:
    """(matched value or MISSING, reason when missing)."""
    if plan.first is None:
        row = table.rows[i]
        items = zip(table.columns, row, strict=True) if table.is_delimited else row.items()
        return _find(plan.whole, {k: _as_data(v) for k, v in items})
    value = table.raw_value(i, plan.first)
    if value is MISSING:
        return MISSING, f"the row has no {plan.first!r}"
    if plan.steps == ():
        return value, None
    if isinstance(value, str):
        value, why_not = load_json_text(value)
        if why_not:
            return MISSING, why_not
    if plan.steps is not None:
        return _walk(value, plan.steps, plan.prefix)
    return _find(plan.rest, value)


def _by_path(table: Table, spec: str, require_match: bool = True) -> ColumnValues:
    try:
        plan = _compile(spec)
    except ValueError as exc:
        raise DatasetError(f"{spec!r} is not a valid JSONPath ({exc}); write paths like "
                           "$.output.entity, $.items[0].name or $[\"key.with.dots\"]",
                           file=table.label) from None
    if plan.first is not None and plan.first not in table.column_index:
        raise unknown_column(table, plan.first, spec)
    if plan.first is not None:
        check_unambiguous(table, plan.first)
    values: list[str | None] = []
    reasons: dict[int, str] = {}
    first_miss: tuple[int, str] | None = None
    matched = 0
    for i in range(len(table)):
        value, why = _evaluate(table, i, plan)
        if value is MISSING:
            first_miss = first_miss or (i, why)
            text = f"{spec} matches nothing" + (f": {why}" if why else "")
            reasons[i] = _reason(table, i, plan.first, text)
            values.append(None)
            continue
        matched += 1
        if value is None:
            reasons[i] = _reason(table, i, plan.first, f"{spec} is null")
            values.append(None)
            continue
        values.append(_text(value))
    if not matched and require_match:
        i, why = first_miss if first_miss else (0, None)
        detail = f" (first row: {why})" if why else ""
        raise DatasetError(f"the JSONPath {spec} matches nothing in any of the {len(table)} "
                           f"rows{detail}", file=table.label, row=table.lines[i],
                           column=plan.first, unit=table.unit)
    return ColumnValues(values, reasons, matched, first_miss[1] if first_miss else None)
