"""ui.system_check: a missing display or X11 library is one sentence and exit 2, not Qt's abort."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from matchlens.ui.system_check import (
    XCB_LIBRARIES,
    debian_package,
    missing_libraries,
    platform_name,
    window_problem,
)


@pytest.mark.parametrize("soname, package", [
    ("libxcb-cursor.so.0", "libxcb-cursor0"),      # Debian: name + soversion
    ("libxcb-icccm.so.4", "libxcb-icccm4"),
    ("libxkbcommon-x11.so.0", "libxkbcommon-x11-0"),  # a name ending in a digit takes a hyphen
    ("libX11-xcb.so.1", "libx11-xcb1"),            # package names are lower case
    ("libdbus-1.so.3", "libdbus-1-3"),
    ("libglib-2.0.so.0", "libglib2.0-0"),          # the exception to the rule
])
def test_the_debian_package_of_a_library(soname, package):
    assert debian_package(soname) == package


def test_the_platform_qt_will_use():
    assert platform_name({}) == "xcb"
    assert platform_name({"QT_QPA_PLATFORM": "offscreen"}) == "offscreen"
    assert platform_name({"QT_QPA_PLATFORM": "wayland;xcb"}) == "wayland"
    assert platform_name({"WAYLAND_DISPLAY": "wayland-0", "XDG_SESSION_TYPE": "wayland"}) \
        == "wayland"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux's xcb only")
def test_what_is_missing_is_named_with_its_package():
    assert window_problem({"QT_QPA_PLATFORM": "offscreen"}) is None
    assert "DISPLAY is not set" in window_problem({})
    assert window_problem({"DISPLAY": ":0"}, missing=[]) is None
    sentence = window_problem({"DISPLAY": ":0"},
                              missing=["libxcb-cursor.so.0", "libxkbcommon-x11.so.0"])
    assert "libxcb-cursor.so.0, libxkbcommon-x11.so.0" in sentence
    assert "sudo apt-get install libxcb-cursor0 libxkbcommon-x11-0" in sentence
    assert missing_libraries(("libmatchlens-not-a-library.so.7", "libc.so.6")) \
        == ["libmatchlens-not-a-library.so.7"]
    assert set(missing_libraries()) <= set(XCB_LIBRARIES)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux's xcb only")
def test_the_window_without_a_display_is_a_sentence_not_an_abort():
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "QT_QPA_PLATFORM",
                                                           "WAYLAND_DISPLAY")}
    done = subprocess.run([sys.executable, "-m", "matchlens"], env=env, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("matchlens: there is no display to open the window on")
    assert done.stderr.count("\n") == 1
