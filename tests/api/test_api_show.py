"""`matchlens.show`: the real app, in its own process, on a DataFrame handed over as a file."""

from __future__ import annotations

import threading
from pathlib import Path

import pandas as pd
import pytest

import matchlens
from tests.cli.conftest import SAMPLE_CSV


def test_show_opens_the_batch_tab_on_a_frame_and_cleans_up(tmp_path):
    frame = pd.read_csv(SAMPLE_CSV, dtype=str, keep_default_na=False).head(40)
    png = tmp_path / "batch.png"
    process = matchlens.show(frame, expected="expected", actual=["output_a", "output_b"],
                             label="label", screenshot=png)
    handed_over = process.args[4]  # python -m matchlens batch FILE ...
    assert process.wait(timeout=120) == 0
    assert png.stat().st_size > 10_000  # the window, drawn
    header = png.read_bytes()[:8]
    assert header == b"\x89PNG\r\n\x1a\n"
    # the temporary copy goes once the window has closed (the thread waiting for it ends)
    for thread in threading.enumerate():
        if thread.name == "matchlens-show":
            thread.join(timeout=30)
    assert not Path(handed_over).exists() and not Path(handed_over).parent.exists()
    png_copy = tmp_path / "kept.png"
    png_copy.write_bytes(png.read_bytes())


def test_show_refuses_what_is_not_a_table():
    with pytest.raises(matchlens.MatchLensError, match=r"matchlens\.show takes a pandas or polars DataFrame"):
        matchlens.show({"a": [1]}, expected="a", actual="a")
