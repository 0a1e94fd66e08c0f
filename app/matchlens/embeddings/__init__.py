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

from __future__ import annotations

from typing import Any

# name -> its module: loaded on first use, so registering the metric (`score`'s start-up) does
# not load the credentials module (~1.5 ms a run)
_LAZY = {
    "ApiKey": "credentials",
    "CredentialError": "credentials",
    "delete_api_key": "credentials",
    "keyring_available": "credentials",
    "keyring_backend_name": "credentials",
    "mask": "credentials",
    "resolve_api_key": "credentials",
    "save_api_key": "credentials",
    "scrub": "redact",
}

__all__ = list(_LAZY)


def __getattr__(name: str) -> Any:
    if name not in _LAZY:
        raise AttributeError(f"module 'matchlens.embeddings' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(f"matchlens.embeddings.{_LAZY[name]}"), name)
    globals()[name] = value  # the next access is a plain attribute
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
