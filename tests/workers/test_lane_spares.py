"""Lane processes started ahead (`lane_spares`): a pool takes them, nobody's spares quit."""

from __future__ import annotations

import pytest

from matchlens.workers import lane_spares
from matchlens.workers.frames import read_frame
from matchlens.workers.lanes import LanePool, Task
from tests.workers.test_lanes import Collector


@pytest.fixture(autouse=True)
def no_spares_left():
    lane_spares.discard()
    yield
    lane_spares.discard()


def test_a_pool_takes_the_spare_started_ahead() -> None:
    assert lane_spares.prestart(1) == 1
    [spare] = lane_spares.waiting()
    collector = Collector()
    pool = LanePool(collector.deliver, lambda t: t in collector.live, count=1)
    try:
        collector.live.add(1)
        pool.submit([Task(1, "levenshtein_distance", {}, 1, "kitten", "sitting")])
        name, status, outcome = collector.wait_for(1)
        assert (name, status, outcome.score) == ("levenshtein_distance", "done", 3.0)
        assert pool._lanes[0].proc is spare  # the lane ran in the process started ahead
        assert lane_spares.take() is None
    finally:
        pool.close()


def test_spares_nobody_took_quit() -> None:
    assert lane_spares.prestart(2) == 2
    spares = lane_spares.waiting()
    assert read_frame(spares[0].stdout) == ("ready",)
    lane_spares.discard()
    assert all(proc.poll() is not None for proc in spares)  # ended, not left running


def test_small_files_start_no_lanes(tmp_path) -> None:
    small = tmp_path / "a.txt"
    small.write_text("short text", encoding="utf-8")
    missing = tmp_path / "missing.txt"
    assert lane_spares.prestart_for([small, missing]) == 0
    assert lane_spares.take() is None
    big = tmp_path / "b.txt"
    big.write_text("x" * 5_000, encoding="utf-8")
    assert lane_spares.prestart_for([small, big], min_bytes=4_000) == lane_spares.lane_count()


def test_no_processes_when_lanes_are_threads(monkeypatch) -> None:
    monkeypatch.setenv("MATCHLENS_COMPUTE", "thread")
    assert lane_spares.prestart() == 0
    assert lane_spares.take() is None
