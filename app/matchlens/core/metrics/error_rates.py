"""wer and cer: word and character error rates, as jiwer 4 computes them (default transforms).

jiwer's defaults: WER collapses runs of two or more whitespace characters into one space
(`\\s\\s+`), strips the ends and splits on the space; CER only strips the ends and takes every
character (spaces included). The rate is (S + D + I) / the number of reference units. The edit
script is rapidfuzz's Levenshtein, the same one jiwer uses.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from rapidfuzz import process
from rapidfuzz.distance import Levenshtein

from matchlens.core.metrics import incremental_words
from matchlens.core.metrics.fast.word_table import as_sequences, metric_tokens, word_table
from matchlens.core.metrics.normalising import NORMALISE, by_word, normalises_by_word
from matchlens.core.metrics.registry import register
from matchlens.core.metrics.shared_work import metric_threads
from matchlens.core.metrics.spec import STATUS_INVALID, ManyOutcome, MetricSpec
from matchlens.core.results import Direction, Label, Outcome
from matchlens.core.text import edit_script

_RUNS = re.compile(r"\s\s+")
EMPTY_REFERENCE = "the rate is undefined for an empty reference"


def wer_units(text: str) -> list[str]:
    # A printable text holds no whitespace but " " (a test checks every code point): then
    # collapsing runs, stripping and splitting on " " is what split() does, in one C pass
    # (the regex substitution was 40% of the metric). Else a lone tab stays inside a word.
    if text.isprintable():
        return text.split()
    # after the runs are collapsed and the ends stripped, single spaces separate non-empty
    # words: only an empty text splits into [""]
    collapsed = _RUNS.sub(" ", text).strip()
    return collapsed.split(" ") if collapsed else []


def cer_units(text: str) -> str:
    return text.strip()


def edit_counts(reference: Sequence, hypothesis: Sequence) -> tuple[int, int, int]:
    """(substitutions, deletions, insertions) of the Levenshtein alignment, as jiwer counts
    them from the opcodes."""
    subs = dels = ins = 0
    # the script the highlight and levenshtein_distance share (cer's texts are often the same)
    for tag, i1, i2, j1, j2 in edit_script.opcodes(reference, hypothesis):
        if tag == "replace":
            subs += i2 - i1
        elif tag == "delete":
            dels += i2 - i1
        elif tag == "insert":
            ins += j2 - j1
    return subs, dels, ins


def _plural(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _outcome(reference: Sequence, hypothesis: Sequence, unit: str) -> Outcome:
    if not reference:
        if not hypothesis:
            return Outcome(0.0, f"Both texts are empty: no {unit}s, no errors")
        return Outcome(None, f"No score: {EMPTY_REFERENCE}", Label.INVALID)
    subs, dels, ins = edit_counts(reference, hypothesis)
    errors = subs + dels + ins
    over = f"over {_plural(len(reference), 'reference ' + unit)}"
    if errors == 0:
        return Outcome(0.0, f"No errors {over}")
    parts = [_plural(n, noun) for n, noun in ((subs, "substitution"), (dels, "deletion"),
                                              (ins, "insertion")) if n]
    return Outcome(errors / len(reference), f"{_plural(errors, 'error')} {over}: "
                                            f"{', '.join(parts)}")


def _wer(expected: str, actual: str, options: Mapping[str, Any]) -> Outcome:
    if incremental_words.wanted(expected, actual):
        # typed into: the words as strings (one code point a word), whose edit script
        # edit_script splices from the kept one around the edit
        reference = incremental_words.word_string(wer_units, expected)
        hypothesis = incremental_words.word_string(wer_units, actual)
        if reference is not None and hypothesis is not None:
            return _outcome(reference, hypothesis, "word")
    return _outcome(wer_units(expected), wer_units(actual), "word")


def _cer(expected: str, actual: str, options: Mapping[str, Any]) -> Outcome:
    return _outcome(cer_units(expected), cer_units(actual), "character")


def _rates(distances: np.ndarray, ref_lengths: np.ndarray, hyp_lengths: np.ndarray
           ) -> ManyOutcome:
    status = np.zeros(len(distances), dtype=np.int8)
    empty = ref_lengths == 0
    scores = distances / np.maximum(ref_lengths, 1)
    scores[empty & (hyp_lengths == 0)] = 0.0
    undefined = np.flatnonzero(empty & (hyp_lengths > 0))
    scores[undefined] = np.nan
    status[undefined] = STATUS_INVALID
    message = f"No score: {EMPTY_REFERENCE}"
    return ManyOutcome(scores, status, dict.fromkeys(undefined.tolist(), message))


def _distances(refs: Sequence, hyps: Sequence) -> np.ndarray:
    if not refs:
        return np.zeros(0, dtype=np.float64)
    return process.cpdist(refs, hyps, scorer=Levenshtein.distance, workers=metric_threads(),
                          dtype=np.int64).astype(np.float64)


def _cer_many(expected: Sequence[str], actual: Sequence[str], options: Mapping[str, Any]
              ) -> ManyOutcome:
    refs, hyps = list(map(cer_units, expected)), list(map(cer_units, actual))
    return _rates(_distances(refs, hyps), _lengths(refs), _lengths(hyps))


@normalises_by_word
def _wer_many(expected: Sequence[str], actual: Sequence[str], options: Mapping[str, Any]
              ) -> ManyOutcome:
    """The chunk's words numbered once (word_table), split as jiwer does: like str.split()
    except that a lone tab or the like between two words keeps them one word. Each text's
    word ids become a string, one character per word, for rapidfuzz's distance (C++)."""
    if len(expected) != len(actual):
        raise ValueError("expected and actual must have the same length")
    n = len(expected)
    preset = by_word(options.get(NORMALISE))
    # squad leaves single spaces between its tokens: nothing is glued then
    words = (metric_tokens(expected, actual, preset) if preset
             else word_table(expected, actual, glue=True).words)
    units = as_sequences(words)
    lengths = words.lengths()
    return _rates(_distances(units[:n], units[n:]), lengths[:n], lengths[n:])


def _lengths(units: Sequence[Sequence]) -> np.ndarray:
    return np.fromiter(map(len, units), dtype=np.int64, count=len(units))


for _id, _label, _unit, _compute, _many, _order, _cost, _script in (
        ("wer", "Word error rate", "word", _wer, _wer_many, 110, 8.0, False),
        ("cer", "Character error rate", "character", _cer, _cer_many, 120, 2.0, True)):
    register(MetricSpec(
        id=_id,
        text=True,
        label=_label,
        direction=Direction.MIN,
        default_threshold=None,
        options=(),
        definition=f"(substitutions + deletions + insertions) / reference {_unit}s, as jiwer "
                   "computes it (lower is better; can exceed 1). Undefined for an empty "
                   "reference unless the output is empty too.",
        compute=_compute,
        compute_many=_many,
        score_range=(0.0, None),
        display_order=_order,
        batch_cost_us=_cost,
        compiled_from_rows=0 if _id == "wer" else None,
        shares_edit_script=_script,
    ))
