"""Exports from the batch tab: the scored table (+ provenance sidecar), a plot as PNG.

The thresholds file is ConfigModel.save_as (the TOML `matchlens score --config` reads). Every
write goes through atomic_writer, and the scored-table writer refuses to overwrite its input.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from pathlib import Path

import pyqtgraph as pg
import pyqtgraph.exporters  # noqa: F401  (registers ImageExporter under pg.exporters)
from PySide6.QtCore import QBuffer, QIODevice

from matchlens.core.atomic import atomic_writer
from matchlens.core.batch import BatchResult
from matchlens.core.config import Config, config_to_dict
from matchlens.core.datasets import Table
from matchlens.core.errors import OutputError
from matchlens.core.scored_table import provenance, write_scored_table, write_sidecar


def with_thresholds(result: BatchResult, thresholds: Mapping[str, float | None]) -> BatchResult:
    """The same arrays, judged by the thresholds the user has now (they may have dragged)."""
    jobs = [replace(job, threshold=thresholds.get(job.id, job.threshold)) for job in result.jobs]
    return BatchResult(result.rows, list(result.variants), jobs, result.scores, result.status,
                       result.messages, result.done)


def write_table(path: Path, table: Table, result: BatchResult, config: Config,
                expected: str, cancel: Callable[[], bool]) -> Path:
    """Worker body: the scored table, then its sidecar; returns the sidecar's path."""
    write_scored_table(path, table, result)
    data = provenance(result, config_to_dict(config, [job.id for job in result.jobs]),
                      source=Path(table.path), expected=expected, model=config.model or None)
    return write_sidecar(path, data)


def save_plot_png(item: pg.PlotItem, path: Path, width: int = 1200) -> None:
    """Render one plot to PNG (pyqtgraph's ImageExporter; its SVG export is broken upstream)."""
    exporter = pg.exporters.ImageExporter(item)
    exporter.parameters()["width"] = width
    image = exporter.export(toBytes=True)
    buffer = QBuffer()
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    if not image.save(buffer, "PNG"):
        raise OutputError(f"{path}: the plot could not be rendered as PNG")
    try:
        with atomic_writer(path, mode="wb") as handle:
            handle.write(bytes(buffer.data()))
    except OSError as err:
        raise OutputError(f"{path}: cannot write ({err.strerror or err})") from None
