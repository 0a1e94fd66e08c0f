"""Child processes run at a lower priority than the window, set by the parent at once."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from matchlens.ui.background import NICENESS, lower_priority

pytestmark = pytest.mark.skipif(not hasattr(os, "setpriority"), reason="Unix priorities")


def sleeper() -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])


def test_a_child_is_lowered_and_never_raised():
    proc = sleeper()
    try:
        lower_priority(proc.pid)
        assert os.getpriority(os.PRIO_PROCESS, proc.pid) == NICENESS
        os.setpriority(os.PRIO_PROCESS, proc.pid, NICENESS + 5)
        lower_priority(proc.pid)  # already lower: left alone (raising it needs privileges)
        assert os.getpriority(os.PRIO_PROCESS, proc.pid) == NICENESS + 5
    finally:
        proc.kill()
        proc.wait()


def test_a_process_that_is_gone_is_no_error():
    proc = sleeper()
    proc.kill()
    proc.wait()
    lower_priority(proc.pid)
