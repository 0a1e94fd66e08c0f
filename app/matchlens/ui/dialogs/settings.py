"""Settings: the OpenAI API key (system keyring), the embeddings endpoint, "Test connection".

The key is only ever handed to `matchlens.embeddings.credentials` (which puts it in the OS
keyring); it is never written to QSettings, the TOML config, a log or any widget text except
the password field it was typed into, cleared once the key is saved; shown: `mask(key)`.

Base URL and model live in the ConfigModel's `Config.base_url` / `.model` (the TOML's
`[openai]`, where every network metric's options come from). "Test connection" runs
`ui.dialogs.key_endpoint.probe_connection` in a superqt worker: the window never freezes.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from matchlens.core.errors import ConfigError
from matchlens.embeddings.credentials import (
    ENV_VAR,
    ApiKey,
    CredentialError,
    delete_api_key,
    keyring_available,
    keyring_backend_name,
    resolve_api_key,
    save_api_key,
)
from matchlens.embeddings.endpoint import (
    DEFAULT_MODEL,
    resolve_endpoint,
)
from matchlens.embeddings.redact import scrub
from matchlens.ui.config_model import ConfigModel
from matchlens.ui.dialogs.key_endpoint import (
    NETWORK_OPTIONS,
    base_url_placeholder,
    env_key_set,
    key_events,
    probe_connection,
    source_sentence,
    with_endpoint,
)
from matchlens.ui.palette import is_dark


# -- the dialog ------------------------------------------------------------------------------------
class SettingsDialog(QDialog):
    """API key, base URL, model and "Test connection". Changes apply at once; Close closes."""

    sig_probe_done = Signal(bool, str)  # ok, sentence (for tests and the status bar)

    def __init__(self, config: ConfigModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.config = config
        self.setObjectName("settings_dialog")
        self.setWindowTitle("Settings — MatchLens")
        self._key: ApiKey = ApiKey(None, None, "")
        self._probe_worker: Any = None
        self._probe_generation = 0
        self._tones: dict[QLabel, str] = {}

        # API key --------------------------------------------------------------------------------
        key_box = QGroupBox("OpenAI API key", self)
        self.source_label = QLabel(key_box)
        self.source_label.setObjectName("source_label")
        self.source_label.setWordWrap(True)
        self.source_label.setTextFormat(Qt.TextFormat.PlainText)
        self.key_edit = QLineEdit(key_box)
        self.key_edit.setObjectName("key_edit")
        self.key_edit.setEchoMode(QLineEdit.EchoMode.Password)
        self.key_edit.setPlaceholderText("Paste a new key (sk-…)")
        self.key_edit.setToolTip("The key is stored in the system keyring, never in a file")
        self.key_edit.setClearButtonEnabled(True)
        self.key_edit.setMinimumWidth(320)
        self.show_button = QToolButton(key_box)
        self.show_button.setText("Show")
        self.show_button.setCheckable(True)
        self.show_button.setToolTip("Show or hide the key you are typing")
        self.save_button = QPushButton("Save to keyring", key_box)
        self.save_button.setToolTip("Store the typed key in the system keyring")
        self.save_button.setAutoDefault(False)
        self.remove_button = QPushButton("Remove", key_box)
        self.remove_button.setToolTip("Delete the key stored in the system keyring")
        self.remove_button.setAutoDefault(False)
        self.backend_label = QLabel(key_box)
        self.backend_label.setObjectName("backend_label")
        self.backend_label.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        self.notice_label = QLabel(key_box)
        self.notice_label.setObjectName("notice_label")
        self.notice_label.setWordWrap(True)
        self.notice_label.setTextFormat(Qt.TextFormat.PlainText)
        self.key_message = QLabel(key_box)
        self.key_message.setObjectName("key_message")
        self.key_message.setWordWrap(True)
        self.key_message.setTextFormat(Qt.TextFormat.PlainText)
        self.key_message.setVisible(False)

        edit_row = QHBoxLayout()
        edit_row.addWidget(self.key_edit, 1)
        edit_row.addWidget(self.show_button)
        button_row = QHBoxLayout()
        button_row.addWidget(self.save_button)
        button_row.addWidget(self.remove_button)
        button_row.addStretch(1)
        key_layout = QVBoxLayout(key_box)
        key_layout.addWidget(self.source_label)
        key_layout.addLayout(edit_row)
        key_layout.addLayout(button_row)
        key_layout.addWidget(self.key_message)
        key_layout.addWidget(self.notice_label)
        key_layout.addWidget(self.backend_label)

        # Endpoint -------------------------------------------------------------------------------
        endpoint_box = QGroupBox("Embeddings endpoint", self)
        current = config.config()
        self.base_url_edit = QLineEdit(current.base_url, endpoint_box)
        self.base_url_edit.setObjectName("base_url_edit")
        self.base_url_edit.setPlaceholderText(base_url_placeholder())
        self.base_url_edit.setToolTip(
            "Any OpenAI-compatible /v1 endpoint: OpenAI, an Azure-compatible proxy, "
            "Ollama (http://localhost:11434/v1), vLLM. Empty: OPENAI_BASE_URL, else OpenAI.")
        self.model_edit = QLineEdit(current.model, endpoint_box)
        self.model_edit.setObjectName("model_edit")
        self.model_edit.setPlaceholderText(DEFAULT_MODEL)
        self.model_edit.setToolTip("The embeddings model name at that endpoint")
        self.endpoint_message = QLabel(endpoint_box)
        self.endpoint_message.setObjectName("endpoint_message")
        self.endpoint_message.setWordWrap(True)
        self.endpoint_message.setTextFormat(Qt.TextFormat.PlainText)
        self.endpoint_message.setVisible(False)
        self.test_button = QPushButton("Test connection", endpoint_box)
        self.test_button.setAutoDefault(False)
        self.test_button.setToolTip(
            "Embed one short text with the key in use (a saved key, not one still being typed)")
        self.test_result = QLabel(endpoint_box)
        self.test_result.setObjectName("test_result")
        self.test_result.setWordWrap(True)
        self.test_result.setTextFormat(Qt.TextFormat.PlainText)
        self.test_result.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        form = QFormLayout()
        form.addRow("Base URL", self.base_url_edit)
        form.addRow("Model", self.model_edit)
        test_row = QHBoxLayout()
        test_row.addWidget(self.test_button, 0, Qt.AlignmentFlag.AlignTop)
        test_row.addWidget(self.test_result, 1)
        endpoint_layout = QVBoxLayout(endpoint_box)
        endpoint_layout.addLayout(form)
        endpoint_layout.addWidget(self.endpoint_message)
        endpoint_layout.addLayout(test_row)

        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(key_box)
        layout.addWidget(endpoint_box)
        layout.addStretch(1)
        layout.addWidget(buttons)

        self.show_button.toggled.connect(self._on_show_toggled)
        self.key_edit.textChanged.connect(self._update_buttons)
        self.key_edit.returnPressed.connect(self.save_key)
        self.save_button.clicked.connect(self.save_key)
        self.remove_button.clicked.connect(self.remove_key)
        self.base_url_edit.editingFinished.connect(self.apply_endpoint)
        self.model_edit.editingFinished.connect(self.apply_endpoint)
        self.test_button.clicked.connect(self.test_connection)
        self.config.sig_changed.connect(self._on_config_changed)
        self.refresh_key()
        self.resize(max(560, self.sizeHint().width()), self.sizeHint().height())

    # -- key --------------------------------------------------------------------------------------
    def refresh_key(self) -> None:
        """Re-read where the key in use comes from and show it (masked)."""
        self._key = resolve_api_key()
        available = keyring_available()
        self.source_label.setText(source_sentence(self._key))
        also_env = self._key.source == "keyring" and env_key_set()
        if also_env:
            self.source_label.setText(self.source_label.text() + f" ({ENV_VAR} is set too; "
                                      "the keyring key comes first)")
        self.backend_label.setText(f"Keyring backend: {keyring_backend_name()}")
        if not available:
            self.notice_label.setText(
                "No system keyring is available here, so a key cannot be saved. Export "
                f"{ENV_VAR} in the shell that starts MatchLens instead "
                f"(export {ENV_VAR}=sk-…), then restart it.")
        elif self._key.keyring_problem:
            self.notice_label.setText(f"{self._key.keyring_problem}.")
        else:
            self.notice_label.setText("")
        self.notice_label.setVisible(bool(self.notice_label.text()))
        self._colour(self.notice_label, warn=True)
        self.key_edit.setEnabled(available)
        self.show_button.setEnabled(available)
        self._update_buttons()

    def _update_buttons(self) -> None:
        available = keyring_available()
        self.save_button.setEnabled(available and bool(self.key_edit.text().strip()))
        self.remove_button.setEnabled(available and self._key.source == "keyring")
        if not available:
            why = "No system keyring is available; export OPENAI_API_KEY instead"
            self.save_button.setToolTip(why)
            self.remove_button.setToolTip(why)

    def _on_show_toggled(self, shown: bool) -> None:
        self.key_edit.setEchoMode(QLineEdit.EchoMode.Normal if shown
                                  else QLineEdit.EchoMode.Password)
        self.show_button.setText("Hide" if shown else "Show")

    def save_key(self) -> bool:
        text = self.key_edit.text()
        if not text.strip() or not self.save_button.isEnabled():
            return False
        try:
            save_api_key(text)
        except CredentialError as err:
            self._say(str(err), error=True)
            return False
        self.key_edit.clear()
        self.show_button.setChecked(False)
        self.refresh_key()
        self._say(f"Saved the key to the system keyring ({keyring_backend_name()}).")
        key_events().sig_key_changed.emit(self._key.source or "")
        return True

    def remove_key(self) -> bool:
        try:
            removed = delete_api_key()
        except CredentialError as err:
            self._say(str(err), error=True)
            return False
        self.refresh_key()
        if removed:
            self._say("Removed the key from the system keyring.")
        else:
            self._say("There was no key in the system keyring.")
        key_events().sig_key_changed.emit(self._key.source or "")
        return removed

    def _shown(self, text: str) -> str:
        """A sentence for this dialog, with every key masked: the stored one, the one in use,
        the one being typed, and anything key-shaped (a key pasted into the wrong field)."""
        return scrub(text, self._key.value, self.key_edit.text().strip())

    def _say(self, text: str, error: bool = False) -> None:
        self.key_message.setText(self._shown(text))
        self.key_message.setVisible(True)
        self._colour(self.key_message, error=error)

    # -- endpoint ---------------------------------------------------------------------------------
    def endpoint_fields(self) -> tuple[str, str]:
        return self.base_url_edit.text().strip(), self.model_edit.text().strip()

    def apply_endpoint(self) -> bool:
        """Store base URL and model in the config (and so the TOML); a bad URL stays unsaved."""
        base_url, model = self.endpoint_fields()
        try:
            resolve_endpoint({"base_url": base_url, "model": model or DEFAULT_MODEL})
        except ConfigError as err:
            self.endpoint_message.setText(self._shown(f"Not saved: {err}."))
            self.endpoint_message.setVisible(True)
            self._colour(self.endpoint_message, error=True)
            return False
        self.endpoint_message.setVisible(False)
        current = self.config.config()
        shadowed = any(k in NETWORK_OPTIONS for values in current.options.values()
                       for k in values)
        if (current.base_url, current.model) != (base_url, model) or shadowed:
            self.config.replace(with_endpoint(current, base_url, model))
        return True

    def _on_config_changed(self, _metric_id: str) -> None:
        current = self.config.config()
        for edit, value in ((self.base_url_edit, current.base_url),
                            (self.model_edit, current.model)):
            if not edit.hasFocus() and edit.text().strip() != value:
                edit.setText(value)

    def test_connection(self) -> None:
        """Embed one text off the GUI thread; the answer lands in `test_result`."""
        if not self.apply_endpoint():
            self._show_probe(False, self.endpoint_message.text())
            return
        from superqt.utils import create_worker

        base_url, model = self.endpoint_fields()
        self._probe_generation += 1
        generation = self._probe_generation
        self.test_button.setEnabled(False)
        self.test_result.setText("Testing…")
        self._colour(self.test_result)
        worker = create_worker(probe_connection, base_url, model, _start_thread=False)
        worker.returned.connect(
            lambda result: self._on_probe(generation, result.ok, result.sentence))
        worker.errored.connect(
            lambda err: self._on_probe(generation, False,
                                       f"Connection failed: {type(err).__name__}"))
        worker.finished.connect(self._on_probe_finished)
        self._probe_worker = worker
        worker.start()

    def _on_probe(self, generation: int, ok: bool, sentence: str) -> None:
        if generation != self._probe_generation:
            return  # an older test (the fields changed since)
        if self.key_edit.text().strip():
            sentence += " — the key you typed is not saved yet, so it was not tested."
        self._show_probe(ok, sentence)

    def _show_probe(self, ok: bool, sentence: str) -> None:
        sentence = self._shown(sentence)
        self.test_result.setText(sentence)
        self._colour(self.test_result, error=not ok, ok=ok)
        self.sig_probe_done.emit(ok, sentence)

    def _on_probe_finished(self) -> None:
        self._probe_worker = None
        self.test_button.setEnabled(True)

    def is_testing(self) -> bool:
        return self._probe_worker is not None

    # -- looks ------------------------------------------------------------------------------------
    def _colour(self, label: QLabel, error: bool = False, warn: bool = False,
                ok: bool = False) -> None:
        """Error / warning / success text in a hue readable on this palette (no fixed colours)."""
        tone = "error" if error else "warn" if warn else "ok" if ok else ""
        self._tones[label] = tone
        if not tone:
            label.setStyleSheet("")
        else:
            hue = {"error": 0, "warn": 38, "ok": 130}[tone]
            dark = is_dark(self.palette())
            colour = QColor.fromHslF(hue / 360.0, 0.75, 0.68 if dark else 0.33)
            label.setStyleSheet(f"QLabel {{ color: {colour.name()}; }}")
        self._fit()

    def _fit(self) -> None:
        """Grow to show every wrapped line after a message appeared (never shrink under the user)."""
        layout = self.layout()
        if layout is None:
            return
        layout.activate()
        need = self.heightForWidth(self.width()) if self.hasHeightForWidth() else -1
        need = max(need, self.sizeHint().height() if need < 0 else need)
        if need > self.height():
            self.resize(self.width(), need)

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt override
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange:  # dark mode switched: recolour
            for label, tone in list(self._tones.items()):
                self._colour(label, error=tone == "error", warn=tone == "warn", ok=tone == "ok")

    def done(self, result: int) -> None:  # noqa: D401 - Qt override
        # Escape or Close: keep what was typed in the endpoint fields, as editingFinished would.
        self.apply_endpoint()
        self.key_edit.clear()  # an unsaved key does not linger in a hidden dialog
        self.show_button.setChecked(False)
        self.key_message.setVisible(False)
        super().done(result)


def show_settings(config: ConfigModel, parent: QWidget | None = None) -> SettingsDialog:
    """Open (or raise) the Settings dialog of `parent`'s window; it is not modal."""
    host = parent.window() if parent is not None else None
    dialog = host.findChild(SettingsDialog) if host is not None else None
    if dialog is None or dialog.config is not config:
        dialog = SettingsDialog(config, host)  # kept (hidden) after Close, reused next time
    else:
        dialog.refresh_key()
    if dialog.isVisible():  # already open (maybe behind the window): bring it forward
        dialog.raise_()
        dialog.activateWindow()
    else:
        dialog.show()  # a newly shown window comes up in front by itself
    return dialog


__all__ = ["SettingsDialog", "show_settings"]
