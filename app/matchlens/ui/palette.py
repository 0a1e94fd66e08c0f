"""Highlight and badge colours derived from the system palette, readable in light and dark mode.

Nothing here is a fixed background: every colour is a hue blended into the palette's own base
colour, so a dark theme gets dark tints and a light theme light ones, and the text colour of the
palette stays readable on top of them.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication

from matchlens.core.results import Label

# Hues (degrees) in the convention diff viewers share: red removes, green adds, blue changes.
_HUE_DELETE = 0
_HUE_INSERT = 130
_HUE_SUBSTITUTE = 212
_HUE_WARN = 38
# Moved text (a sentence found elsewhere): violet, apart from red, green, blue and amber.
_HUE_MOVED = 280


def blend(base: QColor, tint: QColor, amount: float) -> QColor:
    """`amount` of `tint` over `base` (0 = base, 1 = tint), opaque."""
    inv = 1.0 - amount
    return QColor.fromRgbF(
        base.redF() * inv + tint.redF() * amount,
        base.greenF() * inv + tint.greenF() * amount,
        base.blueF() * inv + tint.blueF() * amount,
    )


def is_dark(palette: QPalette) -> bool:
    return palette.color(QPalette.ColorRole.Base).lightnessF() < 0.5


def _hue(hue: int, dark: bool) -> QColor:
    # Dark themes need lighter, slightly less saturated tints to stay visible on near-black.
    return QColor.fromHslF(hue / 360.0, 0.70 if dark else 0.80, 0.55 if dark else 0.48)


@dataclass(frozen=True)
class DiffColours:
    """Backgrounds for each edit kind; `*_soft` for case-only / whitespace-only edits."""

    delete: QColor
    insert: QColor
    substitute: QColor
    delete_soft: QColor
    insert_soft: QColor
    substitute_soft: QColor
    delete_line: QColor  # underline colour of the subdued style
    insert_line: QColor
    substitute_line: QColor
    flash: QColor
    json_value: QColor
    ignored: QColor  # background of characters a normalisation removed
    ignored_text: QColor
    moved: QColor  # background of moved text, on both sides
    moved_line: QColor  # its gutter and ruler mark
    moved_link: QColor  # the other place of the moved text under the pointer


def diff_colours(palette: QPalette | None = None) -> DiffColours:
    palette = palette or QApplication.palette()
    dark = is_dark(palette)
    base = palette.color(QPalette.ColorRole.Base)
    strong, soft = (0.42, 0.16) if dark else (0.30, 0.10)
    d, i, s = (_hue(h, dark) for h in (_HUE_DELETE, _HUE_INSERT, _HUE_SUBSTITUTE))
    highlight = palette.color(QPalette.ColorRole.Highlight)
    return DiffColours(
        delete=blend(base, d, strong),
        insert=blend(base, i, strong),
        substitute=blend(base, s, strong),
        delete_soft=blend(base, d, soft),
        insert_soft=blend(base, i, soft),
        substitute_soft=blend(base, s, soft),
        delete_line=d,
        insert_line=i,
        substitute_line=s,
        flash=blend(base, highlight, 0.75),
        json_value=blend(base, _hue(_HUE_WARN, dark), strong),
        # neutral grey, never a hue: ignored text is neither an error nor a match
        ignored=blend(base, palette.color(QPalette.ColorRole.Text), 0.10),
        ignored_text=palette.color(QPalette.ColorRole.PlaceholderText),
        moved=blend(base, _hue(_HUE_MOVED, dark), strong),
        moved_line=_hue(_HUE_MOVED, dark),
        moved_link=blend(base, _hue(_HUE_MOVED, dark), 0.70 if dark else 0.60),
    )


def badge_colours(label: Label, palette: QPalette | None = None) -> tuple[QColor, QColor]:
    """(background, text) of a verdict badge."""
    palette = palette or QApplication.palette()
    dark = is_dark(palette)
    if label is Label.SCORED:
        back = palette.color(QPalette.ColorRole.Mid)
    else:
        hue = {Label.PASS: _HUE_INSERT, Label.FAIL: _HUE_DELETE, Label.INVALID: _HUE_WARN,
               Label.ERROR: 300}[label]
        back = QColor.fromHslF(hue / 360.0, 0.62, 0.36 if dark else 0.40)
    text = QColor("black") if back.lightnessF() > 0.62 else QColor("white")
    return back, text


def badge_style(label: Label, palette: QPalette | None = None) -> str:
    back, text = badge_colours(label, palette)
    return (f"QLabel {{ background: {back.name()}; color: {text.name()}; border-radius: 8px;"
            " padding: 1px 9px; font-weight: 600; }")
