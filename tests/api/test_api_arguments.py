"""`matchlens.score` and `matchlens.fields` given arguments of the wrong type (issue 28 item 14):
a TypeError naming the argument, never an AttributeError from deep inside."""

from __future__ import annotations

import pandas as pd
import pytest

import matchlens
from matchlens.core.errors import ConfigError

FRAME = pd.DataFrame({"a": ['{"x": 1}'], "b": ['{"x": 2}']})


@pytest.mark.parametrize("function", [matchlens.score, matchlens.fields])
@pytest.mark.parametrize(("arguments", "named"), [
    ({"expected": 5, "actual": "b"}, r"expected= takes a column name .* not int \(5\)"),
    ({"expected": ["a"], "actual": "b"}, r"expected= .* not list"),
    ({"expected": "a", "actual": 5}, r"actual= takes .* not int \(5\)"),
])
def test_a_wrong_type_is_a_type_error_naming_the_argument(function, arguments, named):
    with pytest.raises(TypeError, match=named):
        function(FRAME, **arguments)


def test_a_literal_that_is_not_text_is_named():
    with pytest.raises(TypeError, match=r"expected_literal= takes the reference text as a str"):
        matchlens.score(FRAME, expected_literal=3, actual="b")


def test_an_empty_expected_is_a_sentence():
    with pytest.raises(ConfigError, match="expected= is empty"):
        matchlens.score(FRAME, expected="", actual="b")


def test_right_types_still_score():
    out = matchlens.score(FRAME, expected="a", actual="b", metrics="exact_match")
    assert out["exact_match"].tolist() == [0.0]  # '{"x": 1}' is not '{"x": 2}'
