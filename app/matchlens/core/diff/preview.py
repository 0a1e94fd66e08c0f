"""A quick highlight of very long texts, drawn while the exact one is computed (no Qt).

The exact edit script of two long texts with many edits costs time proportional to length ×
distance. For texts of PREVIEW_MIN_CHARS or more the compare view asks for this preview as
well: the readable chunks drawn from `text.anchored_script`'s script (exact between anchors, a
valid script but not always a minimal one), so its `distance` is an upper bound of the
Levenshtein distance: the table says so (`SpanTable.exact` is False) and the view labels it as
a preview until the exact table arrives.

Next, on the same lane, the view asks for `proven_table`: the exact distance, computed in the
preview script's band (a fifth of the cost of rapidfuzz's script, or less). When it equals the
preview's edit count, the preview's script is minimal and this *is* the exact table (the
highlight is final, and the exact table task has nothing left to do). When it does not (text
moved about: paragraphs reordered), it is the preview with the exact distance
(`distance_exact`): the view shows the distance as exact at once and labels the highlight as
not the minimal script until rapidfuzz's script, which takes much longer, arrives.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from matchlens.core.diff.span_table import SpanTable, readable_table, table_for
from matchlens.core.text import edit_script
from matchlens.core.text.anchored_script import cost
from matchlens.core.text.casefold import fold_case
from matchlens.core.text.edit_script import anchored

# The compare view's task whose result is a preview SpanTable (`core.diff.pair.run_task`).
PREVIEW_TASK = "__preview__"
# The compare view's task whose result is the preview with the exact distance, or the exact
# table when the preview's script proves minimal (`proven_table`).
DISTANCE_TASK = "__distance__"
# From this many characters (both texts together) the view asks for a preview first.
PREVIEW_MIN_CHARS = 300_000


def preview_table(expected: str, actual: str, options: Mapping[str, Any]) -> SpanTable:
    """The readable highlight drawn from `text.anchored_script`'s script: its `distance` is an upper bound
    (`exact` False). Case and granularity as `table_for` takes them; the preview draws the
    texts as they are (a normalised view waits for the exact table)."""
    table = readable_table(expected, actual, bool(options.get("case_sensitive", True)),
                           str(options.get("granularity", "char")), script=anchored)
    return replace(table, exact=False)


def proven_table(expected: str, actual: str, options: Mapping[str, Any]) -> SpanTable:
    """The exact table when the preview's script is minimal, else the preview with `distance`
    the exact Levenshtein distance (`distance_exact`). Options as `preview_table` takes them."""
    case = bool(options.get("case_sensitive", True))
    e, a = (expected, actual) if case else (fold_case(expected), fold_case(actual))
    exact = edit_script.distance(e, a)  # in the band of the preview's edit count
    if exact == cost(anchored(e, a)):  # the preview's script is minimal: this is the table
        return table_for(expected, actual, {**options, "view": "readable", "normalise": []})
    return replace(preview_table(expected, actual, options), distance=exact,
                   distance_exact=True)
