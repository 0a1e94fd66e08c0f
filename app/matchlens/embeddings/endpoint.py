"""Which embeddings endpoint and model a run uses: options, else OPENAI_BASE_URL, else OpenAI.

Where the URL came from matters: a key only goes to an endpoint the user named (Settings, a
command-line flag, OPENAI_BASE_URL). A base URL read from a config file (`options` then carry
`base_url_from`: the file's name) is "file" sourced; embed.py sends it only the key stored for
that very endpoint, or no key.

Three forms of the URL: `base_url` is what requests go to (as given); `stored_url` is what a
sidecar or the cache records (no user:password@, no query, no fragment: credentials hide there);
`display_url` is `stored_url` for sentences.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal
from urllib.parse import urlsplit, urlunsplit

from matchlens.core.config import BASE_URL_FROM
from matchlens.core.errors import ConfigError
from matchlens.embeddings.redact import scrub

OPENAI_BASE_URL = "https://api.openai.com/v1"
DEFAULT_MODEL = "text-embedding-3-small"
ENV_BASE_URL = "OPENAI_BASE_URL"

Source = Literal["settings", "environment", "default", "file"]


@dataclass(frozen=True)
class Endpoint:
    """A normalised base URL (no trailing slash), the model, and where the URL came from."""

    base_url: str
    model: str
    source: Source
    origin: str = ""  # for source "file": the config file that named it

    @property
    def is_openai(self) -> bool:
        """True for OpenAI's own API (where a real key is required)."""
        return (urlsplit(self.base_url).hostname or "").lower() == "api.openai.com"

    @property
    def user_named(self) -> bool:
        """True when the user chose this endpoint (a key may go there)."""
        return self.source != "file"

    @property
    def stored_url(self) -> str:
        """The URL to record (sidecar, cache key): no userinfo, query or fragment."""
        return stored_url(self.base_url)

    @property
    def display_url(self) -> str:
        """The URL for messages: the stored form, scrubbed."""
        return scrub(self.stored_url)


def stored_url(url: str) -> str:
    """`url` without user:password@, query and fragment (where credentials hide)."""
    parts = urlsplit(url.strip())
    netloc = parts.netloc.rpartition("@")[2]
    return urlunsplit((parts.scheme, netloc, parts.path.rstrip("/"), "", ""))


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
    origin = str(options.get(BASE_URL_FROM) or "")
    source: Source
    if given:
        url, source = given, "settings"
        # A file's URL the user also named (OPENAI_BASE_URL, OpenAI's own) is theirs anyway.
        if origin and stored_url(given) not in {stored_url(env), OPENAI_BASE_URL} - {""}:
            source = "file"
    elif env:
        url, source = env, "environment"
    else:
        url, source = OPENAI_BASE_URL, "default"
    url = url.rstrip("/")
    parts = urlsplit(url)
    try:
        parts.port  # noqa: B018  (raises on a port that is not a number)
        hostname = parts.hostname
    except ValueError:
        hostname = None
    if parts.scheme not in ("http", "https") or not hostname:
        where = {"environment": "OPENAI_BASE_URL", "file": f"{origin}: [openai] base_url"
                 }.get(source, "base_url")
        raise ConfigError(f"{where} must be an http:// or https:// URL such as "
                          f"http://localhost:11434/v1, not {scrub(url)!r}")
    return Endpoint(url, model, source, origin if source == "file" else "")
