"""core.metrics.registry: every registered MetricSpec carries what the front ends read from it
(display order, batch cost, edit-script sharing), and one harness runs every local metric's
implementations on the same generated pairs and checks they agree (RapidFuzz's GenericScorer:
the reference where tests/core/reference.py has one, the per-pair `compute`, the batch path)."""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import matchlens.embeddings.metric  # noqa: F401 - registers semantic_similarity
from matchlens.core.diff.preview import DISTANCE_TASK, PREVIEW_TASK
from matchlens.core.diff.span_table import ALIGN_TASK
from matchlens.core.metrics.registry import (
    REGISTRY,
    STATUS_ERROR,
    STATUS_INVALID,
    STATUS_SCORED,
    all_metrics,
    edit_script_metric_ids,
    local_metric_ids,
    sharing_work,
)
from matchlens.core.scoring import parallel as parallel_batch
from matchlens.core.scoring.batch import MetricJob
from tests.core.reference import levenshtein_reference


@pytest.mark.parametrize("metric_id", sorted(REGISTRY))
def test_every_registered_metric_says_its_order_cost_and_edit_script_use(metric_id):
    spec = REGISTRY[metric_id]
    assert isinstance(spec.display_order, int), f"{metric_id}: no display_order"
    assert isinstance(spec.batch_cost_us, float) and spec.batch_cost_us > 0, \
        f"{metric_id}: no batch_cost_us"
    assert isinstance(spec.shares_edit_script, bool), f"{metric_id}: no shares_edit_script"


def test_no_two_metrics_share_a_place_in_the_display_order():
    orders = [spec.display_order for spec in REGISTRY.values()]
    assert len(orders) == len(set(orders))


def test_the_tables_read_from_the_registry_are_the_ones_the_front_ends_had():
    # The window's order: the five defaults, then the rest as the panels have always shown them.
    assert [spec.id for spec in all_metrics()] == [
        "exact_match", "contains", "levenshtein_distance", "levenshtein_similarity", "jaccard",
        "token_f1", "json_distance", "bleu", "chrf", "rouge_l", "wer", "cer",
        "semantic_similarity"]
    # The compare view's lane that computes the edit script once: alignment, both
    # Levenshtein metrics (edit counts) and cer (jiwer's character alignment).
    from matchlens.ui.compare.scheduler import SHARED_SCRIPT_TASKS

    assert edit_script_metric_ids() == {"levenshtein_distance", "levenshtein_similarity", "cer"}
    # (and the preview of long texts, whose anchored script the exact one starts from, and
    # the exact distance in its band)
    assert {ALIGN_TASK, PREVIEW_TASK, DISTANCE_TASK, "levenshtein_distance",
            "levenshtein_similarity", "cer"} == SHARED_SCRIPT_TASKS
    # The batch's cost per distinct pair (benchmarks/bench_metrics.py, microseconds).
    costs = {spec.id: spec.batch_cost_us for spec in REGISTRY.values()}
    assert costs == {"exact_match": 0.3, "contains": 0.3, "levenshtein_distance": 1.0,
                     "levenshtein_similarity": 1.0, "json_distance": 1.0, "cer": 2.0,
                     "jaccard": 3.0, "token_f1": 8.0, "wer": 8.0, "rouge_l": 8.0,
                     "bleu": 10.0, "chrf": 10.0, "semantic_similarity": 5.0}
    jobs = [MetricJob(REGISTRY[m], None, {}) for m in ("exact_match", "bleu")]
    # 0.7 us finding the distinct pairs + 0.3 + 10.0, per row and variant
    assert parallel_batch.estimated_work(1000, 2, jobs) == pytest.approx(2000 * 11.0)


# --- the harness ---------------------------------------------------------------------------

# Plain texts that stress case, whitespace and punctuation, and JSON for json_distance.
WORDS = st.text(alphabet=st.sampled_from("aAbB  \t\nİıΣσς.,'-é"), max_size=12)
JSON = st.recursive(st.none() | st.booleans() | st.integers(-5, 5) | st.sampled_from(["a", "B"]),
                    lambda inner: st.lists(inner, max_size=3)
                    | st.dictionaries(st.sampled_from("abc"), inner, max_size=3),
                    max_leaves=6).map(json.dumps)
TEXT = st.one_of(WORDS, JSON)

# Slow, obviously-right implementations where tests/core/reference.py has one: id -> (the
# options it is right for, function of the pair).
REFERENCES = {
    "levenshtein_distance": ({"case_sensitive": True}, levenshtein_reference),
}


def _option_sets(metric_id: str) -> list[dict]:
    spec = REGISTRY[metric_id]
    sets = [{}]
    if any(opt.name == "case_sensitive" for opt in spec.options):
        sets.append({"case_sensitive": not spec.default_options()["case_sensitive"]})
    if any(opt.name == "normalise" for opt in spec.options):
        sets += [{"normalise": "squad"}, {"normalise": ["lowercase", "collapse_whitespace"]}]
    return sets


CASES = [(m, options) for m in local_metric_ids() for options in _option_sets(m)]


@pytest.mark.parametrize(("metric_id", "overrides"), CASES,
                         ids=[f"{m}-{json.dumps(o)}" for m, o in CASES])
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pairs=st.lists(st.tuples(TEXT, TEXT), min_size=1, max_size=12))
def test_every_implementation_of_a_local_metric_agrees(metric_id, overrides, pairs):
    spec = REGISTRY[metric_id]
    options = spec.resolve_options(overrides)
    expected, actual = [e for e, _ in pairs], [a for _, a in pairs]
    with sharing_work():  # as a batch chunk runs it
        many = spec.many(expected, actual, options)
    reference = REFERENCES.get(metric_id)
    for i, (e, a) in enumerate(pairs):
        single = spec.compute(e, a, options)
        if single.score is None:
            assert many.status[i] in (STATUS_INVALID, STATUS_ERROR)
            assert math.isnan(many.scores[i])
            # a batch row's message is the one-pair explanation, normalisation named in both
            assert many.messages[i] == single.explanation
        else:
            assert many.status[i] == STATUS_SCORED
            assert many.scores[i] == single.score, (e, a)
        if reference is not None and overrides in ({}, reference[0]) and \
                options["case_sensitive"] and not options.get("normalise"):
            assert single.score == reference[1](e, a)
