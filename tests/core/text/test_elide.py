"""core.text.elide: the one `elide`, with each caller's options (legend and column names, a
stderr line, a table cell) giving what that caller showed before."""

from __future__ import annotations

import pytest

from matchlens.core.text.elide import NAME_CHARS, elide


def cell(text: str | None) -> str:
    """What a table cell shows (ui.batch.table_cells: ELIDE = 80)."""
    return elide(text, 80, at="end", whitespace="symbols")


def test_a_table_cell():  # moved from tests/ui/batch/test_batch_model.py
    assert cell("a\nb\tc") == "a⏎b⇥c"
    assert cell("x" * 81) == "x" * 80 + "…"
    assert cell("x" * 80) == "x" * 80
    assert cell(None) == ""
    # a Windows line break is one symbol; only 81 characters are read (27 x "a\r\n", shown
    # as 54), and a text longer than that is marked cut however short it shows
    assert cell("a\r\nb") == "a⏎b"
    assert cell("a\r\n" * 30) == "a⏎" * 27 + "…"


def test_a_name_keeps_both_ends():
    name = "output [openai:gpt-4o-mini] prompt A"  # 36 characters
    # 32 = 16 from the start, the mark, 15 from the end
    assert elide(name) == "output [openai:g…-mini] prompt A"
    assert len(elide(name)) == NAME_CHARS
    assert elide("short name") == "short name"
    assert elide("  a\n\tname  ") == "a name"  # one line, whitespace runs as one space
    assert elide("abcdef", 4) == "ab…f"  # 3 kept: 2 from the start, 1 from the end
    assert elide("abc", 1) == "a…"  # at least one character is kept


def test_a_stderr_line_says_how_much_was_cut():
    text = "a" * 600 + "b" * 600
    line = elide(text, 1000, whitespace="keep", count=True)  # cli.crash.MAX_LINE
    # 1000 // 2 - 20 = 480 characters from each end, 1200 - 960 = 240 left out
    assert line == "a" * 480 + "… (240 characters left out) …" + "b" * 480
    assert elide("a\n b", 1000, whitespace="keep", count=True) == "a\n b"
    # an argument in a crash report: 200 // 2 - 20 = 80 from each end, 10,000 - 160 left out
    assert elide("x" * 10_000, 200, whitespace="keep", count=True) == (
        "x" * 80 + "… (9,840 characters left out) …" + "x" * 80)


def test_bad_options():
    with pytest.raises(ValueError, match="at must be"):
        elide("x" * 50, at="start")
    with pytest.raises(ValueError, match="whitespace must be"):
        elide("x", whitespace="strip")
