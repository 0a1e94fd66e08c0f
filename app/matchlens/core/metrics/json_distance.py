"""json_distance: how many leaf values differ between two JSON documents."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from operator import itemgetter
from typing import Any

import numpy as np

from matchlens.core.errors import ConfigError
from matchlens.core.jsonpath import step_text, strip_fences
from matchlens.core.metrics.json_extract import extract_json
from matchlens.core.metrics.json_walk import JsonDiff, walker_for
from matchlens.core.metrics.registry import register
from matchlens.core.metrics.spec import STATUS_INVALID, ManyOutcome, MetricSpec, OptionSpec
from matchlens.core.results import Direction, Label, Outcome

# What json's scanner accepts as the first character of a value, and the whitespace it skips
# before it (json.decoder.WHITESPACE): a text starting otherwise fails with "Expecting value"
# there, which `parse_side` says without running the decoder (most non-JSON outputs).
_VALUE_START = frozenset('"{[-0123456789tfnNI')
_JSON_SPACE = re.compile(r"[ \t\n\r]*")


class InvalidJson(ValueError):
    def __init__(self, side: str, error: json.JSONDecodeError) -> None:
        self.side = side
        self.reason = decode_reason(error)
        super().__init__(f"{side} is not valid JSON: {self.reason}")


def decode_reason(error: json.JSONDecodeError) -> str:
    """The parser's message with its place: "Expecting value at line 1 column 1". Some of
    Python's messages end in "at" already ("Unterminated string starting at"): no "at at"."""
    msg = error.msg.rstrip()
    joint = " " if msg.endswith(" at") else " at "
    return f"{msg}{joint}line {error.lineno} column {error.colno}"


def parse_side(text: str, side: str, fences: bool) -> Any:
    source = strip_fences(text) if fences else text
    start = _JSON_SPACE.match(source).end()
    if source[:1] != "\ufeff" and (start == len(source) or source[start] not in _VALUE_START):
        # json.loads' own error for such a text (a test compares them), without its three
        # exceptions (StopIteration, JSONDecodeError, re-raised)
        raise InvalidJson(side, json.JSONDecodeError("Expecting value", source, start))
    try:
        if source[:1] == "\ufeff":  # json.loads' own check, before it calls the decoder
            raise json.JSONDecodeError("Unexpected UTF-8 BOM (decode using utf-8-sig)",
                                       source, 0)
        return _DECODER.decode(source)
    except _Constant as constant:
        # Python's json reads NaN and ±Infinity; JSON has no such values (RFC 8259 §6).
        raise InvalidJson(side, json.JSONDecodeError(
            f"{constant.name} is not a JSON value", source,
            max(0, source.find(constant.name)))) from None
    except json.JSONDecodeError as err:
        raise InvalidJson(side, err) from None
    except RecursionError:
        raise InvalidJson(side, json.JSONDecodeError("nested too deeply", text, 0)) from None


class _Constant(Exception):  # noqa: N818 - a signal to parse_side, never seen outside
    def __init__(self, name: str) -> None:
        self.name = name


def _refuse_constant(name: str) -> Any:
    raise _Constant(name)


# What json.loads(text, parse_constant=...) builds on every call (a decoder and its scanner):
# built once. json.loads adds only the BOM check parse_side makes itself.
_DECODER = json.JSONDecoder(parse_constant=_refuse_constant)


def child_path(path: str, key: str | int) -> str:
    return step_text(path, key)


def parse_for(text: str, side: str, options: Mapping[str, Any]) -> tuple[Any, str | None]:
    """One side parsed as the options say: (value, a note when `extract_json` had to dig the
    JSON out of prose, else None). InvalidJson when no JSON is there."""
    fences = bool(options.get("strip_code_fences"))
    try:
        return parse_side(text, side, fences), None
    except InvalidJson:
        if not options.get("extract_json"):
            raise
        found = extract_json(text)
        if found is None:
            raise
        value, line, column = found
        return value, f"the {side} JSON was taken from its text at line {line} column {column}"


def json_distance(expected: Any, actual: Any, options: Mapping[str, Any] | None = None
                  ) -> tuple[int, list[JsonDiff]]:
    """Distance between two parsed JSON values and the paths that differ."""
    return walker_for(options).diff(expected, actual)


def _outcome(expected: str, actual: str, options: Mapping[str, Any]) -> Outcome:
    try:
        walker = walker_for(options)
    except ConfigError as err:
        return Outcome(None, str(err), Label.ERROR)
    try:
        e, e_note = parse_for(expected, "expected", options)
        a, a_note = parse_for(actual, "actual", options)
    except InvalidJson as err:
        return Outcome(None, str(err), Label.INVALID)
    try:
        dist, diffs = walker.diff(e, a)
    except RecursionError:
        return Outcome(None, "JSON nested too deeply to compare", Label.INVALID)
    notes = [n for n in (e_note, a_note, *walker.notes) if n]
    tail = "".join(f"; {note}" for note in notes)
    if dist == 0:
        return Outcome(0.0, f"The JSON documents are equal{tail}")
    first = str(diffs[0])
    more = f" (+{dist - 1} more)" if dist > 1 else ""
    noun = "value differs" if dist == 1 else "values differ"
    return Outcome(float(dist), f"{dist} {noun}: {first}{more}{tail}", details=tuple(diffs))


@dataclass(frozen=True)
class _Unparsed:
    sentence: str


def _many(expected: Sequence[str], actual: Sequence[str], options: Mapping[str, Any]
          ) -> ManyOutcome:
    """json_distance of many pairs: each distinct text parsed once per side (a reference on
    many rows, an output that is not JSON at all), then `_outcome`'s rules row by row.

    Texts json rejects at their first character (plain prose: most outputs of a text eval)
    are told apart by that character alone, with no Python code per row; only the other rows
    are parsed."""
    if len(expected) != len(actual):
        raise ValueError("expected and actual must have the same length")
    fences = bool(options.get("strip_code_fences"))
    walker = walker_for(options)
    parsed = {side: {} for side in ("expected", "actual")}

    def parse(text: str, side: str) -> Any:
        memo = parsed[side]
        if text not in memo:
            try:
                memo[text] = parse_for(text, side, options)[0]
            except InvalidJson as err:  # its sentence, not the error: a traceback holds frames
                memo[text] = _Unparsed(str(err))
        return memo[text]

    n = len(expected)
    scores = np.full(n, np.nan)
    status = np.zeros(n, dtype=np.int8)
    digs = bool(options.get("extract_json"))  # prose may hold JSON: no row fails at once
    e_plain = _fails_at_once(expected, fences, digs)
    # the expected side is read first, as in _outcome: its sentence wins
    status[e_plain] = STATUS_INVALID
    messages: dict[int, str] = dict.fromkeys(np.flatnonzero(e_plain).tolist(),
                                             _AT_ONCE["expected"])
    rest = np.flatnonzero(~e_plain).tolist()
    # the actual side of those rows only: the others are not read, as in _outcome
    a_plain = dict(zip(rest, _fails_at_once(list(map(actual.__getitem__, rest)), fences, digs)
                       .tolist(), strict=True))
    for i in rest:
        e = parse(expected[i], "expected")
        if type(e) is _Unparsed:  # the actual side is not even read then, as in _outcome
            status[i], messages[i] = STATUS_INVALID, e.sentence
            continue
        if a_plain[i]:
            status[i], messages[i] = STATUS_INVALID, _AT_ONCE["actual"]
            continue
        a = parse(actual[i], "actual")
        if type(a) is _Unparsed:
            status[i], messages[i] = STATUS_INVALID, a.sentence
            continue
        try:
            scores[i] = walker.score(e, a)
            walker.notes.clear()  # a batch keeps scores only; the pair's own view says them
        except RecursionError:
            status[i], messages[i] = STATUS_INVALID, "JSON nested too deeply to compare"
    if rest and len(rest) < n and messages:
        messages = dict(sorted(messages.items()))  # row order, as one loop over the rows gives
    return ManyOutcome(scores, status, messages)


# A text whose first character no JSON value starts with, and that json does not skip (its
# whitespace, a BOM) nor a fence may start with (```, after any whitespace \s matches, which
# is str.isspace), fails at line 1 column 1, as does the empty text.
_AT_ONCE = {side: str(InvalidJson(side, json.JSONDecodeError("Expecting value", "", 0)))
            for side in ("expected", "actual")}
_FIRST = itemgetter(slice(0, 1))


def _fails_at_once(texts: Sequence[str], fences: bool, digs: bool = False) -> np.ndarray:
    """True for each text parse_side rejects as "Expecting value at line 1 column 1" because
    of its first character: each distinct first character is judged once. None when the
    JSON may be dug out of the text (`extract_json`)."""
    if digs:
        return np.zeros(len(texts), dtype=bool)
    firsts = list(map(_FIRST, texts))
    verdict = {c: _fails_at(c, fences) for c in set(firsts)}
    return np.fromiter(map(verdict.__getitem__, firsts), dtype=bool, count=len(firsts))


def _fails_at(first: str, fences: bool) -> bool:
    if first == "":
        return True
    if first in _VALUE_START or first in " \t\n\r\ufeff":
        return False
    return not (fences and (first == "`" or first.isspace()))


register(MetricSpec(
    id="json_distance",
    label="JSON distance",
    direction=Direction.MIN,
    default_threshold=None,
    options=(
        OptionSpec("ignore_keys", list, [], "Key names to skip at any depth"),
        OptionSpec("case_insensitive_strings", bool, False, "Compare strings ignoring case"),
        OptionSpec("numeric_tolerance", float, 0.0, "Numbers this close (absolute) count as equal",
                   minimum=0.0),
        OptionSpec("relative_tolerance", float, 0.0,
                   "Numbers this close (relative to the larger) count as equal", minimum=0.0),
        OptionSpec("array_match", str, "index",
                   "How array items pair: index, unordered (best assignment) or key:NAME"),
        OptionSpec("ignore_paths", list, [],
                   "JSONPath patterns to skip ($.meta, $.items[*].id, $..timestamp)"),
        OptionSpec("strip_code_fences", bool, False, "Accept output wrapped in a ```json block"),
        OptionSpec("extract_json", bool, False,
                   "Take the first JSON object or array found in the text"),
    ),
    definition="Number of differing leaf values: objects sum over the union of keys, arrays "
               "over paired items (array_match) plus the unpaired ones; a missing key "
               "counts 1.",
    compute=_outcome,
    compute_many=_many,
    score_range=(0.0, None),
    integer=True,
    display_order=70,
    batch_cost_us=1.0,
    shares_edit_script=False,
))
