"""`core.text.edit_script`: long texts start from the anchored script and keep it only when the
exact distance proves it minimal; the distance of long texts is rapidfuzz's, in a narrow band."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rapidfuzz.distance import Levenshtein

from matchlens.core.diff.preview import preview_table
from matchlens.core.diff.span_table import table_for
from matchlens.core.text import edit_script
from matchlens.core.text.anchored_script import anchored_distance, anchored_opcodes, cost
from tests.core.random_edits import random_edits

XYZX = "xyzX "  # this suite's typist also types a capital (its seeded cases were found with it)
WORDS = "the of and a to in is it answer model light water sugar energy cell plant".split()


def _prose(n_words: int, seed: int) -> str:
    rng = random.Random(seed)
    return " ".join(rng.choice(WORDS) + ("." if i % 9 == 8 else "") for i in range(n_words))


MISLEADING = ("model of to of it it it light is a of it the is is model the water",
              " is is model the water modexel of to ozf it it it light is ay of it the")


def _rebuilds(e: str, a: str, ops) -> None:
    assert "".join(e[i1:i2] for t, i1, i2, _j1, _j2 in ops if t != "insert") == e
    assert "".join(a[j1:j2] for t, _i1, _i2, j1, j2 in ops if t != "delete") == a
    assert all(e[i1:i2] == a[j1:j2] for t, i1, i2, j1, j2 in ops if t == "equal")


@pytest.fixture
def long_from_100(monkeypatch):
    """Texts of 100+ characters take the long road (it starts at LONG_CHARS in the app)."""
    monkeypatch.setattr(edit_script, "LONG_CHARS", 100)
    edit_script.clear()


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.integers(0, 300), st.floats(0, 0.3), st.integers(0, 10_000), st.booleans())
def test_the_script_of_long_texts_is_minimal(long_from_100, n_words, rate, seed, rotate):
    # (the fixture only sets the limit: the same for every example)
    edit_script.clear()
    e = _prose(n_words, seed)
    a = random_edits(e, rate, seed + 1, XYZX)
    if rotate and a:  # text moved from the end to the start: anchors can mislead
        a = a[len(a) // 3:] + " " + a[:len(a) // 3]
    ops = edit_script.opcodes(e, a)
    _rebuilds(e, a, ops)
    assert cost(ops) == Levenshtein.distance(e, a)
    assert edit_script.distance(e, a) == Levenshtein.distance(e, a)
    edit_script.clear()  # the distance alone, with no script kept
    assert edit_script.distance(e, a) == Levenshtein.distance(e, a)


@settings(max_examples=30, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.integers(0, 200), st.floats(0, 0.4), st.integers(0, 10_000))
def test_the_script_of_long_word_lists_is_minimal(long_from_100, n_words, rate, seed):
    # wer's units: lists of words, long from a sixth of LONG_CHARS items (here 16)
    e = _prose(n_words, seed).split()
    rng = random.Random(seed)
    a = [w if rng.random() > rate else rng.choice(["x", "y", w + "s"]) for w in e]
    a = [w for w in a if rng.random() > rate / 3]
    ops = edit_script.opcodes(e, a)
    assert sum((e[i1:i2] for t, i1, i2, _j1, _j2 in ops if t != "insert"), []) == e
    assert sum((a[j1:j2] for t, _i1, _i2, j1, j2 in ops if t != "delete"), []) == a
    assert cost(ops) == Levenshtein.distance(e, a)


def test_the_anchored_script_is_kept_only_when_it_is_minimal(long_from_100):
    e = _prose(400, 1)
    a = random_edits(e, 0.05, 2, XYZX)
    # prose with scattered edits: the anchored script is minimal, so it is the one kept
    assert cost(anchored_opcodes(e, a)) == Levenshtein.distance(e, a)
    assert edit_script.opcodes(e, a) is edit_script.anchored(e, a)
    # a case found by search where anchors mislead (text rotated): 93 edits between anchors,
    # 49 at least; 141 characters, so the long road
    e, a = MISLEADING
    assert cost(anchored_opcodes(e, a)) > Levenshtein.distance(e, a)
    ops = edit_script.opcodes(e, a)
    _rebuilds(e, a, ops)
    assert cost(ops) == Levenshtein.distance(e, a)


def test_the_anchored_distance_is_the_anchored_scripts_count():
    for seed in range(5):
        e = _prose(300, seed)
        a = random_edits(e, 0.1, seed + 7, XYZX)
        assert anchored_distance(e, a) == cost(anchored_opcodes(e, a)) >= \
            Levenshtein.distance(e, a)


def test_after_a_preview_the_exact_table_is_exact(long_from_100):
    # the lane computes the preview, then the exact table of the same texts: when the
    # anchored script is minimal the exact table is the preview's, said to be exact
    e = _prose(600, 3)
    a = random_edits(e, 0.08, 4, XYZX)
    options = {"case_sensitive": True, "granularity": "char", "view": "readable",
               "normalise": []}
    preview = preview_table(e, a, options)
    exact = table_for(e, a, options)
    assert not preview.exact and exact.exact
    assert exact.distance == Levenshtein.distance(e, a)
    assert exact.counted == exact.distance
    for side, text in (("exp", e), ("act", a)):
        cols = getattr(exact, side)
        assert cols[:, 1].max() <= len(text) and (cols[:, 0] <= cols[:, 1]).all()
    # and when it is not, the exact table is rebuilt from the minimal script
    e2, a2 = MISLEADING
    preview_table(e2, a2, options)
    assert table_for(e2, a2, options).distance == Levenshtein.distance(e2, a2)
