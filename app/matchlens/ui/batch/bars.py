"""The strips around the batch table: file and exports, progress and cancel, table filters."""

from __future__ import annotations

import codecs
import html
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMenu,
    QProgressBar,
    QPushButton,
    QToolButton,
    QWidget,
)

from matchlens.core.metrics.registry import MetricSpec
from matchlens.core.scoring.batch import Progress
from matchlens.core.scoring.view_order import (
    FILTER_ALL,
    FILTER_BIN_PREFIX,
    FILTER_ERRORS,
    FILTER_FAIL_PREFIX,
    FILTER_FAILING,
    FILTER_ROWS_PREFIX,
)
from matchlens.ui.batch.table_model import BatchTableModel

SEARCH_DELAY_MS = 250
AUTO_ENCODING = "Auto (UTF-8/BOM)"
ENCODINGS = (AUTO_ENCODING, "utf-8", "cp1252", "latin-1", "utf-16-le", "utf-16-be", "shift_jis",
             "gb18030")


def duration(seconds: float) -> str:
    if seconds < 60:
        return f"{seconds:.0f} s"
    minutes, sec = divmod(int(seconds), 60)
    return f"{minutes} min {sec:02d} s"


class TopBar(QWidget):
    sig_export_table = Signal()
    sig_export_report = Signal()
    sig_export_thresholds = Signal()
    sig_export_plot = Signal(str)  # plot key
    sig_encoding = Signal(str)  # "" for auto: the user wants the file read again this way
    sig_rows_from = Signal(str, str)  # ("sheet" | "records", its name; "" automatic): read again

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        self.open_button = QPushButton("Open…", self)
        self.open_button.setToolTip("Open a CSV / TSV / JSONL / JSON dataset (or drop a file on "
                                    "this tab)")
        row.addWidget(self.open_button)
        self.file_label = QLabel("No dataset: open one, or drop a CSV / TSV / JSONL / JSON file "
                                 "here.", self)
        self.file_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        row.addWidget(self.file_label, 1)
        self.encoding = QComboBox(self)
        self.encoding.setEditable(True)  # any codec Python knows can be typed
        self.encoding.addItems(ENCODINGS)
        self.encoding.setToolTip("The file's text encoding. Auto reads UTF-8 (with or without a "
                                 "BOM) and UTF-16/32 with a BOM; pick another to read it again")
        self.encoding.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        self.encoding.activated.connect(lambda _i: self.sig_encoding.emit(self.chosen_encoding()))
        self.encoding.lineEdit().returnPressed.connect(
            lambda: self.sig_encoding.emit(self.chosen_encoding()))
        # Shown when the file has several sheets or arrays of objects (read_choices.py).
        self.rows_label = QLabel("Rows from", self)
        self.rows_from = QComboBox(self)
        self.rows_from.setToolTip("The sheet, or the array of objects in the JSON file, that "
                                  "holds the rows (--sheet / --records on the command line)")
        self.rows_from.activated.connect(self._rows_from_chosen)
        self._rows_kind = ""
        row.addWidget(self.rows_label)
        row.addWidget(self.rows_from)
        self.set_rows_choices("", (), None)
        row.addWidget(QLabel("Encoding", self))
        row.addWidget(self.encoding)
        self.export_button = QToolButton(self)
        self.export_button.setText("Export")
        self.export_button.setToolTip("Export the scored table, the thresholds, or a plot")
        self.export_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        menu = QMenu(self.export_button)
        menu.addAction("Scored table (CSV / JSONL)…", self.sig_export_table.emit)
        menu.addAction("Report (HTML)…", self.sig_export_report.emit)
        menu.addAction("Thresholds (TOML for matchlens score --config)…",
                       self.sig_export_thresholds.emit)
        self.plot_menu = menu.addMenu("Plot as PNG")
        self.plot_menu.aboutToShow.connect(self._fill_plot_menu)
        self.export_button.setMenu(menu)
        row.addWidget(self.export_button)
        self.plot_names: Callable[[], list[tuple[str, str]]] = list

    def set_file(self, path: Path, details: str) -> None:
        self.file_label.setText(f"<b>{html.escape(Path(path).name)}</b> · {html.escape(details)}")
        self.file_label.setToolTip(str(path))

    def set_rows_choices(self, kind: str, names: tuple[str, ...], current: str | None) -> None:
        """Offer `names` (sheets or record arrays) with `current` selected; none: hidden."""
        self._rows_kind = kind
        self.rows_from.clear()
        if names:
            self.rows_from.addItem("Automatic" if kind == "records" else "The first sheet", "")
            for name in names:
                self.rows_from.addItem(name, name)
            self.rows_from.setCurrentIndex(max(0, self.rows_from.findData(current or "")))
        self.rows_label.setText("Sheet" if kind == "sheet" else "Rows from")
        self.rows_label.setVisible(bool(names))
        self.rows_from.setVisible(bool(names))

    def rows_kind(self) -> str:
        return self._rows_kind

    def _rows_from_chosen(self, _index: int) -> None:
        self.sig_rows_from.emit(self._rows_kind, self.rows_from.currentData() or "")

    def chosen_encoding(self) -> str:
        """"" for auto; else the codec's own name when Python knows it ('UTF 16' -> 'utf-16')."""
        text = self.encoding.currentText().strip()
        if text in ("", AUTO_ENCODING):
            return ""
        try:
            return codecs.lookup(text).name
        except LookupError:
            return text  # the reader says it is unknown, naming it

    def set_encoding(self, encoding: str | None) -> None:
        self.encoding.setCurrentText(encoding or AUTO_ENCODING)

    def set_exports_enabled(self, scored: bool) -> None:
        for action in self.export_button.menu().actions():
            if action.menu() is not self.plot_menu and action.text().startswith(("Scored",
                                                                                 "Report")):
                action.setEnabled(scored)
        self.plot_menu.setEnabled(scored)

    def _fill_plot_menu(self) -> None:
        self.plot_menu.clear()
        for key, text in self.plot_names():
            self.plot_menu.addAction(text + "…", lambda k=key: self.sig_export_plot.emit(k))


class ProgressRow(QWidget):
    """A sentence, and while working a progress bar with rows/s, time left and Cancel."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        self.label = QLabel(self)
        row.addWidget(self.label)
        self.bar = QProgressBar(self)
        self.bar.setTextVisible(False)
        self.bar.setMaximumHeight(14)
        row.addWidget(self.bar, 1)
        self.rate = QLabel(self)
        row.addWidget(self.rate)
        self.cancel_button = QPushButton("Cancel", self)
        self.cancel_button.setToolTip("Stop; rows already scored stay in the table (Esc)")
        self.cancel_button.setShortcut(Qt.Key.Key_Escape)
        row.addWidget(self.cancel_button)
        # As tall idle as working: a row that shrank when a run ended re-laid out (and
        # repainted) every plot below it.
        self.setMinimumHeight(self.cancel_button.sizeHint().height())
        self._working = False
        self.idle()

    def start(self, text: str, busy: bool) -> None:
        self._working = True
        self.label.setText(text)
        self.bar.setRange(0, 0 if busy else 1)
        self.bar.setValue(0)
        self.rate.setText("")
        for widget in (self.bar, self.rate, self.cancel_button):
            widget.show()

    def update(self, progress: Progress) -> None:
        self.bar.setRange(0, max(progress.total, 1))
        self.bar.setValue(progress.done)
        text = f"{progress.done:,} of {progress.total:,} rows"
        if progress.rate > 0:
            text += f" · {progress.rate:,.0f} rows/s"
        if progress.remaining is not None and progress.done < progress.total:
            text += f" · {duration(progress.remaining)} left"
        self.rate.setText(text)

    def finish(self, text: str) -> None:
        self.idle()
        self.label.setText(text)

    def idle(self) -> None:
        if self._working:  # "Scoring x.csv…" is no longer true
            self._working = False
            self.label.setText("")
        for widget in (self.bar, self.rate, self.cancel_button):
            widget.hide()


class TableBar(QWidget):
    """Variant selector, row filter and search over the table."""

    def __init__(self, model: BatchTableModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = model
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        self.variant_label = QLabel("Variant", self)
        row.addWidget(self.variant_label)
        self.variant = QComboBox(self)
        self.variant.setToolTip("Which actual column the table shows (the plots show all)")
        row.addWidget(self.variant)
        row.addWidget(QLabel("Show", self))
        self.filter = QComboBox(self)
        self.filter.setToolTip("Failing: rows that do not pass every thresholded metric (a row "
                               "without a score does not pass). Errors: any metric errored, "
                               "invalid or missing.")
        self.filter.currentIndexChanged.connect(self._apply)
        row.addWidget(self.filter)
        # A histogram bar's rows (show_bar): named in the Show box, cleared with one click.
        self.clear_filter = QToolButton(self)
        self.clear_filter.setText("✕")
        self.clear_filter.setToolTip("Show all rows again")
        self.clear_filter.clicked.connect(lambda: self.set_filter(FILTER_ALL))
        self.clear_filter.hide()
        row.addWidget(self.clear_filter)
        self.search = QLineEdit(self)
        self.search.setPlaceholderText("Search id, expected, actual (Ctrl+F)")
        self.search.setClearButtonEnabled(True)
        self.search.setToolTip("Lower-case text matches any case; with a capital letter the case "
                               "must match")
        row.addWidget(self.search, 1)
        self.count = QLabel(self)
        row.addWidget(self.count)
        self._timer = QTimer(self, singleShot=True, interval=SEARCH_DELAY_MS)
        self._timer.timeout.connect(self._apply)
        self.search.textChanged.connect(self._timer.start)
        model.sig_order_changed.connect(self._update_count)
        model.sig_busy.connect(self._busy)
        self.set_session([], {})

    def set_session(self, variants: list[str], specs: dict[str, MetricSpec]) -> None:
        self.variant.blockSignals(True)
        self.variant.clear()
        self.variant.addItems(variants)
        self.variant.blockSignals(False)
        several = len(variants) > 1
        self.variant_label.setVisible(several)
        self.variant.setVisible(several)
        self.filter.blockSignals(True)
        self.filter.clear()
        self.filter.addItem("All rows", FILTER_ALL)
        self.filter.addItem("Failing only", FILTER_FAILING)
        self.filter.addItem("Errors only", FILTER_ERRORS)
        for metric_id, spec in specs.items():
            self.filter.addItem(f"Failing {spec.label}", FILTER_FAIL_PREFIX + metric_id)
        self.filter.blockSignals(False)
        self.clear_filter.hide()
        self.search.blockSignals(True)
        self.search.clear()
        self.search.blockSignals(False)
        self._update_count()

    def set_filter(self, which: str) -> None:
        self.filter.setCurrentIndex(max(0, self.filter.findData(which)))

    def show_bar(self, metric_label: str, lo: float, hi: float, last: bool, key: str) -> None:
        """The table shows a histogram bar's rows; the Show box names them."""
        self._drop_bar_entries()
        closing = "]" if last else ")"
        self.filter.addItem(f"{metric_label} in [{lo:.3g}, {hi:.3g}{closing} (chart bar)", key)
        self.set_filter(key)

    def _drop_bar_entries(self) -> None:
        self.filter.blockSignals(True)
        current = self.filter.currentData()
        for i in reversed(range(self.filter.count())):
            data = self.filter.itemData(i)
            if isinstance(data, str) and data.startswith(FILTER_BIN_PREFIX) and data != current:
                self.filter.removeItem(i)
        self.filter.blockSignals(False)

    def show_rows(self, key: str, label: str) -> None:
        """Add (or replace) a named row filter ("Wrong $.phone") in the Show box and choose
        it; "All rows" clears it."""
        for i in range(self.filter.count() - 1, -1, -1):
            if str(self.filter.itemData(i)).startswith(FILTER_ROWS_PREFIX):
                self.filter.removeItem(i)
        self.filter.addItem(label, key)
        self.filter.setItemData(self.filter.count() - 1, label, Qt.ItemDataRole.ToolTipRole)
        self.set_filter(key)

    def _apply(self) -> None:
        self._timer.stop()
        current = self.filter.currentData() or FILTER_ALL
        self.clear_filter.setVisible(current != FILTER_ALL)
        if not current.startswith(FILTER_BIN_PREFIX):
            self._drop_bar_entries()  # a bar's entry lasts while it is the filter
        spec = replace(self.model.view_spec(), filter=self.filter.currentData() or FILTER_ALL,
                       search=self.search.text())
        if spec != self.model.view_spec():
            self.model.set_view(spec)

    def _update_count(self) -> None:
        data = self.model.view_data()
        total = data.rows if data is not None else 0
        shown = self.model.rowCount()
        self.count.setText(f"{shown:,} rows" if shown == total else f"{shown:,} of {total:,} rows")

    def _busy(self, busy: bool) -> None:
        if busy:
            self.count.setText("working…")
        else:
            self._update_count()
