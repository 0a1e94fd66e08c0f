"""The HTML report rendered by a real browser (headless Chromium, which .ci/run installs from
the distribution's packages): the page is drawn, with scripts and without, and the dark
scheme (`prefers-color-scheme`) is drawn dark. Whole-page brightness only, never pixels under
glyphs."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from tests.core.output.reports.runs import run_joined_reports, run_reports

CHROMIUM = next((p for p in (shutil.which(n) for n in ("chromium", "chromium-browser",
                                                        "google-chrome")) if p), None)
pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="no Chromium on this machine (apt-get install chromium; .ci/run "
                             "installs it): the report is not rendered in a browser here")


def screenshot(page: Path, png: Path, *flags: str, width: int = 1280) -> np.ndarray:
    """The page as Chromium draws it: an (h, w) array of luminance 0-255."""
    QImage = pytest.importorskip("PySide6.QtGui").QImage  # noqa: N806 - a class
    subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu",
                    "--hide-scrollbars", f"--screenshot={png}", f"--window-size={width},1400",
                    *flags, page.as_uri()], check=True, capture_output=True, timeout=180)
    image = QImage(str(png)).convertToFormat(QImage.Format.Format_Grayscale8)
    assert not image.isNull(), f"Chromium wrote no image ({png})"
    bits = np.frombuffer(image.constBits(), dtype=np.uint8)
    # copied: the buffer belongs to `image`, gone when this returns
    return bits.reshape(image.height(), image.bytesPerLine())[:, : image.width()].copy()


@pytest.fixture(scope="module")
def report(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("report")
    run_reports(folder, {"expected": ["Paris", "Canberra", "Ottawa"] * 20,
                         "a": ["It's Paris.", "Sydney", "Ottawa"] * 20,
                         "b": ["Paris", "Canberra, ACT", "Toronto"] * 20},
                actual=("a", "b"), markdown=False, junit=False)
    return folder / "r.html"


@pytest.fixture(scope="module")
def baseline_report(tmp_path_factory) -> Path:
    """A run against its baseline: the regressions section with three-way diffs on top."""
    folder = tmp_path_factory.mktemp("baseline")
    ids = [str(i) for i in range(40)]
    expected = ["Paris is the capital of France", "Canberra", "Ottawa, Ontario"] * 13 + ["x"]
    today = ["Paris is the capital city of France.", "Sydney", "Ottawa, Ontario"] * 13 + ["x"]
    run_joined_reports(folder, {"id": ids, "expected": expected, "actual": today},
                       {"id": ids, "expected": expected, "actual": expected},
                       markdown=False, junit=False)
    return folder / "r.html"


def drawn(luma: np.ndarray) -> float:
    """The share of the page that differs from its background (the most common grey)."""
    background = np.bincount(luma.ravel(), minlength=256).argmax()
    return float((np.abs(luma.astype(int) - int(background)) > 40).mean())


def test_light_page_is_drawn(report, tmp_path):
    luma = screenshot(report, tmp_path / "light.png")
    assert luma.mean() > 180  # a light page: mostly a light background
    assert drawn(luma) > 0.02  # tables, plots and diffs, not a blank page


def test_drawn_without_scripts(report, tmp_path):
    # The browser itself refuses every script of the page (a Content-Security-Policy of
    # script-src 'none'; --blink-settings=scriptEnabled=false also stops headless screenshots)
    locked = tmp_path / "locked.html"
    locked.write_text(report.read_text(encoding="utf-8").replace(
        "<head>", "<head><meta http-equiv=\"Content-Security-Policy\" "
                  "content=\"script-src 'none'\">", 1), encoding="utf-8")
    with_scripts = screenshot(report, tmp_path / "scripts.png")
    without = screenshot(locked, tmp_path / "noscript.png")
    assert drawn(without) > 0.02
    # the script only adds a filter box: the rest of the first screen is the same page
    assert abs(drawn(without) - drawn(with_scripts)) < 0.01


def test_dark_scheme_is_dark(report, tmp_path):
    light = screenshot(report, tmp_path / "light.png")
    dark = screenshot(report, tmp_path / "dark.png", "--force-dark-mode")
    assert dark.mean() < 80 < light.mean()  # the background itself turns dark
    assert drawn(dark) > 0.02


def test_phone_width_is_drawn(report, tmp_path):
    luma = screenshot(report, tmp_path / "phone.png", width=390)
    assert drawn(luma) > 0.02


@pytest.mark.parametrize("width", [1280, 390])
def test_the_baseline_section_is_drawn(baseline_report, tmp_path, width):
    assert "<h2>Against the baseline</h2>" in baseline_report.read_text(encoding="utf-8")
    luma = screenshot(baseline_report, tmp_path / f"baseline-{width}.png", width=width)
    assert luma.mean() > 180
    assert drawn(luma) > 0.02
