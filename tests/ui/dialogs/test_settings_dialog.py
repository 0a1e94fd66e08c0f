"""Settings: the API key in the keyring, the env fallback, no keyring, endpoint, Test connection.

Real widgets, the real keyring API (the in-memory backend from tests/conftest.py, or keyring's
own fail.Keyring), and the real openai client against the loopback server of tests/embeddings.
"""

from __future__ import annotations

import logging
import re
import tomllib
from pathlib import Path

import keyring
import pytest
from keyring.backends import fail
from keyring.errors import PasswordSetError
from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QAbstractButton, QLabel, QLineEdit, QWidget

from matchlens.embeddings.credentials import SERVICE, USERNAME
from matchlens.embeddings.metric import SPEC
from matchlens.ui.config_model import ConfigModel
from matchlens.ui.dialogs.key_endpoint import key_events, probe_connection
from matchlens.ui.dialogs.settings import SettingsDialog
from matchlens.ui.main_window import MainWindow
from tests.conftest import MemoryKeyring
from tests.embeddings.openai_server import FakeOpenAI, closed_port_url

TEST_KEY = "sk-test-9f8e7d6c5b4a3210SECRET"
ENV_KEY = "sk-env-0123456789abcdefENVKEY"


@pytest.fixture
def server():
    with FakeOpenAI() as fake:
        yield fake


@pytest.fixture
def dialog(qtbot, config: ConfigModel) -> SettingsDialog:
    dlg = SettingsDialog(config)
    qtbot.addWidget(dlg)
    dlg.show()
    qtbot.waitExposed(dlg)
    return dlg


def shown_texts(root: QWidget, skip: QLineEdit | None = None) -> list[str]:
    """Every text a person can see or hover in `root`, except what `skip` echoes (a password)."""
    texts = [root.windowTitle(), root.toolTip()]
    for widget in root.findChildren(QWidget):
        texts.append(widget.toolTip())
        if isinstance(widget, QLabel):
            texts.append(widget.text())
        elif isinstance(widget, QLineEdit):
            texts.append(widget.placeholderText())
            if widget is not skip:
                texts.append(widget.text())
        elif isinstance(widget, QAbstractButton):
            texts.append(widget.text())
    return texts


def assert_key_hidden(root: QWidget, key: str, skip: QLineEdit | None = None) -> None:
    for text in shown_texts(root, skip):
        assert key not in text and key[:-4] not in text, text


def type_key(qtbot, dialog: SettingsDialog, key: str) -> None:
    dialog.key_edit.setFocus()
    qtbot.keyClicks(dialog.key_edit, key)


def test_key_field_is_masked_with_a_show_toggle(qtbot, dialog) -> None:
    assert dialog.key_edit.echoMode() is QLineEdit.EchoMode.Password
    type_key(qtbot, dialog, TEST_KEY)
    assert TEST_KEY not in dialog.key_edit.displayText()
    dialog.show_button.click()
    assert dialog.key_edit.echoMode() is QLineEdit.EchoMode.Normal
    assert dialog.show_button.text() == "Hide"
    dialog.show_button.click()
    assert dialog.key_edit.echoMode() is QLineEdit.EchoMode.Password


def test_save_and_remove_a_key_through_the_dialog(qtbot, dialog, memory_keyring) -> None:
    assert dialog.source_label.text() == "No key set"
    assert not dialog.save_button.isEnabled()  # nothing typed
    assert not dialog.remove_button.isEnabled()  # nothing stored
    assert dialog.backend_label.text() == "Keyring backend: conftest MemoryKeyring"
    assert not dialog.notice_label.isVisible()

    type_key(qtbot, dialog, TEST_KEY)
    assert dialog.save_button.isEnabled()
    with qtbot.waitSignal(key_events().sig_key_changed) as changed:
        dialog.save_button.click()
    assert changed.args == ["keyring"]
    assert memory_keyring.store == {(SERVICE, USERNAME): TEST_KEY}
    assert dialog.source_label.text() == (
        "Using the key from the system keyring (conftest MemoryKeyring): sk-…CRET")
    assert dialog.key_edit.text() == ""  # the typed key does not linger
    assert dialog.key_message.text() == (
        "Saved the key to the system keyring (conftest MemoryKeyring).")
    assert dialog.remove_button.isEnabled()
    assert_key_hidden(dialog, TEST_KEY)

    with qtbot.waitSignal(key_events().sig_key_changed) as changed:
        dialog.remove_button.click()
    assert changed.args == [""]
    assert memory_keyring.store == {}
    assert dialog.source_label.text() == "No key set"
    assert dialog.key_message.text() == "Removed the key from the system keyring."
    assert not dialog.remove_button.isEnabled()


def test_enter_in_the_key_field_saves(qtbot, dialog, memory_keyring) -> None:
    type_key(qtbot, dialog, TEST_KEY)
    qtbot.keyClick(dialog.key_edit, Qt.Key.Key_Return)
    assert memory_keyring.store == {(SERVICE, USERNAME): TEST_KEY}


def test_environment_key_is_the_fallback(qtbot, config, monkeypatch, memory_keyring) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", ENV_KEY)
    dlg = SettingsDialog(config)
    qtbot.addWidget(dlg)
    assert dlg.source_label.text() == "Using the key from OPENAI_API_KEY: sk-…VKEY"
    assert not dlg.remove_button.isEnabled()  # nothing in the keyring to remove
    assert_key_hidden(dlg, ENV_KEY)

    memory_keyring.store[(SERVICE, USERNAME)] = TEST_KEY  # the keyring comes first
    dlg.refresh_key()
    assert dlg.source_label.text() == (
        "Using the key from the system keyring (conftest MemoryKeyring): sk-…CRET "
        "(OPENAI_API_KEY is set too; the keyring key comes first)")
    assert_key_hidden(dlg, ENV_KEY)
    assert_key_hidden(dlg, TEST_KEY)


def test_no_keyring_backend_disables_saving_and_says_what_to_do(qtbot, config, monkeypatch,
                                                                memory_keyring) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", ENV_KEY)
    keyring.set_keyring(fail.Keyring())
    try:
        dlg = SettingsDialog(config)
        qtbot.addWidget(dlg)
        dlg.show()
        qtbot.waitExposed(dlg)
        assert dlg.notice_label.isVisible()
        assert dlg.notice_label.text().startswith(
            "No system keyring is available here, so a key cannot be saved. "
            "Export OPENAI_API_KEY")
        assert dlg.backend_label.text() == "Keyring backend: fail Keyring"
        assert dlg.source_label.text() == "Using the key from OPENAI_API_KEY: sk-…VKEY"
        assert not dlg.key_edit.isEnabled()
        assert not dlg.show_button.isEnabled()
        dlg.key_edit.setText(TEST_KEY)  # even if text got there somehow
        assert not dlg.save_button.isEnabled()
        assert not dlg.save_key()
        assert not dlg.remove_button.isEnabled()
        dlg.key_edit.clear()
    finally:
        keyring.set_keyring(memory_keyring)
    assert memory_keyring.store == {}


class LockedKeyring(MemoryKeyring):
    """A keyring that refuses to store (a locked collection) and echoes what it was given."""

    def set_password(self, service: str, username: str, password: str) -> None:
        raise PasswordSetError(f"the collection is locked; refused {password}")


def test_a_keyring_error_is_a_sentence_in_the_dialog(qtbot, dialog, memory_keyring) -> None:
    keyring.set_keyring(LockedKeyring())
    try:
        dialog.refresh_key()
        type_key(qtbot, dialog, TEST_KEY)
        assert not dialog.save_key()
        assert dialog.key_message.isVisible()
        assert dialog.key_message.text().startswith(
            "The system keyring (test settings dialog LockedKeyring) could not save the key: "
            "the collection is locked")
        assert_key_hidden(dialog, TEST_KEY, skip=dialog.key_edit)  # scrubbed from the error
    finally:
        keyring.set_keyring(memory_keyring)


def test_base_url_and_model_go_to_the_config_never_the_key(qtbot, dialog, config, memory_keyring,
                                                           tmp_path: Path) -> None:
    memory_keyring.store[(SERVICE, USERNAME)] = TEST_KEY
    dialog.base_url_edit.setText("http://localhost:11434/v1/")
    dialog.model_edit.setText("nomic-embed-text")
    with qtbot.waitSignal(config.sig_changed):
        dialog.model_edit.editingFinished.emit()
    assert (config.config().base_url, config.config().model) == (
        "http://localhost:11434/v1/", "nomic-embed-text")
    options = config.settings(SPEC.id).options  # what the metric is computed with
    assert (options["base_url"], options["model"]) == ("http://localhost:11434/v1/",
                                                       "nomic-embed-text")
    path = tmp_path / "thresholds.toml"
    config.save_as(path)
    text = path.read_text(encoding="utf-8")
    assert tomllib.loads(text)["openai"] == {"base_url": "http://localhost:11434/v1/",
                                             "model": "nomic-embed-text"}
    assert TEST_KEY not in text and "api_key" not in text


def test_endpoint_fields_replace_a_per_metric_copy(qtbot, memory_keyring) -> None:
    config = ConfigModel(ConfigModel().config().with_option(SPEC.id, "base_url",
                                                            "http://old:1/v1"))
    dlg = SettingsDialog(config)
    qtbot.addWidget(dlg)
    dlg.base_url_edit.setText("http://new:2/v1")
    assert dlg.apply_endpoint()
    assert config.settings(SPEC.id).options["base_url"] == "http://new:2/v1"


def test_a_bad_base_url_is_a_sentence_and_is_not_saved(qtbot, dialog, config) -> None:
    dialog.base_url_edit.setText("ftp://example.com/v1")
    dialog.base_url_edit.editingFinished.emit()
    assert config.config().base_url == ""
    assert dialog.endpoint_message.isVisible()
    assert dialog.endpoint_message.text() == (
        "Not saved: base_url must be an http:// or https:// URL such as "
        "http://localhost:11434/v1, not 'ftp://example.com/v1'.")


def _probe(qtbot, dialog: SettingsDialog) -> tuple[bool, str]:
    with qtbot.waitSignal(dialog.sig_probe_done, timeout=20000) as done:
        dialog.test_button.click()
        assert not dialog.test_button.isEnabled()  # the click returned at once: a worker runs it
        assert dialog.test_result.text() == "Testing…"
    qtbot.waitUntil(lambda: not dialog.is_testing())
    assert dialog.test_button.isEnabled()
    ok, sentence = done.args
    assert dialog.test_result.text() == sentence
    return ok, sentence


def test_test_connection_succeeds_through_the_real_client(qtbot, dialog, server,
                                                          memory_keyring) -> None:
    memory_keyring.store[(SERVICE, USERNAME)] = TEST_KEY
    dialog.base_url_edit.setText(server.base_url)
    ok, sentence = _probe(qtbot, dialog)
    assert ok
    assert re.fullmatch(re.escape(f"Connected: {server.base_url}, model text-embedding-3-small, "
                                  "64 dimensions, ") + r"\d+\.\d\d s", sentence), sentence
    assert server.request_count == 1
    assert server.requests[0].authorization == f"Bearer {TEST_KEY}"  # the key in use was sent
    assert_key_hidden(dialog, TEST_KEY)

    ok, _ = _probe(qtbot, dialog)  # a test is never answered from the cache
    assert ok and server.request_count == 2


def test_test_connection_reports_a_rejected_key(qtbot, dialog, server, monkeypatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", ENV_KEY)
    server.fail_on("MatchLens", 401)  # the fake server echoes the key, as OpenAI does
    dialog.base_url_edit.setText(server.base_url)
    ok, sentence = _probe(qtbot, dialog)
    assert not ok
    assert sentence == ("Connection failed: 401: the API key was rejected "
                        "(the key from OPENAI_API_KEY)")
    assert_key_hidden(dialog, ENV_KEY)


def test_the_probe_logs_never_hold_the_key(server, monkeypatch, caplog) -> None:
    # Called directly: a log record made in a pool thread registers a "Dummy" thread on 3.11.
    caplog.set_level(logging.DEBUG)  # whatever the app, openai or httpx log at any level
    monkeypatch.setenv("OPENAI_API_KEY", ENV_KEY)
    server.fail_on("MatchLens", 401)  # the server's message echoes the key
    result = probe_connection(server.base_url, "")
    assert not result.ok
    assert any(r.name.startswith("openai") for r in caplog.records)
    assert ENV_KEY not in caplog.text and ENV_KEY[:-4] not in caplog.text


def test_test_connection_reports_an_unreachable_endpoint(qtbot, dialog, monkeypatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", ENV_KEY)
    url = closed_port_url()
    dialog.base_url_edit.setText(url)
    ok, sentence = _probe(qtbot, dialog)
    assert not ok
    assert sentence == f"Connection failed: Cannot reach {url}: connection refused"


def test_test_connection_with_a_typed_but_unsaved_key_says_so(qtbot, dialog, server,
                                                              monkeypatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", ENV_KEY)
    dialog.base_url_edit.setText(server.base_url)
    type_key(qtbot, dialog, TEST_KEY)
    ok, sentence = _probe(qtbot, dialog)
    assert ok
    assert sentence.endswith("the key you typed is not saved yet, so it was not tested.")
    assert server.requests[0].authorization == f"Bearer {ENV_KEY}"


def test_the_key_is_written_to_no_file(qtbot, config, memory_keyring, private_dirs,
                                       server) -> None:
    """QSettings, the autosaved TOML, caches: the key is in none of them."""
    autosave = private_dirs / "config" / "matchlens" / "config.toml"
    model = ConfigModel(autosave_path=autosave)
    window = MainWindow(model, restore=False)
    qtbot.addWidget(window)
    try:
        dlg = window.open_settings()
        type_key(qtbot, dlg, TEST_KEY)
        dlg.save_key()
        dlg.base_url_edit.setText(server.base_url)
        assert _probe(qtbot, dlg)[0]
        dlg.close()
        window.save_settings()
        model.flush()
    finally:
        window.shutdown()
    assert autosave.exists()
    files = [p for p in private_dirs.rglob("*") if p.is_file()]
    assert any(p.suffix == ".ini" for p in files)  # QSettings was written
    for path in files:
        assert TEST_KEY.encode() not in path.read_bytes(), path


def test_settings_menu_item_opens_one_dialog(qtbot) -> None:
    window = MainWindow(ConfigModel(), restore=False)
    qtbot.addWidget(window)
    try:
        action = window.action_settings
        assert action.text() == "&Settings…"
        assert action.shortcut() == QKeySequence("Ctrl+,")
        menus = {a.text(): a.menu() for a in window.menuBar().actions()}
        assert action in menus["&Tools"].actions()
        action.trigger()
        dialogs = window.findChildren(SettingsDialog)
        assert len(dialogs) == 1 and dialogs[0].isVisible()
        dialogs[0].close()
        action.trigger()  # reopened, not a second one
        assert window.findChildren(SettingsDialog) == dialogs and dialogs[0].isVisible()
        dialogs[0].close()
    finally:
        window.shutdown()


def test_closing_forgets_an_unsaved_key(qtbot, dialog) -> None:
    type_key(qtbot, dialog, TEST_KEY)
    dialog.close()
    assert dialog.key_edit.text() == ""
