"""A few compute lanes that run tasks off the GUI thread and off its GIL.

Each lane is a Python thread that owns one child process (`lane_worker`). The thread spends its
life blocked in a pipe read, which releases the GIL, so the GUI thread never waits for it; the
child does the CPU work. Tasks come from one shared queue: the newest request replaces the queued
work it makes stale, and a lane still busy with stale work for more than `STALE_KILL_S` has its
process killed and restarted (a million-character edit script cannot be interrupted otherwise).

With MATCHLENS_COMPUTE=thread (a platform where a child cannot start), a lane runs tasks in its
own thread instead: the same results, but
long GIL-holding computations can then make the window stutter.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from matchlens.core.diff.pair import timed_task
from matchlens.workers import lane_spares
from matchlens.workers.frames import read_frame, write_frame

STALE_KILL_S = 1.0

# deliver(token, name, status "done" | "failed", payload, seconds) — called on a lane thread.
Deliver = Callable[[int, str, str, Any, float], None]


@dataclass
class Task:
    token: int
    name: str
    options: dict[str, Any]
    text_id: int
    expected: str = field(repr=False)
    actual: str = field(repr=False)
    # Tasks of one group run on the same lane, one after the other, so they can share work
    # kept in that process (the edit script: core.edit_script).
    group: str = ""


class _LaneLost(Exception):
    """The child process went away (killed because its work went stale, or crashed)."""


def use_processes() -> bool:
    return os.environ.get("MATCHLENS_COMPUTE") != "thread"


class _Lane:
    def __init__(self, pool: LanePool, index: int, processes: bool) -> None:
        self.pool = pool
        self.processes = processes
        self.proc: subprocess.Popen[bytes] | None = None
        self.text_id = -1
        self.current: Task | None = None
        self.started = 0.0
        self.stash: list[Task] = []  # the rest of the group of the task it took
        self.thread = threading.Thread(target=self._loop, name=f"matchlens-lane-{index}",
                                       daemon=True)

    def _loop(self) -> None:
        while True:
            task = self.pool._next_task(self)
            if task is None:
                break
            try:
                payload, seconds = self._run(task)
                status = "done"
            except _LaneLost:
                if self.pool.closed:
                    break
                if self.pool.is_current(task.token):  # crashed on live work: say so
                    self.pool.deliver(task.token, task.name, "failed",
                                      "the compute process stopped unexpectedly", 0.0)
                self.pool._task_finished(self)
                continue
            except Exception as err:  # noqa: BLE001 - shown in the metric's panel
                payload, seconds, status = f"{type(err).__name__}: {err}", 0.0, "failed"
            self.pool._task_finished(self)
            self.pool.deliver(task.token, task.name, status, payload, seconds)
        self._stop_process()

    def _run(self, task: Task) -> tuple[Any, float]:
        if not self.processes:
            return timed_task(task.name, task.expected, task.actual, task.options)
        proc = self._ensure_process()
        assert proc.stdin is not None and proc.stdout is not None
        try:
            if self.text_id != task.text_id:
                write_frame(proc.stdin, ("texts", task.text_id, task.expected, task.actual))
                self.text_id = task.text_id
            write_frame(proc.stdin, ("task", task.text_id, task.token, task.name, task.options))
            reply = read_frame(proc.stdout)
        except (OSError, ValueError):
            reply = None
        if reply is None:
            self._stop_process()
            raise _LaneLost
        if reply[0] == "done":
            return reply[3], reply[4]
        raise RuntimeError(reply[3] if reply[0] == "failed" else "the texts did not arrive")

    def _ensure_process(self) -> subprocess.Popen[bytes]:
        if self.proc is not None and self.proc.poll() is None:
            return self.proc
        self.text_id = -1
        proc = lane_spares.take() or lane_spares.spawn()  # one started ahead, if any
        self.proc = proc
        assert proc.stdout is not None
        if read_frame(proc.stdout) != ("ready",):
            self._stop_process()
            raise _LaneLost
        return proc

    def kill(self) -> None:
        """Stop the child now; the lane thread sees end-of-stream and carries on."""
        proc = self.proc
        if proc is not None and proc.poll() is None:
            proc.kill()

    def _stop_process(self) -> None:
        proc, self.proc = self.proc, None
        if proc is None:
            return
        with contextlib.suppress(OSError, ValueError):
            if proc.poll() is None and proc.stdin is not None:
                write_frame(proc.stdin, ("quit",))
        try:
            proc.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        for stream in (proc.stdin, proc.stdout):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()


class LanePool:
    """`count` lanes pulling from one queue; `is_current(token)` says whether work is still wanted."""

    def __init__(self, deliver: Deliver, is_current: Callable[[int], bool],
                 count: int | None = None, processes: bool | None = None) -> None:
        self.deliver = deliver
        self.is_current = is_current
        self.closed = False
        self._cond = threading.Condition()
        self._queue: list[Task] = []
        processes = use_processes() if processes is None else processes
        count = count or lane_spares.lane_count()
        self._lanes = [_Lane(self, i, processes) for i in range(count)]
        for lane in self._lanes:
            lane.thread.start()

    def submit(self, tasks: list[Task]) -> None:
        """Queue `tasks` first, dropping queued work that is stale or superseded by name."""
        names = {t.name for t in tasks}
        now = time.monotonic()
        with self._cond:
            kept = [t for t in self._queue if t.name not in names and self.is_current(t.token)]
            self._queue = [*tasks, *kept]
            for lane in self._lanes:  # a stashed task is superseded like a queued one
                lane.stash = [t for t in lane.stash
                              if t.name not in names and self.is_current(t.token)]
            for lane in self._lanes:
                cur = lane.current
                if (cur is not None and not self.is_current(cur.token)
                        and now - lane.started > STALE_KILL_S):
                    lane.kill()
            self._cond.notify_all()

    def busy(self) -> bool:
        with self._cond:
            return bool(self._queue) or any(lane.current or lane.stash for lane in self._lanes)

    def _next_task(self, lane: _Lane) -> Task | None:
        with self._cond:
            while not self.closed:
                while lane.stash:
                    task = lane.stash.pop(0)
                    if self.is_current(task.token):
                        lane.current, lane.started = task, time.monotonic()
                        return task
                while self._queue:
                    task = self._queue.pop(0)
                    if self.is_current(task.token):
                        if task.group:  # take the rest of its group along
                            lane.stash = [t for t in self._queue if t.group == task.group]
                            self._queue = [t for t in self._queue if t.group != task.group]
                        lane.current, lane.started = task, time.monotonic()
                        return task
                self._cond.wait()
            return None

    def _task_finished(self, lane: _Lane) -> None:
        with self._cond:
            lane.current = None

    def close(self, timeout: float = 3.0) -> None:
        """Stop every lane and child process; returns once the threads have ended."""
        with self._cond:
            self.closed = True
            self._queue.clear()
            for lane in self._lanes:
                lane.stash.clear()
            self._cond.notify_all()
        for lane in self._lanes:
            if lane.current is not None:
                lane.kill()
        deadline = time.monotonic() + timeout
        for lane in self._lanes:
            lane.thread.join(max(0.1, deadline - time.monotonic()))
