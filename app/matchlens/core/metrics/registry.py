"""The metric registry: every front end (CLI columns, score panels, histograms) is built from it."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, TypeVar

import numpy as np

from matchlens.core.errors import ConfigError
from matchlens.core.results import Direction, Label, MetricResult, Outcome, judge
from matchlens.core.text.normalise import Normalisation, parse_normalise

ComputeFn = Callable[[str, str, Mapping[str, Any]], Outcome]

# Row status codes of batch results, shared by the batch runner, the CLI and the window.
STATUS_SCORED = 0
STATUS_INVALID = 1
STATUS_ERROR = 2
STATUS_MISSING = 3
STATUS_NAMES = {
    STATUS_SCORED: "scored",
    STATUS_INVALID: "invalid",
    STATUS_ERROR: "error",
    STATUS_MISSING: "missing",
}


@dataclass(frozen=True)
class ManyOutcome:
    """Scores for many pairs: NaN where none, a status code per row, a message per bad row."""

    scores: np.ndarray
    status: np.ndarray
    messages: dict[int, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.scores.shape != self.status.shape:
            raise ValueError("scores and status must have the same length")


ManyFn = Callable[[Sequence[str], Sequence[str], Mapping[str, Any]], ManyOutcome]


@dataclass(frozen=True)
class OptionSpec:
    """One metric option: its name, type, default and a line of help."""

    name: str
    kind: type
    default: Any
    help: str
    minimum: float | None = None  # for numbers: the smallest value that makes sense

    def coerce(self, value: Any, metric_id: str = "") -> Any:
        """Validate and convert a value from TOML, `--set` or a widget."""
        where = f"{metric_id}.{self.name}" if metric_id else self.name
        if self.kind is Normalisation:
            return parse_normalise(value, where)
        if self.kind is bool:
            if isinstance(value, bool):
                return value
            if isinstance(value, str) and value.strip().lower() in _BOOL_WORDS:
                return _BOOL_WORDS[value.strip().lower()]
            raise ConfigError(f"{where} must be true or false, not {shown(value)}")
        if self.kind is float:
            try:
                number = float(value)
            except (TypeError, ValueError):
                raise ConfigError(f"{where} must be a number, not {shown(value)}") from None
            if number != number or number in (float("inf"), float("-inf")):
                raise ConfigError(f"{where} must be a finite number, not {shown(value)}")
            if isinstance(value, bool):
                raise ConfigError(f"{where} must be a number, not {shown(value)}")
            if self.minimum is not None and number < self.minimum:
                raise ConfigError(f"{where} must be {self.minimum:g} or more, not {number:g}")
            return number
        if self.kind is list:
            if isinstance(value, str):
                return [part.strip() for part in value.split(",") if part.strip()]
            if isinstance(value, list | tuple) and all(isinstance(v, str) for v in value):
                return list(value)
            raise ConfigError(f"{where} must be a list of strings, not {shown(value)}")
        if self.kind is str:
            if isinstance(value, str):
                return value
            raise ConfigError(f"{where} must be text, not {shown(value)}")
        raise ConfigError(f"{where}: unsupported option type {self.kind.__name__}")


def shown(value: Any, limit: int = 60) -> str:
    """A value as messages quote it: repr, cut short (a 100 KB `--set` is not echoed whole)."""
    text = repr(value)
    return text if len(text) <= limit else f"{text[:limit - 1]}… ({len(text):,} characters)"


# Put in a network metric's options when its base_url came from a config file: the file's name.
# The embeddings client then sends no general key there (a file can name any URL; see
# embeddings/endpoint.py). Not an option: only Config.settings sets it; it passes through.
BASE_URL_FROM = "base_url_from"

_BOOL_WORDS = {"true": True, "1": True, "yes": True, "on": True,
               "false": False, "0": False, "no": False, "off": False}


@dataclass(frozen=True)
class MetricSpec:
    """Everything the app knows about a metric; `compute` is the slow, exact, single-pair path."""

    id: str
    label: str
    direction: Direction
    default_threshold: float | None
    options: tuple[OptionSpec, ...]
    definition: str
    compute: ComputeFn
    compute_many: ManyFn | None = None
    score_range: tuple[float, float | None] = (0.0, 1.0)
    integer: bool = False
    network: bool = False
    # A text metric takes the `normalise` option (see metrics.md); `register` adds it, with
    # this default, and applies it before `compute` / `compute_many` (normalising_metric).
    text: bool = False
    normalise_default: str | tuple[str, ...] = ()

    def option(self, name: str) -> OptionSpec:
        for opt in self.options:
            if opt.name == name:
                return opt
        valid = ", ".join(["threshold", *(o.name for o in self.options)])
        raise ConfigError(f"metric {self.id} has no option {name!r}; valid: {valid}")

    def default_options(self) -> dict[str, Any]:
        return {opt.name: opt.default for opt in self.options}

    def resolve_options(self, overrides: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """Defaults updated by validated overrides."""
        options = self.default_options()
        for name, value in (overrides or {}).items():
            if name == BASE_URL_FROM and self.network:  # provenance, not an option: kept as is
                options[name] = str(value or "")
                continue
            options[name] = self.option(name).coerce(value, self.id)
        return options

    def coerce_threshold(self, value: Any) -> float | None:
        """None, or a finite number inside the metric's score range: a threshold outside it
        would make the gate always pass or always fail (similarity -5, distance -1)."""
        if value is None or (isinstance(value, str) and value.strip().lower() in ("", "none")):
            return None
        number = OptionSpec("threshold", float, None, "").coerce(value, self.id)
        low, high = self.score_range
        if number < low or (high is not None and number > high):
            span = f"between {low:g} and {high:g}" if high is not None else f"{low:g} or more"
            raise ConfigError(f"{self.id}.threshold must be {span} (the range of its scores), "
                              f"not {number:g}")
        return number

    def many(self, expected: Sequence[str], actual: Sequence[str],
             options: Mapping[str, Any]) -> ManyOutcome:
        """Score many pairs: the vectorised path when there is one, else pair by pair."""
        if self.compute_many is not None:
            return self.compute_many(expected, actual, options)
        return many_by_pairs(self.compute, expected, actual, options)


def many_by_pairs(compute: ComputeFn, expected: Sequence[str], actual: Sequence[str],
                  options: Mapping[str, Any]) -> ManyOutcome:
    n = len(expected)
    scores = np.full(n, np.nan)
    status = np.zeros(n, dtype=np.int8)
    messages: dict[int, str] = {}
    for i, (e, a) in enumerate(zip(expected, actual, strict=True)):
        out = compute(e, a, options)
        if out.score is None:
            status[i] = STATUS_INVALID if out.label is Label.INVALID else STATUS_ERROR
            messages[i] = out.explanation
        else:
            scores[i] = out.score
    return ManyOutcome(scores, status, messages)


# Work several metrics of one batch chunk would each redo (folded texts, edit distances): the
# batch opens a `sharing_work()` scope per chunk and variant, and `shared` computes each piece
# once inside it. Outside a scope (a direct `compute_many` call) nothing is kept.
_SHARED: ContextVar[dict | None] = ContextVar("matchlens_shared_work", default=None)
T = TypeVar("T")


@contextmanager
def sharing_work() -> Iterator[None]:
    token = _SHARED.set({})
    try:
        yield
    finally:
        _SHARED.reset(token)


def shared(key: Any, inputs: tuple, compute: Callable[[], T]) -> T:
    """`compute()`, or its value from earlier in the current `sharing_work()` scope for the same
    `key` and the very same `inputs` objects (identity, not equality: nothing is hashed)."""
    memo = _SHARED.get()
    if memo is None:
        return compute()
    slot = (key, *map(id, inputs))
    hit = memo.get(slot)
    if hit is not None and all(a is b for a, b in zip(hit[0], inputs, strict=True)):
        return hit[1]
    value = compute()
    memo[slot] = (inputs, value)  # the inputs are held, so their ids cannot be reused
    return value


# How many threads a metric's C++ library may use (rapidfuzz `workers`): -1 is every core. A
# batch that already runs one process per core sets it to 1.
_THREADS: ContextVar[int] = ContextVar("matchlens_metric_threads", default=-1)


def metric_threads() -> int:
    return _THREADS.get()


@contextmanager
def threads_per_process(count: int) -> Iterator[None]:
    token = _THREADS.set(count)
    try:
        yield
    finally:
        _THREADS.reset(token)


def folded_texts(texts: Sequence[str]) -> list[str]:
    """Every text through `fold_case` (shared within a batch chunk)."""
    from matchlens.core.text.casefold import fold_many

    return shared("fold", (texts,), lambda: fold_many(texts))


def stripped_texts(texts: Sequence[str]) -> list[str]:
    """Every text with surrounding whitespace removed (shared within a batch chunk)."""
    return shared("strip", (texts,), lambda: list(map(str.strip, texts)))


REGISTRY: dict[str, MetricSpec] = {}

# The five text metrics `matchlens score` runs when --metrics is not given.
DEFAULT_METRICS = (
    "exact_match",
    "contains",
    "levenshtein_distance",
    "levenshtein_similarity",
    "jaccard",
)


def register(spec: MetricSpec) -> MetricSpec:
    if spec.text:
        from matchlens.core.metrics.normalising import normalising_metric

        spec = normalising_metric(spec)
    REGISTRY[spec.id] = spec
    return spec


def get_metric(metric_id: str) -> MetricSpec:
    _load_builtin()
    try:
        return REGISTRY[metric_id]
    except KeyError:
        valid = ", ".join(spec.id for spec in all_metrics())
        raise ConfigError(f"unknown metric {metric_id!r}; valid metrics: {valid}") from None


# The order of the window's panels and of error messages, whatever order modules were imported in.
DISPLAY_ORDER = (*DEFAULT_METRICS, "token_f1", "json_distance", "bleu", "chrf", "rouge_l",
                 "wer", "cer", "semantic_similarity")


def all_metrics() -> list[MetricSpec]:
    _load_builtin()
    rank = {metric_id: i for i, metric_id in enumerate(DISPLAY_ORDER)}
    return sorted(REGISTRY.values(), key=lambda spec: rank.get(spec.id, len(rank)))


def local_metric_ids() -> list[str]:
    """Every registered metric that needs no network (what `--metrics all` means)."""
    return [spec.id for spec in all_metrics() if not spec.network]


def evaluate(spec: MetricSpec, expected: str, actual: str, *,
             threshold: float | None | object = ..., options: Mapping[str, Any] | None = None,
             ) -> MetricResult:
    """Score one pair with the spec's defaults, updated by `threshold` and `options`."""
    resolved = spec.resolve_options(options)
    limit = spec.default_threshold if threshold is ... else threshold
    return judge(spec.compute(expected, actual, resolved), spec.direction, limit)  # type: ignore[arg-type]


def _load_builtin() -> None:
    # Imported lazily so that each metric module can import this one without a cycle.
    from matchlens.core.metrics import builtin  # noqa: F401
