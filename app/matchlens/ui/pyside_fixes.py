"""Work around a reference-count bug in PySide6 6.12.0 that would crash long sessions.

`SignalInstance.emit()` returns `True` without taking a new reference, so every emit made from
Python (ours, superqt's, pyqtgraph's) removes one reference from the `True` singleton. On
Python 3.11 `True` starts with about 1,700 references; after that many emits — a few minutes of
typing — its count reaches zero and CPython aborts ("Fatal Python error: bool_dealloc").

Python 3.12 made `True` immortal, so this only matters on 3.11. There, if the bug is detected,
`True` gets a very large reference count once, which is what 3.12 does by design. Remove this
module once a fixed PySide6 is required.
"""

from __future__ import annotations

import ctypes
import sys

_EXTRA_REFERENCES = 1 << 40  # ~10^12 emits; a pinned object is never freed anyway
_applied = False


def emit_leaks_true() -> bool:
    """Whether Signal.emit() drops a reference to True (measured, not version-guessed)."""
    from PySide6.QtCore import QObject, Signal

    class _Probe(QObject):
        sig_probe = Signal()

    probe = _Probe()
    before = sys.getrefcount(True)
    for _ in range(16):
        probe.sig_probe.emit()
    return sys.getrefcount(True) - before <= -16


def apply() -> bool:
    """Pin `True` if needed (idempotent); returns whether the workaround is active."""
    global _applied
    if _applied:
        return True
    if sys.implementation.name != "cpython" or sys.version_info >= (3, 12):
        return False
    if not emit_leaks_true():
        return False
    # ob_refcnt is the first field of every CPython object (Py_ssize_t).
    ctypes.c_ssize_t.from_address(id(True)).value += _EXTRA_REFERENCES
    _applied = True
    return True
