"""json_locate: the text range of a json_distance path's value."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from matchlens.core.jsonpath import locate, parse_path
from matchlens.core.metrics.json_distance import json_distance

DOC = '{"name": "Ada", "items": [ {"price": 10}, {"price": 12, "tags": ["a", "b"]} ],\n "odd key": null}'


@pytest.mark.parametrize(("path", "segments"), [
    ("$", []),
    ("$.name", ["name"]),
    ("$.items[1].tags[0]", ["items", 1, "tags", 0]),
    ('$["odd key"]', ["odd key"]),
    ('$["quote \\" inside"][2]', ['quote " inside', 2]),
])
def test_parse_path(path: str, segments: list) -> None:
    assert parse_path(path) == segments


@pytest.mark.parametrize("bad", ["name", "$.", "$[x]", "$..a"])
def test_parse_path_rejects(bad: str) -> None:
    with pytest.raises(ValueError):
        parse_path(bad)


@pytest.mark.parametrize(("path", "text"), [
    ("$", DOC),
    ("$.name", '"Ada"'),
    ("$.items[0].price", "10"),
    ("$.items[1]", '{"price": 12, "tags": ["a", "b"]}'),
    ("$.items[1].tags[1]", '"b"'),
    ('$["odd key"]', "null"),
])
def test_locate_finds_the_value(path: str, text: str) -> None:
    found = locate(DOC, path)
    assert found is not None and found.found
    assert DOC[found.start:found.end] == text


def test_missing_path_points_at_the_deepest_ancestor() -> None:
    found = locate(DOC, "$.items[1].colour")
    assert found is not None and not found.found
    assert DOC[found.start:found.end] == '{"price": 12, "tags": ["a", "b"]}'
    past_end = locate(DOC, "$.items[5]")
    assert past_end is not None and not past_end.found
    assert DOC[past_end.start:past_end.end].startswith("[ {")


def test_duplicate_keys_locate_the_one_json_loads_keeps() -> None:
    text = '{"a": 1, "a": 2}'
    found = locate(text, "$.a")
    assert found is not None and text[found.start:found.end] == "2"


def test_code_fences_shift_the_offsets() -> None:
    text = '```json\n{"a": [1, 2]}\n```'
    found = locate(text, "$.a[1]", strip_code_fences=True)
    assert found is not None and text[found.start:found.end] == "2"


def test_not_json_gives_none() -> None:
    assert locate("not json", "$.a") is None


_leaves = st.none() | st.booleans() | st.integers(-99, 99) | st.text(max_size=5)
_docs = st.recursive(_leaves, lambda kids: st.lists(kids, max_size=4)
                     | st.dictionaries(st.text(max_size=4), kids, max_size=4), max_leaves=12)


@settings(max_examples=150, deadline=None)
@given(_docs, _docs, st.sampled_from([None, 2]))
def test_every_reported_path_locates_its_value(expected, actual, indent) -> None:
    # Whatever json_distance reports, the located text parses back to exactly that value.
    text_e = json.dumps(expected, indent=indent, ensure_ascii=False)
    text_a = json.dumps(actual, indent=indent)
    _, diffs = json_distance(expected, actual)
    for diff in diffs:
        for text, shown, doc in ((text_e, diff.expected, expected), (text_a, diff.actual, actual)):
            found = locate(text, diff.path)
            assert found is not None
            if shown == "missing":
                assert not found.found
                continue
            assert found.found
            assert json.loads(text[found.start:found.end]) == _resolve(doc, diff.path)


def _resolve(doc, path: str):
    for segment in parse_path(path):
        doc = doc[segment]
    return doc
