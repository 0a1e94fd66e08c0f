"""The quick script of long texts (`core.text.anchored_script`, `core.text.edit_script`) and the preview highlight
(`core.diff.preview`): valid scripts, an upper bound said to be one, the exact view unchanged."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st
from rapidfuzz.distance import Levenshtein

from matchlens.core.diff.pair import run_task
from matchlens.core.diff.preview import PREVIEW_TASK, preview_table
from matchlens.core.diff.readable.chunks import readable_diff
from matchlens.core.diff.span_table import table_for
from matchlens.core.text import edit_script
from matchlens.core.text.anchored_script import anchored_opcodes, anchors
from matchlens.core.text.edit_script import rest_opcodes
from tests.core.random_edits import random_edits
from tests.core.script_checks import check_script

WORDS = "the of and a to in is it answer model light water sugar energy cell plant".split()


def _prose(n_words: int, seed: int) -> str:
    rng = random.Random(seed)
    out = []
    for i in range(n_words):
        out.append(rng.choice(WORDS) + ("." if i % 9 == 8 else ""))
        out.append("\n" if i % 27 == 26 else " ")
    return "".join(out)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 400), st.floats(0, 0.3), st.integers(0, 10_000))
def test_the_anchored_script_is_valid_and_never_below_the_distance(n_words, rate, seed):
    e = _prose(n_words, seed)
    a = random_edits(e, rate, seed + 1)
    count = check_script(e, a, anchored_opcodes(e, a))
    assert count >= Levenshtein.distance(e, a)


def test_anchors_are_equal_text_in_order():
    e = _prose(3000, 1)
    a = random_edits(e, 0.05, 2)
    found = anchors(e, a)
    assert len(found) > 50
    for (es, ee, as_, ae), nxt in zip(found, found[1:] + [None], strict=True):
        assert e[es:ee] == a[as_:ae]
        if nxt is not None:
            assert ee <= nxt[0] and ae <= nxt[2]
    # on prose with scattered edits the anchored script is minimal or within a few edits
    exact = Levenshtein.distance(e, a)
    assert exact <= check_script(e, a, anchored_opcodes(e, a)) <= exact * 1.02 + 5


def test_texts_without_anchors_are_diffed_whole():
    assert anchored_opcodes("", "") == []
    assert anchored_opcodes("abc", "abd") == Levenshtein.opcodes("abc", "abd").as_list()
    assert check_script("", "new text", anchored_opcodes("", "new text")) == 8


def test_short_texts_keep_the_exact_script_for_the_rest(monkeypatch):
    e, a = _prose(200, 3), _prose(200, 4)
    assert rest_opcodes(e, a) == Levenshtein.opcodes(e, a, score_hint=31).as_list() or \
        check_script(e, a, rest_opcodes(e, a)) == Levenshtein.distance(e, a)
    # past the limit, the anchored one
    monkeypatch.setattr(edit_script, "LONG_CHARS", 10)
    assert rest_opcodes(e, a) == anchored_opcodes(e, a)


def test_a_long_moved_paragraph_keeps_the_exact_distance(monkeypatch):
    # with the rest re-diffed between anchors (as texts past LONG_CHARS are), the
    # readable diff still rebuilds both texts, finds the move and counts the exact distance
    monkeypatch.setattr(edit_script, "LONG_CHARS", 100)
    paragraphs = [_prose(60, s).replace("\n", " ").strip() for s in range(12)]
    e = "\n\n".join(paragraphs) + "\n"
    moved = paragraphs[:]
    moved.insert(9, moved.pop(2))
    a = random_edits("\n\n".join(moved) + "\n", 0.01, 5)
    diff = readable_diff(e, a)
    assert "".join(e[c.exp_start:c.exp_end] for c in diff.chunks) == e
    assert "".join(a[c.act_start:c.act_end] for c in diff.chunks) == a
    assert diff.distance == Levenshtein.distance(e, a)
    assert any(e[m.exp_start:m.exp_end].strip() == paragraphs[2] for m in diff.moves)


def test_the_preview_is_a_readable_table_marked_as_not_exact():
    e = _prose(2000, 7)
    a = random_edits(e, 0.08, 8)
    options = {"case_sensitive": True, "granularity": "char", "view": "readable",
               "normalise": []}
    preview = preview_table(e, a, options)
    exact = table_for(e, a, options)
    assert exact.exact and not preview.exact
    assert preview.distance >= exact.distance == Levenshtein.distance(e, a)
    assert preview.lengths == exact.lengths and len(preview.hunks) > 0
    # the rows cover both texts' differences: outside them the texts are equal
    e_out = list(e)
    a_out = list(a)
    for s, t in preview.exp.tolist():
        e_out[s:t] = [""] * (t - s)
    for s, t in preview.act.tolist():
        a_out[s:t] = [""] * (t - s)
    assert "".join(e_out) == "".join(a_out)
    assert run_task(PREVIEW_TASK, e, a, options).exact is False
