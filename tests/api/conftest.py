"""The embeddings tests' loopback OpenAI server and batch-size fixture, for the API tests."""

from tests.embeddings.conftest import batch_of, fake_openai  # noqa: F401  (fixtures)
