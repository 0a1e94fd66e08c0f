"""A failed request costs only its own rows, and says why in a sentence a person can act on."""

from __future__ import annotations

import logging
import math

import numpy as np
import pytest

from matchlens.core.metrics.registry import STATUS_ERROR, STATUS_SCORED
from matchlens.embeddings import client as client_module
from matchlens.embeddings.credentials import NO_KEY, save_api_key
from matchlens.embeddings.embed import embed_texts
from matchlens.embeddings.metric import SPEC
from tests.embeddings.conftest import TEST_KEY
from tests.embeddings.openai_server import Rule, closed_port_url

# Three rows; with batch_of(2) each row's two texts travel in their own request.
EXPECTED = ["first good row", "the marked row", "third good row"]
ACTUAL = ["first good answer", "marked answer", "third good answer"]


def score(options):
    return SPEC.many(EXPECTED, ACTUAL, options)


def assert_only_middle_row_failed(out, sentence: str) -> None:
    assert out.status.tolist() == [STATUS_SCORED, STATUS_ERROR, STATUS_SCORED]
    assert math.isnan(out.scores[1]) and not np.isnan(out.scores[[0, 2]]).any()
    assert out.messages == {1: sentence}


def test_401_names_the_rejected_key_without_showing_it(options, fake_openai, env_key, batch_of):
    batch_of(2)
    fake_openai.fail_on("marked", 401)  # the server echoes the key, as OpenAI's does
    out = score(options)
    assert_only_middle_row_failed(out, "401: the API key was rejected "
                                       "(the key from OPENAI_API_KEY)")
    assert fake_openai.request_count == 3  # 401 is not retried
    assert all(r.authorization == f"Bearer {TEST_KEY}" for r in fake_openai.requests)


def test_429_gives_up_after_three_tries(options, fake_openai, env_key, batch_of):
    batch_of(2)
    rule = fake_openai.fail_on("marked", 429)
    out = score(options)
    assert_only_middle_row_failed(out, "429: rate limited, gave up after 3 tries")
    assert rule.hits == 3  # 1 try + 2 retries (Retry-After honoured)
    assert fake_openai.request_count == 5


def test_429_then_success_scores_every_row(options, fake_openai, env_key, batch_of):
    batch_of(2)
    fake_openai.fail_on("marked", 429, times=1)
    out = score(options)
    assert (out.status == STATUS_SCORED).all() and out.messages == {}


def test_500_says_the_server_failed(options, fake_openai, env_key, batch_of):
    batch_of(2)
    fake_openai.fail_on("marked", 500)
    assert_only_middle_row_failed(
        score(options),
        "500: the server failed (The server had an error while processing your request)")


def test_timeout_says_how_long_it_waited(options, fake_openai, env_key, batch_of, monkeypatch):
    batch_of(2)
    monkeypatch.setattr(client_module, "DEFAULT_TIMEOUT", 0.3)
    monkeypatch.setattr(client_module, "MAX_RETRIES", 0)
    fake_openai.slow_on("marked", 5.0)
    out = score(options)  # "timed out after 0.3 s" below: it did not wait for the 5 s answer
    # Only the slow batch fails: a one-word probe right after it was answered, so the endpoint
    # is alive and the third batch goes out as usual.
    assert out.status.tolist() == [STATUS_SCORED, STATUS_ERROR, STATUS_SCORED]
    assert out.messages == {1: "timed out after 0.3 s"}
    assert [len(r.inputs) for r in fake_openai.requests] == [2, 2, 1, 2]  # the 1 is the probe


def test_a_hung_endpoint_costs_one_batch_of_retries_not_every_batch(options, fake_openai,
                                                                    env_key, monkeypatch):
    """600 distinct texts are 3 batches; a server that never answers is waited for once."""
    monkeypatch.setattr(client_module, "DEFAULT_TIMEOUT", 0.3)  # the client keeps its 2 retries
    fake_openai.slow_on("", 100.0)  # every request hangs
    expected = [f"question {i} about topic {i % 7}" for i in range(300)]
    actual = [f"answer {i} on topic {i % 7}" for i in range(300)]
    out = SPEC.many(expected, actual, options)
    sentence = "timed out after 0.3 s (3 tries)"
    assert (out.status == STATUS_ERROR).all() and np.isnan(out.scores).all()
    assert set(out.messages.values()) == {sentence} and len(out.messages) == 300
    # The first batch's 3 tries and one unanswered probe; batches 2 and 3 (256 + 88 texts)
    # never went out.
    assert [len(r.inputs) for r in fake_openai.requests] == [256, 256, 256, 1]
    run = embed_texts([*expected, *actual], options)
    assert (run.sent, run.requests, len(run.errors)) == (256, 4, 600)
    assert set(run.errors.values()) == {sentence}


def test_a_timeout_inside_a_bisection_sends_nothing_more(options, fake_openai, env_key,
                                                         monkeypatch):
    monkeypatch.setattr(client_module, "DEFAULT_TIMEOUT", 0.3)
    monkeypatch.setattr(client_module, "MAX_RETRIES", 0)
    fake_openai.fail_on("toolong", 400)
    fake_openai.rules.append(HalvesOnly("", delay=100.0))  # the server hangs after the 400
    texts = ["t0", "t1", "t2", "t3 toolong"]
    run = embed_texts(texts, options)
    # the batch (400), its left half hangs, the probe hangs: the right half is not sent
    assert [len(r.inputs) for r in fake_openai.requests] == [4, 2, 1]
    assert run.errors == dict.fromkeys(texts, "timed out after 0.3 s")


class HalvesOnly(Rule):
    """A rule for the halves of a 4-text batch, not for the batch itself."""

    def matches(self, inputs: list[str]) -> bool:
        return len(inputs) <= 2 and super().matches(inputs)


def test_connection_refused_names_the_url_and_skips_later_batches(env_key, batch_of):
    batch_of(2)
    url = closed_port_url()
    out = score(SPEC.resolve_options({"base_url": url}))
    assert out.status.tolist() == [STATUS_ERROR] * 3
    assert set(out.messages.values()) == {f"cannot reach {url}: connection refused"}
    # Only the first batch knocked (3 tries); the other two were not sent to a dead endpoint.
    run = embed_texts([*EXPECTED, *ACTUAL], SPEC.resolve_options({"base_url": url}))
    assert (run.sent, run.requests, len(run.errors)) == (2, 3, 6)


def test_a_400_for_one_text_is_bisected_down_to_that_text(options, fake_openai, env_key):
    expected = [f"row {i} text" for i in range(8)]
    actual = [f"row {i} reply" for i in range(8)]
    expected[5] = "row 5 toolong"
    fake_openai.fail_on("toolong", 400)
    out = SPEC.many(expected, actual, options)
    assert out.status.tolist() == [STATUS_SCORED] * 5 + [STATUS_ERROR] + [STATUS_SCORED] * 2
    assert out.messages == {5: "400: the server refused the text (This model's maximum "
                               "context length is 8192 tokens)"}
    # 16 texts: 1 request, then halves 8/8, 4/4, 2/2, 1/1 around the bad text = 9 requests
    assert fake_openai.request_count == 9


def test_a_400_for_the_whole_request_stops_splitting(options, fake_openai, env_key):
    fake_openai.fail_on("", 400, message="unsupported parameter: dimensions")  # every request
    out = SPEC.many([f"q{i}" for i in range(8)], [f"a{i}" for i in range(8)], options)
    assert (out.status == STATUS_ERROR).all()
    assert set(out.messages.values()) == {
        "400: the server refused the text (unsupported parameter: dimensions)"}
    assert fake_openai.request_count == 3  # the batch and its two halves, no deeper


def test_no_key_for_openai_sends_nothing_and_says_what_to_do():
    out = SPEC.many(["a"], ["b"], SPEC.resolve_options({}))  # OpenAI's default endpoint
    assert out.status.tolist() == [STATUS_ERROR]
    assert out.messages[0] == NO_KEY == ("No OpenAI API key: set one in Settings (stored in the "
                                         "system keyring) or export OPENAI_API_KEY")


def test_no_key_for_a_local_server_sends_a_placeholder(options, fake_openai):
    out = SPEC.many(["a"], ["a b"], options)
    assert out.status.tolist() == [STATUS_SCORED]
    assert fake_openai.requests[0].authorization == "Bearer not-needed"


def test_a_401_for_the_placeholder_names_it_as_it_is(options, fake_openai, batch_of):
    """The placeholder is no secret: masking it ('…') only hides what was sent."""
    batch_of(2)
    fake_openai.fail_on("marked", 401)
    out = score(options)
    assert_only_middle_row_failed(out, "401: the API key was rejected (no key is set, so the "
                                       "placeholder key 'not-needed' was sent)")


def test_the_keyring_key_is_sent(options, fake_openai, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-env-ignored-000000000000")
    save_api_key(TEST_KEY)
    SPEC.many(["a"], ["b"], options)
    assert fake_openai.requests[0].authorization == f"Bearer {TEST_KEY}"  # keyring first


@pytest.mark.parametrize("status", [400, 403, 404, 500, 503])
def test_the_key_never_appears_in_a_message(options, fake_openai, env_key, status, caplog):
    caplog.set_level(logging.DEBUG, logger="matchlens")
    fake_openai.fail_on("", status, message="bad key {key} for you")  # echoes the full key
    out = SPEC.many(["some text"], ["more text"], options)
    single = SPEC.compute("other text", "more words", options)
    shown = [*out.messages.values(), single.explanation, caplog.text]
    assert out.status.tolist() == [STATUS_ERROR]
    assert all(TEST_KEY not in text for text in shown), shown
    assert "sk-…CRET" in out.messages[0]  # masked, so a person can still tell which key
