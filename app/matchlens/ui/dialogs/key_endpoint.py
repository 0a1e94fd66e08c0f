"""What the Settings dialog asks of the key and the endpoint, without widgets: the
process-wide "the key changed" signal, the sentence saying where the key comes from, whether
an endpoint needs a key, the config with a typed endpoint, and "Test connection"'s probe (run in
a worker thread: no Qt widget in here). The dialog is `ui.dialogs.settings`."""

from __future__ import annotations

import dataclasses
import os
import time
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QObject, Signal

from matchlens.core.errors import ConfigError
from matchlens.embeddings.credentials import ENV_VAR, ApiKey, keyring_backend_name
from matchlens.embeddings.endpoint import (
    DEFAULT_MODEL,
    ENV_BASE_URL,
    OPENAI_BASE_URL,
    resolve_endpoint,
)

PROBE_TEXT = "MatchLens connection test"
NETWORK_OPTIONS = ("base_url", "model")


# -- what other widgets need to know ---------------------------------------------------------------
class KeyEvents(QObject):
    """Tells the window that the key in use changed (saved or removed in Settings).

    The argument is the new source: "keyring", "environment" or "" (no key). Never the key.
    """

    sig_key_changed = Signal(str)


_events: KeyEvents | None = None


def key_events() -> KeyEvents:
    """The process-wide notifier (created on first use, after the QApplication)."""
    global _events
    if _events is None:
        _events = KeyEvents()
    return _events


def source_sentence(key: ApiKey) -> str:
    """Where the key in use comes from, with the key masked; never the key itself."""
    if key.source == "keyring":
        return (f"Using the key from the system keyring ({keyring_backend_name()}): "
                f"{key.masked}")
    if key.source == "environment":
        return f"Using the key from {ENV_VAR}: {key.masked}"
    return "No key set"


def env_key_set() -> bool:
    """True when the environment holds a key (the fallback behind the keyring's)."""
    return bool(os.environ.get(ENV_VAR, "").strip())


def base_url_placeholder() -> str:
    """What an empty Base URL field means: the environment's endpoint, else OpenAI's."""
    env = os.environ.get(ENV_BASE_URL, "").strip()
    return f"{env} (from {ENV_BASE_URL})" if env else f"{OPENAI_BASE_URL} (OpenAI)"


def needs_key(base_url: str, model: str = "") -> bool:
    """True when the endpoint is OpenAI's own API (local servers such as Ollama need no key)."""
    try:
        return resolve_endpoint({"base_url": base_url, "model": model or DEFAULT_MODEL}).is_openai
    except ConfigError:
        return True


def with_endpoint(config: Any, base_url: str, model: str) -> Any:
    """`config` with the [openai] base_url / model set, and no per-metric copy shadowing them."""
    from matchlens.core.metrics.registry import all_metrics

    network = {spec.id for spec in all_metrics() if spec.network}
    options = {}
    for metric_id, values in config.options.items():
        if metric_id in network:
            values = {k: v for k, v in values.items() if k not in NETWORK_OPTIONS}
        if values:
            options[metric_id] = values
    # Typed in Settings: the user named this endpoint, so their key may go there.
    return dataclasses.replace(config, options=options).with_endpoint(base_url, model)


# -- "Test connection" (runs in a worker thread: no Qt in here) -----------------------------------
@dataclass(frozen=True)
class ProbeResult:
    ok: bool
    sentence: str


def probe_connection(base_url: str, model: str) -> ProbeResult:
    """Embed one short text through `embed_texts` (the metric's own path), bypassing the cache."""
    from matchlens.embeddings.embed import embed_texts

    options = {"base_url": base_url, "model": model or DEFAULT_MODEL}
    try:
        endpoint = resolve_endpoint(options)
    except ConfigError as err:
        return ProbeResult(False, f"Not tested: {err}")
    start = time.perf_counter()
    run = embed_texts([PROBE_TEXT], options, use_cache=False)
    seconds = time.perf_counter() - start
    error = run.errors.get(PROBE_TEXT)
    vector = run.vectors.get(PROBE_TEXT)
    if error is not None or vector is None:
        return ProbeResult(False, f"Connection failed: {sentence_case(error or 'no embedding')}")
    return ProbeResult(True, f"Connected: {endpoint.display_url}, model {endpoint.model}, "
                             f"{vector.size} dimensions, {seconds:.2f} s")


def sentence_case(text: str) -> str:
    """`text` with its first letter upper case."""
    return text[:1].upper() + text[1:]
