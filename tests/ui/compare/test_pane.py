"""A pane's header and the collapsed placeholders fit the width they get (ui/compare/pane.py
FittingHeader, ui/compare/collapse.py fitted): three panes at 1280 pixels cut neither the
header's title nor a placeholder in the middle of a word; the whole line stays the tooltip."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QFont, QFontMetrics, QFontMetricsF

from matchlens.ui.compare.collapse import fitted, placeholder_text
from matchlens.ui.compare.pane import EditorPane

pytestmark = pytest.mark.qt_log_ignore("propagateSizeHints")


def _needed(font: QFont, form: str) -> int:
    """The pixels a header form takes (the title in bold, as drawn)."""
    bold = QFont(font)
    bold.setBold(True)
    title, _, rest = form.partition("</b>")
    plain = QFontMetrics(font)
    return QFontMetrics(bold).horizontalAdvance(title.replace("<b>", "")) + \
        plain.horizontalAdvance(rest)


@pytest.mark.parametrize("width", [700, 330, 190, 120, 60])
def test_the_header_shows_the_longest_form_that_fits(qtbot, width):
    pane = EditorPane("actual", "Actual")
    qtbot.addWidget(pane)
    pane.set_text("x" * 12_179, "answers-from-yesterday.txt")
    pane.resize(width, 300)
    pane.show()
    qtbot.waitExposed(pane)
    header = pane.header
    whole = "Actual · answers-from-yesterday.txt · 12,179 characters"
    assert header.toolTip() == whole
    forms = [f.replace("<b>", "").replace("</b>", "") for f in header._forms]
    shown = header.text().replace("<b>", "").replace("</b>", "")
    assert shown in forms
    room = header.contentsRect().width()
    # the longest form that fits, or the title alone when none does
    fitting = [f for f, raw in zip(forms, header._forms, strict=True)
               if _needed(header.font(), raw) <= room]
    assert shown == (fitting[0] if fitting else "Actual")
    if width >= 700:
        assert shown == whole
    assert shown.startswith("Actual")


def test_a_placeholder_drops_its_hint_then_elides_to_fit():
    metrics = QFontMetricsF(QFont())
    text = placeholder_text(1234)
    assert fitted(text, metrics, 10_000) == text
    short = "⋯ 1,234 unchanged lines"
    room = metrics.horizontalAdvance(short) + 1
    assert fitted(text, metrics, room) == short
    cut = fitted(text, metrics, room / 2)
    assert cut.endswith("…") and metrics.horizontalAdvance(cut) <= room / 2
