"""What a metric is: `MetricSpec` (its id, direction, options, compute paths, display order,
batch cost and whether it shares the edit script), `OptionSpec`, and the batch result type
`ManyOutcome` with its row status codes. The table of registered metrics is `registry`."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from matchlens.core.errors import ConfigError
from matchlens.core.results import Direction, Label, Outcome
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
    # Read by the front ends instead of tables of their own; every built-in metric gives all
    # three (a test checks), None marks one that did not.
    # Where the window's panels and error messages list it: ascending, gaps left for new ones.
    display_order: int | None = None
    # Rough cost per distinct pair of its batch path, in microseconds of one core on generated
    # texts of ~20 words (benchmarks/bench_metrics.py); only used to decide whether a batch is
    # worth a second process (core.scoring.parallel), so the order of magnitude is what matters.
    batch_cost_us: float | None = None
    # Needs the character edit script of the two texts: the compare view runs it on one lane
    # after the alignment, which computes the script once (ui.compare.scheduler).
    shares_edit_script: bool | None = None
    # From how many rows of a run its batch path runs the compiled kernels (metrics/fast,
    # numba): 0 from the first row, None never. A run loads them once, before forking its
    # scoring worker (fast.loading), rather than in both processes.
    compiled_from_rows: int | None = None
    # A quicker first answer for long texts: the same score as `compute`, an explanation that
    # says what is still being computed (levenshtein_distance: the distance before the edit
    # script's counts). The compare view shows it while `compute` works (ui.compare).
    compute_first: ComputeFn | None = None

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
