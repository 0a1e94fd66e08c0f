"""An exception from the openai client → one sentence a person can act on (key scrubbed)."""

from __future__ import annotations

import socket
import ssl
from dataclasses import dataclass

from matchlens.embeddings.credentials import scrub


@dataclass(frozen=True)
class Context:
    """What a sentence may mention about the failed request."""

    url: str  # display URL (no userinfo)
    model: str
    timeout: float
    tries: int  # HTTP attempts the client made, retries included
    key_hint: str  # "the key from the system keyring", "no key was set; a placeholder was sent"
    secret: str | None  # the real key, to scrub from server text (None for the placeholder)


def describe(exc: BaseException, ctx: Context) -> str:
    """The sentence for a failed embeddings request; never contains the key."""
    import openai

    if isinstance(exc, openai.APITimeoutError):
        text = f"timed out after {ctx.timeout:g} s"
        if ctx.tries > 1:
            text += f" ({ctx.tries} tries)"
    elif isinstance(exc, openai.APIConnectionError):
        text = f"cannot reach {ctx.url}: {_connection_reason(exc)}"
    elif isinstance(exc, openai.APIStatusError):
        text = _status_sentence(exc, ctx)
    elif isinstance(exc, openai.APIResponseValidationError | ValueError | KeyError | TypeError):
        text = f"the server at {ctx.url} did not send a valid embeddings answer ({_short(exc)})"
    else:
        text = f"the embeddings request failed: {type(exc).__name__}: {_short(exc)}"
    return scrub(text, ctx.secret)


def _status_sentence(exc, ctx: Context) -> str:  # exc: openai.APIStatusError
    status = exc.status_code
    message = server_message(exc)
    if status == 401:
        return f"401: the API key was rejected ({ctx.key_hint})"
    if status == 403:
        return f"403: the API key may not use model {ctx.model!r} here ({message})"
    if status == 404:
        return f"404: model {ctx.model!r} or the embeddings route was not found at {ctx.url} ({message})"
    if status == 429:
        if getattr(exc, "code", None) == "insufficient_quota":
            return "429: the account has no quota left; check its plan and billing"
        return f"429: rate limited, gave up after {ctx.tries} {'try' if ctx.tries == 1 else 'tries'}"
    if status >= 500:
        return f"{status}: the server failed ({message})"
    if status == 400:
        return f"400: the server refused the text ({message})"
    return f"{status}: {message}"


def server_message(exc) -> str:
    body = getattr(exc, "body", None)
    message = body.get("message") if isinstance(body, dict) else None
    if not message:
        try:
            message = exc.response.text
        except Exception:
            message = ""
    return _short(str(message).strip() or "no details")


def _connection_reason(exc: BaseException) -> str:
    seen = 0
    cause: BaseException | None = exc
    last = exc
    while cause is not None and seen < 12:
        if isinstance(cause, ConnectionRefusedError):
            return "connection refused"
        if isinstance(cause, socket.gaierror):
            return "the host name could not be resolved"
        if isinstance(cause, ssl.SSLCertVerificationError):
            return f"its TLS certificate was not accepted ({cause.verify_message})"
        if isinstance(cause, ssl.SSLError):
            return f"TLS failed ({_short(cause)})"
        if isinstance(cause, ConnectionResetError):
            return "the connection was reset"
        last = cause
        cause = cause.__cause__ or cause.__context__
        seen += 1
    text = _short(last)
    if "refused" in text.lower():
        return "connection refused"
    return text or "connection error"


def _short(exc: object, limit: int = 160) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text if len(text) <= limit else text[: limit - 1] + "…"
