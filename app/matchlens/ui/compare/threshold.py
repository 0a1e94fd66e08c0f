"""A threshold control: "threshold" checkbox, direction sign, slider and number box in step.

It only reports what the user did (`sig_threshold_changed`); the ConfigModel owns the value, and
`set_threshold` shows whatever the model holds without echoing a change back.
"""

from __future__ import annotations

import math

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QCheckBox, QDoubleSpinBox, QHBoxLayout, QSlider, QWidget

from matchlens.core.metrics.registry import MetricSpec
from matchlens.core.results import Direction

_STEPS = 100  # slider resolution on a bounded range: 0.01 on 0..1, as the number box shows


class ThresholdControl(QWidget):
    sig_threshold_changed = Signal(object)  # float | None

    def __init__(self, spec: MetricSpec, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.spec = spec
        self._lo, hi = spec.score_range
        self._hi = hi  # None: unbounded above (distances); the slider then grows with the data
        self._top = float(hi) if hi is not None else 10.0
        self._last: float = (spec.default_threshold if spec.default_threshold is not None
                             else self._lo + (self._top - self._lo) / 2)
        self._updating = False
        sign = "≥" if spec.direction is Direction.MAX else "≤"

        self.enabled_box = QCheckBox("threshold", self)
        self.enabled_box.setToolTip("Untick to show the score without a pass/fail verdict")
        self.slider = QSlider(Qt.Orientation.Horizontal, self)
        self.slider.setToolTip(f"Passes when the score is {sign} the threshold")
        self.spin = QDoubleSpinBox(self)
        self.spin.setPrefix(f"{sign} ")
        self.spin.setKeyboardTracking(False)
        if spec.integer:
            self.spin.setDecimals(0)
            self.spin.setSingleStep(1)
        else:
            self.spin.setDecimals(2)
            self.spin.setSingleStep(0.01)
        self.spin.setRange(self._lo, float(hi) if hi is not None else 1e9)
        self.spin.setAccessibleName(f"{spec.label} threshold")
        self._configure_slider()

        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.enabled_box)
        row.addWidget(self.slider, 1)
        row.addWidget(self.spin)

        self.enabled_box.toggled.connect(self._on_toggled)
        self.slider.valueChanged.connect(self._on_slider)
        self.spin.valueChanged.connect(self._on_spin)

    # -- model -> widgets -----------------------------------------------------------------------
    def set_threshold(self, value: float | None, score: float | None = None) -> None:
        """Show `value` (None = unset); `score` lets an unbounded slider reach it."""
        self._updating = True
        try:
            if value is not None:
                self._last = value
            self._grow(value, score)
            self.enabled_box.setChecked(value is not None)
            self.slider.setEnabled(value is not None)
            self.spin.setEnabled(value is not None)
            shown = self._last
            self.spin.setValue(shown)
            self.slider.setValue(self._to_slider(shown))
        finally:
            self._updating = False

    def _grow(self, value: float | None, score: float | None) -> None:
        if self._hi is not None:
            return
        need = max(v for v in (10.0, value or 0.0, score or 0.0, self._last) if v is not None)
        top = 10.0 ** math.ceil(math.log10(max(need * 1.25, 10.0)))
        if top != self._top:
            self._top = top
            self._configure_slider()

    def _configure_slider(self) -> None:
        if self.spec.integer:
            self.slider.setRange(int(self._lo), int(self._top))
            self.slider.setPageStep(max(1, int(self._top) // 10))
        else:
            self.slider.setRange(0, _STEPS)
            self.slider.setPageStep(_STEPS // 10)

    def _to_slider(self, value: float) -> int:
        if self.spec.integer:
            return round(value)
        span = (self._top - self._lo) or 1.0
        return round((value - self._lo) / span * _STEPS)

    def _from_slider(self, position: int) -> float:
        if self.spec.integer:
            return float(position)
        return round(self._lo + position / _STEPS * (self._top - self._lo), 2)

    # -- widgets -> model -----------------------------------------------------------------------
    def _on_toggled(self, checked: bool) -> None:
        if self._updating:
            return
        self.slider.setEnabled(checked)
        self.spin.setEnabled(checked)
        self.sig_threshold_changed.emit(self._last if checked else None)

    def _on_slider(self, position: int) -> None:
        if self._updating:
            return
        value = self._from_slider(position)
        self._updating = True
        self.spin.setValue(value)
        self._updating = False
        self._last = value
        self.sig_threshold_changed.emit(value)

    def _on_spin(self, value: float) -> None:
        if self._updating:
            return
        self._updating = True
        self._grow(value, None)
        self.slider.setValue(self._to_slider(value))
        self._updating = False
        self._last = value
        self.sig_threshold_changed.emit(value)
