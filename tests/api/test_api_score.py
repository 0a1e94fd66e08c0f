"""`matchlens.score`: the same rows, columns and numbers as `matchlens score` on the same file,
from every kind of table a notebook holds."""

from __future__ import annotations

import json
import math
import statistics
import subprocess
import sys

import pandas as pd
import polars as pl
import pyarrow as pa
import pytest

import matchlens
from matchlens.core.errors import ConfigError, DatasetError
from tests.api.helpers import cli_rows, frame_rows
from tests.cli.conftest import (
    REPO,
    SAMPLE_CSV,
    read_csv_file,
    read_jsonl_file,
    run_in_process,
)

THRESHOLDS = """\
[metrics.levenshtein_similarity]
threshold = 0.8
case_sensitive = false

[metrics.levenshtein_distance]
threshold = 3

[metrics.jaccard]
threshold = 0.6
"""


@pytest.fixture
def thresholds(tmp_path):
    path = tmp_path / "thresholds.toml"
    path.write_text(THRESHOLDS, encoding="utf-8")
    return path


def test_api_and_cli_agree_row_for_row_on_the_sample(tmp_path, capsys, thresholds):
    out = tmp_path / "scored.jsonl"
    run = run_in_process(capsys, "score", SAMPLE_CSV, "--expected", "expected",
                         "--actual", "output_a", "--actual", "output_b", "--metrics", "all",
                         "--config", thresholds, "-o", out)
    assert run.code == 0, run.err
    frame = matchlens.score(SAMPLE_CSV, expected="expected", actual=["output_a", "output_b"],
                            metrics="all", config=thresholds)
    written = read_jsonl_file(out)
    assert list(frame.columns) == list(written[0])
    assert frame_rows(frame) == cli_rows(written, list(frame.columns))
    # and the CSV the command writes: the same header, each score cell the same number
    csv_out = tmp_path / "scored.csv"
    assert run_in_process(capsys, "score", SAMPLE_CSV, "--expected", "expected", "--actual",
                          "output_a", "--actual", "output_b", "--metrics", "all",
                          "--config", thresholds, "-o", csv_out).code == 0
    header, rows = read_csv_file(csv_out)
    assert header == list(frame.columns)
    for column in ("levenshtein_similarity@output_b", "bleu@output_a", "json_distance@output_a"):
        at = header.index(column)
        cells = [None if row[at] == "" else float(row[at]) for row in rows]
        assert cells == [None if pd.isna(v) else float(v) for v in frame[column]], column
    passes = {"true": True, "false": False, "": None}
    at = header.index("jaccard_pass@output_a")
    assert [passes[row[at]] for row in rows] == \
        [None if pd.isna(v) else bool(v) for v in frame["jaccard_pass@output_a"]]


ROWS = [
    {"id": 1, "ref": "Paris", "out": '{"answer": "Paris", "why": "capital"}'},
    {"id": 2, "ref": "Canberra", "out": '{"answer": "Sydney"}'},
    {"id": 3, "ref": None, "out": '{"answer": "Ottawa"}'},
    {"id": 4, "ref": "The Amazon", "out": "no JSON here"},
    {"id": 5, "ref": "42", "out": {"answer": 42}},
    {"id": 6, "out": '{"answer": "Nile"}'},
]


def test_jsonpath_and_missing_values_agree_with_the_command(tmp_path, capsys):
    data = tmp_path / "rows.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in ROWS), encoding="utf-8")
    out = tmp_path / "scored.jsonl"
    args = ["--expected", "ref", "--actual", "$.out.answer", "--metrics",
            "exact_match,levenshtein_distance,jaccard"]
    assert run_in_process(capsys, "score", data, *args, "-o", out).code == 0
    frame = matchlens.score(data, expected="ref", actual="$.out.answer",
                            metrics=["exact_match", "levenshtein_distance", "jaccard"])
    assert frame_rows(frame) == cli_rows(read_jsonl_file(out), list(frame.columns))
    # rows 3 (null reference), 4 (no JSON), 6 (no "ref") have no score
    assert frame["exact_match"].isna().tolist() == [False, False, True, True, False, True]
    assert frame["levenshtein_distance"].dtype == "Int64"
    summary = frame.attrs["matchlens"]["variants"]["$.out.answer"]["metrics"]["exact_match"]
    assert (summary["scored"], summary["missing"], summary["rows"]) == (3, 3, 6)


def _sample_frame() -> pd.DataFrame:
    # every cell as the text the CSV holds (pandas would otherwise read "" as NaN)
    return pd.read_csv(SAMPLE_CSV, dtype=str, keep_default_na=False)


@pytest.mark.parametrize("kind", ["pandas", "polars", "arrow"])
def test_every_kind_of_table_scores_like_the_file(kind, thresholds):
    from_file = matchlens.score(SAMPLE_CSV, expected="expected", actual="output_a",
                                config=thresholds)
    frame = _sample_frame()
    data = {"pandas": frame, "polars": pl.from_pandas(frame),
            "arrow": pa.Table.from_pandas(frame)}[kind]
    scored = matchlens.score(data, expected="expected", actual="output_a", config=thresholds)
    assert list(scored.columns) == list(from_file.columns)
    assert frame_rows(scored) == frame_rows(from_file)
    assert scored.attrs["matchlens"]["variants"] == from_file.attrs["matchlens"]["variants"]


def test_the_input_frame_is_left_alone_and_its_index_kept():
    frame = _sample_frame().set_index("id")
    before = frame.copy()
    scored = matchlens.score(frame, expected="expected", actual="output_a")
    pd.testing.assert_frame_equal(frame, before)
    assert scored.index.equals(frame.index)
    assert list(scored.columns[: len(frame.columns)]) == list(frame.columns)


def test_missing_cells_in_a_frame_are_missing_rows():
    frame = pd.DataFrame({"e": ["a b", "c", None, "x", float("nan")],
                          "a": ["a b", None, "c", pd.NA, "y"]})
    scored = matchlens.score(frame, expected="e", actual="a", metrics=["jaccard"])
    assert scored["jaccard"].tolist()[0] == 1.0
    assert scored["jaccard"].isna().tolist() == [False, True, True, True, True]
    assert scored["jaccard_pass"].isna().tolist() == [False, True, True, True, True]
    metric = scored.attrs["matchlens"]["variants"]["a"]["metrics"]["jaccard"]
    # pass rate over ALL rows, as the command: 1 of 5 rows passes
    assert (metric["missing"], metric["passed"], metric["pass_rate"]) == (4, 1, 0.2)


def test_a_json_column_of_a_frame_is_reached_by_jsonpath():
    frame = pd.DataFrame({"ref": ["Paris", "Rome"],
                          "out": [{"answer": "Paris"}, '{"answer": "Milan"}']})
    scored = matchlens.score(frame, expected="ref", actual="$.out.answer",
                             metrics="exact_match")
    assert scored["exact_match"].tolist() == [1.0, 0.0]


def test_the_summary_is_derived_from_the_rows(thresholds):
    scored = matchlens.score(SAMPLE_CSV, expected="expected", actual="output_a",
                             config=thresholds)
    summary = scored.attrs["matchlens"]
    assert summary["rows"] == len(scored) == 200
    assert summary["source"] == str(SAMPLE_CSV)
    metric = summary["variants"]["output_a"]["metrics"]["levenshtein_similarity"]
    values = scored["levenshtein_similarity"].dropna().tolist()
    # independent: statistics' exact mean and median of the score column (the summary sums
    # distinct values times their counts: equal up to rounding in the last digits)
    assert metric["mean"] == pytest.approx(statistics.fmean(values), rel=1e-12)
    assert metric["median"] == statistics.median(values)
    assert metric["passed"] == sum(v >= 0.8 for v in values)
    assert metric["pass_rate"] == metric["passed"] / 200
    gated = scored[[c for c in scored.columns if c.endswith("_pass")]]
    # a row passes when every thresholded metric passes (exact_match, contains: 0.5 defaults)
    everyone = gated.drop(columns=[]).fillna(False).all(axis=1).sum()
    assert summary["variants"]["output_a"]["passed"] == everyone


def test_the_summary_matches_what_the_command_prints(capsys, thresholds):
    run = run_in_process(capsys, "score", SAMPLE_CSV, "--expected", "expected", "--actual",
                         "output_a", "--config", thresholds)
    scored = matchlens.score(SAMPLE_CSV, expected="expected", actual="output_a",
                             config=thresholds)
    metrics = scored.attrs["matchlens"]["variants"]["output_a"]["metrics"]
    for metric_id, m in metrics.items():
        line = next(line for line in run.err_lines if line.strip().startswith(metric_id + " "))
        # the command prints the mean with 3 decimals and the pass rate as a percentage
        assert f"{m['mean']:.3f}" in line, line
        if m["pass_rate"] is not None:
            assert f"{m['pass_rate']:.1%}" in line, line
    overall = scored.attrs["matchlens"]["variants"]["output_a"]["pass_rate"]
    assert f"overall: {overall:.1%}" in run.err


def test_bad_input_is_one_sentence():
    frame = _sample_frame()
    with pytest.raises(DatasetError, match=r"no column 'expectd'.*did you mean 'expected'"):
        matchlens.score(frame, expected="expectd", actual="output_a")
    with pytest.raises(ConfigError, match="unknown metric|no metric|not a metric"):
        matchlens.score(frame, expected="expected", actual="output_a", metrics=["nope"])
    with pytest.raises(ConfigError, match="missing actual="):
        matchlens.score(frame, expected="expected")
    with pytest.raises(ConfigError, match="takes a pandas or polars DataFrame"):
        matchlens.score([1, 2, 3], expected="e", actual="a")
    scored = matchlens.score(frame, expected="expected", actual="output_a")
    with pytest.raises(ConfigError, match="already has column"):
        matchlens.score(scored, expected="expected", actual="output_a")
    with pytest.raises(DatasetError, match="nowhere.csv"):
        matchlens.score("nowhere.csv", expected="e", actual="a")


def test_a_dask_frame_is_pointed_to_matchlens_dask():
    import dask.dataframe as dd

    ddf = dd.from_pandas(_sample_frame(), npartitions=2)
    with pytest.raises(ConfigError, match=r"matchlens\.dask\.score"):
        matchlens.score(ddf, expected="expected", actual="output_a")


def test_literal_reference_and_overrides():
    frame = pd.DataFrame({"a": ["yes", "Yes", "no"]})
    scored = matchlens.score(frame, expected_literal="yes", actual="a", metrics="exact_match",
                             overrides=["exact_match.case_sensitive=false"])
    assert scored["exact_match"].tolist() == [1.0, 1.0, 0.0]


def test_importing_matchlens_stays_cheap():
    code = ("import json, sys, matchlens; first = sorted(sys.modules); "
            "matchlens.score; matchlens.compare; "
            "print(json.dumps([first, sorted(sys.modules)]))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=REPO, check=True, timeout=60)
    at_import, after_lookup = json.loads(done.stdout)
    heavy = ("pandas", "numpy", "PySide6", "openai", "keyring", "pyqtgraph", "dask")
    assert not [m for m in at_import if m.split(".")[0] in heavy]
    # looking the functions up loads the scorer, still without Qt, openai or pandas
    assert not [m for m in after_lookup if m.split(".")[0] in heavy[:1] + heavy[2:]]
    assert math.isfinite(1.0)


def test_normalise_is_the_commands_flag(tmp_path, capsys):
    data = tmp_path / "rows.csv"
    data.write_text("e,a\nThe Answer,answer!\nParis,paris\n", encoding="utf-8")
    out = tmp_path / "out.jsonl"
    assert run_in_process(capsys, "score", data, "--expected", "e", "--actual", "a",
                          "--normalise", "squad", "-o", out).code == 0
    scored = matchlens.score(data, expected="e", actual="a", normalise="squad")
    assert frame_rows(scored) == cli_rows(read_jsonl_file(out), list(scored.columns))
    # squad: lower case, no punctuation, no articles -> both rows match exactly
    assert scored["exact_match"].tolist() == [1.0, 1.0]
    plain = matchlens.score(data, expected="e", actual="a", metrics="exact_match")
    assert plain["exact_match"].tolist() == [0.0, 0.0]
    as_list = matchlens.score(data, expected="e", actual="a", metrics="exact_match",
                              normalise=["lowercase", "strip_punctuation", "remove_articles"])
    assert as_list["exact_match"].tolist() == [1.0, 1.0]
    with pytest.raises(ConfigError, match="unknown normalisation step 'lower'"):
        matchlens.score(data, expected="e", actual="a", normalise=["lower"])


@pytest.mark.parametrize("suffix", [".parquet", ".xlsx"])
def test_every_format_the_command_reads_agrees_by_path(tmp_path, capsys, suffix):
    frame = _sample_frame().head(30)
    data = tmp_path / f"rows{suffix}"
    if suffix == ".parquet":
        frame.to_parquet(data, index=False)
    else:
        frame.to_excel(data, index=False, engine="xlsxwriter")
    out = tmp_path / "scored.jsonl"
    assert run_in_process(capsys, "score", data, "--expected", "expected", "--actual",
                          "output_a", "-o", out).code == 0
    scored = matchlens.score(data, expected="expected", actual="output_a")
    assert frame_rows(scored) == cli_rows(read_jsonl_file(out), list(scored.columns))
    assert len(scored) == 30 and scored.attrs["matchlens"]["source"] == str(data)
