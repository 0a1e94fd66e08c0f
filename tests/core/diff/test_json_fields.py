"""core.diff.json_fields: per-path counts of one pair and of many, derived by hand for small
cases, and compared under Hypothesis with an obviously-right reference walker (below)."""

from __future__ import annotations

import json
from collections import Counter
from itertools import permutations

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from matchlens.core.diff.json_fields import FieldTally, field_rows, pair_fields
from matchlens.core.metrics.json_walk import Walker

A, B, C = {"sku": "a", "qty": 1}, {"sku": "b", "qty": 2}, {"sku": "c", "qty": 3}


def counts(expected, actual, **options):
    tally = FieldTally(["out"], options)
    tally.add([json.dumps(expected)], {"out": [json.dumps(actual)]})
    return {r["path"]: (r["expected"], r["equal"], r["differs"], r["missing"], r["extra"])
            for r in field_rows(tally)}


def test_a_dropped_item_by_index_and_unordered():
    # index: a~a (equal), b~c (sku and qty differ), c has no partner (its 2 leaves missing)
    assert counts({"items": [A, B, C]}, {"items": [A, C]}) == {
        "$.items[*].sku": (3, 1, 1, 1, 0), "$.items[*].qty": (3, 1, 1, 1, 0)}
    # unordered: a~a, c~c; b has no partner: one missing sku, one missing qty
    want = {"$.items[*].sku": (3, 2, 0, 1, 0), "$.items[*].qty": (3, 2, 0, 1, 0)}
    assert counts({"items": [A, B, C]}, {"items": [A, C]}, array_match="unordered") == want
    assert counts({"items": [A, B, C]}, {"items": [A, C]}, array_match="key:sku") == want


def test_a_reordered_list():
    # by index every item meets another: 3 skus and 3 qtys differ
    assert counts([A, B, C], [C, A, B]) == {"$[*].sku": (3, 0, 3, 0, 0),
                                            "$[*].qty": (3, 0, 3, 0, 0)}
    assert counts([A, B, C], [C, A, B], array_match="unordered") == {
        "$[*].sku": (3, 3, 0, 0, 0), "$[*].qty": (3, 3, 0, 0, 0)}


def test_a_missing_object_counts_each_of_its_leaves():
    # json_distance counts the missing object once; fields counts its two leaves
    assert counts({"addr": {"city": "X", "zip": "1"}, "n": 1}, {"n": 1}) == {
        "$.addr.city": (1, 0, 0, 1, 0), "$.addr.zip": (1, 0, 0, 1, 0), "$.n": (1, 1, 0, 0, 0)}


def test_a_type_change_counts_the_references_leaves_as_differing():
    assert counts({"a": {"b": 1, "c": 2}}, {"a": 5}) == {"$.a.b": (1, 0, 1, 0, 0),
                                                         "$.a.c": (1, 0, 1, 0, 0)}
    assert counts({"a": True}, {"a": 1}) == {"$.a": (1, 0, 1, 0, 0)}  # bool vs number
    assert counts({"a": 1}, {"a": 1.0}) == {"$.a": (1, 1, 0, 0, 0)}  # the same JSON number


def test_extra_leaves_have_no_accuracy_and_come_last():
    tally = FieldTally(["out"])
    tally.add(['{"a": 1}'], {"out": ['{"a": 2, "x": {"y": 1}}']})
    rows = field_rows(tally)
    assert [(r["path"], r["accuracy"]) for r in rows] == [("$.a", 0.0), ("$.x.y", None)]
    assert rows[1]["extra"] == 1 and rows[1]["expected"] == 0


def test_tolerance_at_its_exact_boundary():
    # |1.0 - 1.5| = 0.5 <= 0.5: equal; 1.5000001 is just beyond
    assert counts({"p": 1.0}, {"p": 1.5}, numeric_tolerance=0.5) == {"$.p": (1, 1, 0, 0, 0)}
    assert counts({"p": 1.0}, {"p": 1.5000001}, numeric_tolerance=0.5) == {
        "$.p": (1, 0, 1, 0, 0)}


def test_empty_containers_are_leaves():
    assert counts({"a": [], "b": {}}, {"a": [], "b": {}}) == {"$.a": (1, 1, 0, 0, 0),
                                                              "$.b": (1, 1, 0, 0, 0)}
    # [] vs [1]: the reference's empty list differs, the output's item is extra
    assert counts({"a": []}, {"a": [1]}) == {"$.a": (1, 0, 1, 0, 0), "$.a[*]": (0, 0, 0, 0, 1)}


def test_accuracy_over_many_rows_worst_first_and_invalid_rows_per_side():
    tally = FieldTally(["out"])
    refs = ['{"phone": "1", "name": "A"}'] * 4 + ["not json"]
    outs = ['{"phone": "1", "name": "A"}', '{"name": "A"}', '{"name": "A"}', '{"name": "B"}',
            '{"phone": "1"}']
    tally.add(refs, {"out": outs})
    rows = field_rows(tally)
    # 4 rows compared: phone equal 1 of 4 (0.25), name equal 3 of 4 (0.75)
    assert [(r["path"], r["accuracy"]) for r in rows] == [("$.phone", 0.25), ("$.name", 0.75)]
    summary = tally.summary()
    assert summary["rows"] == 5 and summary["invalid"] == 1
    assert summary["variants"][0]["reasons"] == [
        {"reason": "the reference is not JSON: Expecting value at line 1 column 1", "rows": 1}]


def test_both_sides_invalid_count_under_each_side_once_per_row():
    tally = FieldTally(["out"])
    tally.add(['{"a": "x', None], {"out": ["[1,", "{}"]})
    variant = tally.summary()["variants"][0]
    assert variant["invalid"] == 2 and tally.invalid_rows == 2
    assert {r["reason"]: r["rows"] for r in variant["reasons"]} == {
        # Python's own message ends in "at": no "at at"
        "the reference is not JSON: Unterminated string starting at line 1 column 7": 1,
        "the output is not JSON: Expecting value at line 1 column 4": 1,
        "the reference is missing": 1}


def test_deep_nesting_is_counted_as_a_reason():
    deep = "[" * 100_000 + "]" * 100_000
    tally = FieldTally(["out"])
    tally.add([deep, "[[1]]"], {"out": [deep, "[[2]]"]})
    variant = tally.summary()["variants"][0]
    assert variant["invalid"] == 1 and variant["compared"] == 1
    assert "nested too deeply" in variant["reasons"][0]["reason"]
    assert field_rows(tally)[0]["path"] == "$[*][*]"


def test_pair_fields_names_each_leaf():
    assert pair_fields({"a": 1, "b": [1, 2]}, {"a": 2, "b": [1]}) == {
        "$.a": "differs", "$.b[0]": "equal", "$.b[1]": "missing"}


# ---- the reference walker: obviously right, slow, index / key pairing, or a given pairing ----
def kind(v):
    return {bool: "bool", int: "number", float: "number", str: "string", list: "array",
            dict: "object", type(None): "null"}[type(v)]


def ref_all(v, path, what, out):
    if isinstance(v, dict) and v:
        for k, x in v.items():
            ref_all(x, f"{path}.{k}", what, out)
    elif isinstance(v, list) and v:
        for x in v:
            ref_all(x, f"{path}[*]", what, out)
    else:
        out[(path, what)] += 1


def ref_pairing(e, a, rule):
    if rule == "index":
        k = min(len(e), len(a))
        return [(i, i) for i in range(k)], list(range(k, len(e))), list(range(k, len(a)))
    # key:k
    pairs, used = [], set()
    for i, x in enumerate(e):
        for j, y in enumerate(a):
            if j not in used and isinstance(x, dict) and isinstance(y, dict) and "k" in x \
                    and "k" in y and kind(x["k"]) == kind(y["k"]) and x["k"] == y["k"]:
                pairs.append((i, j))
                used.add(j)
                break
    paired = {i for i, _ in pairs}
    return pairs, [i for i in range(len(e)) if i not in paired], \
        [j for j in range(len(a)) if j not in used]


def ref_walk(e, a, path, out, pairing):
    if kind(e) == kind(a) == "object":
        if not e:
            out[(path, "equal" if not a else "differs")] += 1
        for k in e:
            if k in a:
                ref_walk(e[k], a[k], f"{path}.{k}", out, pairing)
            else:
                ref_all(e[k], f"{path}.{k}", "missing", out)
        for k in a:
            if k not in e:
                ref_all(a[k], f"{path}.{k}", "extra", out)
    elif kind(e) == kind(a) == "array":
        if not e:
            out[(path, "equal" if not a else "differs")] += 1
        pairs, left_e, left_a = pairing(e, a)
        for i, j in pairs:
            ref_walk(e[i], a[j], f"{path}[*]", out, pairing)
        for i in left_e:
            ref_all(e[i], f"{path}[*]", "missing", out)
        for j in left_a:
            ref_all(a[j], f"{path}[*]", "extra", out)
    elif kind(e) == kind(a):
        out[(path, "equal" if e == a else "differs")] += 1
    else:
        ref_all(e, path, "differs", out)


def ours(e, a, **options):
    tally = FieldTally(["out"], options)
    tally.add([json.dumps(e)], {"out": [json.dumps(a)]})
    out = Counter()
    for row in field_rows(tally):
        for what in ("equal", "differs", "missing", "extra"):
            if row[what]:
                out[(row["path"], what)] += row[what]
    return out


scalars = st.one_of(st.none(), st.booleans(), st.integers(-3, 3), st.sampled_from([1.0, 2.5]),
                    st.sampled_from(["x", "y"]))
docs = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4),
    st.dictionaries(st.sampled_from(["k", "a", "b"]), inner, max_size=3)), max_leaves=12)


@settings(max_examples=300, deadline=None)
@given(docs, docs, st.sampled_from(["index", "key:k"]))
def test_fields_agree_with_the_reference_walker(e, a, rule):
    want = Counter()
    ref_walk(e, a, "$", want, lambda x, y: ref_pairing(x, y, rule))
    assert ours(e, a, array_match=rule) == want


def brute_pairing(e, a):
    """The unique cheapest pairing of every item of the shorter list, or None when several
    tie (json_distance's own distance; leftovers cost 1 each, as in the metric)."""
    walker = Walker({})
    best, found = None, []
    if len(e) <= len(a):
        options = [list(zip(range(len(e)), p, strict=True))
                   for p in permutations(range(len(a)), len(e))]
    else:
        options = [sorted(zip(p, range(len(a)), strict=True))
                   for p in permutations(range(len(e)), len(a))]
    for pairs in options:
        cost = sum(walker.walk(e[i], a[j], "$") for i, j in pairs)
        if best is None or cost < best:
            best, found = cost, [pairs]
        elif cost == best:
            found.append(pairs)
    if len(found) != 1:
        return None
    pairs = found[0]
    pe, pa = {i for i, _ in pairs}, {j for _, j in pairs}
    return pairs, [i for i in range(len(e)) if i not in pe], \
        [j for j in range(len(a)) if j not in pa]


flat_items = st.lists(st.dictionaries(st.sampled_from(["a", "b"]), st.integers(0, 2),
                                      max_size=2), max_size=4)


@settings(max_examples=200, deadline=None)
@given(flat_items, flat_items)
def test_unordered_fields_follow_the_unique_cheapest_pairing(e, a):
    pairing = brute_pairing(e, a)
    assume(pairing is not None)
    want = Counter()
    ref_walk(e, a, "$", want, lambda x, y: pairing if (x, y) == (e, a) else
             ref_pairing(x, y, "index"))
    assert ours(e, a, array_match="unordered") == want
