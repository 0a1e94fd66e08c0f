"""semantic_similarity: registration, cosine values against numpy, invalid and degenerate rows."""

from __future__ import annotations

import math

import numpy as np
import pytest

from matchlens.core.metrics.registry import (
    STATUS_ERROR,
    STATUS_INVALID,
    STATUS_SCORED,
    get_metric,
    local_metric_ids,
)
from matchlens.core.results import Direction, Label
from matchlens.embeddings.metric import SPEC, cosine
from tests.embeddings.openai_server import vector_for


def numpy_cosine(a: str, b: str) -> float:
    u, v = vector_for(a).astype(np.float64), vector_for(b).astype(np.float64)
    return float(u @ v / (np.linalg.norm(u) * np.linalg.norm(v)))


def test_registered_with_the_contract_defaults():
    spec = get_metric("semantic_similarity")
    assert spec is SPEC
    assert spec.direction is Direction.MAX
    assert spec.default_threshold == 0.8
    assert spec.default_options() == {"model": "text-embedding-3-small", "base_url": ""}
    assert spec.network and spec.score_range == (-1.0, 1.0)
    assert spec.compute_many is not None
    assert "semantic_similarity" not in local_metric_ids()  # `--metrics all` stays offline
    # The tooltip is honest about what cosine similarity misses.
    assert "negation" in spec.definition and "B beat A" in spec.definition


PAIRS = [
    ("the cat sat on the mat", "the cat sat on a mat"),
    ("Paris is the capital of France", "The capital of France is Paris"),
    ("refund issued to the customer", "the weather is sunny today"),
    ("alpha beta gamma", "delta epsilon"),
]


def test_scores_match_numpy_on_the_same_vectors(options):
    out = SPEC.many([e for e, _ in PAIRS], [a for _, a in PAIRS], options)
    assert (out.status == STATUS_SCORED).all() and out.messages == {}
    expected = [numpy_cosine(e, a) for e, a in PAIRS]
    np.testing.assert_allclose(out.scores, expected, rtol=0, atol=1e-12)
    # same words in another order -> the same bag of words -> exactly 1 (within rounding)
    assert out.scores[1] == pytest.approx(1.0, abs=1e-12)
    assert out.scores.min() >= -1.0 and out.scores.max() <= 1.0


def test_single_pair_compute_agrees_and_explains(options):
    e, a = PAIRS[0]
    outcome = SPEC.compute(e, a, options)
    assert outcome.score == pytest.approx(numpy_cosine(e, a), abs=1e-12)
    assert outcome.explanation == (f"Cosine similarity {outcome.score:.3f} of the two "
                                   "embeddings (text-embedding-3-small)")


def test_swapped_roles_score_as_high_as_the_tooltip_warns(options):
    # "A beat B" and "B beat A" have the same words: a bag-of-words embedding cannot tell.
    assert SPEC.compute("Ada beat Bob", "Bob beat Ada", options).score == pytest.approx(1.0)


def test_cosine_helper_against_numpy_and_edges():
    rng = np.random.default_rng(7)
    for _ in range(20):
        u, v = rng.normal(size=16).astype(np.float32), rng.normal(size=16).astype(np.float32)
        ref = float(np.dot(u.astype(float), v.astype(float))
                    / (np.linalg.norm(u.astype(float)) * np.linalg.norm(v.astype(float))))
        assert cosine(u, v) == pytest.approx(ref, abs=1e-12)
    assert cosine(np.array([1.0, 0]), np.array([-2.0, 0])) == -1.0  # opposite directions
    with pytest.raises(ValueError, match="all zeros"):
        cosine(np.zeros(3), np.ones(3))
    with pytest.raises(ValueError, match="different lengths"):
        cosine(np.ones(3), np.ones(4))


def test_zero_vector_is_an_error_sentence_not_nan(options, fake_openai):
    # "!!!" has no words, so the fake server's bag of words is the zero vector.
    out = SPEC.many(["!!!", "good answer"], ["some words", "good answer"], options)
    assert out.status.tolist() == [STATUS_ERROR, STATUS_SCORED]
    assert math.isnan(out.scores[0]) and out.scores[1] == pytest.approx(1.0)
    assert out.messages[0] == ("the server sent an all-zero embedding, so the cosine "
                               "similarity is undefined")
    single = SPEC.compute("!!!", "some words", options)
    assert single.score is None and single.label is Label.ERROR


def test_empty_text_is_invalid_and_costs_nothing(options, fake_openai):
    out = SPEC.many(["", "a b", ""], ["only here", "", ""], options)
    assert out.status.tolist() == [STATUS_INVALID] * 3
    assert out.messages == {0: "The expected text is empty: there is nothing to embed",
                            1: "The actual text is empty: there is nothing to embed",
                            2: "Both texts are empty: there is nothing to embed"}
    assert fake_openai.request_count == 0  # "only here" and "a b" were never sent
    assert SPEC.compute("", "x", options).label is Label.INVALID


def test_config_openai_table_reaches_the_metric(fake_openai):
    from matchlens.core.config import Config

    settings = Config(base_url=fake_openai.base_url, model="nomic-embed-text").settings(
        "semantic_similarity")
    assert settings.threshold == 0.8
    SPEC.many(["a"], ["b"], settings.options)
    assert {r.model for r in fake_openai.requests} == {"nomic-embed-text"}


def test_base_url_from_options_beats_openai_base_url(monkeypatch, fake_openai):
    monkeypatch.setenv("OPENAI_BASE_URL", fake_openai.base_url)
    out = SPEC.many(["x y"], ["x"], SPEC.resolve_options({}))  # env only
    assert out.status.tolist() == [STATUS_SCORED] and fake_openai.request_count == 1
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")  # wrong, but overridden
    out = SPEC.many(["p q"], ["q"], SPEC.resolve_options({"base_url": fake_openai.base_url}))
    assert out.status.tolist() == [STATUS_SCORED] and fake_openai.request_count == 2


def test_bad_base_url_is_a_sentence_per_row():
    out = SPEC.many(["a"], ["b"], SPEC.resolve_options({"base_url": "localhost:11434"}))
    assert out.status.tolist() == [STATUS_ERROR]
    assert out.messages[0].startswith("base_url must be an http:// or https:// URL")


def test_a_server_that_sends_float_lists_works_too(env_key):
    from tests.embeddings.openai_server import FakeOpenAI

    with FakeOpenAI(always_floats=True) as server:
        options = SPEC.resolve_options({"base_url": server.base_url})
        out = SPEC.many([PAIRS[0][0]], [PAIRS[0][1]], options)
    assert out.scores[0] == pytest.approx(numpy_cosine(*PAIRS[0]), abs=1e-12)


def test_a_base_url_with_credentials_is_never_shown_or_cached_with_them(options, fake_openai):
    from matchlens.embeddings.endpoint import resolve_endpoint

    url = fake_openai.base_url.replace("http://", "http://user:hunter2@")
    endpoint = resolve_endpoint({"base_url": url + "/"})
    assert endpoint.base_url == url and endpoint.display_url == fake_openai.base_url


def test_registered_after_the_builtin_metrics():
    from matchlens.core.metrics.registry import REGISTRY

    ids = list(REGISTRY)
    builtin = ("exact_match", "contains", "levenshtein_similarity", "jaccard", "json_distance")
    assert all(ids.index(b) < ids.index("semantic_similarity") for b in builtin)
