"""The compare tab's row description (ui/compare/row_bar.ElidedLabel): drawn as plain text,
and its hover shows the same text whatever a dataset's id or column name holds."""

from __future__ import annotations

from PySide6.QtGui import Qt as QtGuiNamespace
from PySide6.QtGui import QTextDocument

from matchlens.ui.compare.row_bar import ElidedLabel


def _tooltip_as_read(label: ElidedLabel) -> str:
    # what QToolTip shows: rich text when Qt takes the tip for HTML, else the string itself
    tip = label.toolTip()
    if not QtGuiNamespace.mightBeRichText(tip):
        return tip
    doc = QTextDocument()
    doc.setHtml(tip)
    return doc.toPlainText()


def test_the_hover_shows_an_id_holding_markup_as_it_is(qtbot):
    label = ElidedLabel()
    qtbot.addWidget(label)
    # an id column of user data; Qt would take this tip for HTML and show "x" in bold
    text = "row 2 of 200 (id <b>x</b> & <i>y</i>) · output_a · fail"
    label.setText(text)
    assert label.text() == text
    assert _tooltip_as_read(label) == text
    plain = "row 1 of 4 (id a<b) · output_a · pass"  # no markup: the tip is the text itself
    label.setText(plain)
    assert label.toolTip() == plain
