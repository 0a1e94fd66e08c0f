"""Work around reference-count bugs in PySide6 6.12.0 that abort long sessions.

Measured here (Python 3.11, PySide6-Essentials 6.12.0, the only version the registry offers):

* every call of a Qt method that returns void (`label.setText(...)`, `timer.start(...)`) hands
  Python `None` without a new reference, so each call removes one reference from `None`;
* `SignalInstance.emit()` does the same with `True`.

`None` starts with about 3,700 references, `True` with about 1,700. A few minutes of typing
brings one of them to zero and CPython aborts ("Fatal Python error: none_dealloc" /
"bool_dealloc"), in the middle of a session or at exit.

Python 3.12 made these singletons immortal, so this only matters on 3.11. There, when the leak
is detected, `None`, `True` and `False` get a very large reference count once — the same thing
3.12 does by design; they are never freed in a running interpreter anyway. Remove this module
once a fixed PySide6 is required.
"""

from __future__ import annotations

import ctypes
import sys

_EXTRA_REFERENCES = 1 << 40  # ~10^12 leaked references before it could matter
_PROBES = 16
_applied = False


def leaks() -> dict[str, bool]:
    """Which singletons PySide6 drops references to (measured, not guessed from versions)."""
    from PySide6.QtCore import QObject, Signal

    class _Probe(QObject):
        sig_probe = Signal()

    probe = _Probe()
    before_true = sys.getrefcount(True)
    for _ in range(_PROBES):
        probe.sig_probe.emit()
    true_drift = sys.getrefcount(True) - before_true
    before_none = sys.getrefcount(None)
    for _ in range(_PROBES):
        probe.setObjectName("probe")
    none_drift = sys.getrefcount(None) - before_none
    return {"True": true_drift <= -_PROBES, "None": none_drift <= -_PROBES}


def apply() -> bool:
    """Pin None/True/False if PySide6 leaks them (idempotent); True if the fix is active."""
    global _applied
    if _applied:
        return True
    if sys.implementation.name != "cpython" or sys.version_info >= (3, 12):
        return False
    if not any(leaks().values()):
        return False
    for singleton in (None, True, False):
        # ob_refcnt is the first field of every CPython object (a Py_ssize_t).
        ctypes.c_ssize_t.from_address(id(singleton)).value += _EXTRA_REFERENCES
    _applied = True
    return True
