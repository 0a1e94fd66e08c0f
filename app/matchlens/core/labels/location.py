"""Where the labels of a dataset are kept: beside it (`DATA.labels.csv`), or in the user's data
folder when the dataset's folder cannot be written.

The shipped sample the window opens by default lives in the installed app's resources, which
are read-only for the user (a system-wide install, a PyInstaller bundle, a read-only share):
saving beside it fails, and labels only in memory are lost at close. There the labels go to
`<user data dir>/labels/NAME-<hash>.labels.csv`, keyed by the file's absolute path, so opening
the same file again finds them, and so does `matchlens calibrate` (`saved_labels`).

Once labels are kept away from a file they stay there (a folder that becomes writable later
does not split them over two files). A labels file beside a read-only dataset (one shipped
with it) is the starting point of the one kept away; it is never written. Pure Python, no Qt.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path

from matchlens.core.labels.sidecar import SUFFIX, sidecar_path

APP_NAME = "matchlens"
_NAME_CHARS = 80  # of the data file's name kept in the labels file's name (for a person)


def labels_folder() -> Path:
    """`~/.local/share/matchlens/labels` on Linux (the platform's user data folder)."""
    from platformdirs import user_data_dir

    return Path(user_data_dir(APP_NAME, appauthor=False)) / "labels"


def away_path(data: str | Path) -> Path:
    """The labels file of `data` in the user's data folder: its name (for a person to find it)
    and a hash of its absolute path (two `qa.csv` in different folders never share one)."""
    absolute = Path(data).resolve()
    digest = hashlib.sha256(os.fsencode(absolute)).hexdigest()[:16]
    return labels_folder() / f"{absolute.name[:_NAME_CHARS]}-{digest}{SUFFIX}"


def folder_writable(folder: Path) -> bool:
    """Whether `folder` takes new files, as the kernel answers access(2): it says no for a
    read-only mount or an immutable folder even to root. (Creating a probe file would be
    surer, but would touch the user's folder at every open.) Where it says yes wrongly (some
    network shares' ACLs), `Labels.save` moves the labels here at the first write that fails."""
    return os.access(folder, os.W_OK | os.X_OK)


@dataclass(frozen=True)
class LabelsHome:
    """Where one dataset's labels are read and written."""

    path: Path  # written at every change; read when it exists
    seed: Path | None = None  # else read this one (beside a read-only dataset), never written
    away: bool = False  # True: not beside the data, in the user's data folder

    def source(self) -> Path | None:
        """The file to read the labels from now (None: there are none yet)."""
        if self.path.exists():
            return self.path
        return self.seed if self.seed is not None and self.seed.exists() else None


def locate(data: str | Path) -> LabelsHome:
    """Where the labels of `data` live: kept away already, else beside it when its folder can
    be written, else away (starting from a labels file beside it, if there is one)."""
    beside, away = sidecar_path(data), away_path(data)
    if away.exists():
        return LabelsHome(away, away=True)
    if folder_writable(beside.parent):
        return LabelsHome(beside)
    return LabelsHome(away, seed=beside if beside.exists() else None, away=True)


def saved_labels(data: str | Path) -> Path | None:
    """The labels file the window saved for `data`, wherever it is (None: none yet)."""
    away = away_path(data)
    if away.exists():
        return away
    beside = sidecar_path(data)
    return beside if beside.exists() else None
