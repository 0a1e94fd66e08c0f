"""jaccard: overlap of the two texts' word sets."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from matchlens.core.metrics import incremental_words
from matchlens.core.metrics.fast.loading import (
    JACCARD_COMPILED_FROM_ROWS,
    kernels_loaded,
    words_loaded,
)
from matchlens.core.metrics.fast.word_table import jaccard_scores, word_table
from matchlens.core.metrics.registry import register
from matchlens.core.metrics.shared_work import folded_texts
from matchlens.core.metrics.spec import ManyOutcome, MetricSpec, OptionSpec
from matchlens.core.results import Direction, Outcome
from matchlens.core.text.casefold import fold_case


def word_set(text: str, case_sensitive: bool = True) -> set[str]:
    return set((text if case_sensitive else fold_case(text)).split())


def jaccard_score(e_words: set[str], a_words: set[str]) -> float:
    union = len(e_words | a_words)
    if union == 0:
        return 1.0  # both texts have no words: the contract calls that a full match
    return len(e_words & a_words) / union


def folded_words(text: str) -> list[str]:
    return fold_case(text).split()


def _outcome(expected: str, actual: str, options: Mapping[str, Any]) -> Outcome:
    if incremental_words.wanted(expected, actual):  # typed into: the kept word counts, updated
        tokenize = str.split if options["case_sensitive"] else folded_words
        counts = incremental_words.overlap(tokenize, expected, actual)
        shared = counts.shared
        union = counts.ref_distinct + counts.hyp_distinct - shared
        score = shared / union if union else 1.0  # as jaccard_score
    else:
        e = word_set(expected, options["case_sensitive"])
        a = word_set(actual, options["case_sensitive"])
        score, shared, union = jaccard_score(e, a), len(e & a), len(e | a)
    if not union:
        return Outcome(score, "Neither text has any words")
    return Outcome(score, f"{shared} shared of {union} distinct words")


def _many(expected: Sequence[str], actual: Sequence[str], options: Mapping[str, Any]
          ) -> ManyOutcome:
    if not options["case_sensitive"]:
        expected = folded_texts(expected)
        actual = folded_texts(actual)
    if len(expected) != len(actual):
        raise ValueError("expected and actual must have the same length")
    if kernels_loaded():  # numba's cost is paid (fast.loading): compiled
        return ManyOutcome(_compiled(expected, actual), np.zeros(len(expected), dtype=np.int8))
    # The hot loop of a million-row batch: inlined; equal texts score 1 without being split
    # (both word sets are the same set, empty or not); |E ∪ A| = |E| + |A| − |E ∩ A| so no
    # union set is built.
    scores = []
    append = scores.append
    for e, a in zip(expected, actual, strict=True):
        if e == a:
            append(1.0)
            continue
        e_words, a_words = set(e.split()), set(a.split())
        shared = len(e_words & a_words)
        union = len(e_words) + len(a_words) - shared
        append(shared / union if union else 1.0)
    return ManyOutcome(np.array(scores, dtype=np.float64), np.zeros(len(scores), dtype=np.int8))


def _compiled(expected: Sequence[str], actual: Sequence[str]) -> np.ndarray:
    """The chunk's word table where the word kernels are loaded (a word metric of the run
    shares the table, built by whichever metric comes first); otherwise jaccard's own kernel
    (equal texts score 1 unsplit), and the word kernels are never loaded for it."""
    if words_loaded():
        return jaccard_scores(word_table(expected, actual).words, len(expected))
    from matchlens.core.metrics.fast.jaccard_kernel import jaccard_from_chars

    return jaccard_from_chars(expected, actual)


register(MetricSpec(
    id="jaccard",
    text=True,
    label="Jaccard (words)",
    direction=Direction.MAX,
    default_threshold=0.5,
    options=(OptionSpec("case_sensitive", bool, True, "Treat 'Paris' and 'paris' as different"),),
    definition="Shared distinct words / all distinct words, words split on any whitespace; "
               "1 when both texts are empty.",
    compute=_outcome,
    compute_many=_many,
    display_order=50,
    batch_cost_us=3.0,
    compiled_from_rows=JACCARD_COMPILED_FROM_ROWS,
    shares_edit_script=False,
))
