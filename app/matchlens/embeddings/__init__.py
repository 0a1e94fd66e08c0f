"""Embeddings for `semantic_similarity`: keyring credentials, the openai client, the disk cache.

Nothing here imports `openai` or `keyring` at import time (openai costs ~0.7 s); they are
loaded on first use. `import matchlens.embeddings.metric` registers the metric.

    redact       scrub(text, *secrets): THE masking function for every sentence, log line,
                 sidecar and cache row (keys, pieces of keys, Bearer values, secret URL params)
    credentials  resolve_api_key, save_api_key, delete_api_key (per endpoint too), mask
    endpoint     resolve_endpoint (options base_url, else OPENAI_BASE_URL, else OpenAI); a
                 config file's URL is "file" sourced and gets no general key
    cost         estimate(texts, options) -> CostEstimate, for the "about to send" prompt
    embed        embed_texts(texts, options) -> Embeddings (cache, batching, error sentences)
    cache        EmbeddingCache (SQLite under platformdirs.user_cache_dir("matchlens"))
    client       EmbeddingClient, batch limits, timeouts
    metric       the registered MetricSpec
"""

from matchlens.embeddings.credentials import (
    ApiKey,
    CredentialError,
    delete_api_key,
    keyring_available,
    keyring_backend_name,
    mask,
    resolve_api_key,
    save_api_key,
)
from matchlens.embeddings.redact import scrub

__all__ = [
    "ApiKey",
    "CredentialError",
    "delete_api_key",
    "keyring_available",
    "keyring_backend_name",
    "mask",
    "resolve_api_key",
    "save_api_key",
    "scrub",
]
