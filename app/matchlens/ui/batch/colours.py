"""Colours of the batch tab, derived from the system palette (light and dark alike)."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication

from matchlens.ui.palette import blend, is_dark

# Variant hues: blue, orange, teal, purple, olive, pink — told apart also by colour-blind eyes.
_VARIANT_HUES = (212, 28, 170, 275, 75, 330)


@dataclass(frozen=True)
class VerdictColours:
    passed: QColor
    failed: QColor
    problem: QColor  # errored / invalid / missing: amber, distinct from a fail
    dim: QColor  # text of cells with no value


def verdict_colours(palette: QPalette | None = None) -> VerdictColours:
    palette = palette or QApplication.palette()
    dark = is_dark(palette)
    base = palette.color(QPalette.ColorRole.Base)
    amount = 0.38 if dark else 0.26

    def tint(hue: int) -> QColor:
        return blend(base, QColor.fromHslF(hue / 360, 0.75, 0.5 if dark else 0.47), amount)

    return VerdictColours(
        passed=tint(130),
        failed=tint(0),
        problem=tint(40),
        dim=palette.color(QPalette.ColorRole.PlaceholderText),
    )


def variant_colour(index: int, palette: QPalette | None = None) -> QColor:
    """A line/fill colour for the i-th variant, readable on the palette's base colour."""
    palette = palette or QApplication.palette()
    hue = _VARIANT_HUES[index % len(_VARIANT_HUES)]
    dark = is_dark(palette)
    return QColor.fromHslF(hue / 360, 0.70, 0.62 if dark else 0.45)


def with_alpha(colour: QColor, alpha: int) -> QColor:
    out = QColor(colour)
    out.setAlpha(alpha)
    return out
