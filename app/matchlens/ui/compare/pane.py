"""One side of the comparison: a header line, the editor, its highlight and its flash."""

from __future__ import annotations

import html

from PySide6.QtGui import QColor, QFont, QFontMetrics, QPalette, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import QHBoxLayout, QLabel, QSizePolicy, QTextEdit, QVBoxLayout, QWidget

from matchlens.ui.compare.decorations import DiffDecorator, Flasher, to_code_points, to_utf16
from matchlens.ui.compare.editors import DiffEditor
from matchlens.ui.compare.overview_ruler import OverviewRuler


class FittingHeader(QLabel):
    """A pane's header line: the longest of its forms (longest first; rich text with the
    title in bold) that fits its width, the whole line as its tooltip."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.setMinimumWidth(24)
        self._forms: list[str] = [""]

    def set_forms(self, forms: list[str]) -> None:
        self._forms = forms
        self.setToolTip(_plain(forms[0]))
        self._fit()

    def resizeEvent(self, event) -> None:  # noqa: ANN001, N802 - Qt override
        super().resizeEvent(event)
        self._fit()

    def _fit(self) -> None:
        bold = QFont(self.font())
        bold.setBold(True)
        plain, strong = QFontMetrics(self.font()), QFontMetrics(bold)
        room = self.contentsRect().width()  # (a resize on showing fits it again)
        for form in self._forms:
            title, _, rest = form.partition("</b>")
            need = strong.horizontalAdvance(_plain(title)) + plain.horizontalAdvance(_plain(rest))
            if need <= room:
                break
        if self.text() != form:
            self.setText(form)


def _plain(form: str) -> str:
    return html.unescape(form.replace("<b>", "").replace("</b>", ""))


class EditorPane(QWidget):
    def __init__(self, side: str, title: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.side = side
        self.title = title
        self.source: str = ""
        self.header = FittingHeader(self)
        self.header.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        self.editor = DiffEditor(side, self)
        self.editor.setAccessibleName(f"{title} text")
        self.editor.setPlaceholderText(f"Type or paste the {title.lower()} text, or drop a file "
                                       "here")
        self.decorator = DiffDecorator(self.editor, side)
        self.flasher = Flasher(self.editor)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(3)
        self.header_row = QHBoxLayout()
        self.header_row.setContentsMargins(0, 0, 0, 0)
        self.header_row.addWidget(self.header, 1)
        layout.addLayout(self.header_row)
        self.ruler = OverviewRuler(self.editor, side, self)
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        row.setSpacing(1)
        row.addWidget(self.editor, 1)
        row.addWidget(self.ruler)
        layout.addLayout(row, 1)
        self.editor.textChanged.connect(self.update_header)
        self.editor.document().modificationChanged.connect(self.update_header)
        self.update_header()

    def set_text(self, text: str, source: str = "", later: bool = False) -> None:
        self.source = source
        self.editor.set_text(text, later=later)
        self.update_header()

    def update_header(self) -> None:
        count = self.editor.char_count()
        parts = [f"<b>{self.title}</b>"]
        if self.source:
            # Typed into or pasted over since it was loaded: no longer the file's text.
            edited = self.editor.document().isModified()
            source = html.escape(self.source)  # a file's name is no markup
            parts.append(f"{source} (modified)" if edited else source)
        parts.append(f"{count:,} character{'' if count == 1 else 's'}")
        # narrower forms for a narrow pane (three panes at 1280 pixels, the legend beside)
        # (the file's name before the count: it says what the text is)
        short = f"{count:,}"
        forms = [parts, [*parts[:-1], short], parts[:-1], [parts[0], short], [parts[0]]]
        self.header.set_forms([" · ".join(form) for form in forms])

    # -- offsets --------------------------------------------------------------------------------
    def _astral(self):  # noqa: ANN202 - numpy array
        table = self.decorator.table
        if table is None:
            from matchlens.core.diff.span_table import astral_offsets

            return astral_offsets(self.editor.text())
        # the side the decorator draws (a baseline pane diffed directly: the expected one)
        return table.exp_astral if self.decorator.side == "expected" else table.act_astral

    def cursor_offset(self) -> int:
        """The caret as a code point offset into `editor.text()`."""
        return to_code_points(self.editor.textCursor().position(), self._astral())

    def position(self, offset: int) -> int:
        return int(to_utf16(offset, self._astral()))

    # -- actions --------------------------------------------------------------------------------
    def show_range(self, start: int, end: int, colour: QColor) -> None:
        """Put the caret at a code point range, centre it, and flash it."""
        u_start, u_end = self.position(start), self.position(end)
        cursor = QTextCursor(self.editor.document())
        cursor.setPosition(u_start)
        self.editor.setTextCursor(cursor)
        self.editor.centerCursor()
        self.flasher.flash(u_start, u_end, colour)

    def select_range(self, start: int, end: int, colour: QColor) -> None:
        """Select a code point range (and tint it, so it shows without focus)."""
        u_start, u_end = self.position(start), self.position(end)
        cursor = QTextCursor(self.editor.document())
        cursor.setPosition(u_start)
        cursor.setPosition(u_end, QTextCursor.MoveMode.KeepAnchor)
        self.editor.setTextCursor(cursor)
        self.editor.centerCursor()
        fmt = QTextCharFormat()
        fmt.setBackground(colour)
        selection = QTextEdit.ExtraSelection()
        selection.cursor = QTextCursor(cursor)
        selection.format = fmt
        self.editor.set_layer("json", [selection])

    def clear_marks(self) -> None:
        self.editor.set_layer("json", [])
