"""`core.diff.overview.ruler_marks`: a side's marks kept across tables that mark it alike."""

from __future__ import annotations

import numpy as np

from matchlens.core.diff.overview import ruler_marks
from matchlens.core.diff.span_table import table_for

OPTIONS = {"case_sensitive": True, "granularity": "char", "view": "readable", "normalise": []}


def _texts() -> tuple[str, str]:
    lines = [f"Line {i} tells of item {i} and more." for i in range(120)]
    actual = list(lines)
    actual[5] = actual[5].replace("tells", "speaks")
    actual[80] += " An added sentence here."
    return "\n".join(lines) + "\n", "\n".join(actual) + "\n"


def _same(first, second) -> bool:
    return all(np.array_equal(x, y) for x, y in zip(first, second, strict=True))


def test_a_keystroke_on_one_side_keeps_the_other_sides_marks() -> None:
    e, a = _texts()
    a = a.replace("Line 119 tells", "Line 119 tellsx")  # typing into the actual side ...
    before = table_for(e, a, OPTIONS)
    marks = ruler_marks(before, "expected", e)
    typed = a.replace("tellsx", "tellsxy")  # ... one more key, inside the same insertion
    after = table_for(e, typed, OPTIONS)
    assert np.array_equal(after.exp, before.exp)  # the expected side marked alike ...
    assert ruler_marks(after, "expected", e) is marks  # ... so its marks are kept
    # the typed side's marks are its own, and equal to a fresh computation's
    fresh = ruler_marks(table_for(e, typed, OPTIONS), "actual", typed)
    assert _same(ruler_marks(after, "actual", typed), fresh)


def test_a_side_marked_otherwise_gets_new_marks() -> None:
    e, a = _texts()
    marks = ruler_marks(table_for(e, a, OPTIONS), "expected", e)
    # the actual text changes what the expected side's rows are (line 40 now differs too)
    other = a.replace("Line 40 tells", "Line 40 says")
    table = table_for(e, other, OPTIONS)
    again = ruler_marks(table, "expected", e)
    assert again is not marks
    assert 40 in again.first_line.tolist() and 40 not in marks.first_line.tolist()
    # the same rows but in another kind (a deletion where there was a substitution)
    flipped = table_for(e, a.replace("speaks", ""), OPTIONS)
    kept = ruler_marks(flipped, "expected", e)
    assert not np.array_equal(kept.style, marks.style) or kept is not marks
