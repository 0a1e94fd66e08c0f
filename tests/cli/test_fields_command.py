"""`matchlens fields` (cli/fields.py): the per-path table as CSV, `-o` and `--json`, variants,
json_distance's options, invalid rows per side with the parser's reason, bad input as one
sentence; and `matchlens.fields` (api/fields.py) returning the same rows."""

from __future__ import annotations

import csv
import io
import json

import pytest

import matchlens
from tests.cli.conftest import assert_one_line_error

ITEMS = [{"sku": "a", "qty": 1}, {"sku": "b", "qty": 2}, {"sku": "c", "qty": 3}]


@pytest.fixture
def invoices(tmp_path):
    """4 rows: equal; phone dropped; second item dropped; output not JSON."""
    ref = {"phone": "555", "items": ITEMS}
    outs = [json.dumps(ref), json.dumps({"items": ITEMS}),
            json.dumps({"phone": "555", "items": [ITEMS[0], ITEMS[2]]}), "Sorry, no."]
    path = tmp_path / "inv.jsonl"
    path.write_text("".join(json.dumps({"ref": json.dumps(ref), "out": o, "same": json.dumps(ref)})
                            + "\n" for o in outs), "utf-8")
    return path


def table(text):
    return {r["path"]: r for r in csv.DictReader(io.StringIO(text))}


def test_csv_counts_paths_worst_first_and_says_why_rows_were_left_out(cli, invoices):
    run = cli("fields", invoices, "--expected", "ref", "--actual", "out")
    assert run.code == 0, run.err
    rows = table(run.out)
    # 3 rows compared. phone: in all 3 references, dropped once -> equal 2, missing 1.
    assert rows["$.phone"] == {"path": "$.phone", "expected": "3", "equal": "2", "differs": "0",
                               "missing": "1", "extra": "0", "accuracy": "0.6667"}
    # items by index: 3 + 3 + 3 = 9 skus; row 3 pairs b~c (differs) and leaves c over
    # (missing): equal 7, differs 1, missing 1
    assert rows["$.items[*].sku"]["equal"] == "7"
    assert (rows["$.items[*].sku"]["differs"], rows["$.items[*].sku"]["missing"]) == ("1", "1")
    assert list(rows)[0] == "$.phone"  # worst first: 2/3 < 7/9
    assert run.err_lines == ["4 rows: 3 compared, 1 invalid (1 where the output is not JSON: "
                             "Expecting value at line 1 column 1)"]


def test_options_reach_the_walk_and_paths_keep_indices_on_request(cli, invoices):
    run = cli("fields", invoices, "--expected", "ref", "--actual", "out", "--by-index",
              "--set", "json_distance.array_match=unordered")
    rows = table(run.out)
    # unordered: row 3 pairs a~a, c~c, b has no partner: shown under the reference's index 1
    assert rows["$.items[1].sku"]["missing"] == "1"
    assert rows["$.items[2].sku"]["equal"] == "3"


def test_json_and_output_file_and_variants(cli, invoices, tmp_path):
    out = tmp_path / "fields.csv"
    run = cli("fields", invoices, "--expected", "ref", "--actual", "out", "--actual", "same",
              "--json", "-o", out, "--quiet")
    assert run.code == 0 and run.err == ""
    doc = json.loads(run.out)
    assert doc["rows"] == 4 and doc["invalid"] == 1
    assert {f["variant"] for f in doc["fields"]} == {"out", "same"}
    assert [v["compared"] for v in doc["variants"]] == [3, 4]
    with open(out, encoding="utf-8", newline="") as handle:
        written = list(csv.DictReader(handle))
    assert list(written[0]) == ["variant", "path", "expected", "equal", "differs", "missing",
                                "extra", "accuracy"]
    assert [r["variant"] for r in written][:3] == ["out"] * 3  # one block per variant


def test_bad_input_is_one_sentence(cli, invoices, tmp_path):
    assert_one_line_error(cli("fields", invoices, "--expected", "nope", "--actual", "out"),
                          "no column 'nope'")
    assert_one_line_error(cli("fields", invoices, "--expected", "ref", "--actual", "out",
                              "--set", "json_distance.array_match=sorted"),
                          "array_match must be index, unordered or key:NAME")
    assert_one_line_error(cli("fields", invoices, "--actual", "out"), "--expected")
    assert_one_line_error(cli("fields", tmp_path / "missing.csv", "--expected", "a",
                              "--actual", "b"), "missing.csv")


def test_deep_nesting_is_a_reason_not_a_traceback(cli, tmp_path):
    deep = "[" * 100_000 + "]" * 100_000
    path = tmp_path / "deep.csv"
    path.write_text(f'ref,out\n"{deep}","{deep}"\n"[1]","[2]"\n', "utf-8")
    run = cli("fields", path, "--expected", "ref", "--actual", "out")
    assert run.code == 0, run.err
    assert "1 invalid" in run.err and "nested too deeply" in run.err
    assert table(run.out)["$[*]"]["differs"] == "1"


def test_the_python_api_gives_the_same_rows(invoices, cli):
    frame = matchlens.fields(invoices, expected="ref", actual="out",
                             options={"array_match": "key:sku"})
    assert list(frame.columns) == ["path", "expected", "equal", "differs", "missing", "extra",
                                   "accuracy"]
    via_cli = table(cli("fields", invoices, "--expected", "ref", "--actual", "out",
                        "--set", "json_distance.array_match=key:sku").out)
    for row in frame.to_dict("records"):
        assert via_cli[row["path"]]["equal"] == str(row["equal"])
        assert via_cli[row["path"]]["missing"] == str(row["missing"])
    assert frame.attrs["matchlens"]["invalid"] == 1
