"""json_walk's budget on nested `unordered` arrays (PAIR_CELLS): within it every array is paired
exactly; beyond it the arrays still to pair get the cheaper pairing (identical items first, the
rest by position), the explanation says so, and `fields` (leaf mode) pairs exactly as
`json_distance` (difference mode) does, row by row and in a batch."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from matchlens.core.diff.json_fields import FieldTally, pair_fields
from matchlens.core.metrics import evaluate, get_metric
from matchlens.core.metrics.json_walk import EXACT_CELLS, PAIR_CELLS, Walker

SPEC = get_metric("json_distance")
UNORDERED = {"array_match": "unordered"}
BUDGET = "matchlens.core.metrics.json_walk.PAIR_CELLS"

# One outer item holding two objects, reversed in the output, each with a changed `v`.
E = [[{"k": 1, "v": 1}, {"k": 2, "v": 2}]]
A = [[{"k": 2, "v": 9}, {"k": 1, "v": 9}]]


def run(e, a):
    return evaluate(SPEC, json.dumps(e), json.dumps(a), options=UNORDERED)


def many(e, a):
    return SPEC.compute_many([json.dumps(e)], [json.dumps(a)], UNORDERED)


def test_within_the_budget_nested_arrays_are_paired_exactly(monkeypatch):
    # outer 1 x 1 = 1 cell, then the inner 2 x 2 = 4 cells: 5 in all, inside a budget of 5.
    # Exact: k=1 <-> k=1 and k=2 <-> k=2, only each v differs -> 2
    monkeypatch.setattr(BUDGET, 5)
    result = run(E, A)
    assert result.score == 2
    assert "budget" not in result.explanation
    assert sorted(d.path for d in result.details) == ["$[0][0].v", "$[0][1].v"]
    assert many(E, A).scores.tolist() == [2.0]


def test_beyond_the_budget_the_cheaper_pairing_is_used_and_named(monkeypatch):
    # budget 4: the outer array takes 1 cell first; the inner 2 x 2 would make 5 > 4, so the
    # inner items are paired by position (no two are identical): k=1 with k=2 (k and v
    # differ, 2) and k=2 with k=1 (2) -> 4
    monkeypatch.setattr(BUDGET, 4)
    result = run(E, A)
    assert result.score == 4
    assert "$[0]: nested unordered arrays passed the budget of 4 exact-pairing cells for one " \
           "pair; there identical items were paired first, the rest by position" \
           in result.explanation
    assert many(E, A).scores.tolist() == [4.0]  # the batch path spends the same budget
    # fields pairs as the metric did: every leaf of both inner items differs
    assert pair_fields(E, A, UNORDERED) == {
        "$[0][0].k": "differs", "$[0][0].v": "differs",
        "$[0][1].k": "differs", "$[0][1].v": "differs"}


def test_identical_items_are_still_found_by_the_cheaper_pairing(monkeypatch):
    # budget 1: the outer 1 x 1 spends it; inner [1, 2, 3] vs [3, 1, 5]: 1 and 3 pair with
    # themselves, 2 with 5 by what is left -> 1 (what the exact pairing gives too)
    monkeypatch.setattr(BUDGET, 1)
    result = run([[1, 2, 3]], [[3, 1, 5]])
    assert result.score == 1
    assert "budget" in result.explanation


def test_the_budget_is_per_pair_and_fields_counts_the_note_per_row(monkeypatch):
    monkeypatch.setattr(BUDGET, 4)
    tally = FieldTally(["out"], UNORDERED)
    text_e, text_a = json.dumps(E), json.dumps(A)
    tally.add([text_e, text_e, text_e], {"out": [text_a, text_a, text_a]})
    counts = tally.variants["out"].counts
    # each of the 3 rows starts with a full budget and spends it alike: every row pairs by
    # position, so k differs 2 times a row (never equal)
    assert counts["$[*][*].k"] == [0, 6, 0, 0]
    notes = tally.summary()["notes"]
    assert len(notes) == 1 and notes[0]["rows"] == 3 and "budget of 4" in notes[0]["note"]


def test_an_array_of_arrays_is_bounded_by_the_budget_not_the_product(monkeypatch):
    # 60 outer items of 60 inner items each would spend 60 x 60 inner assignments of 60 x 60
    # cells each (~1.3e7), more than PAIR_CELLS; 30 x 30 under a budget of 5,000 cells shows
    # the same bound in less time: the outer 900 cells, then 4 inner assignments of 900
    # (4,500 in all; a fifth would make 5,400), then the cheaper pairing
    assert PAIR_CELLS < 60 ** 4
    monkeypatch.setattr(BUDGET, 5_000)
    e = [[{"n": i, "m": j} for j in range(30)] for i in range(30)]
    a = [list(reversed(row)) for row in reversed(e)]
    a[0][0] = {"n": 29, "m": -1}  # one changed value
    walker = Walker(UNORDERED)
    distance = walker.score(e, a)
    assert walker.cells == 900 + 4 * 900
    # the outer pairing is exact (it comes first) and reversed inner rows hold identical
    # items, which the cheaper pairing finds: only the changed item costs, paired by
    # position with the one item left over ({"n": 29, "m": 29}): its m differs -> 1
    assert distance == 1
    assert any("budget" in note for note in walker.notes)


ITEM = st.fixed_dictionaries({"k": st.integers(0, 2), "v": st.integers(0, 2)})


@st.composite
def nested_pair(draw):
    """Arrays of arrays of equal lengths (so every difference is one leaf)."""
    n, m = draw(st.integers(1, 3)), draw(st.integers(1, 3))
    side = st.lists(st.lists(ITEM, min_size=m, max_size=m), min_size=n, max_size=n)
    return draw(side), draw(side)


@settings(max_examples=150, deadline=None)
@given(pair=nested_pair(), budget=st.integers(0, 40))
def test_fields_and_the_metric_agree_under_any_budget(pair, budget):
    e, a = pair
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(BUDGET, budget)
        result = run(e, a)
        fields = pair_fields(e, a, UNORDERED)
    # equal lengths and the same keys everywhere: each difference of the metric is one leaf
    # fields counts as differs, under the same path (the same pairing)
    assert sorted(d.path for d in result.details) == \
        sorted(path for path, kind in fields.items() if kind == "differs")
    assert EXACT_CELLS >= 9  # the per-array limit never interferes here
