"""Tallies of parts merge to the Tally of the whole (what `matchlens.dask.summary` does with
its partitions): the same counts, pass rates, means and medians, and each reason once with
its count and the part where it first happens."""

from __future__ import annotations

import random

import numpy as np
import pandas as pd
import pytest

import matchlens
from matchlens.api.inputs import load
from matchlens.api.plan import make_plan
from matchlens.api.scoring import score_loaded, specs
from matchlens.core.metrics import get_metric
from matchlens.core.metrics.registry import STATUS_SCORED
from matchlens.core.output.summary import summary_dict
from matchlens.core.scoring.batch import BatchResult, MetricJob
from matchlens.core.scoring.tally import Tally, merge_tallies
from tests.cli.conftest import SAMPLE_CSV


def tally_of(scores: list[float], metric_id: str = "levenshtein_similarity",
             threshold: float | None = 0.5) -> Tally:
    """The core's Tally of a real BatchResult holding the given scores (all scored)."""
    job = MetricJob(get_metric(metric_id), threshold, {})
    result = BatchResult.empty(len(scores), ["v"], [job])
    result.scores[("v", metric_id)][:] = scores
    result.status[("v", metric_id)][:] = STATUS_SCORED
    result.done = len(scores)
    return Tally.of(result)


def pieces(values: list, count: int) -> list[list]:
    cuts = sorted(random.Random(7).sample(range(1, len(values)), count - 1))
    return [values[a:b] for a, b in zip([0, *cuts], [*cuts, len(values)], strict=True)]


@pytest.mark.parametrize("rows", [2, 999, 5000])
@pytest.mark.parametrize("distinct", ["rounded", "continuous"])
def test_merged_tallies_summarise_as_the_whole(rows, distinct):
    rng = random.Random(rows)
    values = [rng.randint(0, 40) / 40 if distinct == "rounded" else rng.random()
              for _ in range(rows)]
    whole = summary_dict(tally_of(values))["variants"]["v"]
    parts = [(i, tally_of(p)) for i, p in enumerate(pieces(values, min(5, rows)))]
    merged = summary_dict(merge_tallies(parts))["variants"]["v"]
    assert merged == whole
    metric = merged["metrics"]["levenshtein_similarity"]
    # independently: numpy's median, the share of ALL rows at or above 0.5
    assert metric["median"] == float(np.median(values))
    assert metric["passed"] == sum(v >= 0.5 for v in values)
    assert metric["pass_rate"] == metric["passed"] / rows
    assert metric["mean"] == pytest.approx(float(np.mean(values)), rel=1e-12)


def test_partitions_of_a_real_table_merge_to_its_summary():
    frame = pd.read_csv(SAMPLE_CSV, dtype=str, keep_default_na=False)
    kwargs = {"metrics": "all", "config": {"metrics": {"bleu": {"threshold": 0.3}}}}
    plan = make_plan("expected", ["output_a", "output_b"], **kwargs)
    parts = [(i, score_loaded(load(frame.iloc[rows], specs(plan)), plan)[1])
             for i, rows in enumerate(np.array_split(np.arange(len(frame)), 6))]
    merged = summary_dict(merge_tallies(parts), partitions=6)
    whole = matchlens.score(frame, expected="expected", actual=["output_a", "output_b"],
                            **kwargs)
    assert merged["variants"] == whole.attrs["matchlens"]["variants"]
    assert merged["partitions"] == 6


def test_why_rows_have_no_score_is_counted_across_parts():
    frame = pd.DataFrame({"e": ['{"a": 1}', "not json", '{"a": 2}', "also not", '{"a": 3}'],
                          "a": ['{"a": 1}', '{"a": 1}', "nope", '{"a": 2}', '{"a": 4}']})
    plan = make_plan("e", "a", metrics="json_distance")
    parts = [(i, score_loaded(load(frame.iloc[rows], specs(plan)), plan)[1])
             for i, rows in enumerate([[0, 1], [2, 3, 4]])]
    why = summary_dict(merge_tallies(parts), partitions=2)["why"]
    whole = matchlens.score(frame, expected="e", actual="a", metrics="json_distance")
    # the same sentences with the same counts as the whole table's summary
    assert [(w["message"], w["rows"]) for w in why] == \
        [(w["message"], w["rows"]) for w in whole.attrs["matchlens"]["why"]]
    # rows 2 and 4 hold no JSON as expected (part 0 row 2, part 1 row 2), row 3 as actual
    # (part 1 row 1): most frequent first, each where it first happens
    assert [(w["message"].split(" is ")[0], w["rows"], w["partition"], w["row"]) for w in why] \
        == [("expected", 2, 0, 2), ("actual", 1, 1, 1)]
    assert [(w["rows"], w["row"]) for w in whole.attrs["matchlens"]["why"]] == [(2, 2), (1, 3)]
