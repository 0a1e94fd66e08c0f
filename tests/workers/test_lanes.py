"""The compute lanes: same answers as in-process, stale work dropped or killed, clean close."""

from __future__ import annotations

import random
import threading
import time

import pytest

from matchlens.core.diff.pair import run_task
from matchlens.core.diff.span_table import ALIGN_TASK
from matchlens.workers import lanes as lanes_module
from matchlens.workers.lanes import LanePool, Task


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


def test_a_group_runs_on_one_lane_in_a_row() -> None:
    """Tasks sharing the edit script are taken together by the lane that takes the first."""
    ran: list[tuple[str, str]] = []
    done = threading.Event()
    live = set(range(1, 9))

    def deliver(token, name, status, payload, seconds) -> None:  # noqa: ANN001
        ran.append((name, threading.current_thread().name))
        if len(ran) == 8:
            done.set()

    lane_pool = LanePool(deliver, lambda t: t in live, count=2, processes=False)
    try:
        e, a = "the quick brown fox " * 50, "the quack brown fax " * 50
        group = ["__align__", "levenshtein_distance", "levenshtein_similarity", "cer"]
        others = ["chrf", "bleu", "rouge_l", "jaccard"]
        options = {"case_sensitive": True, "granularity": "char", "view": "readable"}
        tasks = [Task(i + 1, name, options if name == ALIGN_TASK else {}, 1, e, a,
                      group="script" if name in group else "")
                 for i, name in enumerate([group[0], *others[:2], *group[1:], *others[2:]])]
        lane_pool.submit(tasks)
        assert done.wait(30)
    finally:
        lane_pool.close()
    lanes = {thread for name, thread in ran if name in group}
    assert len(lanes) == 1  # one lane ran the whole group
    order = [name for name, _ in ran if name in group]
    assert order == group  # in the order they were submitted


def test_the_edit_script_is_computed_once_for_the_group(monkeypatch) -> None:
    from rapidfuzz.distance import Levenshtein

    from matchlens.core.text import edit_script

    calls = []
    original = Levenshtein.opcodes

    def counting(*args, **kwargs):  # noqa: ANN002, ANN003
        calls.append(len(args[0]))
        return original(*args, **kwargs)

    monkeypatch.setattr(edit_script.Levenshtein, "opcodes", counting)
    # (no trailing space: cer strips the texts, and a stripped copy is another pair)
    e = ("photosynthesis converts light " * 300).strip()
    a = ("photosyntesis turns light " * 300).strip()
    table = run_task(ALIGN_TASK, e, a, {"case_sensitive": True, "granularity": "char",
                                        "view": "readable"})
    distance = run_task("levenshtein_distance", e, a, {}).score
    cer = run_task("cer", e, a, {})
    whole = [n for n in calls if n == len(e)]
    assert len(whole) == 1  # one script of the whole pair, shared
    assert table.distance == distance == Levenshtein.distance(e, a)
    assert cer.score == Levenshtein.distance(e, a) / len(e)
