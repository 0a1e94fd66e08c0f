"""Offsets in a normalised text back to offsets in the text the user typed.

The compare view aligns the normalised texts (so the highlight counts exactly the edits the
normalised metric counts), then draws every span on the original text: a span [s, e) of the
normalised text covers the original characters its characters came from, and the original
characters no normalised character came from are the *ignored* ones.
"""

from __future__ import annotations

import numpy as np

from matchlens.core.text.normalise import Mapped


class OffsetMap:
    """Maps normalised offsets (0..len(normalised)) to original offsets (0..length)."""

    def __init__(self, mapped: Mapped, length: int) -> None:
        origin = mapped.origin
        self.length = length
        self.ignored = np.array(mapped.removed_spans(length), dtype=np.int64).reshape(-1, 2)
        # start_of[k]: the first original character at or after normalised position k;
        # end_of[k]: just past the last original character before k. Origins are in reading
        # order (checked by Hypothesis), so both are monotone. -1 marks an inserted character
        # (an article's stand-in space): it belongs to no original character.
        real = origin >= 0
        starts = np.where(real, origin, length)
        self.start_of = np.append(np.minimum.accumulate(starts[::-1])[::-1], length)
        ends = np.where(real, origin + 1, 0)
        self.end_of = np.concatenate(([0], np.maximum.accumulate(ends))) if len(ends) \
            else np.zeros(1, dtype=np.int64)

    def spans(self, starts: np.ndarray, ends: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Normalised [start, end) ranges as original ranges (empty where they cover only
        inserted characters)."""
        new_starts = self.start_of[starts]
        new_ends = np.maximum(new_starts, self.end_of[ends])
        return new_starts.astype(np.int64), new_ends.astype(np.int64)
