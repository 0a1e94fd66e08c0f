"""The `normalise` option of every text metric: steps applied to both texts before scoring.

Each step has two forms: `apply` (text in, text out: the batch path, all in C where possible)
and `mapped` (also carries, for every output character, the index of the original character it
came from, or -1 for a character a step inserted), so the compare view can mark the characters
a normalisation removed as *ignored* on the text the user typed. Both forms give the same text
(checked by Hypothesis in the tests).
"""

from __future__ import annotations

import re
import string
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

import numpy as np

from matchlens.core.errors import ConfigError
from matchlens.core.text.user_regex import UserPattern


class Normalisation:
    """The kind of the `normalise` option (a marker for the option layer and the panels)."""


SIMPLE_STEPS = ("nfkc", "lowercase", "strip_punctuation", "remove_articles",
                "collapse_whitespace")
REGEX_STEPS = ("ignore_regex", "extract_regex")
PRESETS = ("squad",)
# SQuAD's normalize_answer, step by step (its own order): lower, drop string.punctuation only,
# articles -> ' ', white_space_fix. `_ascii_punctuation` is not a public step: the public
# strip_punctuation drops every Unicode P* character, SQuAD keeps ’ and —.
_SQUAD = ("lowercase", "_ascii_punctuation", "_squad_articles", "collapse_whitespace")

Origin = np.ndarray  # int64: output position -> original position, -1 for an inserted char


@dataclass(frozen=True)
class Mapped:
    """A normalised text and where each of its characters came from in the original."""

    text: str
    origin: Origin

    def kept(self, length: int) -> np.ndarray:
        """A mask over the original text: True where a character survived (maybe changed)."""
        mask = np.zeros(length, dtype=bool)
        mask[self.origin[self.origin >= 0]] = True
        return mask

    def removed_spans(self, length: int) -> list[tuple[int, int]]:
        """[start, end) runs of original characters the normalisation removed."""
        gone = ~self.kept(length)
        if not gone.any():
            return []
        edges = np.flatnonzero(np.diff(np.concatenate(([0], gone.view(np.int8), [0]))))
        return list(zip(edges[::2].tolist(), edges[1::2].tolist(), strict=True))


# --- the steps ------------------------------------------------------------------------------

class _CharClass:
    """A set of code points as a deletion table (for `apply`: str.translate, 5x faster than a
    regex class of 800 characters) and as a sorted array (for `mapped`: one vectorised
    membership test instead of a Python step per character)."""

    def __init__(self, chars: Sequence[str]) -> None:
        self.codes = np.array(sorted(map(ord, chars)), dtype=np.uint32)
        self.deletions = dict.fromkeys(self.codes.tolist())
        # an ASCII text (isascii() is O(1)) goes through a regex of the class's ASCII members,
        # 3x faster than translate on short answers
        ascii_chars = [ch for ch in chars if ch.isascii()]
        self._ascii = re.compile("[" + "".join(map(re.escape, ascii_chars)) + "]+") \
            if ascii_chars else None

    def drop(self, text: str) -> str:
        if text.isascii():
            return self._ascii.sub("", text) if self._ascii is not None else text
        return text.translate(self.deletions)

    def mask(self, text: str) -> np.ndarray:
        codes = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
        return np.isin(codes, self.codes)


# Planes 2-16 hold no punctuation and no whitespace (a test checks every code point):
# scanning only the first two costs 0.03 s instead of 0.3 s.
_SCANNED_PLANES = 0x20000


@cache
def _unicode_punctuation() -> _CharClass:
    return _CharClass([chr(c) for c in range(_SCANNED_PLANES)
                       if unicodedata.category(chr(c)).startswith("P")])


@cache
def _whitespace() -> _CharClass:
    # str.isspace() is what str.split() splits on
    return _CharClass([chr(c) for c in range(_SCANNED_PLANES) if chr(c).isspace()])


_ASCII_PUNCTUATION = _CharClass(string.punctuation)
_ARTICLES_ANY_CASE = re.compile(r"\b(a|an|the)\b", re.IGNORECASE)
_SQUAD_ARTICLES = re.compile(r"\b(a|an|the)\b")  # after lower(), exactly SQuAD's regex
# ASCII characters that are neither word characters nor whitespace once string.punctuation is
# gone: the control characters str.split() does not split on
_ASCII_NOT_WORD_NOR_SPACE = re.compile(r"[\x00-\x08\x0e-\x1b\x7f]")
_ARTICLES = frozenset(("a", "an", "the"))


def _squad_fast(text: str) -> str:
    """The squad preset in one pass for most texts. In an ASCII text without stray control
    characters, what is left after dropping punctuation is word characters and whitespace, so
    `\b(a|an|the)\b` matches exactly the whitespace tokens that are an article: dropping those
    tokens before joining gives SQuAD's text (a Hypothesis test checks it), 30% faster than a
    regex substitution and a second split. Other texts take the four steps."""
    text = text.lower()
    if text.isascii() and not _ASCII_NOT_WORD_NOR_SPACE.search(text):
        words = _ASCII_PUNCTUATION.drop(text).split()
        return " ".join([word for word in words if word not in _ARTICLES])
    text = _SQUAD_ARTICLES.sub(" ", _ASCII_PUNCTUATION.drop(text))
    return " ".join(text.split())


class _Step:
    name: str

    def apply(self, text: str) -> str:
        raise NotImplementedError

    def mapped(self, text: str, origin: Origin) -> tuple[str, Origin]:
        raise NotImplementedError


class _Substitute(_Step):
    """Every match of a pattern replaced by a fixed text (' ' for articles)."""

    def __init__(self, name: str, pattern: re.Pattern[str], repl: str) -> None:
        self.name, self._pattern, self._repl = name, pattern, repl

    def apply(self, text: str) -> str:
        return self._pattern.sub(self._repl, text)

    def mapped(self, text: str, origin: Origin) -> tuple[str, Origin]:
        # the replacement is not a character the user typed: origin -1
        edits = [(*m.span(), self._repl, -1) for m in self._pattern.finditer(text)]
        return _splice(text, origin, edits)


class _DropChars(_Step):
    """Every character of a class dropped (punctuation)."""

    def __init__(self, name: str, chars: Callable[[], _CharClass]) -> None:
        self.name, self._chars = name, chars

    def apply(self, text: str) -> str:
        return self._chars().drop(text)

    def mapped(self, text: str, origin: Origin) -> tuple[str, Origin]:
        return self.apply(text), origin[~self._chars().mask(text)]


class _CollapseWhitespace(_Step):
    name = "collapse_whitespace"

    def apply(self, text: str) -> str:
        return " ".join(text.split())

    def mapped(self, text: str, origin: Origin) -> tuple[str, Origin]:
        # an inner run becomes one space standing for the run's first character; the runs at
        # the ends go
        space = _whitespace().mask(text)
        if not space.any():
            return text, origin
        first_of_run = space & ~np.concatenate(([False], space[:-1]))
        keep = ~space | first_of_run
        text_chars = np.flatnonzero(~space)
        if len(text_chars):
            keep[:text_chars[0]] = False
            keep[text_chars[-1] + 1:] = False
        else:
            keep[:] = False
        return self.apply(text), origin[keep]


class _Lowercase(_Step):
    name = "lowercase"

    def apply(self, text: str) -> str:
        return text.lower()

    def mapped(self, text: str, origin: Origin) -> tuple[str, Origin]:
        lowered = text.lower()
        if len(lowered) == len(text):
            return lowered, origin
        # 'İ'.lower() is two characters: both stand for the 'İ' (lower() is per character
        # except for final sigma, which keeps the length)
        widths = np.fromiter((len(ch.lower()) for ch in text), dtype=np.int64, count=len(text))
        return lowered, np.repeat(origin, widths)


class _NFKC(_Step):
    name = "nfkc"

    def apply(self, text: str) -> str:
        return unicodedata.normalize("NFKC", text)

    def mapped(self, text: str, origin: Origin) -> tuple[str, Origin]:
        if unicodedata.is_normalized("NFKC", text):
            return text, origin
        out = unicodedata.normalize("NFKC", text)
        return out, _origin_by_alignment(text, out, origin)


class _IgnoreRegex(_Step):
    def __init__(self, pattern: UserPattern) -> None:
        self.name, self._pattern = f"ignore_regex:{pattern.pattern}", pattern

    def apply(self, text: str) -> str:
        return self._pattern.sub("", text)

    def mapped(self, text: str, origin: Origin) -> tuple[str, Origin]:
        edits = [(*m.span(), "", -1) for m in self._pattern.finditer(text)]
        return _splice(text, origin, edits)


class _ExtractRegex(_Step):
    def __init__(self, pattern: UserPattern) -> None:
        self.name, self._pattern = f"extract_regex:{pattern.pattern}", pattern

    def _span(self, text: str) -> tuple[int, int]:
        last = None
        for last in self._pattern.finditer(text):  # noqa: B007 - the last match is what counts
            pass
        if last is None or last.start(1) < 0:  # no match, or group 1 took no part: empty
            return 0, 0
        return last.span(1)

    def apply(self, text: str) -> str:
        start, end = self._span(text)
        return text[start:end]

    def mapped(self, text: str, origin: Origin) -> tuple[str, Origin]:
        start, end = self._span(text)
        return text[start:end], origin[start:end]


def _splice(text: str, origin: Origin, edits: Sequence[tuple[int, int, str, int]]
            ) -> tuple[str, Origin]:
    """`text` with each [start, end) span (in order, not overlapping) replaced by its text,
    whose characters all get the given origin; the origins of the kept characters follow them.
    The origins are built with whole-array operations: a text can have a million edits."""
    if not edits:
        return text, origin
    pieces, at = [], 0
    for start, end, repl, _ in edits:
        pieces.append(text[at:start])
        pieces.append(repl)
        at = end
    pieces.append(text[at:])
    bounds = np.array([(start, end) for start, end, _, _ in edits], dtype=np.int64)
    change = np.zeros(len(text) + 1, dtype=np.int64)
    np.add.at(change, bounds[:, 0], 1)
    np.add.at(change, bounds[:, 1], -1)
    keep = np.cumsum(change[:-1]) == 0
    kept_before = np.concatenate(([0], np.cumsum(keep)))  # kept characters before offset i
    widths = np.fromiter((len(repl) for _, _, repl, _ in edits), dtype=np.int64,
                         count=len(edits))
    where = np.repeat(kept_before[bounds[:, 0]], widths)
    values = np.repeat(np.fromiter((o for _, _, _, o in edits), dtype=np.int64,
                                   count=len(edits)), widths)
    return "".join(pieces), np.insert(origin[keep], where, values)


def _origin_by_alignment(src: str, out: str, origin: Origin) -> Origin:
    """Origins of a transformed text (NFKC's ligatures, full-width forms, compositions): its
    Levenshtein alignment with the source (rapidfuzz, bit-parallel). An equal or substituted
    character comes from its source character; an inserted one (ﬁ -> fi) from the source
    character before it."""
    from rapidfuzz.distance import Levenshtein

    result = np.full(len(out), -1, dtype=np.int64)
    for tag, i1, i2, j1, j2 in Levenshtein.opcodes(src, out):
        if tag in ("equal", "replace"):
            result[j1:j2] = origin[i1:i2]
        elif tag == "insert":
            result[j1:j2] = origin[max(i1 - 1, 0)] if len(origin) else -1
    return result


def _step(spec: str) -> _Step:
    name, colon, pattern = spec.partition(":")
    if spec in _STEPS:
        return _STEPS[spec]
    if colon and name in REGEX_STEPS:
        compiled = UserPattern(pattern)  # validated by parse_normalise
        return _IgnoreRegex(compiled) if name == "ignore_regex" else _ExtractRegex(compiled)
    raise ConfigError(f"unknown normalisation step {spec!r}")


_STEPS: dict[str, _Step] = {
    "nfkc": _NFKC(),
    "lowercase": _Lowercase(),
    "strip_punctuation": _DropChars("strip_punctuation", _unicode_punctuation),
    "remove_articles": _Substitute("remove_articles", _ARTICLES_ANY_CASE, " "),
    "collapse_whitespace": _CollapseWhitespace(),
    "_ascii_punctuation": _DropChars("_ascii_punctuation", lambda: _ASCII_PUNCTUATION),
    "_squad_articles": _Substitute("_squad_articles", _SQUAD_ARTICLES, " "),
}


# --- pipelines ------------------------------------------------------------------------------

@dataclass(frozen=True)
class Pipeline:
    """The steps of one `normalise` value, ready to run."""

    label: str  # "squad", or the steps joined by " → "
    steps: tuple[_Step, ...]
    fast: Callable[[str], str] | None = None  # the steps as one function (same text)

    def apply(self, text: str) -> str:
        if self.fast is not None:
            return self.fast(text)
        for step in self.steps:
            text = step.apply(text)
        return text

    def apply_many(self, texts: Sequence[str], memo: dict[str, str] | None = None
                   ) -> list[str]:
        """Every text through the steps. With `memo` (text -> result, shared by the calls of
        one batch chunk), a text seen before is looked up: an answer often equals its
        reference, and the expected and actual columns are normalised by separate calls."""
        if memo is not None:
            apply = self.apply
            out = []
            append = out.append
            get = memo.get
            for text in texts:
                done = get(text)
                if done is None:
                    done = memo[text] = apply(text)
                append(done)
            return out
        if self.fast is not None:
            return list(map(self.fast, texts))
        out = list(texts)
        for step in self.steps:
            out = list(map(step.apply, out))
        return out

    def mapped(self, text: str) -> Mapped:
        origin = np.arange(len(text), dtype=np.int64)
        for step in self.steps:
            text, origin = step.mapped(text, origin)
        return Mapped(text, origin)



def pipeline(value: str | Sequence[str]) -> Pipeline:
    """The pipeline of a coerced `normalise` value (a preset name or a list of steps)."""
    return _pipeline(value if isinstance(value, str) else tuple(value))


@lru_cache(maxsize=64)
def _pipeline(value: str | tuple[str, ...]) -> Pipeline:
    if isinstance(value, str):  # a preset
        return Pipeline(value, tuple(_STEPS[name] for name in _SQUAD), _squad_fast)
    return Pipeline(" → ".join(value), tuple(_step(s) for s in value))


def describe(value: str | Sequence[str]) -> str:
    """How a normalise value reads in a panel, an explanation or the batch mapping."""
    if not value:
        return "none"
    return value if isinstance(value, str) else " → ".join(value)


def to_text(value: str | Sequence[str]) -> str:
    """The value as one line a person can edit back (a preset, a step, or a JSON array)."""
    import json

    if isinstance(value, str):
        return value
    if not value:
        return ""
    if len(value) == 1:
        return value[0]
    return json.dumps(list(value), ensure_ascii=False)


def parse_normalise(value: Any, where: str = "normalise") -> str | list[str]:
    """Validate a `normalise` value from TOML, `--set`, `--normalise` or a widget.

    Returns a preset name, or a list of steps ([] for none). A text is a preset, one step, a
    JSON array of steps, or simple step names separated by commas (a regex step's pattern may
    itself hold commas, so a text that is one valid step is taken whole).
    """
    if isinstance(value, str):
        text = value.strip()
        if text.lower() in ("", "none", "[]"):
            return []
        if text in PRESETS:
            return text
        if text.startswith("["):
            import json

            try:
                value = json.loads(text)
            except ValueError:
                raise ConfigError(f"{where}: {text!r} is not a JSON array of steps") from None
        elif _is_step(text):
            return [text]
        elif all(part.strip() in SIMPLE_STEPS for part in text.split(",")):
            return [part.strip() for part in text.split(",")]
        else:
            return [_check_step(text, where)]
    if isinstance(value, list | tuple):
        if not all(isinstance(step, str) for step in value):
            raise ConfigError(f"{where} must be a preset name or a list of steps, not {value!r}")
        if len(value) == 1 and value[0] in PRESETS:
            return value[0]
        return [_check_step(step, where) for step in value]
    raise ConfigError(f"{where} must be a preset name or a list of steps, not {value!r}")


def _is_step(text: str) -> bool:
    try:
        _check_step(text, "")
    except ConfigError:
        return False
    return True


def _check_step(step: str, where: str) -> str:
    if step in SIMPLE_STEPS:
        return step
    name, colon, pattern = step.partition(":")
    if colon and name in REGEX_STEPS:
        compiled = UserPattern(pattern, f"{where}: {name} pattern")
        if name == "extract_regex" and compiled.groups < 1:
            raise ConfigError(f"{where}: extract_regex keeps group 1, but {pattern!r} has no "
                              "group; put what to keep in parentheses")
        return step
    valid = ", ".join([*PRESETS, *SIMPLE_STEPS, "ignore_regex:PATTERN", "extract_regex:PATTERN"])
    raise ConfigError(f"{where}: unknown normalisation step {step!r}; valid: {valid}")
