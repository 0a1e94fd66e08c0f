"""Our background processes: how to start one (also from a frozen app) and how they yield the
CPU to the window. No Qt here: the child processes import this."""

from __future__ import annotations

import contextlib
import importlib
import os
import sys
from collections.abc import Sequence

NICENESS = 10
# A frozen app has no Python to run `-m` with: it starts itself with this flag instead, and
# main() runs the child before anything else (see run_child).
CHILD_FLAG = "--matchlens-child"
CHILD_MODULES = ("matchlens.workers.score_child", "matchlens.workers.lane_worker")


def child_command(module: str) -> list[str]:
    """The command line that runs child `module` (one of CHILD_MODULES)."""
    if module not in CHILD_MODULES:
        raise ValueError(f"not a MatchLens child process: {module}")
    if getattr(sys, "frozen", False):
        return [sys.executable, CHILD_FLAG, module]
    return [sys.executable, "-m", module]


def run_child(argv: Sequence[str]) -> int | None:
    """Run the child process `argv` asks for and return its exit code; None if it asks none."""
    if len(argv) < 2 or argv[0] != CHILD_FLAG or argv[1] not in CHILD_MODULES:
        return None
    return importlib.import_module(argv[1]).main()


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
