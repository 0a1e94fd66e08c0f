"""One score panel per registered metric, built from its MetricSpec alone.

Nothing in here names a metric: the score format comes from `spec.integer`, the threshold
control from `spec.direction` / `spec.score_range`, the option widgets from `spec.options`, the
tooltip from `spec.definition`, the Compute button from `spec.network`, and the list of details
from whatever `result.details` holds (JSON paths today). A network metric's `base_url` / `model`
are not panel options: they are the window-wide endpoint set in Settings (`[openai]` in the
TOML), and `semantic.NetworkPanel` shows them and the key state instead.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFont, QPalette
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from matchlens.core.errors import MatchLensError
from matchlens.core.metrics.registry import MetricSpec, OptionSpec
from matchlens.core.results import Label, MetricResult, Outcome, judge, threshold_text
from matchlens.core.text.normalise import PRESETS, SIMPLE_STEPS, Normalisation, to_text
from matchlens.ui.compare.threshold import ThresholdControl
from matchlens.ui.config_model import ConfigModel
from matchlens.ui.palette import badge_style


def format_score(spec: MetricSpec, score: float | None) -> str:
    if score is None:
        return "—"
    if spec.integer:
        return f"{int(round(score))}"
    # Two decimals when that is exact (similarities are rounded to 2 by contract), else three,
    # so a score never reads as equal to a threshold it actually misses.
    return f"{score:.2f}" if abs(score * 100 - round(score * 100)) < 1e-9 else f"{score:.3f}"


# Options of network metrics that are the shared endpoint (Settings), not per-panel widgets.
ENDPOINT_OPTIONS = ("base_url", "model")


def panel_options(spec: MetricSpec) -> tuple[OptionSpec, ...]:
    """The options a panel shows as widgets."""
    if not spec.network:
        return spec.options
    return tuple(opt for opt in spec.options if opt.name not in ENDPOINT_OPTIONS)


def option_label(option: OptionSpec) -> str:
    return option.name.replace("_", " ")


class MetricPanel(QFrame):
    sig_compute_requested = Signal(str)  # metric id (network metrics only)
    sig_auto_changed = Signal(str, bool)
    sig_detail_activated = Signal(str, object)  # metric id, one item of result.details
    sig_status = Signal(str)

    def __init__(self, spec: MetricSpec, config: ConfigModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.spec = spec
        self.config = config
        self._outcome: Outcome | None = None
        self._result: MetricResult | None = None
        self._badge_label: Label | None = None
        self._updating = False
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setObjectName(f"panel_{spec.id}")
        self.setToolTip(spec.definition)

        self.title = QLabel(spec.label, self)
        bold = QFont(self.title.font())
        bold.setBold(True)
        self.title.setFont(bold)
        self.badge = QLabel(self)
        self.badge.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.score_label = QLabel("—", self)
        big = QFont(self.score_label.font())
        big.setPointSizeF(big.pointSizeF() * 2.0)
        big.setWeight(QFont.Weight.DemiBold)
        self.score_label.setFont(big)
        self.score_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.rule_label = QLabel(self)
        self.rule_label.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        self.threshold = ThresholdControl(spec, self)
        self.explanation = QLabel(self)
        self.explanation.setWordWrap(True)
        self.explanation.setTextFormat(Qt.TextFormat.PlainText)
        self.details = QListWidget(self)
        self.details.setVisible(False)
        self.details.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.details.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.details.setToolTip("Click a path to select its value in both texts")
        self.option_widgets: dict[str, QWidget] = {}

        top = QHBoxLayout()
        top.addWidget(self.title, 1)
        top.addWidget(self.badge)
        score_row = QHBoxLayout()
        score_row.addWidget(self.score_label)
        score_row.addStretch(1)
        score_row.addWidget(self.rule_label, 0, Qt.AlignmentFlag.AlignBottom)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 8, 10, 8)
        layout.setSpacing(4)
        layout.addLayout(top)
        layout.addLayout(score_row)
        layout.addWidget(self.threshold)
        options = self._build_options()
        if options is not None:
            layout.addLayout(options)
        if spec.network:
            layout.addLayout(self._build_network_row())
        layout.addWidget(self.explanation)
        layout.addWidget(self.details)

        self.threshold.sig_threshold_changed.connect(self._on_threshold_changed)
        self._drag_serial = 0
        self.threshold.slider.sliderReleased.connect(self._end_drag)
        self.details.itemClicked.connect(self._on_detail_clicked)
        self.refresh_from_model()
        self.set_outcome(None)

    # -- construction ---------------------------------------------------------------------------
    def _build_options(self) -> QFormLayout | None:
        if not panel_options(self.spec):
            return None
        form = QFormLayout()
        form.setContentsMargins(0, 0, 0, 0)
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.ExpandingFieldsGrow)
        for option in panel_options(self.spec):
            widget = self._option_widget(option)
            widget.setToolTip(option.help)
            self.option_widgets[option.name] = widget
            if isinstance(widget, QCheckBox):
                form.addRow(widget)
            else:
                form.addRow(option_label(option), widget)
        return form

    def _option_widget(self, option: OptionSpec) -> QWidget:
        name = option.name
        if option.kind is bool:
            box = QCheckBox(option_label(option), self)
            box.toggled.connect(lambda value: self._set_option(name, value))
            return box
        if option.kind is float:
            spin = QDoubleSpinBox(self)
            spin.setDecimals(3)
            spin.setRange(-1e9, 1e9)
            spin.setKeyboardTracking(False)
            spin.valueChanged.connect(lambda value: self._set_option(name, value))
            return spin
        if option.kind is Normalisation:
            return self._normalise_widget(name)
        edit = QLineEdit(self)
        if option.kind is list:
            edit.setPlaceholderText("comma-separated")
        edit.editingFinished.connect(lambda: self._set_option(name, edit.text()))
        return edit

    def _normalise_widget(self, name: str) -> QComboBox:
        """An editable list: none, the presets, or any step / JSON array of steps typed in."""
        combo = QComboBox(self)
        combo.setEditable(True)
        combo.addItems(["none", *PRESETS, *SIMPLE_STEPS])
        combo.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        combo.lineEdit().setPlaceholderText('none, squad, or ["lowercase", …]')
        combo.activated.connect(lambda _index: self._set_option(name, combo.currentText()))
        combo.lineEdit().editingFinished.connect(
            lambda: self._set_option(name, combo.currentText()))
        return combo

    def _build_network_row(self) -> QHBoxLayout:
        self.compute_button = QPushButton("Compute", self)
        self.compute_button.setToolTip("Ask the embeddings endpoint now (this may cost money)")
        self.auto_box = QCheckBox("auto", self)
        self.auto_box.setToolTip("Recompute about a second after the texts stop changing")
        self.compute_button.clicked.connect(lambda: self.sig_compute_requested.emit(self.spec.id))
        self.auto_box.toggled.connect(lambda on: self.sig_auto_changed.emit(self.spec.id, on))
        row = QHBoxLayout()
        row.addWidget(self.compute_button)
        row.addWidget(self.auto_box)
        row.addStretch(1)
        return row

    # -- model -> widgets -----------------------------------------------------------------------
    def refresh_from_model(self) -> None:
        """Show the ConfigModel's threshold and options, and re-judge the stored score."""
        settings = self.config.settings(self.spec.id)
        self._updating = True
        try:
            score = self._outcome.score if self._outcome is not None else None
            self.threshold.set_threshold(settings.threshold, score)
            for option in panel_options(self.spec):
                self._show_option(option, settings.options[option.name])
        finally:
            self._updating = False
        self._rejudge()

    def _show_option(self, option: OptionSpec, value: Any) -> None:
        widget = self.option_widgets[option.name]
        if isinstance(widget, QCheckBox):
            widget.setChecked(bool(value))
        elif isinstance(widget, QDoubleSpinBox):
            widget.setValue(float(value))
        elif isinstance(widget, QComboBox):
            text = to_text(value) or "none"
            if widget.currentText() != text:
                widget.setEditText(text)
        elif isinstance(widget, QLineEdit):
            text = ", ".join(value) if isinstance(value, list) else str(value)
            if widget.text() != text:
                widget.setText(text)

    # -- widgets -> model -----------------------------------------------------------------------
    def _set_option(self, name: str, value: Any) -> None:
        if self._updating:
            return
        try:
            self.config.set_option(self.spec.id, name, value)
        except MatchLensError as err:
            self.sig_status.emit(str(err))
            self.refresh_from_model()

    def _on_threshold_changed(self, value: float | None) -> None:
        if self._updating:
            return
        # Live verdict while dragging: re-judge the stored score, nothing is recomputed.
        # A slider drag is one undo step: its changes merge under one key until release.
        slider = self.threshold.slider
        key = ("slider", self.spec.id, self._drag_serial) if slider.isSliderDown() else None
        self.config.set_threshold(self.spec.id, value, merge_key=key)

    def _end_drag(self) -> None:
        self._drag_serial += 1

    # -- results --------------------------------------------------------------------------------
    def set_outcome(self, outcome: Outcome | None) -> None:
        """A fresh score from the scheduler (None: nothing computed yet)."""
        self._outcome = outcome
        self.set_pending(False)
        if outcome is not None and outcome.score is not None and self.spec.score_range[1] is None:
            # An unbounded slider (distances) may need to grow to reach the new score.
            self.threshold.set_threshold(self.config.settings(self.spec.id).threshold,
                                         outcome.score)
        self._rejudge()
        self._show_details(outcome.details if outcome is not None else ())

    def set_pending(self, pending: bool) -> None:
        role = QPalette.ColorRole.PlaceholderText if pending else QPalette.ColorRole.WindowText
        if self.score_label.foregroundRole() != role:
            self.score_label.setForegroundRole(role)

    def result(self) -> MetricResult | None:
        return self._result

    def _rejudge(self) -> None:
        threshold = self.config.settings(self.spec.id).threshold
        self.rule_label.setText(
            "no threshold" if threshold is None
            else f"passes when {threshold_text(self.spec.direction, threshold)}")
        if self._outcome is None:
            self._result = None
            self.score_label.setText("—")
            waiting = ("Press Compute to ask the embeddings endpoint" if self.spec.network
                       else "Not computed yet")
            self.explanation.setText(waiting)
            self.badge.setVisible(False)
            return
        self._result = judge(self._outcome, self.spec.direction, threshold)
        self.score_label.setText(format_score(self.spec, self._result.score))
        self.explanation.setText(self._result.explanation)
        self._show_badge(self._result.label)

    def _show_badge(self, label: Label, force: bool = False) -> None:
        self.badge.setVisible(True)
        if label is self._badge_label and not force:
            return  # restyling costs a style-sheet parse; a keystroke rarely flips a verdict
        self._badge_label = label
        self.badge.setText(label.value)
        self.badge.setStyleSheet(badge_style(label, self.palette()))
        self.badge.setToolTip({
            Label.PASS: "The score meets the threshold",
            Label.FAIL: "The score misses the threshold",
            Label.INVALID: "The input cannot be scored by this metric",
            Label.ERROR: "The metric could not be computed",
            Label.SCORED: "No threshold: the score carries no verdict",
        }[label])

    def _show_details(self, details: tuple[Any, ...]) -> None:
        paths = [d for d in details if hasattr(d, "path")]
        self.details.clear()
        for detail in paths:
            item = QListWidgetItem(str(detail))
            item.setData(Qt.ItemDataRole.UserRole, detail)
            item.setToolTip(str(detail))
            self.details.addItem(item)
        self.details.setVisible(bool(paths))
        if paths:  # as tall as its rows, up to six; it scrolls beyond that
            rows = min(len(paths), 6)
            height = self.details.sizeHintForRow(0) * rows + 2 * self.details.frameWidth() + 2
            self.details.setFixedHeight(height)

    def _on_detail_clicked(self, item: QListWidgetItem) -> None:
        self.sig_detail_activated.emit(self.spec.id, item.data(Qt.ItemDataRole.UserRole))

    def changeEvent(self, event) -> None:  # noqa: N802, ANN001 - Qt override
        super().changeEvent(event)
        if event.type() == event.Type.PaletteChange and self._result is not None:
            self._show_badge(self._result.label, force=True)
