"""`core.text.script_splice`: a kept script re-diffed around a small edit is a whole, valid script
of the new texts, and `edit_script` keeps it only when it is minimal."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st
from rapidfuzz.distance import Levenshtein

from matchlens.core.text import edit_script
from matchlens.core.text.anchored_script import cost
from matchlens.core.text.script_splice import changed_span, splice_second, swapped


def _valid(e: str, a: str, ops) -> None:
    pos = (0, 0)
    for tag, i1, i2, j1, j2 in ops:
        assert (i1, j1) == pos  # the runs tile both texts, in order
        assert (i1, j1) != (i2, j2)  # no empty run
        if tag == "equal":
            assert e[i1:i2] == a[j1:j2]
        pos = (i2, j2)
    assert pos == (len(e), len(a))


def _edited(text: str, seed: int, rate: float) -> str:
    rng = random.Random(seed)
    out = []
    for ch in text:
        roll = rng.random()
        out.append(ch if roll > rate else "" if roll < rate / 3 else rng.choice("abz"))
    return "".join(out)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="ab c\n", min_size=150, max_size=600), st.integers(0, 10_000),
       st.floats(0, 0.5), st.integers(0, 600), st.integers(0, 5),
       st.text(alphabet="abz", max_size=4))
def test_a_spliced_script_is_whole_and_valid(e, seed, rate, at, cut, typed):
    # texts of a few hundred characters, so the kept script goes on past the re-diffed window
    a = _edited(e, seed, rate)
    at %= len(a) + 1
    new = a[:at] + typed + a[at + cut:]
    change = changed_span(a, new)
    start, old_end, new_end = change
    assert a[:start] == new[:start] and a[old_end:] == new[new_end:]
    ops = Levenshtein.opcodes(e, a).as_list()
    spliced = splice_second(e, ops, new, change)
    _valid(e, new, spliced)
    assert cost(spliced) >= Levenshtein.distance(e, new)
    # the expected side edited instead: the same with the sides exchanged
    at %= len(e) + 1
    e_new = e[:at] + typed + e[at + cut:]
    back = swapped(splice_second(a, swapped(ops), e_new, changed_span(e, e_new)))
    _valid(e_new, a, back)
    assert cost(back) >= Levenshtein.distance(e_new, a)


def test_an_edit_near_the_start_shifts_the_rest():
    e, a = "abc " * 100, "abd " * 100
    new = a[:10] + "zz" + a[10:]
    spliced = splice_second(e, Levenshtein.opcodes(e, a).as_list(), new, changed_span(a, new))
    _valid(e, new, spliced)
    # 100 substitutions c->d, and the two typed characters: as short as a script can be
    assert cost(spliced) == Levenshtein.distance(e, new) == 102


def test_edges_empty_texts_and_no_change():
    for e, a, new in (("", "a", "a"), ("", "", "b"), ("a", "", ""), ("ab", "ab", "abc"),
                      ("x" * 200, "x" * 200, "x" * 199), ("", "a" * 100, "a" * 100)):
        spliced = splice_second(e, Levenshtein.opcodes(e, a).as_list(), new,
                                changed_span(a, new))
        _valid(e, new, spliced)
        assert cost(spliced) == Levenshtein.distance(e, new)


def test_typing_keeps_the_script_minimal_and_starts_from_the_kept_one(monkeypatch):
    monkeypatch.setattr(edit_script, "SPLICE_MIN_CHARS", 100)
    edit_script.clear()
    rng = random.Random(3)
    e = "".join(rng.choice("abc d\n") for _ in range(3000))
    a = "".join(ch if rng.random() > 0.05 else rng.choice("xy") for ch in e)
    edit_script.opcodes(e, a)
    calls = []
    real = edit_script.splice_second
    monkeypatch.setattr(edit_script, "splice_second",
                        lambda *args: calls.append(1) or real(*args))
    for k in range(40):  # typing and deleting in the actual text, then in the expected one
        at = rng.randrange(len(a))
        a = a[:at] + "z" + a[at + (k % 3 == 0):] if k < 20 else a
        if k >= 20:
            at = rng.randrange(len(e))
            e = e[:at] + "q" + e[at + (k % 3 == 0):]
        ops = edit_script.opcodes(e, a)
        _valid(e, a, ops)
        assert cost(ops) == Levenshtein.distance(e, a)
        assert edit_script.distance(e.upper(), a.upper()) == Levenshtein.distance(e.upper(),
                                                                                   a.upper())
    assert len(calls) == 40  # every keystroke started from the kept script
