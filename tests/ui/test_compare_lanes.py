"""The compute lanes: same answers as in-process, stale work dropped or killed, clean close."""

from __future__ import annotations

import random
import threading
import time

import pytest

from matchlens.ui.compare import lanes as lanes_module
from matchlens.ui.compare.jobs import ALIGN_TASK, run_task
from matchlens.ui.compare.lanes import LanePool, Task


class Collector:
    def __init__(self) -> None:
        self.live: set[int] = set()
        self.results: dict[int, tuple[str, str, object]] = {}
        self.arrived = threading.Event()

    def deliver(self, token: int, name: str, status: str, payload: object, _s: float) -> None:
        self.results[token] = (name, status, payload)
        self.arrived.set()

    def wait_for(self, token: int, timeout: float = 20.0) -> tuple[str, str, object]:
        deadline = time.monotonic() + timeout
        while token not in self.results and time.monotonic() < deadline:
            self.arrived.wait(0.05)
            self.arrived.clear()
        return self.results[token]


@pytest.fixture(params=[True, False], ids=["process", "thread"])
def pool(request):
    collector = Collector()
    lane_pool = LanePool(collector.deliver, lambda t: t in collector.live, count=2,
                         processes=request.param)
    yield lane_pool, collector
    lane_pool.close()
    for lane in lane_pool._lanes:
        assert lane.proc is None  # every child process was stopped and reaped
        assert not lane.thread.is_alive()


def test_lanes_answer_like_the_in_process_path(pool) -> None:
    lane_pool, collector = pool
    expected, actual = "The quick brown fox", "The quick brown dog"
    tasks = [Task(1, "levenshtein_distance", {}, 1, expected, actual),
             Task(2, ALIGN_TASK, {"case_sensitive": True, "granularity": "char"}, 1,
                  expected, actual),
             Task(3, "chrf", {}, 1, expected, actual)]
    collector.live.update({1, 2, 3})
    lane_pool.submit(tasks)
    assert collector.wait_for(1)[2] == run_task("levenshtein_distance", expected, actual, {})
    table = collector.wait_for(2)[2]
    assert table.counted == 2  # f→d, x→g
    assert collector.wait_for(3)[2] == run_task("chrf", expected, actual, {})


def test_stale_queued_work_never_runs(pool) -> None:
    lane_pool, collector = pool
    collector.live.update({10})
    # Token 11 went stale before a lane took it (the text changed again).
    lane_pool.submit([Task(11, "jaccard", {}, 1, "a", "b"), Task(10, "jaccard", {}, 1, "a", "a")])
    assert collector.wait_for(10)[1] == "done"
    time.sleep(0.2)
    assert 11 not in collector.results


def test_a_lane_stuck_on_stale_work_is_restarted(monkeypatch) -> None:
    monkeypatch.setattr(lanes_module, "STALE_KILL_S", 0.05)
    collector = Collector()
    lane_pool = LanePool(collector.deliver, lambda t: t in collector.live, count=1,
                         processes=True)
    try:
        rng = random.Random(0)
        # Two unrelated 120k-character texts: the edit distance takes seconds.
        slow_e = "".join(rng.choice("abcdefghij") for _ in range(120_000))
        slow_a = "".join(rng.choice("klmnopqrst") for _ in range(120_000))
        collector.live.add(1)
        lane_pool.submit([Task(1, "levenshtein_distance", {}, 1, slow_e, slow_a)])
        time.sleep(0.6)  # it is now computing
        collector.live.discard(1)
        collector.live.add(2)
        lane_pool.submit([Task(2, "exact_match", {}, 2, "x", "x")])
        assert collector.wait_for(2)[2].score == 1.0
        # Task 2 was answered while the stale distance had not: it did not wait for it.
        assert 1 not in collector.results
    finally:
        lane_pool.close()
