"""Each step of the `normalise` option (normalise.py), in its two forms: `apply` (text in,
text out, in C where possible) and `mapped` (the text and, for every output character, the
index of the original character it came from, -1 for one a step inserted); SQuAD's
normalisation as one function; `make_step` for a step's spec."""

from __future__ import annotations

import re
import string
import unicodedata
from collections.abc import Callable, Sequence
from functools import cache

import numpy as np

from matchlens.core.errors import ConfigError
from matchlens.core.text.user_regex import UserPattern

REGEX_STEPS = ("ignore_regex", "extract_regex")

Origin = np.ndarray  # int64: output position -> original position, -1 for an inserted char


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


def squad_fast(text: str) -> str:
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


class Step:
    name: str

    def apply(self, text: str) -> str:
        raise NotImplementedError

    def mapped(self, text: str, origin: Origin) -> tuple[str, Origin]:
        raise NotImplementedError


class _Substitute(Step):
    """Every match of a pattern replaced by a fixed text (' ' for articles)."""

    def __init__(self, name: str, pattern: re.Pattern[str], repl: str) -> None:
        self.name, self._pattern, self._repl = name, pattern, repl

    def apply(self, text: str) -> str:
        return self._pattern.sub(self._repl, text)

    def mapped(self, text: str, origin: Origin) -> tuple[str, Origin]:
        # the replacement is not a character the user typed: origin -1
        edits = [(*m.span(), self._repl, -1) for m in self._pattern.finditer(text)]
        return _splice(text, origin, edits)


class _DropChars(Step):
    """Every character of a class dropped (punctuation)."""

    def __init__(self, name: str, chars: Callable[[], _CharClass]) -> None:
        self.name, self._chars = name, chars

    def apply(self, text: str) -> str:
        return self._chars().drop(text)

    def mapped(self, text: str, origin: Origin) -> tuple[str, Origin]:
        return self.apply(text), origin[~self._chars().mask(text)]


class _CollapseWhitespace(Step):
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


class _Lowercase(Step):
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


class _NFKC(Step):
    name = "nfkc"

    def apply(self, text: str) -> str:
        return unicodedata.normalize("NFKC", text)

    def mapped(self, text: str, origin: Origin) -> tuple[str, Origin]:
        if unicodedata.is_normalized("NFKC", text):
            return text, origin
        out = unicodedata.normalize("NFKC", text)
        return out, _origin_by_alignment(text, out, origin)


class _IgnoreRegex(Step):
    def __init__(self, pattern: UserPattern) -> None:
        self.name, self._pattern = f"ignore_regex:{pattern.pattern}", pattern

    def apply(self, text: str) -> str:
        return self._pattern.sub("", text)

    def mapped(self, text: str, origin: Origin) -> tuple[str, Origin]:
        edits = [(*m.span(), "", -1) for m in self._pattern.finditer(text)]
        return _splice(text, origin, edits)


class _ExtractRegex(Step):
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


def make_step(spec: str) -> Step:
    name, colon, pattern = spec.partition(":")
    if spec in STEPS:
        return STEPS[spec]
    if colon and name in REGEX_STEPS:
        compiled = UserPattern(pattern)  # validated by parse_normalise
        return _IgnoreRegex(compiled) if name == "ignore_regex" else _ExtractRegex(compiled)
    raise ConfigError(f"unknown normalisation step {spec!r}")


STEPS: dict[str, Step] = {
    "nfkc": _NFKC(),
    "lowercase": _Lowercase(),
    "strip_punctuation": _DropChars("strip_punctuation", _unicode_punctuation),
    "remove_articles": _Substitute("remove_articles", _ARTICLES_ANY_CASE, " "),
    "collapse_whitespace": _CollapseWhitespace(),
    "_ascii_punctuation": _DropChars("_ascii_punctuation", lambda: _ASCII_PUNCTUATION),
    "_squad_articles": _Substitute("_squad_articles", _SQUAD_ARTICLES, " "),
}
