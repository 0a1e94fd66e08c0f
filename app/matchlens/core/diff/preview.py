"""A quick highlight of very long texts, drawn while the exact one is computed (no Qt).

The exact edit script of two long texts with many edits costs time proportional to length ×
distance. For texts of PREVIEW_MIN_CHARS or more the compare view asks for this preview as
well: the readable chunks drawn from `text.anchored_script`'s script (exact between anchors, a
valid script but not always a minimal one), so its `distance` is an upper bound of the
Levenshtein distance: the table says so (`SpanTable.exact` is False) and the view labels it as
a preview until the exact table arrives.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from matchlens.core.diff.span_table import SpanTable, readable_table
from matchlens.core.text.edit_script import anchored

# The compare view's task whose result is a preview SpanTable (`core.diff.pair.run_task`).
PREVIEW_TASK = "__preview__"
# From this many characters (both texts together) the view asks for a preview first.
PREVIEW_MIN_CHARS = 300_000


def preview_table(expected: str, actual: str, options: Mapping[str, Any]) -> SpanTable:
    """The readable highlight drawn from `text.anchored_script`'s script: its `distance` is an upper bound
    (`exact` False). Case and granularity as `table_for` takes them; the preview draws the
    texts as they are (a normalised view waits for the exact table)."""
    table = readable_table(expected, actual, bool(options.get("case_sensitive", True)),
                           str(options.get("granularity", "char")), script=anchored)
    return replace(table, exact=False)
