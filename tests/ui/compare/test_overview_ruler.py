"""The overview ruler: one mark per difference, in its colour, the visible region, click jumps."""

from __future__ import annotations

from matchlens.core.diff.overview import (
    STYLE_DELETE,
    STYLE_INSERT,
    STYLE_MOVED,
    STYLE_SUBDUED,
    STYLE_SUBSTITUTE,
    line_of_pixel,
    pixel_marks,
)
from matchlens.core.diff.readable.chunks import readable_diff
from tests.ui.conftest import set_pair


def _pair() -> tuple[str, str]:
    lines = [f"Line {i} says something about item number {i} here." for i in range(300)]
    actual = list(lines)
    actual[10] = actual[10].replace("something", "nothing")
    actual[120] += " And an added sentence."
    del actual[200]
    moved = actual.pop(250)
    actual.insert(30, moved)
    return "\n".join(lines) + "\n", "\n".join(actual) + "\n"


def _expected_marks(e: str, a: str, side: str) -> list[tuple[int, int]]:
    """(line, style) of every change chunk of the readable diff, worked out from the chunks."""
    diff = readable_diff(e, a)
    moved = {(m.exp_start, m.exp_end) for m in diff.moves} | {
        ("a", m.act_start, m.act_end) for m in diff.moves}
    out = []
    for c in diff.changes():
        text, start = (e, c.exp_start) if side == "expected" else (a, c.act_start)
        style = {"delete": STYLE_DELETE, "insert": STYLE_INSERT}.get(c.op, STYLE_SUBSTITUTE)
        if (c.exp_start, c.exp_end) in moved and c.op == "delete" or (
                ("a", c.act_start, c.act_end) in moved and c.op == "insert"):
            style = STYLE_MOVED
        elif (e[c.exp_start:c.exp_end] + a[c.act_start:c.act_end]).isspace():
            style = STYLE_SUBDUED  # whitespace only: drawn faint, as in the text
        out.append((text.count("\n", 0, start), style))
    return out


def test_marks_equal_the_chunks(qtbot, compare_tab) -> None:
    e, a = _pair()
    set_pair(qtbot, compare_tab, e, a)
    for side in ("expected", "actual"):
        marks = compare_tab.panes[side].ruler.marks
        got = list(zip(marks.first_line.tolist(), marks.style.tolist(), strict=True))
        assert got == _expected_marks(e, a, side)
        assert STYLE_MOVED in marks.style.tolist()  # the line moved from 250 to 30
        assert marks.line_count == compare_tab.editor(side).blockCount()


def test_pixels_cover_every_mark_and_a_click_goes_to_its_line(qtbot, compare_tab) -> None:
    e, a = _pair()
    set_pair(qtbot, compare_tab, e, a)
    ruler = compare_tab.panes["expected"].ruler
    ruler.resize(12, 600)
    marks = ruler.marks
    painted = pixel_marks(marks, 600)
    for line, style in zip(marks.first_line.tolist(), marks.style.tolist(), strict=True):
        y = int(line * 600 / marks.line_count)
        assert any(py <= y < py + h and s == style for py, h, s in painted), (line, style)
    # a click on the mark of line 200 (deleted there) puts the editor on that line
    y = 200 * 600 / marks.line_count + 0.5
    assert line_of_pixel(y, 600, marks.line_count) == 200
    ruler.go_to_pixel(y)
    editor = compare_tab.editor("expected")
    assert editor.textCursor().blockNumber() == 200
    top, bottom = ruler.visible_lines()
    assert top <= 200 < bottom  # the outlined region is where the editor now is
