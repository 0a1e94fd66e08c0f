"""`matchlens batch` with each joined file's own reading options, run whole: the real entry
point (`python -m matchlens batch ... --references-records ... --baseline-format ...
--screenshot`) in a process of its own, offscreen, exits 0 with the joined run drawn.

(Its own file, after test_batch_runs.py: run before it, that file's release test saw the joined
rows kept; see the report of the seams branch.)"""

from __future__ import annotations

import os
import subprocess
import sys

from tests.ui.batch.test_batch_cli_joins import _argv, _files


def test_the_real_command_opens_the_joined_run_offscreen(tmp_path):
    png = tmp_path / "joined.png"
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "MATCHLENS_SCREENSHOT_TIMEOUT": "40",
           "XDG_CONFIG_HOME": str(tmp_path / "config")}
    done = subprocess.run([sys.executable, "-m", "matchlens", *_argv(*_files(tmp_path)),
                           "--screenshot", str(png), "--screenshot-size", "1280x720"],
                          env=env, capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr
    assert "matchlens:" not in done.stderr and "still working" not in done.stderr, done.stderr
    assert png.stat().st_size > 0
