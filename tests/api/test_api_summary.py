"""Partial summaries combine to the summary of the whole: exact counts, means and (while the
distinct scores are few enough to keep) medians; past that, a median labelled approximate."""

from __future__ import annotations

import math
import random
import statistics

import numpy as np
import pandas as pd
import pytest

import matchlens
from matchlens.api.inputs import load
from matchlens.api.plan import make_plan
from matchlens.api.scoring import score_loaded, specs
from matchlens.api.summary import combine, finalize, partial
from matchlens.core.batch import BatchResult, MetricJob
from matchlens.core.metrics import get_metric
from matchlens.core.metrics.registry import STATUS_SCORED
from tests.cli.conftest import SAMPLE_CSV


def result_of(scores: list[float], metric_id: str = "levenshtein_similarity",
              threshold: float | None = 0.5) -> BatchResult:
    """A real BatchResult holding the given scores (every row scored)."""
    job = MetricJob(get_metric(metric_id), threshold, {})
    result = BatchResult.empty(len(scores), ["v"], [job])
    result.scores[("v", metric_id)][:] = scores
    result.status[("v", metric_id)][:] = STATUS_SCORED
    result.done = len(scores)
    return result


def pieces(values: list, count: int) -> list[list]:
    cuts = sorted(random.Random(7).sample(range(1, len(values)), count - 1))
    return [values[a:b] for a, b in zip([0, *cuts], [*cuts, len(values)], strict=True)]


def test_combined_means_are_the_exact_mean_whatever_the_cut():
    rng = random.Random(3)
    # magnitudes from 1e-6 to 1e15, both signs: a naive or per-part-rounded sum loses digits
    values = [rng.choice((-1, 1)) * 10 ** rng.uniform(-6, 15) for _ in range(5000)]
    parts = [partial(result_of(p), partition=i) for i, p in enumerate(pieces(values, 9))]
    summary = finalize(combine(parts))["variants"]["v"]["metrics"]["levenshtein_similarity"]
    assert summary["mean"] == math.fsum(values) / len(values)
    assert summary["scored"] == len(values)


@pytest.mark.parametrize("rows", [1, 2, 999, 1000])
def test_combined_medians_of_few_distinct_scores_are_exact(rows):
    rng = random.Random(rows)
    values = [rng.randint(0, 40) / 40 for _ in range(rows)]  # like a rounded similarity
    count = min(5, rows)
    parts = [partial(result_of(p), partition=i, distinct_cap=64)
             for i, p in enumerate(pieces(values, count) if count > 1 else [values])]
    metric = finalize(combine(parts))["variants"]["v"]["metrics"]["levenshtein_similarity"]
    assert metric["median"] == statistics.median(values)
    assert metric["median_exact"] is True
    assert metric["passed"] == sum(v >= 0.5 for v in values)
    assert metric["pass_rate"] == metric["passed"] / rows


def test_many_distinct_scores_give_a_median_labelled_approximate():
    rng = random.Random(11)
    values = [rng.random() for _ in range(20_000)]
    parts = [partial(result_of(p), partition=i, distinct_cap=1000)
             for i, p in enumerate(pieces(values, 4))]
    metric = finalize(combine(parts))["variants"]["v"]["metrics"]["levenshtein_similarity"]
    assert metric["median_exact"] is False
    # a 1025-point sketch per part: the median within a hundredth of the ranks
    ordered = sorted(values)
    assert ordered[int(0.49 * len(values))] <= metric["median"] <= ordered[int(0.51 * len(values))]
    assert metric["mean"] == math.fsum(values) / len(values)  # the mean stays exact


def test_partitions_of_a_real_table_combine_to_its_summary():
    frame = pd.read_csv(SAMPLE_CSV, dtype=str, keep_default_na=False)
    plan = make_plan("expected", ["output_a", "output_b"], metrics="all",
                     config={"metrics": {"bleu": {"threshold": 0.3}}})
    parts = []
    for i, piece in enumerate(np.array_split(np.arange(len(frame)), 6)):
        _, part = score_loaded(load(frame.iloc[piece], specs(plan)), plan, partition=i,
                               distinct_cap=1_000_000)
        parts.append(part)
    combined = finalize(combine(parts))
    whole = matchlens.score(frame, expected="expected", actual=["output_a", "output_b"],
                            metrics="all", config={"metrics": {"bleu": {"threshold": 0.3}}})
    assert combined["variants"] == whole.attrs["matchlens"]["variants"]
    assert combined["partitions"] == 6


def test_why_rows_have_no_score_is_counted_across_parts():
    frame = pd.DataFrame({"e": ['{"a": 1}', "not json", '{"a": 2}', "also not", '{"a": 3}'],
                          "a": ['{"a": 1}', '{"a": 1}', "nope", '{"a": 2}', '{"a": 4}']})
    plan = make_plan("e", "a", metrics="json_distance")
    parts = [score_loaded(load(frame.iloc[rows], specs(plan)), plan, partition=i)[1]
             for i, rows in enumerate([[0, 1], [2, 3, 4]])]
    why = finalize(combine(parts))["why"]
    whole = matchlens.score(frame, expected="e", actual="a", metrics="json_distance")
    # the same sentences with the same counts; the first row named by partition and row
    assert [(w["message"], w["rows"]) for w in why] == \
        [(w["message"], w["rows"]) for w in whole.attrs["matchlens"]["why"]]
    # rows 1 and 3 hold no JSON as expected (part 0 row 1, part 1 row 1), row 2 as actual
    # (part 1 row 0): most frequent first, each with where it first happened
    assert [(w["message"].split(" is ")[0], w["rows"], w["partition"], w["row"]) for w in why] \
        == [("expected", 2, 0, 1), ("actual", 1, 1, 0)]
