"""promptfoo's pivot keeps every result (issue 28 item 5): a repeated run of the same test and
prompt, a var named `description`, a response that is a bare text, a testIdx that is a list,
one prompt with one provider. Files in the shape `promptfoo eval -o out.json` writes."""

from __future__ import annotations

import json

import pytest

from matchlens.core.datasets import read_table, resolve_column
from matchlens.core.errors import DatasetError
from tests.core.datasets.test_formats import PROMPTFOO_TESTS, promptfoo_output


def _write(path, data):
    path.write_text(json.dumps(data, indent=1), encoding="utf-8")
    return path


def test_a_repeated_run_is_a_column_of_its_own(tmp_path):
    data = promptfoo_output(PROMPTFOO_TESTS)
    results = data["results"]["results"]
    again = [dict(r, response={"output": r["response"]["output"] + "!"} if r["response"]
                  else None) for r in results]
    data["results"]["results"] = results + again  # `promptfoo eval --repeat 2`
    table = read_table(_write(tmp_path / "out.json", data))
    assert table.variants == ["Answer: {{question}}", "Reply briefly: {{question}}",
                              "Answer: {{question}} (run 2)",
                              "Reply briefly: {{question}} (run 2)"]
    assert resolve_column(table, table.variants[0]).values == ["Paris", "Roma"]
    assert resolve_column(table, table.variants[2]).values == ["Paris!", "Roma!"]
    assert len(table) == 2


def test_a_var_named_description_keeps_the_tests_description(tmp_path):
    data = promptfoo_output([("q", "a", ["x", "y"])])
    for result in data["results"]["results"]:
        result["description"] = "the test"
        result["vars"] = dict(result["vars"], description="the var")
    table = read_table(_write(tmp_path / "out.json", data))
    assert table.columns[:2] == ["test description", "question"]
    assert resolve_column(table, "test description").values == ["the test"]
    assert resolve_column(table, "description").values == ["the var"]


def test_without_a_clash_the_description_column_is_description(tmp_path):
    data = promptfoo_output([("q", "a", ["x", "y"])])
    data["results"]["results"][0]["description"] = "the test"
    table = read_table(_write(tmp_path / "out.json", data))
    assert resolve_column(table, "description").values == ["the test"]


def test_a_response_that_is_a_text_is_the_output(tmp_path):
    data = promptfoo_output([("q", "a", ["x", "y"])])
    data["results"]["results"][0]["response"] = "bare text"
    table = read_table(_write(tmp_path / "out.json", data))
    assert resolve_column(table, table.variants[0]).values == ["bare text"]


def test_one_prompt_one_provider_is_one_output_column(tmp_path):
    data = promptfoo_output(PROMPTFOO_TESTS[:1], prompts=("Answer: {{question}}",))
    table = read_table(_write(tmp_path / "out.json", data))
    assert table.variants == ["output"] and table.columns == ["question", "expected", "output"]
    assert resolve_column(table, "output").values == ["Paris"]


@pytest.mark.parametrize("key", ["testIdx", "promptIdx"])
def test_an_index_that_is_a_list_is_a_sentence_naming_the_line(tmp_path, key):
    data = promptfoo_output(PROMPTFOO_TESTS)
    data["results"]["results"][1][key] = [0, 1]
    path = tmp_path / "out.json"
    path.write_text(json.dumps(data), encoding="utf-8")  # one line: line 1
    with pytest.raises(DatasetError, match=rf"out\.json, line 1: .*{key} is \[0, 1\], not a"):
        read_table(path)
