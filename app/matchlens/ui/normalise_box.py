"""One box that sets the normalisation of every text metric at once (what `--normalise` does),
shown in the batch mapping and on the compare toolbar; it shows the normalisation the text
metrics share, or that they differ."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QComboBox, QWidget

from matchlens.core.errors import MatchLensError
from matchlens.core.metrics.registry import all_metrics
from matchlens.core.text.normalise import PRESETS, SIMPLE_STEPS, to_text
from matchlens.ui.config_model import ConfigModel

DIFFERS = "(differs per metric)"


def text_metric_normalisations(config: ConfigModel) -> dict[str, Any]:
    return {spec.id: config.settings(spec.id).options.get("normalise")
            for spec in all_metrics() if spec.text}


def normalise_every_text_metric(config: ConfigModel, value: str) -> str | None:
    """Set every text metric's normalisation as one undo step; the error sentence, if any."""
    try:
        new = config.config().with_normalisation(value)
    except MatchLensError as err:
        return str(err)
    config.push(new, "", "Normalise every text metric")
    return None


class NormaliseBox(QComboBox):
    sig_chosen = Signal(str)  # what the user picked or typed (never the "differs" note)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setEditable(True)
        self.addItems(["none", *PRESETS, *SIMPLE_STEPS])
        self.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        self.setMinimumContentsLength(12)
        self.setToolTip("How every text metric normalises both texts before scoring: none, "
                        'squad, a step, or a JSON array such as ["lowercase", '
                        '"strip_punctuation"]; each metric\'s own shows in its panel')
        self.activated.connect(lambda _index: self._chosen())
        self.lineEdit().editingFinished.connect(self._chosen)

    def show_values(self, values: dict[str, Any]) -> None:
        shared = {to_text(v) or "none" for v in values.values()}
        text = shared.pop() if len(shared) == 1 else DIFFERS
        if self.currentText() != text and not self.lineEdit().hasFocus():
            self.setEditText(text)

    def _chosen(self) -> None:
        text = self.currentText()
        if text != DIFFERS:
            self.sig_chosen.emit(text)
