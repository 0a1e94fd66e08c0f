"""One embedding run: distinct texts → the disk cache → batched requests for the rest.

This is what the metric, the cost prompt and any preview share. A text that could not be
embedded gets a sentence in `errors`; the others get vectors. Nothing here raises for a
network, key or server problem.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from matchlens.core.errors import ConfigError
from matchlens.embeddings import client as client_module
from matchlens.embeddings.cache import EmbeddingCache
from matchlens.embeddings.credentials import NO_KEY, ApiKey, resolve_api_key, scrub
from matchlens.embeddings.endpoint import Endpoint, resolve_endpoint
from matchlens.embeddings.tokens import token_counter


@dataclass
class Embeddings:
    """Vectors (float32) and error sentences by text, and what the run cost."""

    endpoint: Endpoint | None
    vectors: dict[str, np.ndarray] = field(default_factory=dict)
    errors: dict[str, str] = field(default_factory=dict)
    cached: int = 0  # distinct texts found in the disk cache
    sent: int = 0  # distinct texts sent to the endpoint
    requests: int = 0  # HTTP requests, retries included
    cache_problem: str | None = None


def distinct_texts(texts: Iterable[str]) -> list[str]:
    """Each non-empty text once, in first-seen order (an empty text is never sent)."""
    return [t for t in dict.fromkeys(texts) if t]


def embed_texts(texts: Iterable[str], options: Mapping[str, Any], *, use_cache: bool = True,
                cache_path: Path | str | None = None,
                cancel: Callable[[], bool] | None = None) -> Embeddings:
    """Embed every distinct non-empty text once; cached vectors cost no request.

    `options` holds `model` and `base_url` as the metric takes them (empty base_url:
    OPENAI_BASE_URL, else OpenAI). The key comes from `resolve_api_key()`; with no key, a
    non-OpenAI endpoint (Ollama, vLLM) gets the placeholder key "not-needed".
    """
    distinct = distinct_texts(texts)
    try:
        endpoint = resolve_endpoint(options)
    except ConfigError as err:
        return Embeddings(None, errors=dict.fromkeys(distinct, str(err)))
    run = Embeddings(endpoint)
    if not distinct:
        return run
    cache = EmbeddingCache(cache_path) if use_cache else None
    try:
        if cache is not None:
            run.vectors = cache.get_many(endpoint.stored_url, endpoint.model, distinct)
            run.cached = len(run.vectors)
        missing = [t for t in distinct if t not in run.vectors]
        if missing:
            _fetch(run, endpoint, missing, cache, cancel)
    finally:
        if cache is not None:
            run.cache_problem = cache.problem
            cache.close()
    return run


def _fetch(run: Embeddings, endpoint: Endpoint, missing: list[str],
           cache: EmbeddingCache | None, cancel: Callable[[], bool] | None) -> None:
    credentials = credentials_for(endpoint)
    if isinstance(credentials, str):  # no way to authenticate: say so for every text
        run.errors.update(dict.fromkeys(missing, credentials))
        return
    api_key, hint = credentials
    if not header_safe(api_key):
        run.errors.update(dict.fromkeys(missing, unsendable_key(hint)))
        return

    def store(vectors: Mapping[str, np.ndarray]) -> None:
        if cache is not None:
            cache.put_many(endpoint.stored_url, endpoint.model, vectors)

    try:
        with client_module.EmbeddingClient(endpoint, api_key, key_hint=hint) as client:
            result = client.embed(missing, count=token_counter(endpoint.model),
                                  on_batch=store, cancel=cancel)
    except Exception as err:  # the client could not even start: a sentence, not a crash
        secret = None if api_key == client_module.PLACEHOLDER_KEY else api_key
        sentence = scrub(f"the openai client could not start: {type(err).__name__}: {err}",
                         secret)
        run.errors.update(dict.fromkeys(missing, sentence))
        return
    run.vectors.update(result.vectors)
    run.errors.update(result.errors)
    run.requests += result.requests
    run.sent += result.sent


def credentials_for(endpoint: Endpoint) -> tuple[str, str] | str:
    """(key to send, hint for a 401) or the sentence explaining why nothing can be sent.

    An endpoint the user named gets the key stored for it, else their general key. One that
    came from a config file gets only a key stored for that very endpoint, or no key at all:
    a colleague's file must not be able to send the user's key (and texts) anywhere.
    """
    if not endpoint.user_named:
        own = resolve_api_key(endpoint.stored_url, only_that_endpoint=True)
        if own.value:
            return own.value, f"the key stored for {endpoint.display_url}"
        refusal = file_endpoint_refusal(endpoint)
        if refusal:
            return refusal
        return (client_module.PLACEHOLDER_KEY,
                "no key is set, so the placeholder key 'not-needed' was sent")
    return _credentials(resolve_api_key(endpoint.stored_url), endpoint)


def header_safe(key: str) -> bool:
    """Whether `key` can go in an HTTP header: printable ASCII (httpx refuses anything else
    before sending, with an error that read as the server's)."""
    return key.isascii() and all(" " <= c != "\x7f" for c in key)


def unsendable_key(hint: str) -> str:
    """The sentence for a key that cannot be sent; the key's characters are never shown."""
    where = hint.removeprefix("the key ") if hint.startswith("the key ") else "as it is set"
    return (f"nothing was sent: the API key {where} holds a character an HTTP header cannot "
            "carry (not ASCII, or a control character such as a line break): a typographic "
            "quote, a non-breaking space or an accented letter pasted with it? Set the key again")


def file_endpoint_refusal(endpoint: Endpoint) -> str | None:
    """The sentence why nothing goes to a file's endpoint while the user has a general key
    (and none stored for that endpoint); None when the run may go on."""
    if endpoint.user_named:
        return None
    if resolve_api_key(endpoint.stored_url, only_that_endpoint=True).value:
        return None
    if not resolve_api_key().value:
        return None  # no key to leak: a keyless local server may be used
    url = endpoint.display_url
    return (f"nothing was sent to {url}: that endpoint comes from {endpoint.origin}, and your "
            f"API key only goes to an endpoint you name yourself; to allow it, pass "
            f"--base-url {url} (or set OPENAI_BASE_URL, or the base URL in Settings), or store "
            f"a key for that endpoint alone: keyring set matchlens 'openai_api_key@{url}'")


def _credentials(key: ApiKey, endpoint: Endpoint) -> tuple[str, str] | str:
    """(key to send, hint for a 401) or the sentence explaining why nothing can be sent."""
    if key.value and key.endpoint:
        return key.value, f"the key stored for {endpoint.display_url}"
    if key.value:
        where = "the system keyring" if key.source == "keyring" else "OPENAI_API_KEY"
        return key.value, f"the key from {where}"
    if not endpoint.is_openai:
        # Local servers (Ollama, vLLM) need no key, but the openai client insists on one.
        return (client_module.PLACEHOLDER_KEY,
                "no key is set, so the placeholder key 'not-needed' was sent")
    if key.keyring_problem:
        problem = key.keyring_problem
        return f"No OpenAI API key, and {problem[:1].lower()}{problem[1:]}"
    return NO_KEY
