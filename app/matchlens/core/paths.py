"""Where the shipped resources (samples, icons) live."""

from __future__ import annotations

import os
import sys
from pathlib import Path


def resource_dir() -> Path:
    """The top-level `resources/` folder of the checkout (or MATCHLENS_RESOURCES)."""
    override = os.environ.get("MATCHLENS_RESOURCES")
    if override:
        return Path(override)
    bundle = getattr(sys, "_MEIPASS", None)  # a PyInstaller build unpacks resources here
    if bundle:
        return Path(bundle) / "resources"
    return Path(__file__).resolve().parents[3] / "resources"


def sample_dataset() -> Path:
    return resource_dir() / "samples" / "qa_extraction_sample.csv"


def sample_pair() -> tuple[Path, Path]:
    folder = resource_dir() / "samples"
    return folder / "pair_expected.txt", folder / "pair_actual.txt"
