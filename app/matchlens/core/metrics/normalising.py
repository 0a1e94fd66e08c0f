"""The `normalise` option, once for every text metric: `register` passes each text metric
through `normalising_metric`, which adds the option and runs the steps on both texts before the
metric's own `compute` / `compute_many` see them. No metric module knows about it, but the
word metrics' batch paths, which apply the squad preset to each distinct word themselves
(`normalises_by_word`)."""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any, TypeVar

from matchlens.core.metrics.fast.loading import kernels_loaded
from matchlens.core.metrics.shared_work import shared
from matchlens.core.metrics.spec import (
    ComputeFn,
    ManyFn,
    ManyOutcome,
    MetricSpec,
    OptionSpec,
    many_by_pairs,
)
from matchlens.core.results import Outcome
from matchlens.core.text.normalise import Normalisation, describe, pipeline

NORMALISE = "normalise"
# Presets a word metric may apply itself, to each distinct whitespace word instead of to each
# text (word_table explains why the result is the same): a batch chunk has far fewer distinct
# words than texts.
WORD_PRESETS = frozenset({"squad"})
# From this many rows a chunk's texts are normalised through its words (word_table), or
# from any size once numba is loaded: importing it (~0.4 s) costs a small run more than the
# per-text path (~10 us a row, against ~4 through the words).
MIN_ROWS = 25_000
_BY_WORD: set[Callable[..., Any]] = set()
_Fn = TypeVar("_Fn", bound=Callable[..., Any])


def normalises_by_word(many: _Fn) -> _Fn:
    """Mark a `compute_many` (or a `compute`) that applies the WORD_PRESETS itself (it reads
    the `normalise` option): it is given the texts as they are for those presets."""
    _BY_WORD.add(many)
    return many


def by_word(value: Any) -> str | None:
    """The preset a word metric applies itself, or None (no normalisation or done already)."""
    return value if isinstance(value, str) and value in WORD_PRESETS else None


def normalise_option(default: str | Sequence[str]) -> OptionSpec:
    return OptionSpec(
        NORMALISE, Normalisation, default if isinstance(default, str) else list(default),
        "Steps applied to both texts before scoring (squad, lowercase, strip_punctuation, "
        "remove_articles, collapse_whitespace, nfkc, ignore_regex:RE, extract_regex:RE)")


def normalised_texts(texts: Sequence[str], value: str | Sequence[str]) -> list[str]:
    """Every text through the steps; shared within a batch chunk, so metrics with the same
    normalisation get the very same list (and so share their folded texts and distances).
    Both columns of a chunk share one text -> result memo: an answer equal to its reference is
    normalised once."""
    key = (NORMALISE, value if isinstance(value, str) else tuple(value))
    memo: dict[str, str] = shared((*key, "memo"), (), dict)
    return shared(key, (texts,), lambda: pipeline(value).apply_many(texts, memo))


def normalised_pair(expected: Sequence[str], actual: Sequence[str], value: str | Sequence[str]
                    ) -> tuple[Sequence[str], Sequence[str]]:
    """Both columns of a chunk through the steps (shared within the chunk): a preset through
    the chunk's words when the chunk is big enough to pay for the compiled loops."""
    preset = by_word(value)
    # compiled loops already loaded (numba's JIT imported, or the kernels built ahead of time)
    if preset and (len(expected) >= MIN_ROWS or "numba" in sys.modules or kernels_loaded()):
        from matchlens.core.metrics.fast.word_table import normalised_by_word

        return shared((NORMALISE, preset, "by word"), (expected, actual),
                      lambda: normalised_by_word(expected, actual, preset))
    return normalised_texts(expected, value), normalised_texts(actual, value)


def normalising_metric(spec: MetricSpec) -> MetricSpec:
    """The spec with a `normalise` option that its compute functions honour."""
    if any(opt.name == NORMALISE for opt in spec.options):
        return spec  # registered twice (a module reloaded): already wrapped
    raw_compute = spec.compute
    raw_many = spec.compute_many
    compute = normalising_compute(raw_compute)
    first = None if spec.compute_first is None else normalising_compute(spec.compute_first)

    def compute_many(expected: Sequence[str], actual: Sequence[str],
                     options: Mapping[str, Any]) -> ManyOutcome:
        value = options.get(NORMALISE)
        if value and not (raw_many in _BY_WORD and by_word(value)):
            expected, actual = normalised_pair(expected, actual, value)
        if raw_many is not None:
            many = raw_many(expected, actual, options)
        else:
            many = many_by_pairs(raw_compute, expected, actual, options)
        if value and many.messages:  # a batch row says what a single pair says
            suffix = f" (normalised: {describe(value)})"
            many = replace(many, messages={i: f"{m}{suffix}" for i, m in many.messages.items()})
        return many

    wrapped_many: ManyFn = compute_many
    wrapped: ComputeFn = compute
    return replace(spec, options=(*spec.options, normalise_option(spec.normalise_default)),
                   compute=wrapped, compute_many=wrapped_many, compute_first=first)


def normalising_compute(raw_compute: ComputeFn) -> ComputeFn:
    """A single-pair `compute` that runs the `normalise` steps on both texts first."""

    def compute(expected: str, actual: str, options: Mapping[str, Any]) -> Outcome:
        value = options.get(NORMALISE)
        if not value:
            return raw_compute(expected, actual, options)
        if raw_compute in _BY_WORD and by_word(value):
            out = raw_compute(expected, actual, options)  # it applies the preset itself
        else:
            steps = pipeline(value)
            out = raw_compute(steps.apply(expected), steps.apply(actual), options)
        return replace(out, explanation=f"{out.explanation} (normalised: {describe(value)})")

    return compute
