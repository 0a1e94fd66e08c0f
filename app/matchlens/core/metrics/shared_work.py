"""Work several metrics of one batch chunk would each redo (folded texts, edit distances),
computed once per chunk, and how many threads a metric's C++ library may use."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, TypeVar

# The batch opens a `sharing_work()` scope per chunk and variant, and `shared` computes each piece
# once inside it. Outside a scope (a direct `compute_many` call) nothing is kept.
_SHARED: ContextVar[dict | None] = ContextVar("matchlens_shared_work", default=None)
T = TypeVar("T")


@contextmanager
def sharing_work() -> Iterator[None]:
    token = _SHARED.set({})
    try:
        yield
    finally:
        _SHARED.reset(token)


def shared(key: Any, inputs: tuple, compute: Callable[[], T]) -> T:
    """`compute()`, or its value from earlier in the current `sharing_work()` scope for the same
    `key` and the very same `inputs` objects (identity, not equality: nothing is hashed)."""
    memo = _SHARED.get()
    if memo is None:
        return compute()
    slot = (key, *map(id, inputs))
    hit = memo.get(slot)
    if hit is not None and all(a is b for a, b in zip(hit[0], inputs, strict=True)):
        return hit[1]
    value = compute()
    memo[slot] = (inputs, value)  # the inputs are held, so their ids cannot be reused
    return value


# How many threads a metric's C++ library may use (rapidfuzz `workers`): -1 is every core. A
# batch that already runs one process per core sets it to 1.
_THREADS: ContextVar[int] = ContextVar("matchlens_metric_threads", default=-1)


def metric_threads() -> int:
    return _THREADS.get()


@contextmanager
def threads_per_process(count: int) -> Iterator[None]:
    token = _THREADS.set(count)
    try:
        yield
    finally:
        _THREADS.reset(token)


def folded_texts(texts: Sequence[str]) -> list[str]:
    """Every text through `fold_case` (shared within a batch chunk)."""
    from matchlens.core.text.casefold import fold_many

    return shared("fold", (texts,), lambda: fold_many(texts))


def stripped_texts(texts: Sequence[str]) -> list[str]:
    """Every text with surrounding whitespace removed (shared within a batch chunk)."""
    return shared("strip", (texts,), lambda: list(map(str.strip, texts)))
