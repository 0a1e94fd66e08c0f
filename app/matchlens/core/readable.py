"""Old import path of the readable diff, kept for one release: use `matchlens.core.diff.readable`."""

from matchlens.core.diff.readable.chunks import *  # noqa: F403
from matchlens.core.diff.readable.chunks import ReadableDiff, readable_diff  # noqa: F401
