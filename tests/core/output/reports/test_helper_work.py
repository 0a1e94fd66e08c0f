"""core.output.reports.helper_work: the helper works in idle time (IdleGate, from the kernel's
counters) and never waits for idle time once the run waits for it."""

from __future__ import annotations

import os
import re
import signal

import pytest

from matchlens.core.output.reports import helper_work
from matchlens.core.output.reports.helper_work import IdleGate, JoinedIds, joined_ids
from matchlens.core.scoring.forked import can_fork
from tests.core.output.reports.test_report_helper import _columns, _start


def _stat(path, idle: int, busy: int) -> None:
    """A /proc/stat whose every core of this process has `idle` and `busy` jiffies."""
    lines = ["cpu  0 0 0 0 0 0 0 0 0 0"]
    for n in sorted(os.sched_getaffinity(0)):
        lines.append(f"cpu{n} {busy} 0 0 {idle} 0 0 0 0 0 0")
    path.write_text("\n".join(lines) + "\nintr 1 2 3\n")


def test_idle_cores_are_read_from_the_counters_of_this_processs_cores(tmp_path):
    stat = tmp_path / "stat"
    _stat(stat, idle=100, busy=100)
    gate = IdleGate(str(stat))
    cores = len(os.sched_getaffinity(0))
    _stat(stat, idle=130, busy=170)  # each core: 30 of 100 jiffies idle
    assert gate.idle_cores() == pytest.approx(0.3 * cores)
    _stat(stat, idle=230, busy=170)  # each core: all idle
    assert gate.idle_cores() == pytest.approx(cores)
    assert gate.idle_cores() is None  # no time passed: cannot be told


def test_the_gate_waits_while_the_cores_are_busy_and_goes_on_when_told(tmp_path, monkeypatch):
    stat = tmp_path / "stat"
    _stat(stat, idle=0, busy=1)
    gate = IdleGate(str(stat))
    looks = []
    monkeypatch.setattr(helper_work, "WINDOW_S", 0.001)

    def go_on() -> bool:  # the cores stay busy; the run asks after five looks
        looks.append(1)
        _stat(stat, idle=0, busy=1 + 10 * len(looks))
        return len(looks) > 5

    gate.wait(go_on)
    assert len(looks) == 6
    looks.clear()
    _stat(stat, idle=0, busy=1)
    gate = IdleGate(str(stat))

    def idle_now() -> bool:  # a core is idle at the first look
        looks.append(1)
        _stat(stat, idle=10, busy=11)
        return False

    gate.wait(idle_now)
    assert len(looks) == 1


def test_without_counters_the_gate_never_waits(tmp_path):
    gate = IdleGate(str(tmp_path / "missing"))
    gate.wait(lambda: False)  # returns at once: no way to tell, so no waiting
    assert gate.idle_cores() is None


def test_ids_joined_come_back_the_same():
    for ids in ([], [""], ["a", "", "b"], ["x" * 5, "<q>", "é\u2028"]):
        joined = joined_ids(iter(ids), len(ids))
        assert isinstance(joined, JoinedIds) and joined.split() == ids
    assert joined_ids(iter(["a\0b", "c"]), 2) is None  # a NUL in an id: the list is sent


@pytest.mark.skipif(not can_fork(), reason="the report helper needs fork (Linux)")
def test_a_machine_with_no_idle_time_still_gets_its_junit_file(tmp_path, monkeypatch):
    """The helper never sees an idle core; once the run asks for the file, it works anyway."""
    monkeypatch.setattr(IdleGate, "idle_cores", lambda self: 0.0)  # forked with the helper
    monkeypatch.setattr(helper_work, "WINDOW_S", 0.001)
    outputs, stream, tally = _start(tmp_path, _columns(400))

    def stuck(*_args) -> None:
        raise TimeoutError("the helper waited for idle time while the run waited for it")

    previous = signal.signal(signal.SIGALRM, stuck)
    signal.alarm(60)  # a failure, not a hang, if the helper never goes on
    try:
        for piece, result in stream:
            outputs.feed(piece, result)
        outputs.finish(tally, input_path=None, options={})
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
        outputs.close()
    written = (tmp_path / "j.xml").read_text(encoding="utf-8")
    assert len(re.findall("<testcase ", written)) == 400
