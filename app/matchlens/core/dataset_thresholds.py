"""Where a dataset's thresholds live: beside it (`DATA.thresholds.toml`), or in the user's data
folder when the dataset's folder cannot be written — the same rule, and the same keying by the
file's absolute path, as its labels (`core.labels.location`, reused here, not copied).

Thresholds belong to the dataset they were tuned on (shared/guides/ui.md): the window saves
them here as the user tunes, opens a dataset with its own, and `matchlens score` / `calibrate`
given the same dataset without `--config` read the same file (`saved_thresholds`). A file
beside a read-only dataset (one shipped with it) is the starting point of the one kept away;
it is never written. Pure Python, no Qt.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from matchlens.core.labels.location import away_path, folder_writable
from matchlens.core.labels.sidecar import SUFFIX as LABELS_SUFFIX

SUFFIX = ".thresholds.toml"
FOLDER = "thresholds"  # beside `labels` in the user's data folder


def beside_path(data: str | Path) -> Path:
    """`qa.csv` -> `qa.csv.thresholds.toml` (the full name: `qa.csv` and `qa.jsonl` never share
    one, as with labels)."""
    data = Path(data)
    return data.with_name(data.name + SUFFIX)


def kept_away_path(data: str | Path) -> Path:
    """`<user data dir>/thresholds/NAME-<hash>.thresholds.toml`: the labels' name and hash
    (`labels.location.away_path`), in a folder of its own."""
    labels = away_path(data)
    return labels.parent.parent / FOLDER / (labels.name.removesuffix(LABELS_SUFFIX) + SUFFIX)


@dataclass(frozen=True)
class ThresholdsHome:
    """Where one dataset's thresholds are read and written."""

    path: Path  # written at every change; read when it exists
    seed: Path | None = None  # else read this one (beside a read-only dataset), never written
    away: bool = False  # True: in the user's data folder, not beside the data

    def source(self) -> Path | None:
        """The file to read the thresholds from now (None: none yet; start from defaults)."""
        if self.path.exists():
            return self.path
        return self.seed if self.seed is not None and self.seed.exists() else None


def locate(data: str | Path) -> ThresholdsHome:
    """Where the thresholds of `data` live: kept away already, else beside it when its folder
    can be written, else away (starting from a file beside it, if there is one)."""
    beside, away = beside_path(data), kept_away_path(data)
    if away.exists():
        return ThresholdsHome(away, away=True)
    if folder_writable(beside.parent):
        return ThresholdsHome(beside)
    return ThresholdsHome(away, seed=beside if beside.exists() else None, away=True)


def saved_thresholds(data: str | Path | None) -> Path | None:
    """The thresholds file of `data` that the window saved or that came with it, wherever it is
    (None: standard input, or none yet). `score` and `calibrate` read it without --config."""
    if data is None or str(data) == "-":
        return None
    try:
        return locate(data).source()
    except (OSError, RuntimeError):  # a symlink loop, a name too long: the reader says so
        return None
