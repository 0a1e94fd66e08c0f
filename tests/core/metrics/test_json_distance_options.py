"""json_distance's options beyond the seed (json_walk, json_ignore, json_extract): array_match,
relative_tolerance (and numeric_tolerance at its exact boundary), ignore_paths, extract_json."""

from __future__ import annotations

import json
import random

import pytest

from matchlens.core.errors import ConfigError
from matchlens.core.metrics import evaluate, get_metric
from matchlens.core.metrics.json_distance import InvalidJson, decode_reason, parse_side
from matchlens.core.metrics.json_walk import EXACT_CELLS, Walker

SPEC = get_metric("json_distance")


def run(expected, actual, **options):
    return evaluate(SPEC, json.dumps(expected) if not isinstance(expected, str) else expected,
                    json.dumps(actual) if not isinstance(actual, str) else actual,
                    options=options)


ITEMS = [{"sku": "a", "qty": 1}, {"sku": "b", "qty": 2}, {"sku": "c", "qty": 3}]
DROPPED = [ITEMS[0], ITEMS[2]]  # the second of three line items dropped


def test_a_dropped_middle_item_by_index_reads_as_every_later_field():
    # index: [1] b vs c -> sku and qty differ (2); [2] has no partner -> 1. Total 3.
    result = run({"items": ITEMS}, {"items": DROPPED})
    assert result.score == 3


@pytest.mark.parametrize("rule", ["unordered", "key:sku"])
def test_a_dropped_middle_item_costs_one_when_items_pair_by_content(rule):
    # a->a (0), c->c (0); b has no partner -> 1, shown under the reference's index 1
    result = run({"items": ITEMS}, {"items": DROPPED}, array_match=rule)
    assert result.score == 1
    assert [(d.path, d.kind) for d in result.details] == [("$.items[1]", "missing")]


def test_a_reordered_list_is_equal_unordered_and_not_by_index():
    shuffled = [ITEMS[2], ITEMS[0], ITEMS[1]]
    # by index every item meets another: 3 items x (sku, qty) = 6 differences
    assert run(ITEMS, shuffled).score == 6
    assert run(ITEMS, shuffled, array_match="unordered").score == 0
    assert run(ITEMS, shuffled, array_match="key:sku").score == 0


def test_unordered_paths_follow_the_pairing_under_the_references_index():
    expected = [{"sku": "a", "qty": 1}, {"sku": "b", "qty": 2}]
    actual = [{"sku": "b", "qty": 5}, {"sku": "a", "qty": 1}]
    # a <-> actual[1] (0), b <-> actual[0] (qty 2 -> 5: 1); the path is the reference's [1],
    # and the output's own path of the value it was paired with follows it
    result = run(expected, actual, array_match="unordered")
    assert result.score == 1
    assert str(result.details[0]) == "$[1].qty ↔ $[0].qty: 2 → 5"
    assert result.details[0].as_dict()["actual_path"] == "$[0].qty"
    # the explanation names every pair made across indices
    assert "$: items paired across indices, reference ↔ output: [0] ↔ [1], [1] ↔ [0]" in \
        result.explanation


def test_key_pairing_repeated_values_pair_in_order_and_keyless_items_have_no_partner():
    expected = [{"k": 1, "v": "x"}, {"k": 1, "v": "y"}, {"v": "z"}]
    actual = [{"k": 1, "v": "x"}, {"k": 1, "v": "q"}, {"v": "z"}]
    # first k=1 with first (equal), second with second (v y -> q: 1); {"v": "z"} has no key on
    # either side: missing 1 + extra 1. Total 3.
    result = run(expected, actual, array_match="key:k")
    assert result.score == 3
    assert sorted(d.kind for d in result.details) == ["differs", "extra", "missing"]


def test_unordered_is_an_exact_assignment_not_a_greedy_one():
    e2 = [{"x": 1, "y": 1}, {"x": 1, "y": 2}]
    a2 = [{"x": 1, "y": 2}, {"x": 9, "y": 9}]
    # e0->a0 costs 1, e1->a1 2 (total 3); e0->a1 2, e1->a0 0 (total 2): the assignment finds 2
    assert run(e2, a2, array_match="unordered").score == 2


def test_unordered_matches_brute_force_on_random_small_arrays():
    from itertools import permutations

    rng = random.Random(7)
    walker = Walker({})
    for _ in range(200):
        e = [{"a": rng.randint(0, 2), "b": rng.randint(0, 2)} for _ in range(rng.randint(0, 4))]
        a = [{"a": rng.randint(0, 2), "b": rng.randint(0, 2)} for _ in range(rng.randint(0, 4))]
        short, long_ = (e, a) if len(e) <= len(a) else (a, e)
        best = min(sum(walker.walk(x, long_[j], "$") for x, j in zip(short, perm, strict=True))
                   for perm in permutations(range(len(long_)), len(short)))
        best += len(long_) - len(short)
        assert run(e, a, array_match="unordered").score == best


def test_a_thousand_items_are_paired_exactly():
    items = [{"n": i, "tag": f"t{i}"} for i in range(1000)]
    shuffled = items[::-1]
    shuffled[10] = {"n": 989, "tag": "changed"}  # reversed: [10] held item 989
    # 1,000 x 1,000 = EXACT_CELLS: exact; every item finds itself but 989 (its tag: 1)
    assert EXACT_CELLS >= 1000 * 1000
    result = run(items, shuffled, array_match="unordered")
    assert result.score == 1
    assert "too many" not in result.explanation


def test_beyond_the_exact_limit_the_explanation_names_the_pairing(monkeypatch):
    monkeypatch.setattr("matchlens.core.metrics.json_walk.EXACT_CELLS", 4)
    result = run([1, 2, 3], [3, 2, 4], array_match="unordered")
    # identical items first (2->2, 3->3), then 1 with 4 by position: 1
    assert result.score == 1
    assert "identical items were paired first, the rest by position" in result.explanation


@pytest.mark.parametrize(("e", "a", "option", "value", "want"), [
    (1.0, 1.5, "numeric_tolerance", 0.5, 0),  # |1.0 - 1.5| = 0.5 <= 0.5: equal (exact binary)
    (1.0, 1.5000001, "numeric_tolerance", 0.5, 1),  # just beyond
    (1, 2, "relative_tolerance", 0.5, 0),  # |1 - 2| = 1 <= 0.5 * max(1, 2) = 1: equal
    (1, 2.0000001, "relative_tolerance", 0.5, 1),  # 1.0000001 > 0.5 * 2.0000001
    (-4, -3, "relative_tolerance", 0.25, 0),  # 1 <= 0.25 * 4
    # 0.001 > 0.99 * 0.001: a relative tolerance never forgives a zero reference
    (0, 0.001, "relative_tolerance", 0.99, 1),
])
def test_tolerances_at_their_exact_boundary(e, a, option, value, want):
    assert run({"x": e}, {"x": a}, **{option: value}).score == want


def test_either_tolerance_suffices():
    # relative alone: 10 > 0.01 * 110; absolute alone: 10 <= 10
    assert run([100], [110], relative_tolerance=0.01, numeric_tolerance=10).score == 0
    assert run([100], [110], relative_tolerance=0.01).score == 1


def test_ignore_paths_skip_what_they_name_and_nothing_else():
    e = {"meta": {"t": 1}, "items": [{"id": 1, "p": 2}, {"id": 2, "p": 3}],
         "deep": {"timestamp": 5, "x": {"timestamp": 6}}, "odd key": 1}
    a = {"meta": {"t": 9}, "items": [{"id": 8, "p": 2}, {"id": 9, "p": 4}],
         "deep": {"timestamp": 0, "x": {"timestamp": 0}}, "odd key": 2}
    # without options: meta.t, two ids, items[1].p, two timestamps, odd key = 7
    assert run(e, a).score == 7
    ignored = ["$.meta", "$.items[*].id", "$..timestamp", '$["odd key"]']
    # only $.items[1].p (3 -> 4) is left
    result = run(e, a, ignore_paths=ignored)
    assert result.score == 1 and str(result.details[0]) == "$.items[1].p: 3 → 4"
    assert run(e, a, ignore_paths=["$.items[0].id"]).score == 6


def test_a_bad_option_is_one_sentence():
    assert "array_match must be index, unordered or key:NAME" in \
        run([1], [1], array_match="sorted").explanation
    with pytest.raises(ConfigError, match="ignore_paths"):
        Walker({"ignore_paths": ["items"]})


def test_extract_json_finds_the_object_inside_prose_and_says_so():
    text = 'Sure! Here it is:\n{"a": 1, "b": [2]}\nAnything else?'
    result = run({"a": 1, "b": [2]}, text, extract_json=True)
    # the object starts on line 2, column 1
    assert result.score == 0
    assert "the actual JSON was taken from its text at line 2 column 1" in result.explanation
    fenced = 'Look [here]:\n```json\n{"a": 2}\n```'
    assert run({"a": 1}, fenced, extract_json=True).score == 1
    assert run({"a": 1}, "no json at all", extract_json=True).label.value == "invalid"
    assert run({"a": 1}, text).label.value == "invalid"  # off by default


def test_parser_reasons_never_say_at_at():
    with pytest.raises(InvalidJson) as caught:
        parse_side('{"a": "open', "actual", False)
    assert caught.value.reason == "Unterminated string starting at line 1 column 7"
    err = json.JSONDecodeError("Expecting value", "x", 0)
    assert decode_reason(err) == "Expecting value at line 1 column 1"


def test_deep_nesting_is_a_sentence():
    deep = "[" * 100_000 + "]" * 100_000
    result = run(deep, deep)
    assert result.label.value == "invalid" and "nested too deeply" in result.explanation
    result = run(deep, deep, extract_json=True)
    assert result.label.value == "invalid"


def test_items_one_side_lacks_point_at_the_other_sides_array():
    a_, b_, c_ = {"sku": "a"}, {"sku": "b"}, {"sku": "c"}
    # a <-> output [1], c <-> output [0]; b has no partner: 1. Its place in the output is the
    # output's array (its own index 1 there holds a, another item)
    result = run({"items": [a_, b_, c_]}, {"items": [c_, a_]}, array_match="unordered")
    assert result.score == 1
    (missing,) = result.details
    assert (missing.path, missing.kind, missing.actual_path, missing.expected_path) == \
        ("$.items[1]", "missing", "$.items", None)
    assert str(missing) == '$.items[1]: {"sku": "b"} → missing'  # no pairing to show
    assert "$.items: items paired across indices, reference ↔ output: [0] ↔ [1], [2] ↔ [0]" \
        in result.explanation
    # an item only the output has: shown under the output's index, the reference's array
    # where the reference would hold it
    result = run([a_], [b_, a_], array_match="unordered")
    (extra,) = result.details
    assert (extra.path, extra.kind, extra.actual_path, extra.expected_path) == \
        ("$[0]", "extra", None, "$")


def test_by_index_nothing_is_paired_across_indices():
    result = run([{"x": 1}, {"x": 2}], [{"x": 2}, {"x": 1}])
    assert result.score == 2
    assert all(d.actual_path is None for d in result.details)
    assert "across indices" not in result.explanation
