"""Which column is which: expected, actual variants, label, id, and the metrics to run."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from matchlens.core.metrics.registry import all_metrics
from matchlens.core.scoring.mapping import ColumnMapping
from matchlens.core.text.normalise import describe
from matchlens.ui.normalise_box import NormaliseBox

NO_LABEL = "(no label column)"
NO_ID = "(row number)"
_LABEL_ROLE = Qt.ItemDataRole.UserRole + 1  # a metric's name without its normalisation


def _checkable(text: str, checked: bool, tip: str = "") -> QListWidgetItem:
    item = QListWidgetItem(text)
    item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
    item.setCheckState(Qt.CheckState.Checked if checked else Qt.CheckState.Unchecked)
    if tip:
        item.setToolTip(tip)
    return item


def _checked(widget: QListWidget) -> list[str]:
    out = []
    for i in range(widget.count()):
        item = widget.item(i)
        if item.checkState() == Qt.CheckState.Checked:
            out.append(item.data(Qt.ItemDataRole.UserRole) or item.text())
    return out


class MappingPanel(QWidget):
    sig_score = Signal()
    sig_normalise = Signal(str)  # a normalisation for every text metric (as --normalise)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        form = QFormLayout()
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)

        self.expected = QComboBox(self)
        self.expected.setEditable(True)
        self.expected.setToolTip("The reference text: a column, a JSONPath such as "
                                 "$.reference.answer (typed), or a fixed text (tick below)")
        self.literal = QCheckBox("Same text for every row", self)
        self.literal.setToolTip("Use what is typed above as the expected text of every row")
        self.any = QCheckBox("Several references", self)
        self.any.setToolTip("Each cell holds a JSON array of acceptable answers (SQuAD's "
                            "answers.text): every metric keeps the best one and notes which")
        # one or the other: a fixed text is not a list of references
        self.literal.toggled.connect(lambda on: on and self.any.setChecked(False))
        self.any.toggled.connect(lambda on: on and self.literal.setChecked(False))
        expected_box = QVBoxLayout()
        expected_box.setSpacing(2)
        expected_box.addWidget(self.expected)
        expected_box.addWidget(self.literal)
        expected_box.addWidget(self.any)
        form.addRow("Expected", expected_box)

        self.actuals = QListWidget(self)
        self.actuals.setToolTip("Each ticked column is one variant (prompt, model) scored "
                                "against the same expected text")
        self.actuals.setMaximumHeight(110)
        self.path_edit = QLineEdit(self)
        self.path_edit.setPlaceholderText("$.output.answer")
        self.path_edit.setToolTip("Add a JSONPath as an actual variant")
        add = QPushButton("Add", self)
        add.setToolTip("Add the JSONPath as another actual variant")
        add.clicked.connect(self._add_path)
        self.path_edit.returnPressed.connect(self._add_path)
        path_row = QHBoxLayout()
        path_row.addWidget(self.path_edit, 1)
        path_row.addWidget(add)
        actual_box = QVBoxLayout()
        actual_box.setSpacing(2)
        actual_box.addWidget(self.actuals)
        actual_box.addLayout(path_row)
        form.addRow("Actual", actual_box)

        self.label = QComboBox(self)
        self.label.setToolTip("A human pass/fail per row (pass/fail, true/false, 1/0, yes/no): "
                              "enables calibration")
        form.addRow("Label", self.label)
        self.id = QComboBox(self)
        self.id.setToolTip("A column that names each row")
        form.addRow("Id", self.id)
        self.normalise = NormaliseBox(self)
        self.normalise.sig_chosen.connect(self.sig_normalise)
        form.addRow("Normalise", self.normalise)
        layout.addLayout(form)

        layout.addWidget(QLabel("Metrics", self))
        self.metrics = QListWidget(self)
        self.metrics.setToolTip("Metrics to score. Network metrics call an API and cost money, "
                                "so they start unticked.")
        for spec in all_metrics():
            tip = spec.definition + (" — calls the embeddings API (costs money)"
                                     if spec.network else "")
            item = _checkable(spec.label + (" (network)" if spec.network else ""), False, tip)
            item.setData(Qt.ItemDataRole.UserRole, spec.id)
            item.setData(_LABEL_ROLE, item.text())
            self.metrics.addItem(item)
        layout.addWidget(self.metrics, 1)

        self.score_button = QPushButton("Score", self)
        self.score_button.setToolTip("Score every row with this mapping and these metrics")
        self.score_button.setDefault(True)
        self.score_button.clicked.connect(self.sig_score)
        layout.addWidget(self.score_button)
        self.set_columns([], None)

    def set_columns(self, columns: list[str], mapping: ColumnMapping | None) -> None:
        self.expected.clear()
        self.expected.addItems(columns)
        self.actuals.clear()
        self.label.clear()
        self.label.addItem(NO_LABEL)
        self.label.addItems(columns)
        self.id.clear()
        self.id.addItem(NO_ID)
        self.id.addItems(columns)
        if mapping is None:
            self.score_button.setEnabled(False)
            return
        self.score_button.setEnabled(True)
        self.expected.setEditText(mapping.expected)
        self.literal.setChecked(mapping.expected_literal)
        self.any.setChecked(mapping.expected_any)
        for name in columns:
            self.actuals.addItem(_checkable(name, name in mapping.actuals))
        for spec in mapping.actuals:  # JSONPaths (and names the file lacks) stay visible
            if spec not in columns:
                self.actuals.addItem(_checkable(spec, True))
        self.label.setCurrentText(mapping.label if mapping.label in columns else NO_LABEL)
        self.id.setCurrentText(mapping.id if mapping.id in columns else NO_ID)
        self.set_metrics(mapping.metrics)

    def show_normalisation(self, values: dict[str, Any]) -> None:
        """Each text metric's normalisation beside its name; the Normalise box shows the one
        they share, or says they differ."""
        for i in range(self.metrics.count()):
            item = self.metrics.item(i)
            metric_id = item.data(Qt.ItemDataRole.UserRole)
            label = item.data(_LABEL_ROLE)
            if metric_id in values and values[metric_id]:
                label = f"{label} · {describe(values[metric_id])}"
            if item.text() != label:
                item.setText(label)
        self.normalise.show_values(values)

    def set_metrics(self, metric_ids: tuple[str, ...] | list[str]) -> None:
        for i in range(self.metrics.count()):
            item = self.metrics.item(i)
            on = item.data(Qt.ItemDataRole.UserRole) in metric_ids
            item.setCheckState(Qt.CheckState.Checked if on else Qt.CheckState.Unchecked)

    def mapping(self) -> ColumnMapping:
        label = self.label.currentText()
        id_column = self.id.currentText()
        return ColumnMapping(
            expected=self.expected.currentText().strip() if not self.literal.isChecked()
            else self.expected.currentText(),
            expected_literal=self.literal.isChecked(),
            expected_any=self.any.isChecked(),
            actuals=tuple(_checked(self.actuals)),
            metrics=tuple(_checked(self.metrics)),
            label=None if label in ("", NO_LABEL) else label,
            id=None if id_column in ("", NO_ID) else id_column,
        )

    def set_busy(self, busy: bool) -> None:
        for widget in (self.expected, self.literal, self.any, self.actuals, self.path_edit,
                       self.normalise, self.label,
                       self.id, self.metrics, self.score_button):
            widget.setEnabled(not busy)

    def _add_path(self) -> None:
        text = self.path_edit.text().strip()
        if not text:
            return
        existing = [self.actuals.item(i).text() for i in range(self.actuals.count())]
        if text not in existing:
            self.actuals.addItem(_checkable(text, True))
        self.path_edit.clear()
