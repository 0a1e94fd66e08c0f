"""Metric results and the threshold rule shared by every metric."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any


class Direction(StrEnum):
    MAX = "max"  # higher is better: passes iff score >= threshold
    MIN = "min"  # lower is better: passes iff score <= threshold


class Label(StrEnum):
    PASS = "pass"
    FAIL = "fail"
    INVALID = "invalid"
    ERROR = "error"
    SCORED = "scored"


def passes(direction: Direction, score: float, threshold: float) -> bool:
    """The threshold rule of the metric contract."""
    if direction is Direction.MAX:
        return score >= threshold
    return score <= threshold


def threshold_text(direction: Direction, threshold: float | None) -> str:
    """'≥ 0.70' or '≤ 3' — how a threshold reads in the window and the CLI."""
    if threshold is None:
        return "no threshold"
    sign = "≥" if direction is Direction.MAX else "≤"
    number = f"{threshold:g}" if float(threshold).is_integer() else f"{threshold:.2f}"
    return f"{sign} {number}"


@dataclass(frozen=True)
class Outcome:
    """What a metric's compute function returns before the threshold is applied."""

    score: float | None
    explanation: str
    label: Label | None = None  # INVALID or ERROR when score is None
    details: tuple[Any, ...] = ()

    def __post_init__(self) -> None:
        if self.score is None and self.label not in (Label.INVALID, Label.ERROR):
            raise ValueError("an outcome without a score must be labelled invalid or error")
        if self.score is not None and math.isnan(self.score):
            raise ValueError("a score is a number or None, never NaN")


@dataclass(frozen=True)
class MetricResult:
    """score, passed, label, explanation — the four fields of the contract (+ details)."""

    score: float | None
    passed: bool | None
    label: Label
    explanation: str
    details: tuple[Any, ...] = field(default=())

    def __post_init__(self) -> None:
        if self.score is None and self.passed is not None:
            raise ValueError("a result without a score has no verdict")
        expected_label = {True: Label.PASS, False: Label.FAIL}.get(self.passed)  # type: ignore[arg-type]
        if expected_label is not None and self.label is not expected_label:
            raise ValueError(f"passed={self.passed} contradicts label {self.label}")
        if self.passed is None and self.label in (Label.PASS, Label.FAIL):
            raise ValueError("pass/fail label without a verdict")


def judge(outcome: Outcome, direction: Direction, threshold: float | None) -> MetricResult:
    """Apply the threshold rule to an outcome."""
    if outcome.score is None:
        label = outcome.label or Label.ERROR
        return MetricResult(None, None, label, outcome.explanation, outcome.details)
    if threshold is None:
        return MetricResult(outcome.score, None, Label.SCORED, outcome.explanation, outcome.details)
    ok = passes(direction, outcome.score, threshold)
    return MetricResult(
        outcome.score, ok, Label.PASS if ok else Label.FAIL, outcome.explanation, outcome.details
    )
