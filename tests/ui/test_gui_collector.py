"""ui/gui_collector.py: with the window's collector installed, no garbage collection runs off
the GUI thread, so a Qt object left in a reference cycle is destroyed on the thread it lives in.

CI once died with a segmentation fault inside a collection that a Batch tab read ran in its
worker thread (stored_table's collection for pyarrow's memory), freeing Qt objects a previous
test had left in cycles."""

from __future__ import annotations

import gc
import threading

import pyarrow as pa
import pyarrow.parquet as pq
from PySide6.QtCore import QObject

from matchlens.ui import gui_collector
from tests.ui.batch_support import load, make_tab


class _Cycle(QObject):
    """A QObject in a reference cycle that records the thread that finalized it."""

    finalized_on: list[str] = []

    def __init__(self) -> None:
        super().__init__()
        self.me = self

    def __del__(self) -> None:
        _Cycle.finalized_on.append(threading.current_thread().name)


class _Collections:
    """Records the thread of every collection that starts (gc.callbacks)."""

    def __init__(self) -> None:
        self.threads: list[str] = []

    def __enter__(self) -> _Collections:
        gc.callbacks.append(self._record)
        return self

    def __exit__(self, *_exc: object) -> None:
        gc.callbacks.remove(self._record)

    def _record(self, phase: str, _info: dict) -> None:
        if phase == "start":
            self.threads.append(threading.current_thread().name)


def _allocate_cycles(count: int) -> None:
    for _ in range(count):
        node: list = []
        node.append(node)  # garbage only a collection frees: gen0's count keeps growing


def test_a_cycle_holding_a_qobject_is_freed_on_the_gui_thread_not_by_a_busy_worker(qtbot):
    gui_collector.install()
    _Cycle.finalized_on.clear()
    _Cycle()  # unreachable at once, freed only by a collection
    worker = threading.Thread(target=_allocate_cycles, args=(200_000,), name="busy-worker")
    with _Collections() as seen:
        worker.start()
        worker.join()
        assert _Cycle.finalized_on == []  # the worker's allocations collected nothing
        qtbot.waitUntil(lambda: _Cycle.finalized_on != [], timeout=5_000)
    assert _Cycle.finalized_on == [threading.main_thread().name]
    assert set(seen.threads) == {threading.main_thread().name}


def test_the_tick_collects_the_generation_cpython_would(qtbot):
    collector = gui_collector.install()
    gc.collect()
    t0, t1, _t2 = collector.thresholds
    assert collector.tick() is None  # nothing allocated since: nothing to do
    _allocate_cycles(2 * t0)
    assert collector.tick() == 0
    ticks = [collector.tick() for _ in range(t1 + 1) if _allocate_cycles(2 * t0) is None]
    assert ticks == [0] * t1 + [1]  # gen 1 once more than t1 gen-0 collections were counted
    assert not gc.isenabled()


def test_a_parquet_read_in_the_batch_tab_collects_only_on_the_gui_thread(qtbot, config,
                                                                        tmp_path):
    """The read's worker leaves pyarrow's last batches to `settle_read` on the GUI thread."""
    gui_collector.install()
    path = tmp_path / "outputs.parquet"
    rows = 3_000
    pq.write_table(pa.table({
        "id": [f"r{i}" for i in range(rows)],
        "expected": [f"answer number {i}" for i in range(rows)],
        "actual": [f"answer number {i * 7 % rows}" for i in range(rows)],
    }), path, row_group_size=500)
    tab = make_tab(qtbot, config)
    with _Collections() as seen:
        load(qtbot, tab, path, expected="expected", actuals=["actual"])
    tab.shutdown()
    assert seen.threads, "the read's collection (pyarrow's batches) never ran"
    assert set(seen.threads) == {threading.main_thread().name}
