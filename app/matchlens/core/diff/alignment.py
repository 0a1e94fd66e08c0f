r"""Edit spans for the highlight: the very edit script that `levenshtein_distance` counts.

The spans come from rapidfuzz's `Levenshtein.opcodes` with the metric's own `score_hint`, so at
character granularity the highlighted edits add up to `levenshtein.distance(...)` exactly, and the
substitution / insertion / deletion split matches `levenshtein.edit_counts`. Opcodes are already
runs, so a million-character text costs one C call plus a Python step per run, never per char.

Offsets always index the ORIGINAL texts. When case is ignored the script runs on `fold_case`
copies (same length, so offsets carry over) and the characters that differ only by case inside
equal regions are added as uncounted, case-only marks for the UI to show subdued.

A run of substitutions is split where its pairs change class (case-only, whitespace-only,
plain), so each span's flags hold for every character in it; insertion and deletion runs are
never split and are whitespace-only when all their text is whitespace. At word granularity the
units are the tokens of `\S+|\s+` and `EditSpan.units` counts tokens, not characters.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from itertools import accumulate
from typing import Any

from matchlens.core.diff.char_classes import (
    CASE,
    PLAIN,
    SHORT_RUN,
    SPACE,
    char_class_runs,
    differing_runs,
    pair_class,
    runs_of,
)
from matchlens.core.diff.navigation import locate
from matchlens.core.metrics.levenshtein import prepare
from matchlens.core.text import edit_script
from matchlens.core.text.casefold import fold_case

GRANULARITIES = ("char", "word")
SIDES = ("expected", "actual")

# Words and the whitespace runs between them, so that joining the tokens gives the text back.
_TOKEN = re.compile(r"\S+|\s+")

class EditKind(StrEnum):
    INSERT = "insert"
    DELETE = "delete"
    SUBSTITUTE = "substitute"


def _offset(name: str, value: Any) -> int:
    if isinstance(value, bool):
        raise ValueError(f"{name} must be an integer, not {value!r}")
    try:
        number = operator.index(value)
    except TypeError:
        raise ValueError(f"{name} must be an integer, not {value!r}") from None
    if number < 0:
        raise ValueError(f"{name} must be >= 0, got {number}")
    return number


@dataclass(frozen=True, slots=True)
class EditSpan:
    """One run of same-kind edits, with offsets into the original texts.

    `units` is how many edits the span counts: characters at char granularity, tokens at word
    granularity. Left as None it is derived from the character ranges (char granularity).
    """

    kind: EditKind
    exp_start: int
    exp_end: int
    act_start: int
    act_end: int
    case_only: bool = False
    whitespace_only: bool = False
    counted: bool = True
    units: int | None = None

    def __post_init__(self) -> None:
        # Fast checks first: align() makes tens of thousands of these for a big text.
        kind = self.kind
        if type(kind) is not EditKind:
            try:
                kind = EditKind(kind)
            except ValueError:
                raise ValueError(f"unknown edit kind {self.kind!r}") from None
            object.__setattr__(self, "kind", kind)
        es, ee, as_, ae = self.exp_start, self.exp_end, self.act_start, self.act_end
        if not (type(es) is type(ee) is type(as_) is type(ae) is int):
            es, ee, as_, ae = (_offset(name, getattr(self, name))
                               for name in ("exp_start", "exp_end", "act_start", "act_end"))
            for name, value in zip(("exp_start", "exp_end", "act_start", "act_end"),
                                   (es, ee, as_, ae), strict=True):
                object.__setattr__(self, name, value)
        if es < 0 or as_ < 0 or ee < es or ae < as_:
            raise ValueError(f"a span needs 0 <= start <= end on both sides: {self}")
        case_only, whitespace_only, counted = self.case_only, self.whitespace_only, self.counted
        if not (type(case_only) is type(whitespace_only) is type(counted) is bool):
            raise ValueError(f"case_only, whitespace_only and counted must be bools: {self}")
        exp_len, act_len = ee - es, ae - as_
        if kind is EditKind.SUBSTITUTE:
            if not (exp_len and act_len):
                raise ValueError("a substitution needs non-empty ranges on both sides")
            limit = min(exp_len, act_len)
        elif case_only:
            raise ValueError("only a substitution can be case-only")
        elif kind is EditKind.INSERT:
            if exp_len or not act_len:
                raise ValueError("an insertion needs an empty expected and a non-empty actual "
                                 "range")
            limit = act_len
        else:
            if act_len or not exp_len:
                raise ValueError("a deletion needs a non-empty expected and an empty actual "
                                 "range")
            limit = exp_len
        if case_only and whitespace_only:
            raise ValueError("a span cannot be both case-only and whitespace-only")
        if not (counted or case_only):
            raise ValueError("only case-only differences can be left uncounted")
        units = self.units
        if units is None:
            if exp_len != act_len and kind is EditKind.SUBSTITUTE:
                raise ValueError("a substitution of unequal lengths must say how many units "
                                 "it edits")
            object.__setattr__(self, "units", limit)
        elif type(units) is not int or not 1 <= units <= limit:
            units = _offset("units", units)
            if not 1 <= units <= limit:
                raise ValueError(f"units must be between 1 and {limit}, got {units}")
            object.__setattr__(self, "units", units)

    @property
    def exp_len(self) -> int:
        return self.exp_end - self.exp_start

    @property
    def act_len(self) -> int:
        return self.act_end - self.act_start


@dataclass(frozen=True, slots=True)
class Hunk:
    """One navigable difference: a maximal group of touching spans (no equal text between).

    `counted` is False when every span in the hunk is an uncounted case-only mark.
    """

    exp_start: int
    exp_end: int
    act_start: int
    act_end: int
    first_span: int
    last_span: int
    counted: bool = True

    def __post_init__(self) -> None:
        values = (self.exp_start, self.exp_end, self.act_start, self.act_end, self.first_span,
                  self.last_span)
        if not all(type(v) is int and v >= 0 for v in values):
            for name in ("exp_start", "exp_end", "act_start", "act_end", "first_span",
                         "last_span"):
                object.__setattr__(self, name, _offset(name, getattr(self, name)))
        if type(self.counted) is not bool:
            raise ValueError(f"counted must be a bool, not {self.counted!r}")
        if self.exp_end < self.exp_start or self.act_end < self.act_start:
            raise ValueError(f"a hunk's end precedes its start: {self}")
        if self.last_span < self.first_span:
            raise ValueError(f"a hunk's last span precedes its first: {self}")

    def start(self, side: str) -> int:
        return self.exp_start if _side(side) == "expected" else self.act_start

    def end(self, side: str) -> int:
        return self.exp_end if _side(side) == "expected" else self.act_end


@dataclass(frozen=True, slots=True)
class Alignment:
    spans: tuple[EditSpan, ...]
    hunks: tuple[Hunk, ...]
    distance: int
    granularity: str
    case_sensitive: bool = True

    def __post_init__(self) -> None:
        object.__setattr__(self, "spans", tuple(self.spans))
        object.__setattr__(self, "hunks", tuple(self.hunks))
        if self.granularity not in GRANULARITIES:
            raise ValueError(f"granularity must be 'char' or 'word', not {self.granularity!r}")
        _check_order(self.spans)
        counted = sum(s.units or 0 for s in self.spans if s.counted)
        if _offset("distance", self.distance) != counted:
            raise ValueError(f"distance {self.distance} != {counted} units in the counted spans")
        for h in self.hunks:
            if h.last_span >= len(self.spans):
                raise ValueError(f"hunk {h} refers to a span that does not exist")

    def counts(self) -> dict[EditKind, int]:
        """Edited units of the counted spans per kind (the metric's explanation counts)."""
        out = dict.fromkeys(EditKind, 0)
        for s in self.spans:
            if s.counted:
                out[s.kind] += s.units or 0
        return out


def _side(side: str) -> str:
    if side not in SIDES:
        raise ValueError(f"side must be 'expected' or 'actual', not {side!r}")
    return side


def _check_order(spans: Sequence[EditSpan]) -> None:
    exp_pos = act_pos = 0
    for s in spans:
        if s.exp_start < exp_pos or s.act_start < act_pos:
            raise ValueError(f"spans overlap or are out of order at {s}")
        exp_pos, act_pos = s.exp_end, s.act_end


def align(expected: str, actual: str, *, case_sensitive: bool = True,
          granularity: str = "char") -> Alignment:
    """The edit spans that turn `expected` into `actual`, grouped into hunks."""
    if granularity not in GRANULARITIES:
        raise ValueError(f"granularity must be 'char' or 'word', not {granularity!r}")
    e_cmp, a_cmp = prepare(expected, case_sensitive), prepare(actual, case_sensitive)
    builder = _Builder(expected, actual, granularity == "word",
                       None if case_sensitive else (e_cmp, a_cmp))
    e_units: Sequence[str]
    a_units: Sequence[str]
    if builder.word:
        # fold_case keeps lengths and whitespace is caseless, so the folded tokens sit at the
        # same offsets as the original ones.
        e_units, a_units = _TOKEN.findall(e_cmp), _TOKEN.findall(a_cmp)
        builder.e_off = list(accumulate(map(len, e_units), initial=0))
        builder.a_off = list(accumulate(map(len, a_units), initial=0))
    else:
        e_units, a_units = e_cmp, a_cmp
    # Characters: the script the distance metrics share (edit_script); tokens: their own.
    ops = edit_script.opcodes(e_units, a_units)
    for tag, i1, i2, j1, j2 in ops:
        if tag == "equal":
            if not case_sensitive:
                builder.case_marks(i1, i2, j1, j2)
        elif tag == "replace":
            builder.substitutions(i1, i2, j1, j2)
        elif tag == "insert":
            builder.insdel(EditKind.INSERT, i1, i2, j1, j2)
        else:
            builder.insdel(EditKind.DELETE, i1, i2, j1, j2)
    spans = builder.spans
    distance = sum(s.units or 0 for s in spans if s.counted)
    return Alignment(tuple(spans), _group(spans), distance, granularity, case_sensitive)


class _Builder:
    """Turns opcodes (in units: chars or tokens) into EditSpans in character offsets."""

    def __init__(self, expected: str, actual: str, word: bool,
                 folded: tuple[str, str] | None) -> None:
        self.expected, self.actual, self.word = expected, actual, word
        self._folded = folded
        self.e_off: list[int] = []
        self.a_off: list[int] = []
        self.spans: list[EditSpan] = []

    def folded(self) -> tuple[str, str]:
        """Both texts through fold_case, folded whole (str.lower() is context-sensitive for a
        final sigma), so "differs only by case" means exactly what the metric ignores."""
        if self._folded is None:
            self._folded = fold_case(self.expected), fold_case(self.actual)
        return self._folded

    def _chars(self, i1: int, i2: int, j1: int, j2: int) -> tuple[int, int, int, int]:
        if self.word:
            return self.e_off[i1], self.e_off[i2], self.a_off[j1], self.a_off[j2]
        return i1, i2, j1, j2

    def _emit(self, kind: EditKind, i1: int, i2: int, j1: int, j2: int, units: int, *,
              cls: int = PLAIN, counted: bool = True) -> None:
        es, ee, as_, ae = self._chars(i1, i2, j1, j2)
        self.spans.append(EditSpan(kind, es, ee, as_, ae, case_only=cls == CASE,
                                   whitespace_only=cls == SPACE, counted=counted, units=units))

    def insdel(self, kind: EditKind, i1: int, i2: int, j1: int, j2: int) -> None:
        es, ee, as_, ae = self._chars(i1, i2, j1, j2)
        text = self.expected[es:ee] if kind is EditKind.DELETE else self.actual[as_:ae]
        cls = SPACE if text.isspace() else PLAIN
        self._emit(kind, i1, i2, j1, j2, max(i2 - i1, j2 - j1), cls=cls)

    def substitutions(self, i1: int, i2: int, j1: int, j2: int) -> None:
        """A run of substitutions, split where the pairs change class (case / space / plain)."""
        es, ee, as_, ae = self._chars(i1, i2, j1, j2)
        e_seg, a_seg = self.expected[es:ee], self.actual[as_:ae]
        e_fold, a_fold = self.folded()
        n = i2 - i1
        if not self.word and e_fold[es:ee] == a_fold[as_:ae]:
            runs = [(CASE, 0, n)]  # every pair differs, so every pair differs only by case
        elif e_seg.isspace() and a_seg.isspace():
            runs = [(SPACE, 0, n)]
        elif self.word:
            eo, ao = self.e_off, self.a_off
            runs = runs_of(
                pair_class(self.expected[eo[i]:eo[i + 1]], self.actual[ao[j]:ao[j + 1]],
                            e_fold[eo[i]:eo[i + 1]], a_fold[ao[j]:ao[j + 1]])
                for i, j in zip(range(i1, i2), range(j1, j2), strict=True))
        elif n == 1:
            runs = [(pair_class(e_seg, a_seg, e_fold[es], a_fold[as_]), 0, 1)]
        elif n <= SHORT_RUN:
            runs = runs_of(map(pair_class, e_seg, a_seg, e_fold[es:ee], a_fold[as_:ae]))
        else:
            runs = char_class_runs(e_seg, a_seg, e_fold[es:ee], a_fold[as_:ae])
        for cls, lo, hi in runs:
            self._emit(EditKind.SUBSTITUTE, i1 + lo, i1 + hi, j1 + lo, j1 + hi, hi - lo, cls=cls)

    def case_marks(self, i1: int, i2: int, j1: int, j2: int) -> None:
        """Uncounted marks where an equal (folded) region differs in the original case."""
        es, ee, as_, ae = self._chars(i1, i2, j1, j2)
        e_seg, a_seg = self.expected[es:ee], self.actual[as_:ae]
        if e_seg == a_seg:
            return
        if self.word:
            flags = [self.expected[self.e_off[i]:self.e_off[i + 1]]
                     != self.actual[self.a_off[j]:self.a_off[j + 1]]
                     for i, j in zip(range(i1, i2), range(j1, j2), strict=True)]
            runs = [(lo, hi) for differs, lo, hi in runs_of(flags) if differs]
        else:
            runs = differing_runs(e_seg, a_seg)
        for lo, hi in runs:
            self._emit(EditKind.SUBSTITUTE, i1 + lo, i1 + hi, j1 + lo, j1 + hi, hi - lo,
                       cls=CASE, counted=False)


def _group(spans: Sequence[EditSpan]) -> tuple[Hunk, ...]:
    hunks, first = [], 0
    for i in range(1, len(spans) + 1):
        if (i < len(spans) and spans[i].exp_start == spans[i - 1].exp_end
                and spans[i].act_start == spans[i - 1].act_end):
            continue
        head, tail = spans[first], spans[i - 1]
        counted = any(s.counted for s in spans[first:i])
        hunks.append(Hunk(head.exp_start, tail.exp_end, head.act_start, tail.act_end,
                          first, i - 1, counted))
        first = i
    return tuple(hunks)


def apply_spans(expected: str, actual: str, spans: Iterable[EditSpan], *,
                include_uncounted: bool = False) -> str:
    """Rewrite `expected` with the spans' actual text.

    With the counted spans only this gives `actual` (up to case when case was ignored); with
    `include_uncounted=True` the case-only marks are applied too and the result is `actual`.
    """
    parts: list[str] = []
    exp_pos = act_pos = 0
    for s in spans:
        if not (s.counted or include_uncounted):
            continue
        if s.exp_start < exp_pos or s.act_start < act_pos:
            raise ValueError(f"spans overlap or are out of order at {s}")
        if s.exp_end > len(expected) or s.act_end > len(actual):
            raise ValueError(f"span {s} lies outside the texts")
        parts.append(expected[exp_pos:s.exp_start])
        parts.append(actual[s.act_start:s.act_end])
        exp_pos, act_pos = s.exp_end, s.act_end
    parts.append(expected[exp_pos:])
    return "".join(parts)


def next_hunk(hunks: Sequence[Hunk], position: int, side: str = "expected") -> int | None:
    """Index of the first hunk that starts after `position` on `side`, or None."""
    return locate(hunks, position, key=_start_key(side)).next


def previous_hunk(hunks: Sequence[Hunk], position: int, side: str = "expected") -> int | None:
    """Index of the last hunk that starts before `position` on `side`, or None."""
    return locate(hunks, position, key=_start_key(side)).previous


def _start_key(side: str) -> Callable[[Hunk], int]:
    return operator.attrgetter("exp_start" if _side(side) == "expected" else "act_start")
