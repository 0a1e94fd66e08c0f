"""Rows inside a JSON object: `--records JSONPATH`, the only array of objects, or promptfoo.

ragas writes `{"answer_correctness": [{...}, ...]}`; promptfoo's output holds its rows at
`results.results` beside other arrays. Without `--records`, an object holding exactly one array
of objects (searched a few levels deep) uses it, promptfoo's output is recognised, and several
candidates are one sentence listing their paths.
"""

from __future__ import annotations

import json
import re
from typing import Any

from matchlens.core.datasets.jsonfiles import describe, walk_array
from matchlens.core.datasets.source import Source, settle
from matchlens.core.jsonpath import locate_steps, parse_simple, path_text

_DECODER = json.JSONDecoder()
_WS = re.compile(r"[ \t\n\r]*")
_DEPTH = 4  # how deep to look for arrays of objects
_SAMPLE = 10  # elements checked to call an array one of objects
_SHAPE = "a .json data file must be an array of objects ([{...}, {...}]) or an object holding one"


def rows_in_object(source: Source, text: str, pos: int, records: str | None, display,
                   name: str | None):
    from matchlens.core.datasets.table import Table

    value = _decode(source, text, pos)
    if records is not None:
        steps = _records_steps(source, records, value)
        note = None
    else:
        if not isinstance(value, dict):
            source.fail(f"holds {describe(value)}, but {_SHAPE}", row=_line(text, pos))
        from matchlens.core.datasets.promptfoo import is_promptfoo, promptfoo_table

        if is_promptfoo(value):
            return promptfoo_table(source, text, value, display, name)
        found = find_record_arrays(value)
        if not found:
            source.fail(f"holds one JSON object with no array of objects in it, but {_SHAPE}",
                        row=_line(text, pos))
        if len(found) > 1:
            paths = ", ".join(path_text(steps) for steps in found[:8])
            more = f" and {len(found) - 8} more" if len(found) > 8 else ""
            source.fail(f"holds {len(found)} arrays of objects ({paths}{more}); say which "
                        f"holds the rows with --records (e.g. --records {path_text(found[0])})")
        steps = found[0]
        note = (f"{source.name}: rows read from {path_text(steps)}, the only array of objects "
                "in the file")
    start = locate_steps(text, steps, pos)
    if start is None:  # cannot happen: the parsed value has it
        source.fail(f"cannot find {path_text(steps)} in the text")
    columns, rows, lines = walk_array(source, text, start, whole=False)
    settle(rows)
    return Table(display, columns, rows, lines, "json", None, source.encoding,
                 notes=[note] if note else [], name=name)


def _decode(source: Source, text: str, pos: int) -> Any:
    try:
        value, end = _DECODER.raw_decode(text, pos)
    except json.JSONDecodeError as exc:
        source.fail(f"is not valid JSON: {exc.msg} (at character {exc.colno})", row=exc.lineno)
    except RecursionError:
        source.fail("is JSON nested too deeply to read")
    tail = _WS.match(text, end).end()
    if tail < len(text):
        source.fail("has more text after the JSON value that ends here", row=_line(text, end))
    return value


def _line(text: str, pos: int) -> int:
    return text.count("\n", 0, pos) + 1


def _records_steps(source: Source, records: str, value: Any) -> list[str | int]:
    steps = [] if records.strip() == "$" else parse_simple(records.strip())
    if steps is None:
        source.fail(f"--records {records} is not a path of keys and indexes (write it like "
                    "$.results.results or $[\"rows\"])")
    target = value
    for done, step in enumerate(steps):
        ok = (isinstance(step, str) and isinstance(target, dict) and step in target) or \
            (isinstance(step, int) and isinstance(target, list)
             and -len(target) <= step < len(target))
        if not ok:
            where = path_text(steps[:done])
            what = "has no key " + repr(step) if isinstance(target, dict) and \
                isinstance(step, str) else f"is {describe(target)}"
            source.fail(f"--records {records} matches nothing: {where} {what}")
        if isinstance(step, int) and step < 0:  # Python's meaning: -1 is the last element;
            steps[done] = step = step + len(target)  # the text is then found by position
        target = target[step]
    if not (isinstance(target, list) and target and all(isinstance(x, dict) for x in target)):
        what = "an empty array" if target == [] else describe(target)
        source.fail(f"--records {records} is {what}, not an array of objects (rows)")
    return steps


def find_record_arrays(value: dict) -> list[list[str | int]]:
    """Paths (as steps) of the non-empty arrays of objects in `value`, breadth first, a few
    levels deep; arrays are not searched inside (their objects are the rows)."""
    found: list[list[str | int]] = []
    level: list[tuple[list[str | int], dict]] = [([], value)]
    for _ in range(_DEPTH):
        deeper = []
        for steps, obj in level:
            for key, item in obj.items():
                if isinstance(item, list):
                    if item and all(isinstance(x, dict) for x in item[:_SAMPLE]):
                        found.append([*steps, key])
                elif isinstance(item, dict):
                    deeper.append(([*steps, key], item))
        level = deeper
    return found
