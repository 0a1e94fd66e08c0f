"""Which embeddings endpoint and model a run uses: options, else OPENAI_BASE_URL, else OpenAI."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal
from urllib.parse import urlsplit

from matchlens.core.errors import ConfigError

OPENAI_BASE_URL = "https://api.openai.com/v1"
DEFAULT_MODEL = "text-embedding-3-small"
ENV_BASE_URL = "OPENAI_BASE_URL"


@dataclass(frozen=True)
class Endpoint:
    """A normalised base URL (no trailing slash), the model, and where the URL came from."""

    base_url: str
    model: str
    source: Literal["settings", "environment", "default"]

    @property
    def is_openai(self) -> bool:
        """True for OpenAI's own API (where a real key is required)."""
        return (urlsplit(self.base_url).hostname or "").lower() == "api.openai.com"

    @property
    def display_url(self) -> str:
        """The URL for messages, without any user:password@ part."""
        parts = urlsplit(self.base_url)
        if "@" not in parts.netloc:
            return self.base_url
        return parts._replace(netloc=parts.netloc.rpartition("@")[2]).geturl()


def resolve_endpoint(options: Mapping[str, Any] | None = None) -> Endpoint:
    """`options["base_url"]` if non-empty, else OPENAI_BASE_URL, else OpenAI's default.

    ConfigError (a sentence) when the URL is not http(s) or the model is empty.
    """
    options = options or {}
    model = str(options.get("model") or DEFAULT_MODEL).strip()
    if not model:
        raise ConfigError("semantic_similarity.model is empty: name an embeddings model")
    given = str(options.get("base_url") or "").strip()
    env = os.environ.get(ENV_BASE_URL, "").strip()
    if given:
        url, source = given, "settings"
    elif env:
        url, source = env, "environment"
    else:
        url, source = OPENAI_BASE_URL, "default"
    url = url.rstrip("/")
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        where = "OPENAI_BASE_URL" if source == "environment" else "base_url"
        raise ConfigError(f"{where} must be an http:// or https:// URL such as "
                          f"http://localhost:11434/v1, not {url!r}")
    return Endpoint(url, model, source)  # type: ignore[arg-type]
