"""core.output.reports.collect: the worst rows kept while pieces stream past are exactly the
worst rows of the whole run (a bounded heap across pieces), with their texts and diffs."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from matchlens.core.config import Config
from matchlens.core.datasets import table_from_columns
from matchlens.core.scoring import plan
from matchlens.core.scoring.mapping import ColumnMapping
from matchlens.core.scoring.pipeline import score_table
from tests.core.output.reports.runs import run_reports


def brute_worst(expected, actual, scores, n, threshold=0.7):
    """The reference: the failing rows' scores (below the run's 0.7, runs.THRESHOLDS) sorted,
    lowest first, earlier rows first among ties; a passing row never."""
    order = sorted((i for i in range(len(expected)) if scores[i] < threshold),
                   key=lambda i: (scores[i], i))
    return order[:n]


@settings(max_examples=25, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["abc", "abd", "xyz", "ab", ""]),
                          st.sampled_from(["abc", "abx", "q", "abcd", ""])),
                min_size=1, max_size=60),
       st.integers(0, 12), st.integers(1, 9))
def test_worst_rows_across_pieces_equal_the_whole_runs_worst(pairs, n, piece_rows):
    expected = [e for e, _ in pairs]
    actual = [a for _, a in pairs]
    with tempfile.TemporaryDirectory() as folder:
        data = run_reports(Path(folder), {"expected": expected, "actual": actual}, worst=n,
                           piece_rows=piece_rows, html=True, markdown=False, junit=False)
    group = next(g for g in data.worst if g.metric == "levenshtein_similarity")
    # the reference: the same metric on the whole table in one piece, sorted by brute force
    # (what is under test is keeping the worst across pieces, not the metric)
    result, _ = score_table(table_from_columns({"expected": expected, "actual": actual}),
                            ColumnMapping("expected", ("actual",)),
                            plan.make_plan(Config(), "levenshtein_similarity").jobs)
    scores = result.scores[("actual", "levenshtein_similarity")].tolist()
    want = brute_worst(expected, actual, scores, n)
    got = [row.index for row in group.rows]
    assert got == want
    assert len(got) == len(set(got)) == min(n, sum(s < 0.7 for s in scores))
    for row in group.rows:  # the kept row carries its own texts and a diff rebuilding them
        assert row.expected == expected[row.index] and row.actual == actual[row.index]
        rebuilt = "".join(row.expected[c.exp_start:c.exp_end] for c in row.chunks
                          if c.op != "insert")
        assert rebuilt == row.expected


def test_lower_is_better_metric_keeps_the_highest(tmp_path):
    expected = ["aaaa"] * 5
    actual = ["aaaa", "aaab", "abbb", "bbbb", "aabb"]  # distances 0, 1, 3, 4, 2
    data = run_reports(tmp_path, {"expected": expected, "actual": actual}, worst=2,
                       overrides=("levenshtein_distance.threshold=1",),
                       metrics="levenshtein_distance", markdown=False, junit=False)
    (group,) = data.worst
    assert [r.index for r in group.rows] == [3, 2]  # distance 4 then 3
    assert group.rows[0].failing == ("levenshtein_distance 4 > 1",)


def test_never_a_passing_row(tmp_path):
    expected = ["aaaa"] * 5
    actual = ["aaaa", "aaab", "abbb", "bbbb", "aabb"]  # distances 0, 1, 3, 4, 2
    data = run_reports(tmp_path, {"expected": expected, "actual": actual}, worst=50,
                       overrides=("levenshtein_distance.threshold=2",),
                       metrics="levenshtein_distance", markdown=True, junit=False)
    (group,) = data.worst
    # only distances 4 and 3 exceed 2: the rows at distance 2, 1, 0 pass and are not listed
    assert [r.index for r in group.rows] == [3, 2]
    html = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert "all 2 failing rows" in html
    assert "All 2 failing rows by levenshtein\\_distance" in (tmp_path / "s.md").read_text(
        encoding="utf-8")


def test_nothing_fails_says_so(tmp_path):
    data = run_reports(tmp_path, {"expected": ["abc", "abd"], "actual": ["abc", "abd"]},
                       metrics="levenshtein_similarity",
                       overrides=("levenshtein_similarity.threshold=0.7",))
    (group,) = data.worst
    assert group.rows == ()
    html = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert "no row fails" in html and "Every scored row meets levenshtein_similarity" in html
    assert "No row fails levenshtein\\_similarity" in (tmp_path / "s.md").read_text(
        encoding="utf-8")


def test_fewer_shown_than_failing_says_how_many(tmp_path):
    expected = ["aaaa"] * 5
    actual = ["aaaa", "aaab", "abbb", "bbbb", "aabb"]  # distances 0, 1, 3, 4, 2
    run_reports(tmp_path, {"expected": expected, "actual": actual}, worst=1,
                overrides=("levenshtein_distance.threshold=1",),
                metrics="levenshtein_distance", junit=False)
    # distances 3, 4 and 2 exceed 1: three failing rows, the worst one shown
    assert "the worst 1 of 3 failing rows" in (tmp_path / "r.html").read_text(encoding="utf-8")
    assert "Worst 1 of 3 failing rows by levenshtein\\_distance" in (
        tmp_path / "s.md").read_text(encoding="utf-8")
