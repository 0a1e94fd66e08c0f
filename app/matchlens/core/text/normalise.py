"""The `normalise` option of every text metric: steps applied to both texts before scoring.

Each step has two forms: `apply` (text in, text out: the batch path, all in C where possible)
and `mapped` (also carries, for every output character, the index of the original character it
came from, or -1 for a character a step inserted), so the compare view can mark the characters
a normalisation removed as *ignored* on the text the user typed. Both forms give the same text
(checked by Hypothesis in the tests).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from matchlens.core.errors import ConfigError
from matchlens.core.text.normalise_steps import (
    REGEX_STEPS,
    STEPS,
    Origin,
    Step,
    make_step,
    squad_fast,
)
from matchlens.core.text.user_regex import UserPattern


class Normalisation:
    """The kind of the `normalise` option (a marker for the option layer and the panels)."""


SIMPLE_STEPS = ("nfkc", "lowercase", "strip_punctuation", "remove_articles",
                "collapse_whitespace")
PRESETS = ("squad",)
# SQuAD's normalize_answer, step by step (its own order): lower, drop string.punctuation only,
# articles -> ' ', white_space_fix. `_ascii_punctuation` is not a public step: the public
# strip_punctuation drops every Unicode P* character, SQuAD keeps ’ and —.
_SQUAD = ("lowercase", "_ascii_punctuation", "_squad_articles", "collapse_whitespace")


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


# --- pipelines ------------------------------------------------------------------------------

@dataclass(frozen=True)
class Pipeline:
    """The steps of one `normalise` value, ready to run."""

    label: str  # "squad", or the steps joined by " → "
    steps: tuple[Step, ...]
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
        return Pipeline(value, tuple(STEPS[name] for name in _SQUAD), squad_fast)
    return Pipeline(" → ".join(value), tuple(make_step(s) for s in value))


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

