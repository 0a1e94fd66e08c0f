"""A corpus of hostile inputs, each a real file in tmp_path run through `matchlens score`.

The contract (cli.md): bad input exits 2 with ONE line naming the file, the row (line) and the
column where they apply, and no traceback; where scoring can go on it does (exit 0). Every case
runs twice: in-process through `matchlens.main.main` and as a real `matchlens` process. After
each run the files in the folder are byte-for-byte what they were, and a failed run leaves no
new file behind.
"""

from __future__ import annotations

import codecs
import json
from collections.abc import Callable
from dataclasses import dataclass, field

import pytest

from tests.cli.conftest import (
    Run,
    assert_no_traceback,
    parse_csv,
    run_in_process,
    run_process,
    snapshot,
)

DIR = object()  # a folder instead of a file
GOOD = b"expected,actual\nParis,Paris\nRome,Roma\n"
COLUMNS = ("--expected", "expected", "--actual", "actual")
SECRET = "sk-test-0123456789abcdef"


@dataclass(frozen=True)
class Case:
    id: str
    files: dict[str, object]  # name -> bytes, or DIR
    args: tuple[str, ...]  # after `score`
    code: int
    needles: tuple[str, ...] = ()  # in the one error line (exit 2) or on stderr (exit 0)
    line: int | None = None  # the error names "line N"
    column: str | None = None  # the error names "column 'X'"
    names: str | None = "DATA"  # the file the error line names ("DATA": the first argument)
    outputs: tuple[str, ...] = ()  # files a successful run creates
    check: Callable[[Run], None] | None = None  # more checks on a successful run
    marks: tuple = field(default=())


def csv_data(*args: str, name: str = "data.csv", data: bytes = GOOD, **kwargs) -> dict:
    """Most cases: one CSV file, DATA first, the usual columns, then `args`."""
    return {"files": {name: data}, "args": (name, *COLUMNS, *args), **kwargs}


def scored(*values: tuple[str, str]) -> Callable[[Run], None]:
    """Check a successful run's CSV: the (expected, actual) cells of its rows, in order."""
    def check(run: Run) -> None:
        header, rows = parse_csv(run.out)
        at_e, at_a = header.index("expected"), header.index("actual")
        assert [(row[at_e], row[at_a]) for row in rows] == list(values)
        assert header[-2:] == ["jaccard", "jaccard_pass"]
    return check


def json_cells(*cells: object) -> bytes:
    """A CSV whose `out` column holds JSON (as text), `ref` the reference."""
    lines = ["ref,out"]
    for ref, value in cells:
        text = value if isinstance(value, str) else json.dumps(value)
        lines.append(f'{ref},"{text.replace(chr(34), chr(34) * 2)}"')
    return ("\n".join(lines) + "\n").encode("utf-8")


JSON_CELLS = json_cells(("Paris", {"answer": "Paris"}), ("Rome", {"other": "Rome"}),
                        ("Oslo", '{"answer": "Oslo"'), ("Bern", {"answer": "bern"}))
TEN_MB = 10 * 1024 * 1024

CASES = [
    # --- the file itself ---------------------------------------------------------------------
    Case("missing_file", {}, ("missing.csv", *COLUMNS), 2, ("no such file",)),
    Case("directory_as_data", {"data.csv": DIR}, ("data.csv", *COLUMNS), 2, ("folder",)),
    Case(**csv_data(data=b"", id="empty_file", code=2, needles=("empty",))),
    Case(**csv_data(data=b"\xef\xbb\xbf", id="bom_only", code=2, needles=("BOM",))),
    Case(**csv_data(data=b"  \n\t\n   \r\n", id="whitespace_only", code=2,
                    needles=("empty",))),
    Case(**csv_data(data=b"expected,actual\n", id="header_only", code=2, line=1,
                    needles=("no data rows",))),
    Case(**csv_data(data=b"expected,actual\r\n\r\n\r\n", id="header_then_blank_lines", code=2,
                    line=1, needles=("no data rows",))),
    Case(**csv_data(data=b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x01\x00", id="png_as_csv",
                    code=2, needles=("NUL", "binary"))),
    Case(**csv_data(data=b"PK\x03\x04\x14\x00\x06\x00\x08\x00\x00\x00!\x00", id="zip_as_csv",
                    code=2, line=1, needles=("ZIP",))),
    # --- CSV structure -----------------------------------------------------------------------
    Case(**csv_data(data=b'expected,actual\nParis,Paris\n"Rome,Roma\nOslo,Oslo\n',
                    id="unterminated_quote", code=2, line=3, needles=("never closed",))),
    Case(**csv_data(data=b'expected,actual\nParis,Paris\n"Ro"me,Roma\n', id="stray_quote",
                    code=2, line=3, needles=("not valid CSV",))),
    Case(**csv_data(data=b"expected,actual\nParis,Paris\nRome,Roma,Italy\n", id="ragged_more",
                    code=2, line=3, needles=("3 cells", "2 columns"))),
    Case(**csv_data(data=b"expected,actual\nParis,Paris\nRome\n", id="ragged_fewer",
                    code=2, line=3, needles=("1 cell", "2 columns"))),
    Case(**csv_data(data=b"expected,actual,actual\nParis,Paris,Paris\n",
                    id="duplicate_columns", code=2, line=1, column="actual",
                    needles=("repeats",))),
    Case(**csv_data(data=b"expected,actual,exact_match\nParis,Paris,1\n", id="already_scored",
                    code=2, needles=("exact_match", "scored table"))),
    Case(**csv_data(data=b"expected,actual\r\nParis,Paris\r\n\"Rome\r\nItaly\",Roma\r\n",
                    id="crlf_line_endings", code=0, check=scored(("Paris", "Paris"),
                                                               ("Rome\r\nItaly", "Roma")))),
    Case(**csv_data(data=b"expected,actual\rParis,Paris\rRome,Roma\r", id="cr_line_endings",
                    code=0, check=scored(("Paris", "Paris"), ("Rome", "Roma")))),
    Case(**csv_data(data=b"expected,actual\nParis,Paris\nRome,Roma", id="no_final_newline",
                    code=0, check=scored(("Paris", "Paris"), ("Rome", "Roma")))),
    Case(**csv_data(data=b"expected;actual\nParis;Paris\nRome;Roma\n", id="semicolons",
                    code=0, check=scored(("Paris", "Paris"), ("Rome", "Roma")))),
    Case(**csv_data(data=b"expected\tactual\nParis\tParis\n", name="data.tsv", id="tsv",
                    code=0, check=scored(("Paris", "Paris")))),
    Case(**csv_data(data=b"expected,actual\n,\nParis,\n", id="empty_cells_are_scored",
                    code=0, needles=("2 scored",), check=scored(("", ""), ("Paris", "")))),
    Case(**csv_data(data=b"expected,actual\n" + b"x" * TEN_MB + b",short\nParis,Paris\n",
                    id="ten_mb_cell", code=0,
                    check=scored(("x" * TEN_MB, "short"), ("Paris", "Paris")))),
    # --- bytes and encodings -----------------------------------------------------------------
    Case(**csv_data(data=b"expected,actual\nParis,Paris\ncaf\xe9,cafe\n", id="latin1_bytes",
                    code=2, line=3, needles=("0xe9", "--encoding latin-1"))),
    Case(**csv_data("--encoding", "latin-1", data=b"expected,actual\ncaf\xe9,caf\xe9\n",
                    id="latin1_with_encoding", code=0, check=scored(("café", "café")))),
    Case(**csv_data(data=b"expected,actual\nParis,\x93Paris\x94\n", id="cp1252_quotes",
                    code=2, line=2, needles=("0x93", "--encoding cp1252"))),
    Case(**csv_data(data="expected,actual\r\nZoë,Zoe\r\n東京,Tokyo\r\n".encode("utf-16"),
                    id="utf16_with_bom", code=0, check=scored(("Zoë", "Zoe"),
                                                              ("東京", "Tokyo")))),
    Case(**csv_data(data="expected,actual\nZoë,Zoe\n".encode("utf-16-le"), id="utf16_no_bom",
                    code=2, needles=("--encoding utf-16-le",))),
    Case(**csv_data(data=codecs.BOM_UTF8 + "expected,actual\nZoë,Zoë\n".encode(),
                    id="utf8_bom", code=0, check=scored(("Zoë", "Zoë")))),
    Case(**csv_data(data=b"expected,actual\nParis,Pa\x00ris\n", id="nul_byte", code=2, line=2,
                    needles=("NUL",))),
    Case(**csv_data("--encoding", "klingon", id="unknown_encoding", code=2,
                    needles=("'klingon'",))),
    Case(**csv_data("--encoding", "utf-16", id="utf16_given_for_utf8_file", code=2,
                    needles=("UTF-16 byte-order mark", "utf-16-le"))),
    # --- columns and JSONPath ----------------------------------------------------------------
    Case(**csv_data(data=b"expected,output\nParis,Paris\n", id="unknown_column", code=2,
                    needles=("'actual'",))),
    Case("unknown_column_suggests", {"data.csv": b"expected,output\nParis,Paris\n"},
         ("data.csv", "--expected", "expected", "--actual", "ouptut"), 2,
         ("'ouptut'", "did you mean 'output'")),
    Case("jsonpath_matches_nothing", {"data.csv": JSON_CELLS},
         ("data.csv", "--expected", "ref", "--actual", "$.out.verdict"), 2,
         ("matches nothing in any of the 4 rows",), line=2, column="out"),
    Case("jsonpath_matches_some_rows", {"data.csv": JSON_CELLS},
         ("data.csv", "--expected", "ref", "--actual", "$.out.answer"), 0,
         ("2 scored, 2 missing", "line 3, column 'out'", "has no key 'answer'")),
    Case("invalid_json_cell_under_jsonpath", {"data.csv": JSON_CELLS},
         ("data.csv", "--expected", "ref", "--actual", "$.out.answer"), 0,
         ("line 4, column 'out'", "not valid JSON")),
    Case("invalid_jsonpath", {"data.csv": JSON_CELLS},
         ("data.csv", "--expected", "ref", "--actual", "$.out[?("), 2,
         ("not a valid JSONPath",)),
    Case("jsonpath_into_text_cells", {"data.csv": GOOD},
         ("data.csv", "--expected", "expected", "--actual", "$.actual.answer"), 2,
         ("holds text, not JSON",), line=2, column="actual"),
    # --- JSON and JSON Lines -----------------------------------------------------------------
    Case("json_not_an_array",  # two candidate arrays: which holds the rows is a question
         {"data.json": b'{"rows": [{"expected": "a", "actual": "a"}], "more": [{"x": 1}]}'},
         ("data.json", *COLUMNS), 2, ("2 arrays of objects", "$.rows, $.more", "--records")),
    Case("json_array_of_strings", {"data.json": b'[\n"a",\n"b"\n]'}, ("data.json", *COLUMNS),
         2, ("element 1",), line=2),
    Case("json_empty_array", {"data.json": b"[ ]\n"}, ("data.json", *COLUMNS), 2,
         ("empty array",)),
    Case("json_trailing_comma",
         {"data.json": b'[\n{"expected": "a", "actual": "a"},\n]\n'}, ("data.json", *COLUMNS),
         2, ("comma",), line=3),
    Case("jsonl_one_broken_line",
         {"data.jsonl": b'{"expected": "a", "actual": "a"}\n{"expected": "b", "actual": \n'
                        b'{"expected": "c", "actual": "c"}\n'},
         ("data.jsonl", *COLUMNS), 2, ("not valid JSON",), line=2),
    Case("jsonl_line_not_an_object",
         {"data.jsonl": b'{"expected": "a", "actual": "a"}\n\n["b", "b"]\n'},
         ("data.jsonl", *COLUMNS), 2, ("an array",), line=3),
    Case("jsonl_nested_too_deep",
         {"data.jsonl": b'{"expected": ' + b"[" * 100_000 + b"]" * 100_000 + b"}\n"},
         ("data.jsonl", *COLUMNS), 2, ("too deeply",), line=1),
    Case("jsonl_null_and_missing_values",
         {"data.jsonl": b'{"expected": "a", "actual": "a"}\n{"expected": "b", "actual": null}\n'
                        b'{"expected": "c"}\n'},
         ("data.jsonl", *COLUMNS), 0, ("1 scored, 2 missing", "line 2", "line 3")),
    # --- options -----------------------------------------------------------------------------
    Case(**csv_data("--metrics", "exact_match,bleuu", id="unknown_metric", code=2,
                    needles=("'bleuu'", "bleu", "json_distance"), names=None)),
    Case(**csv_data("--metrics", ",", id="empty_metrics", code=2, names=None)),
    Case(**csv_data("--set", "exact_match.threshold", id="set_without_equals", code=2,
                    needles=("ID.OPTION=VALUE",), names=None)),
    Case(**csv_data("--set", "threshold=0.5", id="set_without_metric", code=2,
                    needles=("ID.OPTION=VALUE",), names=None)),
    Case(**csv_data("--set", "exact_match.tolerance=1", id="set_unknown_option", code=2,
                    needles=("'tolerance'", "case_sensitive"), names=None)),
    Case(**csv_data("--set", "levenshtein_similarity.threshold=high", id="set_not_a_number",
                    code=2, needles=("must be a number", "'high'"), names=None)),
    Case(**csv_data("--set", "jaccard.threshold=nan", id="set_nan_threshold", code=2,
                    needles=("finite",), names=None)),
    Case(**csv_data("--set", "levenshtien.threshold=0.5", id="set_unknown_metric", code=2,
                    needles=("'levenshtien'",), names=None)),
    Case(**csv_data("--set", "exact_match.case_sensitive=maybe", id="set_not_a_bool", code=2,
                    needles=("true or false",), names=None)),
    Case(**csv_data("--fail-under", "1.5", id="fail_under_1_5", code=2,
                    needles=("--fail-under", "1.5"), names=None)),
    Case(**csv_data("--fail-under", "-0.1", id="fail_under_negative", code=2,
                    needles=("--fail-under",), names=None)),
    Case(**csv_data("--fail-under", "half", id="fail_under_not_a_number", code=2,
                    needles=("'half'",), names=None)),
    Case(**csv_data("--delimiter", ";;", id="delimiter_two_chars", code=2, names=None)),
    Case("expected_twice", {"data.csv": GOOD},
         ("data.csv", *COLUMNS, "--expected-literal", "Paris"), 2, ("not both",), names=None),
    Case("no_expected", {"data.csv": GOOD}, ("data.csv", "--actual", "actual"), 2,
         ("--expected",), names=None),
    Case("no_actual", {"data.csv": GOOD}, ("data.csv", "--expected", "expected"), 2,
         ("--actual",), names=None),
    # --- config files ------------------------------------------------------------------------
    Case(**csv_data("--config", "bad.toml", id="config_invalid_toml", code=2,
                    files={"data.csv": GOOD, "bad.toml": b"[metrics.jaccard\nthreshold = 1\n"},
                    needles=("not valid TOML", "line 1"), names="bad.toml")),
    Case(**csv_data("--config", "key.toml", id="config_with_api_key", code=2,
                    files={"data.csv": GOOD,
                           "key.toml": f'[openai]\napi_key = "{SECRET}"\n'.encode()},
                    needles=("API key",), names="key.toml")),
    Case(**csv_data("--config", "x.toml", id="config_unknown_section", code=2,
                    files={"data.csv": GOOD, "x.toml": b"[thresholds]\njaccard = 0.5\n"},
                    needles=("thresholds",), names="x.toml")),
    Case(**csv_data("--config", "x.toml", id="config_bad_threshold", code=2,
                    files={"data.csv": GOOD, "x.toml": b'[metrics.jaccard]\nthreshold = "hi"\n'},
                    needles=("jaccard.threshold",), names="x.toml")),
    Case(**csv_data("--config", "x.toml", id="config_unknown_metric", code=2,
                    files={"data.csv": GOOD, "x.toml": b"[metrics.jacard]\nthreshold = 0.5\n"},
                    needles=("'jacard'",), names="x.toml")),
    Case(**csv_data("--config", "x.toml", id="config_latin1_bytes", code=2,
                    files={"data.csv": GOOD, "x.toml": b'[openai]\nmodel = "caf\xe9"\n'},
                    names="x.toml")),
    Case(**csv_data("--config", "none.toml", id="config_missing", code=2, names="none.toml")),
    Case(**csv_data("--config", "cfg", id="config_is_a_folder", code=2,
                    files={"data.csv": GOOD, "cfg": DIR}, names="cfg")),
    # --- output paths ------------------------------------------------------------------------
    Case(**csv_data("-o", "notes.txt/out.csv", id="output_under_a_file", code=2,
                    files={"data.csv": GOOD, "notes.txt": b"not a folder\n"},
                    names="out.csv")),
    Case(**csv_data("-o", "nowhere/out.csv", id="output_in_missing_folder", code=2,
                    names="out.csv")),
    Case(**csv_data("-o", "out.xlsx", id="output_unknown_extension", code=2,
                    needles=(".csv", ".jsonl"), names="out.xlsx")),
    Case(**csv_data("-o", "data.csv", id="output_is_the_input", code=2,
                    needles=("input",))),
    Case(**csv_data("-o", "out.csv", id="output_is_a_folder", code=2,
                    files={"data.csv": GOOD, "out.csv": DIR}, names="out.csv")),
    Case(**csv_data("-o", "out.csv", id="sidecar_is_a_folder", code=2,
                    files={"data.csv": GOOD, "out.csv.matchlens.toml": DIR},
                    names="out.csv.matchlens.toml")),
    Case(**csv_data("-o", "out.jsonl", id="output_jsonl_ok", code=0,
                    outputs=("out.jsonl", "out.jsonl.matchlens.toml"))),
]

assert len(CASES) >= 25 and len({case.id for case in CASES}) == len(CASES)


def make_files(folder, files: dict[str, object]) -> None:
    for name, data in files.items():
        path = folder / name
        if data is DIR:
            path.mkdir()
        else:
            path.write_bytes(data)  # type: ignore[arg-type]


def check_case(case: Case, run: Run, before: dict[str, str], after: dict[str, str]) -> None:
    assert_no_traceback(run)
    assert run.code == case.code, (run.code, run.err)
    # every file that was there is unchanged; a run creates only the files it should
    assert {k: v for k, v in after.items() if k in before} == before
    assert sorted(set(after) - set(before)) == sorted(case.outputs)
    if case.code == 2:
        assert run.out == ""
        assert len(run.err_lines) == 1, run.err
        line = run.err_lines[0]
        assert line.startswith("matchlens"), line
        named = case.args[0] if case.names == "DATA" else case.names
        if named is not None:
            assert named in line, (named, line)
        if case.line is not None:
            assert f"line {case.line}" in line, line
        if case.column is not None:
            assert f"column {case.column!r}" in line, line
        for needle in case.needles:
            assert needle in line, (needle, line)
        assert SECRET not in line
        return
    for needle in case.needles:
        assert needle in run.err, (needle, run.err)
    if not case.outputs:
        header, rows = parse_csv(run.out)
        assert header[-1] == "jaccard_pass" and rows
    if case.check is not None:
        case.check(run)


PARAMS = [pytest.param(case, id=case.id, marks=case.marks) for case in CASES]

# A real process costs ~0.3 s (numpy and friends), so this pass takes one or two cases of each
# kind; it is where an exit code, a second stderr line or a traceback would show for real.
IN_A_PROCESS = {
    "missing_file", "directory_as_data", "empty_file", "png_as_csv", "unterminated_quote",
    "ragged_more", "duplicate_columns", "crlf_line_endings", "ten_mb_cell", "latin1_bytes",
    "latin1_with_encoding", "utf16_with_bom", "nul_byte", "utf16_given_for_utf8_file",
    "unknown_column_suggests", "jsonpath_matches_nothing", "jsonpath_matches_some_rows",
    "json_not_an_array", "jsonl_one_broken_line", "unknown_metric", "set_not_a_number",
    "fail_under_1_5", "config_with_api_key", "output_in_missing_folder", "output_is_the_input",
}
PROCESS_PARAMS = [param for param in PARAMS if param.id in IN_A_PROCESS]
assert len(PROCESS_PARAMS) == len(IN_A_PROCESS)


@pytest.mark.parametrize("case", PARAMS)
def test_hostile_input_in_process(case, tmp_path, capsys, monkeypatch):
    make_files(tmp_path, case.files)
    monkeypatch.chdir(tmp_path)  # names are given as typed, relative to here
    before = snapshot(tmp_path)
    run = run_in_process(capsys, "score", *case.args)
    check_case(case, run, before, snapshot(tmp_path))


@pytest.mark.parametrize("case", PROCESS_PARAMS)
def test_hostile_input_as_a_process(case, tmp_path):
    make_files(tmp_path, case.files)
    before = snapshot(tmp_path)
    run = run_process("score", *case.args, how="script", cwd=tmp_path)
    check_case(case, run, before, snapshot(tmp_path))
