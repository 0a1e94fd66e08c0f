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
from tests.ui.conftest import set_pair, wait_done


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


def _row_colours(ruler) -> list[int]:
    """The colour (rgb) of the ruler's middle column on every pixel row, as painted now."""
    image = ruler.grab().toImage()
    ratio = image.devicePixelRatio()
    return [image.pixel(int(6 * ratio), int(y * ratio)) & 0xFFFFFF
            for y in range(ruler.height())]


def test_the_painted_marks_follow_typing(qtbot, compare_tab) -> None:
    """A keystroke's table repaints the ruler when its marks move, and only the outline
    otherwise (the marks' pixmap is kept): the painted strip is always the current marks."""
    e, a = _pair()
    set_pair(qtbot, compare_tab, e, a)
    ruler = compare_tab.panes["actual"].ruler
    line = 280  # the last difference is on line 250 (the moved line's old place)
    y = int(line * ruler.height() / ruler.marks.line_count)
    assert ruler.height() > 2 * ruler.marks.line_count / (line - 250)  # apart on the strip
    background = _row_colours(ruler)[y]
    editor = compare_tab.editor("actual")
    # a change far from line 280 (same pixels elsewhere): the strip there stays background
    compare_tab.set_texts(e, a.replace("item number 5 ", "item numbr 5 ", 1))
    wait_done(qtbot, compare_tab)
    assert _row_colours(ruler)[y] == background
    # a change on line 280 puts a mark there; undoing it takes the mark away again
    start = editor.document().findBlockByNumber(line).position()
    changed = a[:start + 5] + "changed " + a[start + 5:]  # after "Line "
    compare_tab.set_texts(e, changed)
    wait_done(qtbot, compare_tab)
    assert any(py <= y < py + h for py, h, _s in ruler.pixel_marks())
    assert _row_colours(ruler)[y] != background
    compare_tab.set_texts(e, a)
    wait_done(qtbot, compare_tab)
    assert not any(py <= y < py + h for py, h, _s in ruler.pixel_marks())
    assert _row_colours(ruler)[y] == background
