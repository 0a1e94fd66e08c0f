"""API tests: the embeddings tests' loopback OpenAI server, and thread hygiene.

The core scores a big batch in a forked process only when no other thread runs (a fork copies
locks held by other threads); its tests check that path. A Dask client leaves threads behind,
so every module here must end with the main thread alone, or later tests lose the fork path.
"""

from __future__ import annotations

import threading

import pytest

from tests.embeddings.conftest import batch_of, fake_openai  # noqa: F401  (fixtures)


def release_dask_threads() -> None:
    """distributed keeps one offload thread for the life of the process once a client ran:
    end it (a fresh executor starts its thread only when next used); and wait for the threads
    watching worker processes, which end once their process is reaped."""
    from concurrent.futures import ThreadPoolExecutor

    import distributed.utils

    old = distributed.utils._offload_executor
    distributed.utils._offload_executor = ThreadPoolExecutor(
        max_workers=1, thread_name_prefix="Dask-Offload")
    old.shutdown(wait=True)
    for thread in threading.enumerate():
        if thread.name.startswith("AsyncProcess"):
            thread.join(timeout=30)


@pytest.fixture(scope="module", autouse=True)
def no_thread_left_behind():
    yield
    left = [t.name for t in threading.enumerate() if t is not threading.main_thread()]
    assert not left, f"threads left running after this module: {left}"
