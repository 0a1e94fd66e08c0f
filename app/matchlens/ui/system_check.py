"""Before Qt opens a window: is there a display, and are the system libraries of Qt's X11
(xcb) plugin installed? Qt's own answer to either is an abort (exit 134) with a page of plugin
names; this says one sentence naming what is missing, and the command exits 2.

No Qt here: it runs before PySide6 is loaded. Each library is looked up the way Qt will load it
(dlopen by its soname: microseconds when present), so the check costs the window's start-up
nothing worth measuring.
"""

from __future__ import annotations

import ctypes
import os
import re
import sys
from collections.abc import Mapping

# What Qt 6's xcb plugin (libqxcb.so and libQt6XcbQpa.so.6) links or dlopens beyond the C
# library: `ldd` on both plugins of PySide6 6.x, plus libxcb-cursor (dlopened since Qt 6.5).
XCB_LIBRARIES = (
    "libxcb.so.1", "libX11.so.6", "libX11-xcb.so.1", "libxcb-cursor.so.0", "libxcb-icccm.so.4",
    "libxcb-image.so.0", "libxcb-keysyms.so.1", "libxcb-randr.so.0", "libxcb-render.so.0",
    "libxcb-render-util.so.0", "libxcb-shape.so.0", "libxcb-shm.so.0", "libxcb-sync.so.1",
    "libxcb-util.so.1", "libxcb-xfixes.so.0", "libxcb-xkb.so.1", "libxkbcommon.so.0",
    "libxkbcommon-x11.so.0", "libfontconfig.so.1", "libfreetype.so.6", "libEGL.so.1",
    "libGL.so.1", "libdbus-1.so.3", "libglib-2.0.so.0",
)
# Debian/Ubuntu package names that do not follow the soname rule of `debian_package`
PACKAGE_EXCEPTIONS = {"libglib-2.0.so.0": "libglib2.0-0", "libxcb-util.so.1": "libxcb-util1"}


def debian_package(soname: str) -> str:
    """The Debian/Ubuntu package that ships `soname`, by Debian's library naming policy:
    libxcb-cursor.so.0 -> libxcb-cursor0, libxkbcommon-x11.so.0 -> libxkbcommon-x11-0."""
    if soname in PACKAGE_EXCEPTIONS:
        return PACKAGE_EXCEPTIONS[soname]
    match = re.fullmatch(r"(.+)\.so\.(\d+)", soname)
    if match is None:
        return soname
    name, version = match.group(1).lower(), match.group(2)
    return f"{name}-{version}" if name[-1].isdigit() else f"{name}{version}"


def missing_libraries(names: tuple[str, ...] = XCB_LIBRARIES) -> list[str]:
    """The sonames in `names` that the dynamic loader cannot find (a frozen app's own copy,
    beside the executable, counts as found)."""
    bundle = getattr(sys, "_MEIPASS", None)
    missing = []
    for name in names:
        candidates = [os.path.join(bundle, name)] if bundle else []
        for candidate in [*candidates, name]:
            try:
                ctypes.CDLL(candidate)
            except OSError:
                continue
            break
        else:
            missing.append(name)
    return missing


def platform_name(environ: Mapping[str, str]) -> str:
    """The Qt platform plugin this process will use on Linux: QT_QPA_PLATFORM's first choice,
    else wayland in a Wayland session, else xcb (Qt 6's own order)."""
    chosen = environ.get("QT_QPA_PLATFORM", "").split(";")[0].split(":")[0].strip()
    if chosen:
        return chosen
    if environ.get("WAYLAND_DISPLAY") and environ.get("XDG_SESSION_TYPE") == "wayland":
        return "wayland"
    return "xcb"


def window_problem(environ: Mapping[str, str] | None = None,
                   missing: list[str] | None = None) -> str | None:
    """One sentence saying why Qt could not open a window here, or None when it can."""
    if not sys.platform.startswith("linux"):
        return None
    environ = os.environ if environ is None else environ
    if platform_name(environ) != "xcb":
        return None
    if not environ.get("DISPLAY"):
        return ("there is no display to open the window on (DISPLAY is not set): on a server, "
                "save the window with `QT_QPA_PLATFORM=offscreen matchlens … --screenshot "
                "out.png`, or run `matchlens score`, which needs no display")
    missing = missing_libraries() if missing is None else missing
    if not missing:
        return None
    packages = sorted({debian_package(name) for name in missing})
    return (f"the window needs system libraries that are not installed ({', '.join(missing)}): "
            f"on Debian or Ubuntu, `sudo apt-get install {' '.join(packages)}`; "
            "`matchlens score` works without them")
