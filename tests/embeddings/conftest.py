"""Fixtures: a real loopback OpenAI server, options pointing at it, a known test key."""

from __future__ import annotations

import pytest

from matchlens.embeddings import client as client_module
from matchlens.embeddings.metric import SPEC
from tests.embeddings.openai_server import FakeOpenAI

TEST_KEY = "sk-test-9f8e7d6c5b4a3210SECRET"


@pytest.fixture
def fake_openai():
    with FakeOpenAI() as server:
        yield server


@pytest.fixture
def options(fake_openai):
    """The metric's resolved options, pointed at the fake server."""
    return SPEC.resolve_options({"base_url": fake_openai.base_url})


@pytest.fixture
def env_key(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", TEST_KEY)
    return TEST_KEY


@pytest.fixture
def batch_of(monkeypatch):
    """Shrink the per-request input limit for non-OpenAI endpoints: batch_of(2)."""

    def set_limit(max_inputs: int, max_tokens: int = 1_000_000) -> None:
        monkeypatch.setattr(client_module, "OTHER_LIMITS",
                            client_module.BatchLimits(max_inputs, max_tokens))

    return set_limit
