"""The panel of a network metric (semantic similarity): on demand, key-aware, honest when stale.

It costs money, so nothing is sent while the user types: Compute asks once, "auto" asks about a
second after the texts stop changing. With no API key and an endpoint that needs one (OpenAI's),
the panel says so and offers "Set key…" (the Settings dialog) instead of a Compute that could
only fail. A score for texts (or an endpoint) that have changed since is greyed and says so; the
compare tab drops answers that arrive for such stale requests.

Whether a key exists is read off the GUI thread (a locked keyring may block on an unlock prompt)
and only its source ("keyring" / "environment" / none) comes back, never the key.
"""

from __future__ import annotations

import contextlib
from typing import Any

from PySide6.QtCore import QEvent, QObject, Qt, QThreadPool, Signal
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QCheckBox, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from matchlens.core.errors import ConfigError
from matchlens.core.metrics.registry import MetricSpec
from matchlens.core.results import Label, Outcome
from matchlens.embeddings.credentials import NO_KEY
from matchlens.embeddings.endpoint import Endpoint, resolve_endpoint
from matchlens.ui.compare.panels import MetricPanel
from matchlens.ui.config_model import ConfigModel
from matchlens.ui.dialogs.key_endpoint import key_events
from matchlens.ui.palette import is_dark

KEY_UNKNOWN = "unknown"  # not checked yet: Compute stays available, the answer will tell
NO_KEY_TEXT = "No API key"
NEEDS_KEY_EXPLANATION = ("OpenAI needs an API key: save one in Settings (system keyring) or "
                         "export OPENAI_API_KEY. A local endpoint (Ollama, vLLM) needs none.")


def key_source() -> str:
    """'keyring', 'environment' or '' — runs in a worker; the key itself never leaves here."""
    from matchlens.embeddings.credentials import resolve_api_key

    return resolve_api_key().source or ""


def endpoint_text(endpoint: Endpoint) -> str:
    """'text-embedding-3-small at api.openai.com' — short enough for the panel."""
    from urllib.parse import urlsplit

    parts = urlsplit(endpoint.display_url)
    where = parts.netloc + (parts.path.rstrip("/") if not endpoint.is_openai else "")
    return f"{endpoint.model} at {where}"


class _KeyAnswer(QObject):
    """Carries the key check's answer from the pool thread to the panel (a queued signal)."""

    sig_answer = Signal(object)  # the source string, or None when the check failed


class NetworkPanel(MetricPanel):
    """A MetricPanel with Compute / auto, the endpoint in use, the key state and staleness."""

    sig_settings_requested = Signal()

    # Class defaults: MetricPanel.__init__ already calls the overridden methods below.
    _key: str = KEY_UNKNOWN
    _stale: bool = False
    _computing: bool = False
    _endpoint_error: str | None = None
    _needs_key: bool = True

    def __init__(self, spec: MetricSpec, config: ConfigModel, parent: QWidget | None = None) -> None:
        super().__init__(spec, config, parent)
        self._key_worker: Any = None
        key_events().sig_key_changed.connect(self.set_key_source)
        self._listening = True
        self.check_key()

    # -- construction (called from MetricPanel.__init__) ---------------------------------------
    def _build_network_row(self) -> QVBoxLayout:  # type: ignore[override]
        self.compute_button = QPushButton("Compute", self)
        self.compute_button.setToolTip(
            "Send both texts to the embeddings endpoint now (this may cost money; "
            "answers are cached on disk, so asking again is free)")
        self.auto_box = QCheckBox("auto", self)
        self.auto_box.setToolTip(
            "Recompute about a second after the texts stop changing (each new text is sent)")
        self.endpoint_label = QLabel(self)
        self.endpoint_label.setObjectName("endpoint_label")
        self.endpoint_label.setTextFormat(Qt.TextFormat.PlainText)
        self.endpoint_label.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        self.endpoint_label.setWordWrap(True)  # a long URL wraps instead of widening the panel
        self.settings_button = QPushButton(self)
        self.settings_button.setObjectName("settings_button")
        self.compute_button.clicked.connect(self._on_compute_clicked)
        self.auto_box.toggled.connect(lambda on: self.sig_auto_changed.emit(self.spec.id, on))
        self.settings_button.clicked.connect(self.sig_settings_requested)
        row = QHBoxLayout()
        row.addWidget(self.compute_button)
        row.addWidget(self.auto_box)
        row.addStretch(1)
        row.addWidget(self.settings_button)
        column = QVBoxLayout()
        column.setSpacing(2)
        column.addLayout(row)
        column.addWidget(self.endpoint_label)
        return column

    # -- key and endpoint ----------------------------------------------------------------------
    def check_key(self) -> None:
        """Find out (in a pool thread) whether a key is set; the answer updates the panel.

        A plain QThreadPool task rather than a superqt worker: this runs while the window
        opens, and importing superqt (and keyring, inside the task) would delay its first
        paint."""
        if self._key_worker is not None:
            return
        answer = _KeyAnswer(self)
        answer.sig_answer.connect(self._on_key_checked)
        self._key_worker = answer

        def run() -> None:
            try:
                source: str | None = key_source()
            except Exception:  # noqa: BLE001 - the panel stays "unknown"; Compute will tell
                source = None
            with contextlib.suppress(RuntimeError):  # the panel was closed meanwhile
                answer.sig_answer.emit(source)

        QThreadPool.globalInstance().start(run)

    def _on_key_checked(self, source: str | None) -> None:
        self._key_worker = None
        if source is not None:
            self.set_key_source(source)

    def set_key_source(self, source: str) -> None:
        """'keyring', 'environment' or '' (no key), as Settings or the key check found it."""
        self._key = source
        self._update_state()

    def key_source(self) -> str:
        return self._key

    def has_key(self) -> bool | None:
        return None if self._key == KEY_UNKNOWN else bool(self._key)

    def _endpoint(self) -> Endpoint | None:
        try:
            endpoint = resolve_endpoint(self.config.settings(self.spec.id).options)
        except ConfigError as err:
            self._endpoint_error = str(err)
            return None
        self._endpoint_error = None
        return endpoint

    def blocked_by_key(self) -> bool:
        """True when computing could only fail for want of a key."""
        return self._needs_key and self._key == ""

    def can_compute(self) -> bool:
        return not self.blocked_by_key() and self._endpoint_error is None

    def _update_state(self) -> None:
        endpoint = self._endpoint()
        self._needs_key = endpoint is None or endpoint.is_openai
        blocked = self.blocked_by_key()
        if blocked:
            self.endpoint_label.setText(f"{NO_KEY_TEXT} — semantic similarity cannot be computed")
            self.endpoint_label.setToolTip(NEEDS_KEY_EXPLANATION)
            self._warn(self.endpoint_label, True)
            self.settings_button.setText("Set key…")
            self.settings_button.setToolTip("Open Settings to save an API key in the keyring")
        else:
            self._warn(self.endpoint_label, False)
            if endpoint is None:
                self.endpoint_label.setText("endpoint not valid")
                self.endpoint_label.setToolTip(self._endpoint_error or "")
            else:
                self.endpoint_label.setText(endpoint_text(endpoint))
                self.endpoint_label.setToolTip(
                    f"Texts are sent to {endpoint.display_url} ({endpoint.model}); "
                    f"{self._key_words()}")
            self.settings_button.setText("Settings…")
            self.settings_button.setToolTip("API key, base URL and model")
        self.settings_button.setMinimumWidth(self.settings_button.sizeHint().width())
        ready = not blocked and endpoint is not None
        self.compute_button.setEnabled(ready and not self._computing)
        self.auto_box.setEnabled(ready)
        self._rejudge()

    def _key_words(self) -> str:
        return {"keyring": "the key comes from the system keyring",
                "environment": "the key comes from OPENAI_API_KEY",
                "": "no key is set (fine for a local endpoint)",
                }.get(self._key, "the key has not been checked yet")

    def _warn(self, label: QLabel, on: bool) -> None:
        if not on:
            label.setStyleSheet("")
            label.setForegroundRole(QPalette.ColorRole.PlaceholderText)
            return
        colour = QColor.fromHslF(0.0, 0.75, 0.68 if is_dark(self.palette()) else 0.38)
        label.setStyleSheet(f"QLabel {{ color: {colour.name()}; font-weight: 600; }}")

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt override
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange and hasattr(self, "endpoint_label"):
            self._update_state()  # the "No API key" colour follows light / dark mode

    def refresh_from_model(self) -> None:
        super().refresh_from_model()
        if hasattr(self, "endpoint_label"):  # MetricPanel.__init__ calls this before the row
            self._update_state()

    # -- requests and answers ------------------------------------------------------------------
    def _on_compute_clicked(self) -> None:
        self.sig_compute_requested.emit(self.spec.id)

    def set_computing(self) -> None:
        """A request went out for the current texts."""
        self._computing = True
        self._stale = False
        self.compute_button.setEnabled(False)
        self.set_pending(True)
        self._rejudge()

    def mark_stale(self) -> None:
        """The texts or the endpoint changed: the shown score (or pending answer) is not theirs."""
        if self._outcome is None and not self._computing:
            return
        self._computing = False
        self._stale = self._outcome is not None  # no score yet: simply back to "press Compute"
        self.compute_button.setEnabled(self.can_compute())
        self.set_pending(False)  # greyed while stale (see set_pending)
        self._rejudge()

    def is_stale(self) -> bool:
        return self._stale

    def is_computing(self) -> bool:
        return self._computing

    def set_outcome(self, outcome: Outcome | None) -> None:
        self._computing = False
        self._stale = False
        if (outcome is not None and outcome.label is Label.ERROR
                and outcome.explanation.startswith(NO_KEY.split(":")[0])):
            self._key = ""  # the key went away since it was checked (or never was)
        super().set_outcome(outcome)
        if hasattr(self, "compute_button"):
            self._update_state()

    def _rejudge(self) -> None:
        super()._rejudge()
        if not hasattr(self, "compute_button"):
            return
        if self._computing:
            self.explanation.setText("Asking the embeddings endpoint…")
            self.badge.setVisible(False)
        elif self._stale:
            self.explanation.setText(
                "This score is for earlier texts (or another endpoint); "
                + ("it is recomputed shortly (auto)." if self.auto_box.isChecked()
                   else "press Compute to update it."))
            self.badge.setVisible(False)
        elif self._outcome is None:
            if self.blocked_by_key():
                self.explanation.setText(NEEDS_KEY_EXPLANATION)
            elif self._endpoint_error is not None:
                self.explanation.setText(self._endpoint_error)
            else:
                self.explanation.setText(
                    "Press Compute to ask the embeddings endpoint (or tick auto)")
        elif self._result is not None and self._result.score is None:
            # Error sentences from the embeddings layer may start in lower case ("cannot reach").
            text = self._result.explanation
            self.explanation.setText(text[:1].upper() + text[1:])

    def set_pending(self, pending: bool) -> None:
        super().set_pending(pending or self._computing or self._stale)

    # -- lifetime ------------------------------------------------------------------------------
    def shutdown(self) -> None:
        """Wait for the key check (it is quick; a locked keyring gets two seconds)."""
        if self._key_worker is not None:
            QThreadPool.globalInstance().waitForDone(2000)
        if self._listening:
            self._listening = False
            key_events().sig_key_changed.disconnect(self.set_key_source)
