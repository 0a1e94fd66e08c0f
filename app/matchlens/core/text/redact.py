"""The one masking function: `scrub(text)` hides every credential a sentence could carry.

Everything we surface (a sentence, a log line, a sidecar, a cache row, a crash report) goes
through `scrub`. It masks:

* the API key in use and every key seen this run (`remember`), also OPENAI_API_KEY, whole
  (as `mask(key)`: 'sk-…abcd') and any piece of 8 or more characters of it (a server that
  echoes the key without its `sk-` prefix, or its middle, still leaks it);
* anything shaped like an OpenAI key (`sk-…`), or like an opaque key of another service: a
  run of 24+ letters and digits mixing upper case, lower case and digits (`AIza…`; hex ids,
  UUIDs and words are left alone);
* `Bearer …` values (an Authorization header in an error body);
* secret URL parameters (`api-key=`, `key=`, `token=`, `sig=`, …) and a URL's `user:pass@`.

The name `scrub` and its signature `scrub(text, *secrets) -> str` are stable: the window calls
it too (as `matchlens.embeddings.scrub` or `matchlens.embeddings.redact.scrub`, which re-export
this one). `mask` is the short form Settings shows. Pure text: no keyring, no network.
"""

from __future__ import annotations

import os
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass

ENV_KEY = "OPENAI_API_KEY"
PIECE = 8  # a run of this many characters of a key is already too much of it
HIDDEN = "…"

_known: set[str] = set()
_known_lock = threading.Lock()

_KEY_SHAPE = re.compile(r"\bsk-[A-Za-z0-9_\-*]{6,}")
_OPAQUE_SHAPE = re.compile(r"(?<![A-Za-z0-9])(?=[A-Za-z0-9]*[0-9])(?=[A-Za-z0-9]*[a-z])"
                           r"(?=[A-Za-z0-9]*[A-Z])[A-Za-z0-9]{24,}(?![A-Za-z0-9])")
_BEARER = re.compile(r"(?i)\b(bearer)(\s+|%20|\+)[^\s'\",;&)\]}]+")
# api-key, api_key, apikey, key, token, access_token, sig, signature, secret, password, auth…
_SECRET_PARAM = re.compile(
    r"(?i)(?<![A-Za-z0-9_-])((?:[A-Za-z0-9]+[-_])?(?:api[-_]?key|key|token|sig|signature|"
    r"secret|password|passwd|pwd|auth|credential)s?=)[^&#\s'\"<>]+")
_USERINFO = re.compile(r"(?i)\b([a-z][a-z0-9+.-]*://)[^/\s@'\"<>]+@")


def mask(key: str | None) -> str:
    """'sk-…abcd': enough to tell keys apart, never enough to use one (short keys show no tail)."""
    if not key:
        return ""
    prefix = "sk-" if key.startswith("sk-") else ""
    tail = key[-4:] if len(key) >= 12 else ""
    return f"{prefix}{HIDDEN}{tail}"


def remember(secret: str | None) -> None:
    """Mask `secret` in every later `scrub` of this process (the key a run resolved)."""
    if secret and len(secret) >= 4:
        with _known_lock:
            _known.add(secret)


def forget_all() -> None:
    """Forget every remembered secret (tests: one test's key is not another's)."""
    with _known_lock:
        _known.clear()


def known_secrets() -> list[str]:
    env = os.environ.get(ENV_KEY, "").strip()
    with _known_lock:
        found = set(_known)
    if env:
        found.add(env)
    return sorted(found, key=len, reverse=True)


def scrub(text: str, *secrets: str | None) -> str:
    """`text` with every credential masked (see the module docstring). Never raises."""
    if not text:
        return text
    text = str(text)
    keys = [s for s in dict.fromkeys([*secrets, *known_secrets()]) if s and len(s) >= 4]
    for secret in sorted(keys, key=len, reverse=True):
        text = text.replace(secret, mask(secret) or HIDDEN)
    # Each shape is looked for only where the text holds what it cannot match without (a
    # hint: one quick scan); most texts hold none, and the five full patterns cost ~50 µs a
    # sentence — the readable diffs of a 1M-row run's reports scrub thousands.
    text = shaped(text, KEY_SHAPE)
    text = shaped(text, OPAQUE_SHAPE)
    for secret in keys:
        text = _mask_pieces(text, secret)
    for shape in (USERINFO, BEARER, SECRET_PARAM):
        text = shaped(text, shape)
    return text


@dataclass(frozen=True)
class Shape:
    """A credential's shape: `pattern`, whose matches `hidden` rewrites, and `hint`, which
    every text `pattern` matches in also matches (tests/core/text/test_redact.py)."""

    pattern: re.Pattern[str]
    hint: re.Pattern[str]
    hidden: Callable[[re.Match[str]], str]


def shaped(text: str, shape: Shape) -> str:
    """`text` with `shape`'s matches hidden; the hint looked for first."""
    if shape.hint.search(text) is None:
        return text
    return shape.pattern.sub(shape.hidden, text)


KEY_SHAPE = Shape(_KEY_SHAPE, re.compile("sk-"), lambda m: mask(m.group(0)))
OPAQUE_SHAPE = Shape(_OPAQUE_SHAPE, re.compile("[A-Za-z0-9]{24}"),
                     lambda m: mask(m.group(0)))
USERINFO = Shape(_USERINFO, re.compile("://"), lambda m: f"{m.group(1)}{HIDDEN}@")
BEARER = Shape(_BEARER, re.compile("(?i)bearer"),
               lambda m: f"{m.group(1)}{m.group(2)}{HIDDEN}")
SECRET_PARAM = Shape(_SECRET_PARAM, re.compile("="), lambda m: f"{m.group(1)}{HIDDEN}")
SHAPES = (KEY_SHAPE, OPAQUE_SHAPE, USERINFO, BEARER, SECRET_PARAM)


def _mask_pieces(text: str, secret: str) -> str:
    """Hide every run of `PIECE`+ characters of `secret` found in `text`.

    A substring of the key of length ≥ PIECE is covered by the key's PIECE-grams, so marking
    each PIECE-gram of `text` that is one of them and hiding the union hides every such run.
    A mask's own tail (4 characters) is shorter than PIECE, so masked text stays masked.
    """
    if len(secret) < PIECE or len(text) < PIECE:
        return text
    grams = {secret[i:i + PIECE] for i in range(len(secret) - PIECE + 1)}
    first = {g[0] for g in grams}
    spans: list[list[int]] = []
    for i in range(len(text) - PIECE + 1):
        if text[i] in first and text[i:i + PIECE] in grams:
            if spans and spans[-1][1] >= i:
                spans[-1][1] = i + PIECE
            else:
                spans.append([i, i + PIECE])
    if not spans:
        return text
    out, at = [], 0
    for start, end in spans:
        out.append(text[at:start])
        out.append(HIDDEN)
        at = end
    out.append(text[at:])
    return "".join(out)
