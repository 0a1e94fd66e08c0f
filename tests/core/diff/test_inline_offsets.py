"""core.diff.inline's offsets: an inline position and the offset it stands for in either
side's text (side_offset), and back (inline_position), which keep two inline views of the same
reference at the same place of it."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from matchlens.core.diff.inline import inline_layout, inline_position, side_offset, side_text
from matchlens.core.diff.span_table import table_for

OPTIONS = {"case_sensitive": True, "granularity": "char", "view": "readable", "normalise": []}
texts = st.text(alphabet="ab c\n.", max_size=60)


def _walk(layout, side: int) -> list[int]:
    """side_offset derived by hand: walk the inline text, counting the characters that are
    this side's (outside the other side's spans); a position inside another side's span
    counts what came before it."""
    other = [(s, e) for s, e, _style, _row, sd in layout.spans.tolist() if sd != side]
    out, offset = [], 0
    for position in range(len(layout.text) + 1):
        out.append(offset)
        if not any(s <= position < e for s, e in other):
            offset += 1
    return out


@settings(max_examples=300, deadline=None)
@given(texts, texts, st.sampled_from([0, 1]))
def test_offsets_agree_with_a_walk_of_the_inline_text(expected, actual, side):
    layout = inline_layout(table_for(expected, actual, OPTIONS), expected, actual)
    walked = _walk(layout, side)
    assert [side_offset(layout, p, side) for p in range(len(layout.text) + 1)] == walked
    text = side_text(layout, side)
    assert walked[-1] == len(text)
    for offset in range(len(text) + 1):
        position = inline_position(layout, offset, side)
        assert side_offset(layout, position, side) == offset
        assert position == walked.index(offset)  # the first position standing for it


def test_a_hand_built_pair():
    # "The cat sat." -> "The dog sat.": inline "The catdog sat." (cat deleted, dog inserted)
    layout = inline_layout(table_for("The cat sat.", "The dog sat.", OPTIONS), "The cat sat.",
                           "The dog sat.")
    assert layout.text == "The catdog sat."
    assert side_offset(layout, 8, 0) == 7  # inside "dog": where it stands in the reference
    assert side_offset(layout, 4, 1) == 4  # inside "cat": before "dog" in the output
    assert inline_position(layout, 7, 0) == 7  # the reference's " sat." starts before "dog"
    assert inline_position(layout, 7, 1) == 10  # the output's " sat." after "cat" and "dog"
