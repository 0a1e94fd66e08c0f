"""`matchlens.show`: the app's batch tab on a DataFrame, from a notebook.

The window runs in its own process (`python -m matchlens batch FILE ...`), so the notebook's
kernel never hosts a Qt event loop and stays responsive; a table in memory is handed over as a
JSON Lines file in a private temporary folder, removed once the window closes.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from matchlens.api.inputs import frame_kind


def show(data: Any, expected: str | None = None, actual: str | Sequence[str] | None = None,
         *, label: str | None = None, config: str | os.PathLike | None = None,
         screenshot: str | os.PathLike | None = None) -> subprocess.Popen:
    """Open the batch tab on `data` (a DataFrame, an Arrow table or a path) with the columns
    mapped as `matchlens.score` maps them; returns the window's process at once.

    `screenshot=PNG` saves the window once it has scored and plotted, then closes it.
    """
    folder = None
    if isinstance(data, str | os.PathLike):
        path = Path(data)
    else:
        folder = Path(tempfile.mkdtemp(prefix="matchlens-show-"))  # 0700: this user's only
        path = folder / "DataFrame.jsonl"  # the name the window shows
        _write_jsonl(data, path)
    command = [sys.executable, "-m", "matchlens", "batch", str(path)]
    if expected is not None:
        command += ["--expected", expected]
    for spec in [actual] if isinstance(actual, str) else list(actual or ()):
        command += ["--actual", spec]
    if label is not None:
        command += ["--label", label]
    if config is not None:
        command += ["--config", str(config)]
    if screenshot is not None:
        command += ["--screenshot", str(screenshot)]
    process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                               start_new_session=True)
    if folder is not None:
        threading.Thread(target=_remove_when_closed, args=(process, folder), daemon=True,
                         name="matchlens-show").start()
    return process


def _write_jsonl(data: Any, path: Path) -> None:
    kind = frame_kind(data, "matchlens.show")  # a sentence for anything that is not a table
    frame = data if kind == "pandas" else data.to_pandas() if kind == "polars" else \
        _arrow(data).to_pandas()
    frame = frame.copy(deep=False)
    frame.columns = [str(c) for c in frame.columns]
    frame.to_json(path, orient="records", lines=True, force_ascii=False, date_format="iso")


def _arrow(data: Any) -> Any:
    import pyarrow as pa

    return data if isinstance(data, pa.Table) else pa.table(data)


def _remove_when_closed(process: subprocess.Popen, folder: Path) -> None:
    process.wait()
    shutil.rmtree(folder, ignore_errors=True)
