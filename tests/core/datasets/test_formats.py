"""Reading what users have (issue 12): Parquet with nested columns, workbooks with two sheets,
rows under a key (ragas), promptfoo's output, Kaggle headers, digit-led JSONPath keys. Every
file is built here, with the library that writes such files for real."""

from __future__ import annotations

import json

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
import xlsxwriter

from matchlens.core.datasets import iter_tables, read_table, resolve_column
from matchlens.core.errors import DatasetError

# --- Parquet ----------------------------------------------------------------------------------


def write_parquet(path, rows: int = 5, row_group_size: int | None = None):
    table = pa.table({
        "id": list(range(rows)),
        "question": [f"q{i}" for i in range(rows)],
        "output": [{"entity": f"E{i}", "scores": [i, i + 1]} for i in range(rows)],
        "contexts": [[f"c{i}a", f"c{i}b"] for i in range(rows)],
        "reference": [None if i == 1 else f"E{i}" for i in range(rows)],
    })
    pq.write_table(table, path, row_group_size=row_group_size)
    return path


def test_parquet_columns_by_name_and_nested_by_jsonpath(tmp_path):
    table = read_table(write_parquet(tmp_path / "d.parquet"))
    assert table.kind == "parquet" and table.columns == ["id", "question", "output",
                                                         "contexts", "reference"]
    assert resolve_column(table, "question").values == ["q0", "q1", "q2", "q3", "q4"]
    assert resolve_column(table, "$.output.entity").values == ["E0", "E1", "E2", "E3", "E4"]
    assert resolve_column(table, "$.contexts[1]").values[2] == "c2b"
    assert resolve_column(table, "$.output.scores[-1]").values[3] == "4"
    # an integer column as text, a struct as compact JSON (what a CSV output cell holds)
    assert table.cell_text(0, "id") == "0"
    assert json.loads(table.cell_text(0, "output")) == {"entity": "E0", "scores": [0, 1]}
    # a null is a missing value with a reason naming the row (Parquet rows, not lines)
    reference = resolve_column(table, "reference")
    assert reference.values[1] is None
    assert "d.parquet, row 2, column 'reference'" in reference.reasons[1]


def test_parquet_is_read_in_pieces_with_absolute_row_numbers(tmp_path):
    path = write_parquet(tmp_path / "big.parquet", rows=25, row_group_size=10)
    pieces = list(iter_tables(path, chunk_rows=10))
    assert [len(p) for p in pieces] == [10, 10, 5]
    assert pieces[2].lines == [21, 22, 23, 24, 25]
    assert [r["question"] for p in pieces for r in p.rows] == [f"q{i}" for i in range(25)]


def test_a_damaged_parquet_file_is_one_sentence(tmp_path):
    path = tmp_path / "bad.parquet"
    path.write_bytes(b"PAR1 not really")
    with pytest.raises(DatasetError, match=r"bad\.parquet is not a Parquet file"):
        read_table(path)


# --- spreadsheets -----------------------------------------------------------------------------

def write_workbook(path):
    book = xlsxwriter.Workbook(str(path))
    first = book.add_worksheet("Answers")
    first.write_row(0, 0, ["expected", "actual", "", "n"])
    first.write_row(1, 0, ["Paris", "Paris", "", 5])
    first.write_row(2, 0, ["Rome", "Roma", "x", 1.5])
    first.write_row(4, 0, ["Oslo", "Oslo", "", True])  # row 4 left blank
    second = book.add_worksheet("Labels")
    second.write_row(0, 0, ["question", "label"])
    second.write_row(1, 0, ["q1", "pass"])
    book.close()
    return path


def test_xlsx_first_sheet_by_default_second_with_sheet(tmp_path):
    path = write_workbook(tmp_path / "book.xlsx")
    table = read_table(path)
    assert table.kind == "xlsx"
    assert table.columns == ["expected", "actual", "column 3", "n"]  # the blank header cell
    assert table.rows == [["Paris", "Paris", "", "5"], ["Rome", "Roma", "x", "1.5"],
                          ["Oslo", "Oslo", "", "TRUE"]]
    assert table.lines == [2, 3, 5]  # the sheet's own row numbers; blank row 4 skipped
    assert any("'column 3'" in note for note in table.notes)
    assert any("sheet 'Answers' of 2" in note for note in table.notes)
    labels = read_table(path, sheet="Labels")
    assert labels.columns == ["question", "label"] and labels.rows == [["q1", "pass"]]


def test_an_unknown_sheet_lists_the_sheets(tmp_path):
    path = write_workbook(tmp_path / "book.xlsx")
    with pytest.raises(DatasetError) as caught:
        read_table(path, sheet="Nope")
    assert str(caught.value) == (f"{path} has no sheet 'Nope' (its sheets: 'Answers', 'Labels')"
                                 )


def test_sheet_on_a_csv_is_a_sentence(tmp_path):
    path = tmp_path / "d.csv"
    path.write_text("a,b\n1,2\n", encoding="utf-8")
    with pytest.raises(DatasetError, match="--sheet picks a sheet"):
        read_table(path, sheet="x")


# --- headers ------------------------------------------------------------------------------------

def test_kaggle_header_loads_and_only_a_used_ambiguous_column_fails(tmp_path):
    path = tmp_path / "spam.csv"
    path.write_text("v1,v2,,,v2\nham,Go until,,,x\nspam,Free entry,,,y\n", encoding="latin-1")
    table = read_table(path)
    assert table.columns == ["v1", "v2", "column 3", "column 4", "v2 (2)"]
    assert len(table.notes) == 1  # one note says everything that was renamed
    assert "2 columns have no name" in table.notes[0] and "'v2' repeats" in table.notes[0]
    assert resolve_column(table, "v1").values == ["ham", "spam"]
    assert resolve_column(table, "v2 (2)").values == ["x", "y"]
    with pytest.raises(DatasetError) as caught:
        resolve_column(table, "v2")
    message = str(caught.value)
    assert "line 1" in message and "column 'v2'" in message and "columns 2, 5" in message
    assert "'v2 (2)'" in message


def test_made_up_names_never_collide_with_real_ones(tmp_path):
    path = tmp_path / "d.csv"
    path.write_text("column 2,,a,a,a (2)\n1,2,3,4,5\n", encoding="utf-8")
    columns = read_table(path).columns
    assert len(set(columns)) == 5
    assert columns == ["column 2", "column 2 (2)", "a", "a (2) (2)", "a (2)"]


# --- JSON: rows under a key, --records, JSONPath keys ---------------------------------------------

RAGAS = {"answer_correctness": [
    {"question": "q1", "answer": "Paris", "ground_truth": "Paris"},
    {"question": "q2", "answer": "Rome", "ground_truth": "Roma"}]}


def test_ragas_shape_uses_the_only_array_of_objects(tmp_path):
    path = tmp_path / "ragas.json"
    path.write_text(json.dumps(RAGAS, indent=2), encoding="utf-8")
    table = read_table(path)
    assert table.columns == ["question", "answer", "ground_truth"]
    assert table.lines == [3, 8]  # where each object opens
    assert "rows read from $.answer_correctness" in table.notes[0]


def test_several_candidates_are_one_sentence_listing_them(tmp_path):
    path = tmp_path / "two.json"
    path.write_text(json.dumps({"a": [{"x": 1}], "meta": {"b": [{"y": 2}]}}), encoding="utf-8")
    with pytest.raises(DatasetError) as caught:
        read_table(path)
    message = str(caught.value)
    assert "2 arrays of objects ($.a, $.meta.b)" in message and "--records" in message
    assert "\n" not in message
    assert read_table(path, records="$.meta.b").rows == [{"y": 2}]


@pytest.mark.parametrize(("records", "needle"), [
    ("$.meta.c", "matches nothing: $.meta has no key 'c'"),
    ("$.meta", "is an object, not an array of objects"),
    ("$.a[0]", "is an object, not an array"),
    ("$..a", "not a path of keys and indexes"),
])
def test_bad_records_paths_say_why(tmp_path, records, needle):
    path = tmp_path / "two.json"
    path.write_text(json.dumps({"a": [{"x": 1}], "meta": {"b": [{"y": 2}]}}), encoding="utf-8")
    with pytest.raises(DatasetError, match=None) as caught:
        read_table(path, records=records)
    assert needle in str(caught.value)


def test_jsonpath_digit_led_keys_and_dotted_names(tmp_path):
    path = tmp_path / "gsm.jsonl"
    rows = [{"175b_verification": {"solution": "42"}, "a.b": "dotted", "x": {"c.d": [1, 2]}}]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    table = read_table(path)
    assert resolve_column(table, "$.175b_verification.solution").values == ["42"]
    assert resolve_column(table, '$["a.b"]').values == ["dotted"]
    assert resolve_column(table, "$['a.b']").values == ["dotted"]
    assert resolve_column(table, '$.x["c.d"][1]').values == ["2"]
    # a complex path with a digit-led key still goes through jsonpath-ng
    assert resolve_column(table, "$.175b_verification.*").values == ["42"]


def test_an_invalid_jsonpath_hints_at_the_bracket_form(tmp_path):
    path = tmp_path / "d.jsonl"
    path.write_text('{"a": 1}\n', encoding="utf-8")
    with pytest.raises(DatasetError) as caught:
        resolve_column(read_table(path), "$.a[?(")
    assert '$["key.with.dots"]' in str(caught.value)


# --- promptfoo ----------------------------------------------------------------------------------

def promptfoo_output(tests, prompts=("Answer: {{question}}", "Reply briefly: {{question}}"),
                     providers=("openai:gpt-4o-mini",)):
    """The shape `promptfoo eval -o out.json` writes (EvaluateSummaryV3 under `results`, see
    promptfoo's src/types/index.ts): one result per (test, prompt, provider)."""
    results = []
    for t, (question, expected, outputs) in enumerate(tests):
        k = 0
        for p, prompt in enumerate(prompts):
            for provider in providers:
                output = outputs[k]
                k += 1
                results.append({
                    "id": f"r{t}-{p}", "promptIdx": p, "testIdx": t,
                    "testCase": {"vars": {"question": question, "expected": expected}},
                    "promptId": f"p{p}", "provider": {"id": provider, "label": ""},
                    "prompt": {"raw": prompt.replace("{{question}}", question), "label": prompt},
                    "vars": {"question": question, "expected": expected},
                    "response": None if output is None else {"output": output},
                    "error": "timeout" if output is None else None,
                    "success": output == expected, "score": float(output == expected),
                    "latencyMs": 12, "namedScores": {}, "failureReason": 0})
    return {"evalId": "eval-1",
            "results": {"version": 3, "timestamp": "2026-01-01T00:00:00Z", "results": results,
                        "prompts": [{"raw": p, "label": p, "provider": providers[0]}
                                    for p in prompts],
                        "stats": {"successes": 1, "failures": 1, "errors": 0}},
            "config": {"prompts": list(prompts)}, "shareableUrl": None}


PROMPTFOO_TESTS = [("capital of France?", "Paris", ["Paris", "paris"]),
                   ("capital of Italy?", "Rome", ["Roma", None])]


def test_promptfoo_output_is_one_row_per_test_and_a_column_per_prompt(tmp_path):
    path = tmp_path / "out.json"
    path.write_text(json.dumps(promptfoo_output(PROMPTFOO_TESTS), indent=1), encoding="utf-8")
    table = read_table(path)
    assert table.kind == "promptfoo"
    assert table.variants == ["Answer: {{question}}", "Reply briefly: {{question}}"]
    assert table.columns == ["question", "expected", *table.variants]
    assert resolve_column(table, "expected").values == ["Paris", "Rome"]
    assert resolve_column(table, table.variants[0]).values == ["Paris", "Roma"]
    second = resolve_column(table, table.variants[1])
    assert second.values == ["paris", None] and 1 in second.reasons
    assert "promptfoo output, 2 tests × 2 prompt/provider outputs" in table.notes[0]


def test_promptfoo_providers_and_prompts_both_vary(tmp_path):
    path = tmp_path / "out.json"
    data = promptfoo_output([("q", "a", ["a", "b", "c", "d"])], prompts=("P1", "P2"),
                            providers=("openai:gpt-4o", "ollama:llama3"))
    path.write_text(json.dumps(data), encoding="utf-8")
    table = read_table(path)
    assert table.variants == ["openai:gpt-4o · P1", "ollama:llama3 · P1",
                              "openai:gpt-4o · P2", "ollama:llama3 · P2"]
    assert [resolve_column(table, v).values[0] for v in table.variants] == ["a", "b", "c", "d"]


def test_promptfoo_raw_rows_with_records(tmp_path):
    path = tmp_path / "out.json"
    path.write_text(json.dumps(promptfoo_output(PROMPTFOO_TESTS)), encoding="utf-8")
    table = read_table(path, records="$.results.results")
    assert len(table) == 4 and table.kind == "json"
    assert resolve_column(table, "$.response.output").values == ["Paris", "paris", "Roma", None]


def test_long_column_names_are_cut_in_the_middle_in_messages(tmp_path):
    long_name = "output " + json.dumps({"prompt": "x" * 200, "provider": "openai:gpt-4o"})
    path = tmp_path / "wide.csv"
    path.write_text(f'expected,"{long_name.replace(chr(34), chr(34) * 2)}"\na,b\n',
                    encoding="utf-8")
    with pytest.raises(DatasetError) as caught:
        resolve_column(read_table(path), "answer")
    message = str(caught.value)
    assert long_name not in message and "…" in message and 'openai:gpt-4o"}' in message


def test_promptfoo_long_prompts_make_short_one_line_names_that_keep_both_ends(tmp_path):
    # two 200-character prompts that differ only at the end: the variant names must stay
    # apart (their last characters kept), fit a legend (60 characters) and hold no newline
    stem = "You are a careful assistant.\nAnswer the question below " + "x" * 140
    prompts = (stem + " (terse)", stem + " (chatty)")
    path = tmp_path / "out.json"
    path.write_text(json.dumps(promptfoo_output(PROMPTFOO_TESTS, prompts=prompts)),
                    encoding="utf-8")
    names = read_table(path).variants
    assert len(set(names)) == 2
    for name, prompt in zip(names, prompts, strict=True):
        assert len(name) <= 60 and "\n" not in name and "…" in name
        assert name.startswith("You are a careful assistant. A")
        assert name.endswith(prompt[-12:])
