"""The OpenAI API key: the OS keyring first, then OPENAI_API_KEY. Never a file.

`keyring` is imported when first needed (it costs ~80 ms and may probe D-Bus). On a headless
Linux keyring's `fail.Keyring` raises `NoKeyringError` on every call: that becomes a sentence
and a fallback to the environment, never a crash.

The key itself is never logged, written to a file or put in a message: `ApiKey.__repr__` masks
it, and `redact.scrub` removes it (and any piece of it, and anything shaped like a credential)
from text we surface; a resolved key is remembered there so every later sentence is scrubbed.

Keys are stored per endpoint too (`USERNAME@<endpoint>`): an endpoint that comes from a config
file, not from the user, only ever gets the key stored for that very endpoint (see embed.py).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Literal

from matchlens.core.errors import MatchLensError
from matchlens.embeddings.redact import mask, remember, scrub

__all__ = ["ApiKey", "CredentialError", "mask", "scrub", "resolve_api_key", "save_api_key",
           "delete_api_key", "keyring_available", "keyring_backend_name", "endpoint_username"]

SERVICE = "matchlens"
USERNAME = "openai_api_key"
ENV_VAR = "OPENAI_API_KEY"

NO_KEY = ("No OpenAI API key: set one in Settings (stored in the system keyring) "
          "or export OPENAI_API_KEY")

Source = Literal["keyring", "environment"]


class CredentialError(MatchLensError):
    """The key could not be saved or deleted; the message is the sentence to show."""


@dataclass(frozen=True)
class ApiKey:
    """The key to use (None when there is none), where it came from, and a sentence for Settings."""

    value: str | None = field(repr=False)
    source: Source | None
    note: str
    keyring_problem: str | None = None  # why the keyring could not be read (no backend, locked…)
    endpoint: str | None = None  # the endpoint this key was stored for (None: any endpoint)

    @property
    def masked(self) -> str:
        return mask(self.value) if self.value else ""

    def __repr__(self) -> str:
        return f"ApiKey(value={self.masked!r}, source={self.source!r}, note={self.note!r})"

    __str__ = __repr__


def endpoint_username(endpoint: str | None) -> str:
    """The keyring user name of the key stored for `endpoint` (a stored URL); None: the default."""
    return f"{USERNAME}@{endpoint}" if endpoint else USERNAME


def keyring_backend_name() -> str:
    """The active keyring backend as a person reads it ("SecretService Keyring", "fail Keyring")."""
    try:
        import keyring

        backend = keyring.get_keyring()
        inner = getattr(backend, "backends", None)  # the chainer: name what it chains
        if inner:
            return ", ".join(b.name for b in inner)
        return str(backend.name)
    except Exception:  # a broken keyring install must not break Settings
        return "unknown keyring"


def keyring_available() -> bool:
    """False when keyring has no usable backend (headless Linux: `fail.Keyring`)."""
    try:
        import keyring
        from keyring.backends import fail

        return not isinstance(keyring.get_keyring(), fail.Keyring)
    except Exception:
        return False


def resolve_api_key(endpoint: str | None = None, *, only_that_endpoint: bool = False) -> ApiKey:
    """The key stored for `endpoint` (a stored URL, see Endpoint.stored_url), else the keyring's
    default key, else OPENAI_API_KEY, else none — with a sentence saying which.

    `only_that_endpoint`: nothing but the key stored for that very endpoint (an endpoint from a
    config file must never receive the user's general key).
    """
    problem = None
    if endpoint:
        stored, problem = _read_keyring(endpoint_username(endpoint))
        if stored:
            remember(stored)
            return ApiKey(stored, "keyring", f"Using the API key stored for {endpoint} in the "
                          f"system keyring ({keyring_backend_name()})", endpoint=endpoint)
        if only_that_endpoint:
            return ApiKey(None, None, f"No API key is stored for {endpoint}",
                          keyring_problem=problem)
    stored, problem = _read_keyring(USERNAME) if problem is None else (None, problem)
    if stored:
        remember(stored)
        return ApiKey(stored, "keyring",
                      f"Using the API key stored in the system keyring ({keyring_backend_name()})")
    env = os.environ.get(ENV_VAR, "").strip()
    prefix = f"{problem}. " if problem else ""
    if env:
        remember(env)
        return ApiKey(env, "environment", f"{prefix}Using OPENAI_API_KEY from the environment",
                      keyring_problem=problem)
    return ApiKey(None, None, f"{prefix}{NO_KEY}", keyring_problem=problem)


def save_api_key(key: str, endpoint: str | None = None) -> None:
    """Store the key in the system keyring (for `endpoint` only, when given: a stored URL);
    CredentialError (a sentence) when that is impossible."""
    key = key.strip()
    if not key or any(c in key for c in "\r\n\t "):
        raise CredentialError("An API key is one line of text without spaces")
    import keyring
    from keyring.errors import NoKeyringError

    try:
        keyring.set_password(SERVICE, endpoint_username(endpoint), key)
    except NoKeyringError:
        raise CredentialError(_no_keyring_sentence()) from None
    except Exception as err:  # KeyringError, and D-Bus errors that are not KeyringErrors
        raise CredentialError(
            f"The system keyring ({keyring_backend_name()}) could not save the key: "
            f"{scrub(_text(err), key)}") from None


def delete_api_key(endpoint: str | None = None) -> bool:
    """Remove the stored key (the one for `endpoint`, when given); True if there was one.
    CredentialError when the keyring fails."""
    import keyring
    from keyring.errors import NoKeyringError, PasswordDeleteError

    try:
        keyring.delete_password(SERVICE, endpoint_username(endpoint))
    except PasswordDeleteError:
        return False
    except NoKeyringError:
        raise CredentialError(_no_keyring_sentence()) from None
    except Exception as err:
        raise CredentialError(
            f"The system keyring ({keyring_backend_name()}) could not delete the key: "
            f"{scrub(_text(err))}") from None
    return True


def _read_keyring(username: str) -> tuple[str | None, str | None]:
    """(stored key or None, a sentence when the keyring could not be read)."""
    try:
        import keyring
        from keyring.errors import NoKeyringError
    except Exception as err:  # keyring missing or broken: the environment still works
        return None, f"The keyring library could not be loaded ({type(err).__name__})"
    try:
        value = keyring.get_password(SERVICE, username)
    except NoKeyringError:
        return None, _no_keyring_sentence()
    except Exception as err:  # KeyringLocked, D-Bus errors, …
        return None, (f"The system keyring ({keyring_backend_name()}) could not be read "
                      f"({scrub(_text(err))}); set OPENAI_API_KEY instead")
    return (value.strip() or None) if value else None, None


def _no_keyring_sentence() -> str:
    return (f"No system keyring is available ({keyring_backend_name()}); "
            "set OPENAI_API_KEY instead")


def _text(err: BaseException) -> str:
    text = str(err).strip() or type(err).__name__
    return text if len(text) <= 160 else text[:157] + "…"
