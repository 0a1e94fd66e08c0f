"""Next and previous difference: the only rule, asked by every caller (no Qt here).

As Meld's `Differ.locate_chunk(pane, line)`, `locate` answers (at, previous, next) for a
position on one side, and the compare view's F7 / Shift+F7 (`step`) and `alignment.next_hunk` /
`previous_hunk` over an `Alignment`'s hunks are read from it. A difference is found by where
it starts on that side; starts strictly increase (equal text lies between two hunks on both
sides), so a bisection finds them. The view passes a column of its SpanTable's `hunks`, a
numpy array, and only moves the caret.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple


class Located(NamedTuple):
    """Indices of the differences around a position on one side (None: there is none).

    `at` starts right at the position, `previous` is the last that starts before it and
    `next` the first that starts after it."""

    at: int | None
    previous: int | None
    next: int | None


def locate(starts: Sequence[Any], position: int, *,
           key: Callable[[Any], int] | None = None) -> Located:
    """Where `position` falls among the differences whose starts are `starts` (sorted), or
    whose starts `key` reads from each item."""
    before = bisect_left(starts, position, key=key)
    after = bisect_right(starts, position, key=key)
    return Located(before if before < after else None, before - 1 if before else None,
                   after if after < len(starts) else None)


def step(starts: Sequence[int], position: int, forward: bool, *, first: bool
         ) -> tuple[int, bool] | None:
    """(difference, wrapped): where F7 (`forward`) or Shift+F7 goes from `position`, and
    whether it wrapped around the end; None when there is no difference.

    On the `first` jump a difference right at the position counts as the next one: F7 on a
    freshly opened pair whose first character differs must show difference 1."""
    if len(starts) == 0:
        return None
    found = locate(starts, position)
    if forward:
        index = found.at if first and found.at is not None else found.next
        return (0, True) if index is None else (index, False)
    index = found.previous
    return (len(starts) - 1, True) if index is None else (index, False)
