"""core.output.reports.junit_feed and the column-wise builders of core.output.reports.junit:
the testcases joined by pyarrow are the rows written one by one (`reference_lines`: the
f-string per row the JUnit writer used to make), the messages name each failing metric of
each row, and the run's key is masked in every testcase."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from matchlens.core.config import Config
from matchlens.core.datasets import table_from_columns
from matchlens.core.output.reports import failing_codes, junit_feed
from matchlens.core.output.reports.junit import (
    failure_tail,
    joined_testcases,
    name_column,
    passed_tail,
    skipped_tail,
    xml_attr,
)
from matchlens.core.output.reports.rows import failing_sentence
from matchlens.core.scoring import plan
from matchlens.core.scoring.mapping import ColumnMapping
from matchlens.core.scoring.pipeline import score_stream
from matchlens.core.scoring.tally import Tally
from tests.core.output.reports.runs import THRESHOLDS, run_joined_reports, run_reports
from tests.core.output.reports.test_junit import parse_valid

# ids as users bring them: plain, empty or missing, markup and quotes, line breaks and tabs,
# characters XML 1.0 forbids (control characters, U+FFFE) and lone surrogates (JSON escapes)
ids = st.lists(st.one_of(
    st.none(), st.just(""), st.text(max_size=12),
    st.text(alphabet='ab&<>"\n\r\t\x01\x1f\ufffe\ud800 é', max_size=8)), max_size=30)


def reference_names(ids: list, start: int) -> list[str]:
    """The names one row at a time: `row N` for a row without an id, else its id escaped."""
    return [f"row {start + k + 1}" if name in (None, "") else xml_attr(name)
            for k, name in enumerate(ids)]


@settings(max_examples=200, deadline=None)
@given(ids, st.integers(0, 10**6))
def test_names_are_each_id_escaped(values, start):
    assert name_column(values, start, len(values)).to_pylist() == reference_names(values, start)


def test_names_without_ids_are_row_numbers():
    assert name_column(None, 41, 3).to_pylist() == ["row 42", "row 43", "row 44"]


@settings(max_examples=100, deadline=None)
@given(ids, st.data())
def test_lines_are_the_rows_written_one_by_one(values, data):
    cls = xml_attr('var"iant')
    tails = [passed_tail(cls), failure_tail(cls, xml_attr("m < 1"), "body &amp;"),
             skipped_tail(cls, xml_attr("no score (line 3)"))]
    codes = np.array(data.draw(st.lists(st.integers(0, 2), min_size=len(values),
                                        max_size=len(values))), dtype=np.int32)
    names = reference_names(values, 0)
    expected = "".join(f'    <testcase name="{name}{tails[code]}'
                       for name, code in zip(names, codes.tolist(), strict=True))
    got = joined_testcases(name_column(values, 0, len(values)), tails, codes)
    assert bytes(got).decode("utf-8") == expected


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(st.integers(0, 5), min_size=1, max_size=4), min_size=1, max_size=40))
def test_combinations_are_the_distinct_rows(rows):
    width = min(len(r) for r in rows)
    grid = np.array([r[:width] for r in rows], dtype=np.int64)
    first, which = failing_codes.combination_codes([grid[:, k] for k in range(width)])
    # rows share a number exactly when they are equal, and `first` holds one of each
    for a in range(len(grid)):
        assert (grid[first[which[a]]] == grid[a]).all()
        for b in range(len(grid)):
            assert (which[a] == which[b]) == bool((grid[a] == grid[b]).all())
    assert len(first) == len({tuple(r) for r in grid.tolist()})


def test_combinations_of_many_wide_columns_stay_distinct():
    # 8 columns of up to 2**20 codes: 2**160 combinations, past int64 unless renumbered
    rng = np.random.default_rng(5)
    columns = [rng.integers(0, 2**20, 500) for _ in range(8)]
    columns[3][:250] = columns[3][250:]  # still distinct: the other columns differ
    first, which = failing_codes.combination_codes(columns)
    grid = np.column_stack(columns)
    assert len(first) == len({tuple(r) for r in grid.tolist()}) == 500


def test_combinations_past_int64_are_not_confused():
    # five columns of 2**16 codes: row (1, 0, 0, 0, 0) read as one number is 2**64, the same
    # as (0, 0, 0, 0, 0) in int64 arithmetic, unless the key is renumbered on the way
    top = 2**16 - 1
    grid = np.array([[0, 0, 0, 0, 0], [1, 0, 0, 0, 0], [top] * 5], dtype=np.int64)
    first, which = failing_codes.combination_codes([grid[:, k] for k in range(5)])
    assert len(first) == 3 and len(set(which.tolist())) == 3


def test_each_failure_names_every_metric_the_row_fails(tmp_path):
    # many distinct scores over three thresholded metrics, in pieces of 7 rows: each row's
    # message is its own failing sentences, in the metrics' order, whatever the piece
    rng = random.Random(11)
    words = "alpha beta gamma delta epsilon zeta eta theta".split()
    expected = [" ".join(rng.choices(words, k=rng.randint(1, 8))) for _ in range(120)]
    actual = [e if rng.random() < 0.2 else " ".join(rng.choices(words, k=rng.randint(1, 8)))
              for e in expected]
    overrides = (*THRESHOLDS, "levenshtein_distance.threshold=3")
    columns = {"expected": expected, "actual": actual}
    run_reports(tmp_path, columns, piece_rows=7, overrides=overrides, html=False,
                markdown=False)
    cases = parse_valid(tmp_path / "j.xml").find("testsuite").findall("testcase")
    planned = plan.make_plan(plan.shape_config(Config(), overrides=list(overrides)),
                             "exact_match,levenshtein_similarity,levenshtein_distance")
    whole = table_from_columns(columns, name="data.csv")
    tally = Tally(whole.label, ("actual",), planned.jobs, unit=whole.unit)
    ((_, result),) = list(score_stream([whole], ColumnMapping("expected", ("actual",)),
                                       planned.jobs, tally))
    failing = 0
    for row, case in enumerate(cases):
        said = [failing_sentence(job.id, float(result.scores[("actual", job.id)][row]),
                                 float(job.threshold), job.spec.direction, job.spec.integer)
                for job in planned.jobs if result.verdicts("actual", job.id)[row] == 0]
        failure = case.find("failure")
        assert (failure is None) == (not said)
        if said:
            failing += 1
            assert failure.get("message") == "; ".join(said)
    assert failing > 60  # the test means something: most rows fail, with varied scores


def test_the_known_key_is_masked_in_every_testcase(tmp_path, monkeypatch):
    key = "sk-test-abcdefghijklmnop1234"
    monkeypatch.setenv("OPENAI_API_KEY", key)
    monkeypatch.setattr(failing_codes, "JUNIT_DIFFS", 1)  # one body a diff, the others not
    run_reports(tmp_path, {"expected": ["a", "b", "c"], "actual": [f"x {key}", "y", "c"],
                           "id": [f"id {key}", f"<{key}>", "q"]},
                id_column="id", html=False, markdown=False)
    xml = (tmp_path / "j.xml").read_text(encoding="utf-8")
    assert key not in xml
    assert xml.count("sk-…1234") >= 3  # two names and the diff's inserted text
    parse_valid(tmp_path / "j.xml")


@pytest.mark.parametrize("rows", [0, 1])
def test_a_piece_of_no_rows_or_one(rows):
    lines = joined_testcases(name_column(["a"][:rows], 0, rows), [passed_tail("c")],
                           np.zeros(rows, dtype=np.int32))
    assert bytes(lines).decode() == ('    <testcase name="a" classname="c"/>\n' if rows else "")


def test_the_junit_file_does_not_load_pandas(tmp_path):
    # pyarrow imports pandas (a second of start-up) for pa.array on a list or pa.scalar on a
    # str: the testcases are built from buffers instead. A fresh process: tests load pandas.
    import subprocess
    import sys

    data = tmp_path / "d.csv"
    data.write_text("id,expected,actual\nq&1,Paris,Paris\n,Rome,Roma\nq3,a,b\n", encoding="utf-8")
    code = ("import os, sys\n"
            "from matchlens.main import main\n"
            "exit_ = os._exit\n"
            "def said(code):\n"
            "    print('pandas' in sys.modules, 'pyarrow' in sys.modules, code)\n"
            "    sys.stdout.flush()\n"
            "    exit_(0)\n"
            "os._exit = said\n"
            f"main(['score', {str(data)!r}, '--expected', 'expected', '--actual', 'actual',\n"
            f"      '--quiet', '-o', {str(tmp_path / 'o.csv')!r},\n"
            f"      '--junit', {str(tmp_path / 'j.xml')!r}])\n"
            "said('returned')\n")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=300)
    assert run.stdout.split()[:2] == ["False", "True"], run.stdout + run.stderr
    assert 'name="q&amp;1"' in (tmp_path / "j.xml").read_text(encoding="utf-8")


def test_a_row_regressed_to_no_score_past_the_cut(tmp_path, monkeypatch):
    # the one diff goes to the first failing row; the row that lost its output regressed
    # past the cut: its body says where to look (it used to be an IndexError)
    monkeypatch.setattr(failing_codes, "JUNIT_DIFFS", 1)
    ids, expected = ["r1", "r2", "r3"], ["alpha", "beta", "gamma"]
    run_joined_reports(tmp_path, {"id": ids, "expected": expected,
                                  "actual": ["alpine", "beta", None]},
                       {"id": ids, "expected": expected, "actual": expected},
                       html=False, markdown=False)
    cases = {c.get("name"): c for c in
             parse_valid(tmp_path / "j.xml").find("testsuite").findall("testcase")}
    assert cases["r1"].find("failure").text == "[-alpha-]{+alpine+}"  # whole words: 2 edits
    lost = cases["r3"].find("failure")
    assert lost.get("message").startswith(junit_feed.REGRESSED_SAYS + "; no score now")
    assert lost.text == junit_feed.no_diff_text()
