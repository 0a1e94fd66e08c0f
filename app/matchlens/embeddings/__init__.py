"""Embeddings for `semantic_similarity`: keyring credentials, the openai client, the disk cache.

Nothing here imports `openai` or `keyring` at import time (openai costs ~0.7 s); they are
loaded on first use. `import matchlens.embeddings.metric` registers the metric.

    credentials  resolve_api_key, save_api_key, delete_api_key, keyring_backend_name, mask
    endpoint     resolve_endpoint (options base_url, else OPENAI_BASE_URL, else OpenAI)
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

__all__ = [
    "ApiKey",
    "CredentialError",
    "delete_api_key",
    "keyring_available",
    "keyring_backend_name",
    "mask",
    "resolve_api_key",
    "save_api_key",
]
