"""Child processes: started the same way from a frozen app, and at a lower priority than the
window, set by the parent at once."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from matchlens.workers.background import (
    CHILD_FLAG,
    CHILD_MODULES,
    NICENESS,
    child_command,
    lower_priority,
    run_child,
)
from matchlens.workers.frames import read_frame

unix = pytest.mark.skipif(not hasattr(os, "setpriority"), reason="Unix priorities")


def sleeper() -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])


@unix
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


@unix
def test_a_process_that_is_gone_is_no_error():
    proc = sleeper()
    proc.kill()
    proc.wait()
    lower_priority(proc.pid)


@pytest.fixture
def frozen(tmp_path, monkeypatch):
    """Pretend to be a PyInstaller app: sys.executable is the app, which runs matchlens.main."""
    app = tmp_path / "matchlens-app"
    app.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m matchlens.main "$@"\n')
    app.chmod(0o755)
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.setattr(sys, "executable", str(app))
    return app


@pytest.mark.parametrize("module", CHILD_MODULES)
def test_a_frozen_app_starts_its_children_through_itself(frozen, module):
    command = child_command(module)
    assert command == [str(frozen), CHILD_FLAG, module]
    proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    try:
        assert read_frame(proc.stdout) == ("ready",)
    finally:
        proc.stdin.close()  # end of input: the child exits
        assert proc.wait(timeout=30) == 0


def test_a_frozen_app_scores_big_datasets_in_a_child(qtbot, frozen, config, monkeypatch):
    from matchlens.core.paths import sample_dataset
    from matchlens.ui.batch import dataset_scoring as worker
    from tests.ui.batch_support import load, make_tab

    monkeypatch.setattr(worker, "PROCESS_ROWS", 1)  # the sample counts as big
    tab = make_tab(qtbot, config)
    try:
        load(qtbot, tab, sample_dataset())
        assert tab.run.child.proc.args[:2] == [str(frozen), CHILD_FLAG]
        assert tab.result.done == tab.result.rows == 200
        assert "Scored 200 rows" in tab.progress.label.text()
    finally:
        tab.shutdown()


def test_only_our_children_run():
    with pytest.raises(ValueError):
        child_command("os")
    assert run_child([CHILD_FLAG, "os"]) is None
    assert run_child(["score", "data.csv"]) is None
