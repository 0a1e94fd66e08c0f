"""Guessing which columns are which from their names, and reading human labels."""

from __future__ import annotations

import re

_LABEL = {"label", "labels", "human", "judgement", "judgment", "verdict"}
_EXPECTED = {"expected", "reference", "references", "ref", "gold", "target", "targets",
             "truth", "groundtruth"}
_ACTUAL = {"output", "outputs", "actual", "response", "responses", "prediction", "predictions",
           "predicted", "pred", "completion", "completions", "generated", "generation",
           "hypothesis", "model"}
_ANSWER = {"answer", "answers"}
_ID = {"id", "uid", "uuid", "rowid", "row_id", "idx", "index", "example_id",
       "sample_id", "item_id", "qid", "record_id"}
_WORDS = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")

_TRUE = {"true", "1", "1.0", "pass", "passed", "yes", "y", "t", "good", "correct", "✓", "✔",
         "✅", "👍"}
_FALSE = {"false", "0", "0.0", "fail", "failed", "no", "n", "f", "bad", "incorrect", "✗", "✘",
          "❌", "👎"}


def _role(name: str) -> str | None:
    """'label', 'expected', 'actual', 'id' or None for one column name."""
    words = [w.lower() for w in _WORDS.findall(name)]
    joined = "_".join(words)
    if joined in _ID or (words and words[-1] in ("id", "uid", "uuid") and len(words) <= 2):
        return "id"
    if any(w in _LABEL for w in words):
        return "label"
    if any(w in _EXPECTED for w in words) or joined in ("ground_truth", "gold_answer"):
        return "expected"
    if any(w in _ACTUAL for w in words):
        return "actual"
    if any(w in _ANSWER for w in words):
        return "expected"
    return None


def guess_columns(columns: list[str]) -> dict:
    """{"expected": name|None, "actual": [names], "label": name|None, "id": name|None}.

    A name's words decide (`model_answer` and `output_b` are outputs, `reference_answer` and
    `expected_output` are references); the first column of each role wins, every output column
    is an actual.
    """
    guess: dict = {"expected": None, "actual": [], "label": None, "id": None}
    for name in columns:
        role = _role(name)
        if role == "actual":
            guess["actual"].append(name)
        elif role is not None and guess[role] is None:
            guess[role] = name
    return guess


def parse_label(text: str | None) -> bool | None:
    """True/False for true/false, 1/0, pass/fail, yes/no, y/n, good/bad, correct/incorrect,
    ✓/✗ (✔/✘, ✅/❌, 👍/👎) (any case, stripped); else None."""
    if text is None:
        return None
    key = text.strip().lower()
    if key in _TRUE:
        return True
    if key in _FALSE:
        return False
    return None
