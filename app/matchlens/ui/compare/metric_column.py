"""The compare tab's right-hand column: a panel per metric (the registry's order) in a scroll
area, under a "computing… ▭" row shown while a long text is scored.

`MetricColumn` owns the panels and passes on what they ask for (a JSON path to select, a
network score, the Settings dialog, a sentence) as its own signals; the compare tab answers.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QProgressBar, QScrollArea, QVBoxLayout, QWidget

from matchlens.core.metrics.registry import all_metrics
from matchlens.ui.compare.panels import MetricPanel
from matchlens.ui.compare.semantic import NetworkPanel
from matchlens.ui.config_model import ConfigModel


class MetricColumn(QWidget):
    sig_detail_activated = Signal(str, object)  # metric id, one item of its result's details
    sig_compute_requested = Signal(str)  # a network metric's id
    sig_auto_changed = Signal(str, bool)  # a network metric's id, score it on every change?
    sig_settings_requested = Signal()
    sig_status = Signal(str)

    def __init__(self, config: ConfigModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.panels: dict[str, MetricPanel] = {}
        panel_host = QWidget(self)
        panel_column = QVBoxLayout(panel_host)
        panel_column.setContentsMargins(0, 0, 4, 0)
        panel_column.setSpacing(6)
        for spec in all_metrics():
            if spec.network:
                panel = NetworkPanel(spec, config, panel_host)
                panel.sig_settings_requested.connect(self.sig_settings_requested)
            else:
                panel = MetricPanel(spec, config, panel_host)
            panel.sig_detail_activated.connect(self.sig_detail_activated)
            panel.sig_compute_requested.connect(self.sig_compute_requested)
            panel.sig_auto_changed.connect(self.sig_auto_changed)
            panel.sig_status.connect(self.sig_status)
            self.panels[spec.id] = panel
            panel_column.addWidget(panel)
        panel_column.addStretch(1)
        self.panel_area = QScrollArea(self)
        self.panel_area.setWidgetResizable(True)
        self.panel_area.setWidget(panel_host)
        self.panel_area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.panel_area.setMinimumWidth(300)
        self.panel_area.setFrameShape(self.panel_area.frameShape().NoFrame)
        # Over the panels (what is being waited for), not on the toolbar, which has no room.
        self.busy_indicator = self._busy_row()
        side_column = QVBoxLayout(self)
        side_column.setContentsMargins(0, 0, 0, 0)
        side_column.setSpacing(2)
        side_column.addWidget(self.busy_indicator)
        side_column.addWidget(self.panel_area, 1)

    def _busy_row(self) -> QWidget:
        """'computing… ▭' while a long text is scored (hidden otherwise)."""
        self.busy_label = QLabel("computing…", self)
        self.busy_bar = QProgressBar(self)
        self.busy_bar.setRange(0, 0)
        self.busy_bar.setMaximumWidth(70)
        self.busy_bar.setMaximumHeight(12)
        self.busy_bar.setTextVisible(False)
        busy = QWidget(self)
        busy_row = QHBoxLayout(busy)
        busy_row.setContentsMargins(6, 0, 0, 0)
        busy_row.addWidget(self.busy_label)
        busy_row.addWidget(self.busy_bar)
        busy_row.addStretch(1)
        # Its line stays when hidden: panels that jumped at every keystroke would stutter.
        policy = busy.sizePolicy()
        policy.setRetainSizeWhenHidden(True)
        busy.setSizePolicy(policy)
        busy.setVisible(False)
        return busy

    def network_panels(self) -> dict[str, NetworkPanel]:
        return {mid: p for mid, p in self.panels.items() if isinstance(p, NetworkPanel)}

    def show_panel(self, metric_id: str) -> None:
        panel = self.panels.get(metric_id)
        if panel is not None:
            self.panel_area.ensureWidgetVisible(panel)
