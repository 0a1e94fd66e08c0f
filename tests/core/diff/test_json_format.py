"""core.diff.json_format: both sides pretty-printed alike, the output in the reference's key
order, numbers exactly as written."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from matchlens.core.diff.json_format import format_pair, is_json


def test_keys_follow_the_reference_and_numbers_stay_as_written():
    e, a = format_pair('{"b": 1.50, "a": [1, {"x": 1e400}]}',
                       '{"z": true, "a": [1, {"x": 2.0}], "b": 1.5}')
    assert e == '{\n  "b": 1.50,\n  "a": [\n    1,\n    {\n      "x": 1e400\n    }\n  ]\n}\n'
    # the output's own key "z" comes after the reference's keys; 2.0 stays 2.0
    assert a == ('{\n  "b": 1.5,\n  "a": [\n    1,\n    {\n      "x": 2.0\n    }\n  ],\n'
                 '  "z": true\n}\n')


def test_not_json_or_too_deep_gives_none():
    assert format_pair("{}", "Sorry.") is None
    assert format_pair("NaN", "1") is None
    deep = "[" * 100_000 + "]" * 100_000
    assert format_pair(deep, deep) is None
    assert not is_json(deep) and not is_json('"a string"') and is_json(' {"a": 1}')


json_values = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False,
                                                                 allow_infinity=False),
              st.text(max_size=5)),
    lambda inner: st.one_of(st.lists(inner, max_size=3),
                            st.dictionaries(st.text(max_size=3), inner, max_size=3)),
    max_leaves=10)


@settings(max_examples=200, deadline=None)
@given(json_values, json_values)
def test_formatting_never_changes_a_value(e, a):
    pair = format_pair(json.dumps(e), json.dumps(a))
    assert pair is not None
    assert json.loads(pair[0]) == e and json.loads(pair[1]) == a
