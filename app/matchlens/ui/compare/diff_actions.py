"""Copy diff and Save diff as HTML in the compare view's right-click menu: the pair exactly as
the view draws it (its current highlight: readable or exact), as plain text with wdiff's
markers `[-…-]{+…+}` plus HTML on the clipboard, or as a one-file HTML page
(core.output.reports.pair_page). Built from the highlight the background worker already made,
so nothing long runs on the GUI thread."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QMimeData, QPoint, Qt
from PySide6.QtWidgets import QApplication, QFileDialog, QMessageBox, QWidget

from matchlens.core.atomic import atomic_writer
from matchlens.core.diff.readable.chunks import Chunk
from matchlens.core.output.reports.pair_page import (
    chunks_of_table,
    pair_fragment,
    pair_page,
    pair_plain,
)


class DiffActions:
    """The two actions of one compare tab (`install(tab)`): `copy()` and `save(path)`."""

    def __init__(self, tab: QWidget) -> None:
        self.tab = tab
        for side in ("expected", "actual"):
            editor = tab.editor(side)
            editor.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
            editor.customContextMenuRequested.connect(
                lambda point, e=editor: self._menu(e, point))

    def _menu(self, editor, point: QPoint) -> None:
        menu = editor.createStandardContextMenu()
        menu.addSeparator()
        ready = self.chunks() is not None
        copy = menu.addAction("Copy &diff", self.copy)
        save = menu.addAction("Save diff as &HTML…", self.save_dialog)
        for action in (copy, save):
            action.setEnabled(ready)
            action.setToolTip("" if ready else "The highlight is still being computed")
        menu.exec(editor.mapToGlobal(point))
        menu.deleteLater()

    def chunks(self) -> list[Chunk] | None:
        """The highlight on screen as chunks, or None while it is computed or stale."""
        table = self.tab.current_table()
        if table is None:
            return None
        expected, actual = self.tab.texts()
        try:
            return chunks_of_table(table, expected, actual)
        except ValueError:
            return None

    def copy(self) -> bool:
        """The diff to the clipboard: plain text with markers, and HTML."""
        chunks = self.chunks()
        if chunks is None:
            return False
        expected, actual = self.tab.texts()
        data = QMimeData()
        data.setText(pair_plain(expected, actual, chunks))
        data.setHtml(pair_fragment(expected, actual, chunks))
        QApplication.clipboard().setMimeData(data)
        return True

    def save(self, path: Path) -> bool:
        chunks = self.chunks()
        if chunks is None:
            return False
        expected, actual = self.tab.texts()
        with atomic_writer(path) as handle:
            handle.write(pair_page(expected, actual, chunks, "MatchLens diff"))
        return True

    def save_dialog(self) -> None:
        name, _ = QFileDialog.getSaveFileName(self.tab, "Save diff as HTML", "diff.html",
                                              "HTML (*.html)")
        if not name:
            return
        try:
            self.save(Path(name))
        except OSError as err:  # OutputError included: one sentence
            QMessageBox.warning(self.tab, "Save diff", str(err))


def install(tab: QWidget) -> DiffActions:
    return DiffActions(tab)
