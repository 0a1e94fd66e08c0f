"""Which thresholds file `score` and `calibrate` read: `--config` always wins; without it, the
file the window saved for the dataset (`core.dataset_thresholds`), so the command judges the
rows as the window showed them; else none (the registry's defaults). The sentence naming a
saved file is the first line of the command's summary."""

from __future__ import annotations

import argparse
from pathlib import Path


def config_path(args: argparse.Namespace) -> Path | None:
    """The thresholds file to read: --config, else the dataset's saved one (None: none)."""
    if getattr(args, "score_config", None):
        return Path(args.score_config)
    if getattr(args, "thresholds_of_data", False):
        # imported here: a plain run of `matchlens` loads no labels code (test_startup_imports)
        from matchlens.core.dataset_thresholds import saved_thresholds

        return saved_thresholds(getattr(args, "data", None))
    return None


def source_line(args: argparse.Namespace) -> str | None:
    """"thresholds: FILE (saved for DATA; --config overrides)" when the dataset's own file is
    read; None with --config or when there is none."""
    if getattr(args, "score_config", None):
        return None
    path = config_path(args)
    if path is None:
        return None
    return (f"thresholds: {path} (saved for {Path(args.data).name} by the window; "
            "--config FILE overrides)")
