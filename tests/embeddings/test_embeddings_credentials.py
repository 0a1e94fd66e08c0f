"""The API key through keyring's real API: the in-memory backend, a failing one, the env var."""

from __future__ import annotations

import logging

import keyring
import pytest
from keyring.backend import KeyringBackend
from keyring.backends import fail
from keyring.errors import KeyringLocked

from matchlens.embeddings import credentials
from matchlens.embeddings.credentials import (
    NO_KEY,
    CredentialError,
    delete_api_key,
    keyring_available,
    keyring_backend_name,
    mask,
    resolve_api_key,
    save_api_key,
    scrub,
)
from tests.embeddings.conftest import TEST_KEY

NO_KEYRING = "No system keyring is available (fail Keyring); set OPENAI_API_KEY instead"


def test_save_resolve_delete_through_the_keyring(memory_keyring):
    save_api_key(f"  {TEST_KEY}\n")  # pasted with spaces and a newline
    assert memory_keyring.store == {("matchlens", "openai_api_key"): TEST_KEY}
    key = resolve_api_key()
    assert (key.value, key.source) == (TEST_KEY, "keyring")
    assert key.note == "Using the API key stored in the system keyring (conftest MemoryKeyring)"
    assert delete_api_key() is True
    assert delete_api_key() is False  # nothing left to delete
    key = resolve_api_key()
    assert (key.value, key.source, key.note) == (None, None, NO_KEY)


def test_keyring_comes_before_the_environment(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-from-env-000000000000")
    assert resolve_api_key().source == "environment"
    save_api_key(TEST_KEY)
    assert (resolve_api_key().value, resolve_api_key().source) == (TEST_KEY, "keyring")


def test_environment_fallback(env_key):
    key = resolve_api_key()
    assert (key.value, key.source) == (TEST_KEY, "environment")
    assert key.note == "Using OPENAI_API_KEY from the environment"


def test_headless_fail_keyring_is_a_sentence_and_falls_back_to_env(monkeypatch):
    keyring.set_keyring(fail.Keyring())  # what a headless Linux gets (restored by conftest)
    assert keyring_backend_name() == "fail Keyring" and not keyring_available()
    key = resolve_api_key()
    assert (key.value, key.source) == (None, None)
    assert key.note == f"{NO_KEYRING}. {NO_KEY}"
    assert key.keyring_problem == NO_KEYRING
    with pytest.raises(CredentialError) as saving:
        save_api_key(TEST_KEY)
    assert str(saving.value) == NO_KEYRING
    with pytest.raises(CredentialError, match="No system keyring is available"):
        delete_api_key()
    monkeypatch.setenv("OPENAI_API_KEY", TEST_KEY)
    key = resolve_api_key()
    assert (key.value, key.source) == (TEST_KEY, "environment")
    assert key.note == f"{NO_KEYRING}. Using OPENAI_API_KEY from the environment"


def test_no_key_and_no_keyring_tells_the_user_to_export(options):
    from matchlens.embeddings.metric import SPEC

    keyring.set_keyring(fail.Keyring())
    out = SPEC.many(["a"], ["b"], SPEC.resolve_options({}))
    assert out.messages == {0: "No OpenAI API key, and no system keyring is available "
                               "(fail Keyring); set OPENAI_API_KEY instead"}


class LeakyLockedKeyring(KeyringBackend):
    """A keyring that is locked and puts the secret it was given in its error message."""

    priority = 0  # type: ignore[assignment]  # never picked on its own

    def get_password(self, service, username):
        raise KeyringLocked("collection is locked")

    def set_password(self, service, username, password):
        raise KeyringLocked(f"cannot store {password}: collection is locked")

    def delete_password(self, service, username):
        raise KeyringLocked("collection is locked")


def test_a_locked_keyring_is_explained_and_never_leaks_the_key(env_key):
    keyring.set_keyring(LeakyLockedKeyring())
    key = resolve_api_key()
    assert key.source == "environment"
    assert key.keyring_problem == ("The system keyring (test embeddings credentials "
                                   "LeakyLockedKeyring) could not be read (collection is "
                                   "locked); set OPENAI_API_KEY instead")
    with pytest.raises(CredentialError) as saving:
        save_api_key(TEST_KEY)
    assert TEST_KEY not in str(saving.value) and "sk-…CRET" in str(saving.value)
    assert saving.value.__cause__ is None and saving.value.__context__ is not None


def test_bad_keys_are_refused_before_the_keyring():
    for bad in ("", "   ", "sk-one\nsk-two", "sk-with space"):
        with pytest.raises(CredentialError, match="one line of text"):
            save_api_key(bad)


def test_mask_and_scrub():
    assert mask("sk-proj-abcdefghijklmnop1234") == "sk-…1234"
    assert mask("abcdefghijklmnop") == "…mnop"
    assert mask("sk-short") == "sk-…"  # too short to show a tail
    assert mask("") == mask(None) == ""
    assert scrub(f"Incorrect API key provided: {TEST_KEY}.", TEST_KEY) == \
        "Incorrect API key provided: sk-…CRET."
    # Anything shaped like an OpenAI key goes, even when we did not know it.
    assert scrub("key sk-proj-ABCDEFGH12345678 rejected") == "key sk-…5678 rejected"


def test_api_key_repr_and_logs_never_show_the_key(env_key, caplog):
    caplog.set_level(logging.DEBUG)
    key = resolve_api_key()
    logging.getLogger("matchlens").info("resolved %s / %r", key, key)
    assert TEST_KEY not in repr(key) and TEST_KEY not in str(key)
    assert TEST_KEY not in caplog.text and "sk-…CRET" in caplog.text


def test_keyring_is_imported_lazily():
    import subprocess
    import sys

    code = ("import sys, matchlens.embeddings, matchlens.embeddings.metric; "
            "print([m for m in ('keyring', 'openai') if m in sys.modules])")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60, check=True)
    assert done.stdout.strip() == "[]"


def test_service_and_username_are_the_documented_ones():
    assert (credentials.SERVICE, credentials.USERNAME) == ("matchlens", "openai_api_key")
