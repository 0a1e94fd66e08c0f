"""Token counts for batching and the cost prompt, without ever touching the network.

tiktoken is used only when it is importable AND the model's encoding file is already in
tiktoken's local cache with the right hash; otherwise tiktoken would try to download it, and
this machine may have no internet. Without it, a text costs about ceil(len / 4) tokens — for
ASCII. Letters outside ASCII (CJK, Cyrillic, accents) cost about a token each, so those count
as one each: ceil(len / 4) alone would undercount a Chinese text several times over, and a
request planned with it could exceed the API's per-request token limit.
"""

from __future__ import annotations

import functools
import hashlib
import math
import os
import tempfile
from collections.abc import Callable

# Encodings the embeddings models use, with the file tiktoken would fetch and its sha256.
_BLOBS = {
    "cl100k_base": (
        "https://openaipublic.blob.core.windows.net/encodings/cl100k_base.tiktoken",
        "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7",
    ),
}
_MODEL_ENCODINGS = {
    "text-embedding-3-small": "cl100k_base",
    "text-embedding-3-large": "cl100k_base",
    "text-embedding-ada-002": "cl100k_base",
}


def approx_tokens(text: str) -> int:
    """ceil(ascii / 4) + one per non-ASCII character (exactly ceil(len / 4) for ASCII text)."""
    if text.isascii():
        return math.ceil(len(text) / 4)
    non_ascii = sum(1 for ch in text if ord(ch) > 127)
    return math.ceil((len(text) - non_ascii) / 4) + non_ascii


def token_counter(model: str) -> Callable[[str], int]:
    """tiktoken's exact count when available offline for `model`, else `approx_tokens`."""
    name = _MODEL_ENCODINGS.get(model)
    encoding = _offline_encoding(name, _tiktoken_cache_dir()) if name else None
    if encoding is None:
        return approx_tokens
    return lambda text: len(encoding.encode_ordinary(text))


def _tiktoken_cache_dir() -> str:
    # The same rule tiktoken.load.read_file_cached follows.
    for var in ("TIKTOKEN_CACHE_DIR", "DATA_GYM_CACHE_DIR"):
        if var in os.environ:
            return os.environ[var]
    return os.path.join(tempfile.gettempdir(), "data-gym-cache")


@functools.lru_cache(maxsize=8)
def _offline_encoding(name: str, cache_dir: str):  # -> tiktoken.Encoding | None
    if not cache_dir or name not in _BLOBS:
        return None  # an empty cache dir means "no caching" to tiktoken: it would download
    url, sha256 = _BLOBS[name]
    path = os.path.join(cache_dir, hashlib.sha1(url.encode()).hexdigest())
    try:
        with open(path, "rb") as handle:
            if hashlib.sha256(handle.read()).hexdigest() != sha256:
                return None  # tiktoken would delete it and download again
        import tiktoken

        return tiktoken.get_encoding(name)
    except Exception:  # no file, no tiktoken, a broken install: approximate instead
        return None
