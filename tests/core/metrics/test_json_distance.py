"""json_distance: the contract's walk, its tie-breaks, its options and its invalid label."""

from __future__ import annotations

import json

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from matchlens.core.metrics import evaluate, get_metric
from matchlens.core.metrics.json_distance import json_distance
from matchlens.core.results import Label

SPEC = get_metric("json_distance")


def run(expected, actual, **options):
    return evaluate(SPEC, json.dumps(expected) if not isinstance(expected, str) else expected,
                    json.dumps(actual) if not isinstance(actual, str) else actual,
                    options=options)


@pytest.mark.parametrize(
    ("expected", "actual", "want"),
    [
        ({"a": 1}, {"a": 1}, 0),
        ({"a": 1}, {"a": 2}, 1),
        # a wrong value three levels deep counts the same as one at the top
        ({"a": {"b": {"c": 1}}}, {"a": {"b": {"c": 2}}}, 1),
        # a missing key counts 1 however large the subtree on the other side
        ({"a": 1, "big": {"x": [1, 2, 3], "y": {"z": 1}}}, {"a": 1}, 1),
        # arrays: pairwise distance (index 1: 2 vs 5 -> 1) + length difference (1) = 2
        ([1, 2, 3], [1, 5], 2),
        ([], [1, 2, 3], 3),
        # missing on one side vs null on the other: present vs absent is a drift -> 1
        ({"a": 1}, {"a": 1, "b": None}, 1),
        # true vs 1: different JSON types -> 1; 1 vs 1.0: the same JSON number -> 0
        ({"a": True}, {"a": 1}, 1),
        ({"a": 1}, {"a": 1.0}, 0),
        ({"a": "x"}, {"a": "X"}, 1),  # strings compare exactly by default
        ({"a": [1, {"b": 2}]}, {"a": {"0": 1}}, 1),  # array vs object: a leaf mismatch -> 1
        ("1", "1", 0),  # scalar documents
        ('"a"', '"b"', 1),
    ],
)
def test_distance_examples(expected, actual, want):
    result = run(expected, actual)
    assert result.score == want
    assert result.label is Label.SCORED
    assert len(result.details) == want  # one differing path per counted difference


def test_paths_are_listed_readably():
    result = run({"items": [{"price": 10}, {"price": 3}, {"price": 10}], "name": "Ada"},
                 {"items": [{"price": 10}, {"price": 3}, {"price": 12}]})
    assert [str(d) for d in result.details] == [
        "$.items[2].price: 10 → 12",
        '$.name: "Ada" → missing',
    ]


def test_odd_keys_are_quoted_in_paths():
    result = run({"first name": 1}, {"first name": 2})
    assert str(result.details[0]) == '$["first name"]: 1 → 2'
    # a trailing newline is part of the key: `$.A` would name another key (found by Hypothesis)
    result = run({"A\n": 1}, {"A\n": 2})
    assert str(result.details[0]) == '$["A\\n"]: 1 → 2'


@pytest.mark.parametrize(
    ("options", "expected", "actual", "want"),
    [
        ({"ignore_keys": ["id", "timestamp"]},
         {"id": 1, "x": {"timestamp": 5, "v": 1}}, {"id": 2, "x": {"timestamp": 6, "v": 1}}, 0),
        ({"case_insensitive_strings": True}, {"a": "Paris"}, {"a": "PARIS"}, 0),
        ({"numeric_tolerance": 0.01}, {"a": 1.0}, {"a": 1.005}, 0),
        ({"numeric_tolerance": 0.01}, {"a": 1.0}, {"a": 1.02}, 1),
    ],
)
def test_options(options, expected, actual, want):
    assert run(expected, actual, **options).score == want


def test_code_fences_are_accepted_only_when_asked():
    fenced = '```json\n{"a": 1}\n```'
    assert run({"a": 1}, fenced).label is Label.INVALID
    assert run({"a": 1}, fenced, strip_code_fences=True).score == 0


@pytest.mark.parametrize(
    ("expected", "actual", "fragment"),
    [
        ('{"a": 1', "{}", "expected is not valid JSON: Expecting ',' delimiter at line 1 column 8"),
        ("{}", "{'a': 1}", "actual is not valid JSON: Expecting property name enclosed in double "
                           "quotes at line 1 column 2"),
        ("{}", "", "actual is not valid JSON: Expecting value at line 1 column 1"),
        # Python's json reads these; JSON has no NaN or Infinity (NaN != NaN would score 1).
        ("NaN", "NaN", "expected is not valid JSON: NaN is not a JSON value at line 1 column 1"),
        ('{"x": 1}', '{"x": -Infinity}',
         "actual is not valid JSON: -Infinity is not a JSON value at line 1 column 7"),
    ],
)
def test_invalid_json_names_the_side_line_and_column(expected, actual, fragment):
    result = evaluate(SPEC, expected, actual)
    assert result.score is None and result.passed is None
    assert result.label is Label.INVALID
    assert result.explanation == fragment


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 3) | st.sampled_from(["a", "b"]),
    lambda children: st.lists(children, max_size=3)
    | st.dictionaries(st.sampled_from(["k", "l", "m"]), children, max_size=3),
    max_leaves=8,
)


@settings(max_examples=300, deadline=None)
@given(JSON, JSON)
def test_distance_is_symmetric_and_zero_iff_equal(a, b):
    d_ab, _ = json_distance(a, b)
    d_ba, _ = json_distance(b, a)
    assert d_ab == d_ba
    assert (d_ab == 0) == (json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True))


def test_numbers_too_big_for_a_float_are_equal_with_a_tolerance_too():
    # 1e400 parses to inf on both sides; inf - inf is nan, which no tolerance accepts.
    assert run("1e400", "1e400").score == 0
    assert run("1e400", "1e400", numeric_tolerance=0.01).score == 0
    assert run("1e400", "-1e400", numeric_tolerance=0.01).score == 1
    # An integer too big for a float against a float: no OverflowError, just different.
    assert run("1e400", "1" + "0" * 400, numeric_tolerance=0.01).score == 1
    assert run("1.5", "1" + "0" * 400, numeric_tolerance=0.01).score == 1


# Texts that are JSON, start like JSON and fail later, or fail at once (parse_side answers those
# without the decoder): a BOM, JSON's four whitespace characters and others it does not skip.
FRAGMENTS = st.sampled_from(["{", "}", "[", "]", '"a"', "1", "-", "tru", "true", "null", "NaN",
                             "Infinity", "x", "é", ":", ",", " ", "\t", "\n", "\r", "\u00a0",
                             "\ufeff", "\x0c", "٣"])


@settings(max_examples=300, deadline=None)
@given(st.lists(FRAGMENTS, max_size=6).map("".join))
def test_invalid_json_sentence_equals_the_decoders_own(text):
    from matchlens.core.metrics.json_distance import InvalidJson, parse_side

    try:
        json.loads(text)
        want = None
    except json.JSONDecodeError as err:
        want = f"actual is not valid JSON: {err.msg} at line {err.lineno} column {err.colno}"
    try:
        parse_side(text, "actual", False)
        got = None
    except InvalidJson as err:
        got = str(err)
    if got is not None and "is not a JSON value" in got:
        return  # NaN / Infinity refused before json would fail later (tested above)
    assert got == want


# The batch path tells most non-JSON texts apart by their first character; the row-by-row
# path (`_outcome`, what the compare view shows) parses every text. Fences add "```" and the
# whitespace \s skips before it; "NaN" and a BOM the errors json.loads raises itself.
BATCH_TEXTS = st.lists(st.sampled_from(["{", "}", '"a"', "1", "1 2", "NaN", "x", "é", " ",
                                        "\n", "\u00a0", "\ufeff", "\x0c", "`", "```json\n",
                                        "\n```", "```\n[1]\n```", "[1]", '{"a": 1}', "",
                                        "Paris"]),
                       max_size=4).map("".join)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(BATCH_TEXTS, BATCH_TEXTS), min_size=1, max_size=12), st.booleans())
@example([("\u00a0```\n[1]\n```", "\x0c```\n[2]\n```"), ("x", "[1]")], True)  # spaces \s skips
@example([("\ufeff[1]", "[1]"), ("[1]", "\ufeff1")], False)  # json.loads' BOM sentence
def test_the_batch_path_gives_each_row_what_the_single_pair_path_gives(pairs, fences):
    from matchlens.core.metrics.json_distance import _outcome
    from matchlens.core.metrics.registry import STATUS_INVALID, STATUS_SCORED

    options = SPEC.resolve_options({"strip_code_fences": fences})
    expected, actual = [e for e, _ in pairs], [a for _, a in pairs]
    many = SPEC.many(expected, actual, options)
    for i, (e, a) in enumerate(pairs):
        one = _outcome(e, a, options)
        if one.score is None:
            assert (many.status[i], many.messages[i]) == (STATUS_INVALID, one.explanation)
        else:
            assert (many.status[i], many.scores[i]) == (STATUS_SCORED, one.score)
    assert list(many.messages) == sorted(many.messages)  # in row order
