"""levenshtein_distance's quicker first answer (`MetricSpec.compute_first`, core.metrics.
levenshtein): the same score as the metric, without the script's counts."""

from __future__ import annotations

import pytest
from rapidfuzz.distance import Levenshtein

from matchlens.core.diff.pair import first_task, metric_of_first_task, run_task
from matchlens.core.metrics.registry import get_metric
from tests.core.diff.test_proven_distance import reordered

PAIRS = [("The cat sat on the mat.", "The cat sat on a mat!"), ("", "abc"), ("same", "same"),
         ("Hello, World", "hello world"), reordered(1)]


@pytest.mark.parametrize("expected, actual", PAIRS)
@pytest.mark.parametrize("options", [{}, {"case_sensitive": False},
                                     {"normalise": "squad"}, {"normalise": ["lowercase"]}])
def test_the_first_answer_scores_as_the_metric(expected, actual, options):
    full = run_task("levenshtein_distance", expected, actual, options)
    first = run_task(first_task("levenshtein_distance"), expected, actual, options)
    assert first.score == full.score
    if full.score:
        assert "still counting substitutions, insertions and deletions" in first.explanation
    if options.get("normalise"):  # said like the metric's own
        assert first.explanation.endswith(full.explanation[full.explanation.index(" (norm"):])


def test_the_first_answer_is_the_exact_distance():
    e, a = reordered(2)
    first = run_task(first_task("levenshtein_distance"), e, a, {})
    assert first.score == Levenshtein.distance(e, a)
    assert first.explanation.startswith(f"{Levenshtein.distance(e, a)} edits (exact distance)")


def test_task_names():
    assert metric_of_first_task(first_task("levenshtein_distance")) == "levenshtein_distance"
    assert metric_of_first_task("levenshtein_distance") is None
    assert get_metric("levenshtein_distance").compute_first is not None
    assert get_metric("bleu").compute_first is None  # asked for nothing more
