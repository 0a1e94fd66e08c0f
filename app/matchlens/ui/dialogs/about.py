"""Help ▸ About MatchLens: the version and what the program is for, in one box."""

from __future__ import annotations

from PySide6.QtWidgets import QMessageBox, QWidget

from matchlens import __version__


def show_about(parent: QWidget) -> None:
    QMessageBox.about(parent, "About MatchLens",
                      f"<b>MatchLens {__version__}</b><p>See why an LLM output missed its "
                      "reference: an edit highlight that is the Levenshtein edit script, "
                      "live metric panels, batch scoring and threshold calibration.</p>")
