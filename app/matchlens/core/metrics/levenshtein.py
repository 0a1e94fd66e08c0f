"""levenshtein_distance and levenshtein_similarity, on rapidfuzz's bit-parallel edit distance."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from rapidfuzz import process
from rapidfuzz.distance import Levenshtein

from matchlens.core.metrics.registry import register
from matchlens.core.metrics.shared_work import folded_texts, metric_threads, shared
from matchlens.core.metrics.spec import ManyOutcome, MetricSpec, OptionSpec
from matchlens.core.results import Direction, Outcome
from matchlens.core.text import edit_script
from matchlens.core.text.casefold import fold_case
from matchlens.core.text.edit_script import score_hint  # noqa: F401 - where callers find it


def prepare(text: str, case_sensitive: bool) -> str:
    return text if case_sensitive else fold_case(text)


def distance(expected: str, actual: str, case_sensitive: bool = True) -> int:
    """Unit-cost edit distance between the two texts."""
    e, a = prepare(expected, case_sensitive), prepare(actual, case_sensitive)
    return edit_script.distance(e, a)


def edit_counts(expected: str, actual: str) -> dict[str, int]:
    """How many substitutions, insertions and deletions the edit script has (the script the
    highlight draws: `edit_script` keeps it for both)."""
    return edit_script.counts(expected, actual)


def describe_edits(counts: Mapping[str, int]) -> str:
    """'3 edits: 2 substitutions, 1 insertion'."""
    total = sum(counts.values())
    if total == 0:
        return "No edits: the texts are identical"
    parts = []
    for tag, noun in (("replace", "substitution"), ("insert", "insertion"), ("delete", "deletion")):
        n = counts.get(tag, 0)
        if n:
            parts.append(f"{n} {noun}{'' if n == 1 else 's'}")
    return f"{total} edit{'' if total == 1 else 's'}: {', '.join(parts)}"


def similarity_from_distance(dist: int, expected_len: int, actual_len: int) -> float:
    """The contract's formula: round(1 - distance / max(len), 2); 0.0 when expected is empty."""
    if expected_len == 0:
        return 0.0
    return round(1 - dist / max(expected_len, actual_len), 2)


def _distance_outcome(expected: str, actual: str, options: Mapping[str, Any]) -> Outcome:
    case = options["case_sensitive"]
    e, a = prepare(expected, case), prepare(actual, case)
    counts = edit_counts(e, a)
    suffix = "" if case else " (ignoring case)"
    return Outcome(float(sum(counts.values())), describe_edits(counts) + suffix)


def _distance_first_outcome(expected: str, actual: str, options: Mapping[str, Any]) -> Outcome:
    """The distance alone (rapidfuzz's bit-parallel distance, no edit script): the compare view
    shows it on long texts while `_distance_outcome` computes the script its counts come from,
    which on reordered text takes many times longer."""
    case = options["case_sensitive"]
    dist = distance(expected, actual, case)
    if dist == 0:
        return Outcome(0.0, describe_edits({}) + ("" if case else " (ignoring case)"))
    suffix = "" if case else ", ignoring case"
    return Outcome(float(dist), f"{dist} edit{'' if dist == 1 else 's'}{suffix} (exact distance); "
                                "still counting substitutions, insertions and deletions…")


def _similarity_outcome(expected: str, actual: str, options: Mapping[str, Any]) -> Outcome:
    case = options["case_sensitive"]
    dist = distance(expected, actual, case)
    if not expected:
        return Outcome(0.0, "The expected text is empty, so similarity is 0 by definition")
    longest = max(len(expected), len(actual))
    score = similarity_from_distance(dist, len(expected), len(actual))
    suffix = "" if case else ", ignoring case"
    edits = f"{dist} edit{'' if dist == 1 else 's'}"
    chars = f"{longest} character{'' if longest == 1 else 's'}"
    return Outcome(score, f"{edits} over {chars}{suffix}")


def many_distances(expected: Sequence[str], actual: Sequence[str], case_sensitive: bool
                   ) -> np.ndarray:
    """Edit distances of aligned pairs, in C++ on every core. Inside a batch chunk they are
    computed once for both levenshtein metrics when their case options agree."""
    return shared(("levenshtein", case_sensitive), (expected, actual),
                  lambda: _many_distances(expected, actual, case_sensitive))


def _many_distances(expected: Sequence[str], actual: Sequence[str], case_sensitive: bool
                    ) -> np.ndarray:
    if not case_sensitive:
        expected, actual = folded_texts(expected), folded_texts(actual)
    if len(expected) != len(actual):
        raise ValueError("expected and actual must have the same length")
    if len(expected) == 0:
        return np.zeros(0, dtype=np.int64)
    return process.cpdist(expected, actual, scorer=Levenshtein.distance,
                          workers=metric_threads(), dtype=np.int64)


def _lengths(texts: Sequence[str]) -> np.ndarray:
    return np.fromiter(map(len, texts), dtype=np.int64, count=len(texts))


def _many_distance(expected: Sequence[str], actual: Sequence[str],
                   options: Mapping[str, Any]) -> ManyOutcome:
    dist = many_distances(expected, actual, options["case_sensitive"]).astype(np.float64)
    return ManyOutcome(dist, np.zeros(len(dist), dtype=np.int8))


def round2(values: np.ndarray) -> np.ndarray:
    """Python's round(x, 2) of every value, to the bit (numpy's rounding differs in the last
    place for some values); each distinct value is rounded once, and a batch has few of them
    (distance / length ratios repeat)."""
    if values.size == 0:
        return values.astype(np.float64)
    distinct, where = np.unique(values, return_inverse=True)
    rounded = np.fromiter((round(x, 2) for x in distinct.tolist()), dtype=np.float64,
                          count=len(distinct))
    return rounded[where.reshape(values.shape)]


def _many_similarity(expected: Sequence[str], actual: Sequence[str],
                     options: Mapping[str, Any]) -> ManyOutcome:
    dist = many_distances(expected, actual, options["case_sensitive"])
    e_len, a_len = _lengths(expected), _lengths(actual)
    longest = np.maximum(np.maximum(e_len, a_len), 1)
    # 1 - d / L exactly as Python computes it: both ints are < 2**53, so each is converted to
    # a double and divided once, like int / int.
    scores = round2(1.0 - dist / longest)
    scores[e_len == 0] = 0.0
    return ManyOutcome(scores, np.zeros(len(scores), dtype=np.int8))


CASE_TRUE = OptionSpec("case_sensitive", bool, True, "Count case differences as edits")
CASE_FALSE = OptionSpec("case_sensitive", bool, False, "Count case differences as edits")

register(MetricSpec(
    id="levenshtein_distance",
    text=True,
    label="Levenshtein distance",
    direction=Direction.MIN,
    default_threshold=None,
    options=(CASE_TRUE,),
    definition="Fewest single-character insertions, deletions and substitutions that turn "
               "expected into actual (lower is better).",
    compute=_distance_outcome,
    compute_first=_distance_first_outcome,
    compute_many=_many_distance,
    score_range=(0.0, None),
    integer=True,
    display_order=30,
    batch_cost_us=1.0,
    shares_edit_script=True,
))

register(MetricSpec(
    id="levenshtein_similarity",
    text=True,
    label="Levenshtein similarity",
    direction=Direction.MAX,
    default_threshold=0.7,
    options=(CASE_FALSE,),
    definition="round(1 − distance / length of the longer text, 2); 0 when expected is empty. "
               "Ignores case by default.",
    compute=_similarity_outcome,
    compute_many=_many_similarity,
    display_order=40,
    batch_cost_us=1.0,
    shares_edit_script=True,
))
