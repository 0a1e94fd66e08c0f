"""TaskSlot: one task per view, the newest request wins, the slot empties when its task ends."""

from __future__ import annotations

import threading

from matchlens.ui.batch.worker import Task, TaskSlot


def _until_cancelled_or(release: threading.Event, cancel) -> str:  # noqa: ANN001 - a callable
    while not release.is_set() and not cancel():
        release.wait(0.005)
    return "done"


def test_a_new_task_cancels_the_one_in_flight_and_the_slot_empties_at_the_end(qtbot):
    slot = TaskSlot()
    first_release, second_release = threading.Event(), threading.Event()
    first = slot.start(Task(_until_cancelled_or, first_release))
    assert slot.busy and slot.task is first
    got = []
    second = Task(_until_cancelled_or, second_release)
    second.sig_returned.connect(got.append)
    try:
        with qtbot.waitSignal(first.sig_done, timeout=10_000):
            slot.start(second)
        assert first.cancelled and not second.cancelled
        assert slot.task is second  # the first task's end does not empty a slot holding it
    finally:
        with qtbot.waitSignal(second.sig_done, timeout=10_000):
            second_release.set()  # never leave a thread behind, even when an assert failed
    assert got == ["done"] and not slot.busy


def test_cancel_returns_the_task_to_wait_for(qtbot):
    slot = TaskSlot()
    assert slot.cancel() is None
    task = slot.start(Task(_until_cancelled_or, threading.Event()))
    with qtbot.waitSignal(task.sig_done, timeout=10_000):
        assert slot.cancel() is task
    assert task.cancelled and not slot.busy
