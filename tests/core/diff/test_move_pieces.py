"""core.diff.move_pieces: the pieces of a text re-cut around an edit equal a whole cut."""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from matchlens.core.diff import move_pieces
from matchlens.core.diff.move_pieces import key_of, keyed_pieces, pieces

# Sentence ends, line breaks, blank lines, list markers ("1.", "b)", "- ") at a line's start
# and elsewhere, closing quotes and brackets: everything the cut and the marker rule look at.
_PIECES = st.sampled_from([
    "The cat sat", " on the mat", ".", "!", "?", "...", " ", "\n", "\n\n", "1. ", "b) ", "- ",
    "12.", "a.", '."', ".)", "word", " x", "  ", "\t", "Ada wrote the first algorithm"])
TEXT = st.lists(_PIECES, max_size=40).map("".join)
EDIT = st.tuples(st.floats(0, 1), st.integers(0, 8), TEXT)


def _whole(text: str) -> list[tuple[int, int, str]]:
    return [(s, t, key_of(p)) for s, t, p in pieces(text)]


@given(text=TEXT, edits=st.lists(EDIT, min_size=1, max_size=10))
# deleting the line breaks before "1." makes it no list marker: no resync on the old boundary
@example(text="The cat sat.....\n\n 1. The cat sat", edits=[(0.4375, 4, "")])
@settings(max_examples=400, deadline=None)
def test_pieces_after_edits_equal_a_whole_cut(text, edits):
    move_pieces._kept.clear()
    assert keyed_pieces(text) == _whole(text)
    for where, removed, inserted in edits:
        at = int(where * len(text))
        text = text[:at] + inserted[:12] + text[at + removed:]
        assert keyed_pieces(text) == _whole(text), text


def test_a_keystroke_steps_through_a_few_pieces(monkeypatch):
    move_pieces._kept.clear()
    text = "".join(f"Sentence number {i} is here.\n" for i in range(3_000))
    assert len(keyed_pieces(text)) == 3_000
    steps = []
    real = move_pieces._step
    monkeypatch.setattr(move_pieces, "_step", lambda *a: steps.append(1) or real(*a))
    edited = text[:40_000] + "x" + text[40_000:]
    got = keyed_pieces(edited)
    # the boundaries from the one before the edit to the first after it, not the 6,000 of
    # the whole text
    assert 0 < len(steps) < 10
    assert got == _whole(edited)


_SENTENCES = st.sampled_from([
    "The cat sat on the mat.", "Ada Lovelace wrote the first algorithm.", "1. Buy milk and eggs",
    "- a moved list item here", "Photosynthesis converts light into energy!", "\n", "\n\n",
    "Paris is the capital of France.", " ", "Short one."])
_PROSE = st.lists(_SENTENCES, min_size=1, max_size=25).map(" ".join)


@given(expected=_PROSE, actual=_PROSE, edits=st.lists(EDIT, min_size=1, max_size=8),
       sides=st.lists(st.booleans(), min_size=8, max_size=8))
@settings(max_examples=200, deadline=None)
def test_moves_with_kept_pieces_equal_moves_from_scratch(expected, actual, edits, sides):
    """find_moves after a sequence of keystrokes (pieces re-cut around each edit) finds what
    it finds on the same texts with nothing kept."""
    from matchlens.core.diff.moves import find_moves
    from matchlens.core.text.edit_script import opcodes

    move_pieces._kept.clear()
    find_moves(expected, actual, opcodes(expected, actual))
    for (where, removed, inserted), on_expected in zip(edits, sides, strict=False):
        text = expected if on_expected else actual
        at = int(where * len(text))
        text = text[:at] + inserted[:12] + text[at + removed:]
        expected, actual = (text, actual) if on_expected else (expected, text)
        ops = opcodes(expected, actual)
        kept = find_moves(expected, actual, ops)
        chain = move_pieces._kept.copy()  # the next edit re-cuts from the re-cut pieces
        move_pieces._kept.clear()
        assert kept == find_moves(expected, actual, ops)
        move_pieces._kept.clear()
        move_pieces._kept.update(chain)
