"""Background processes yield the CPU to the window (no Qt here: the child processes use it)."""

from __future__ import annotations

import contextlib
import os

NICENESS = 10


def lower_priority(pid: int = 0) -> None:
    """Give process `pid` (0: this one) niceness 10, so the window wins a contended core.

    The parent calls it on a child it has just started, too: a Python starting up and
    importing numpy runs ~0.1 s before the child could lower itself, and on two cores that
    is long enough to stall the window's paint.
    """
    if not hasattr(os, "setpriority"):
        return  # Windows: the child keeps the normal priority
    with contextlib.suppress(OSError):
        if os.getpriority(os.PRIO_PROCESS, pid) < NICENESS:
            os.setpriority(os.PRIO_PROCESS, pid, NICENESS)
