"""The fast paths of a million-row run give exactly what the plain, obviously-right code gives:
batch metrics vs pair by pair, dedup, two processes vs one, the CSV writer vs csv.writer."""

from __future__ import annotations

import csv
import io
import math
import os
import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from matchlens.core.metrics import evaluate, get_metric
from matchlens.core.metrics.levenshtein import round2
from matchlens.core.metrics.registry import (
    STATUS_INVALID,
    STATUS_MISSING,
    STATUS_SCORED,
    shared,
    sharing_work,
)
from matchlens.core.output import csv_text, score_columns, scored_table
from matchlens.core.scoring import pair_dedup
from matchlens.core.scoring import parallel as parallel_batch
from matchlens.core.scoring.batch import BatchResult, MetricJob
from matchlens.core.scoring.parallel import run_to_completion
from matchlens.core.scoring.pipeline import score_chunks
from matchlens.core.text.casefold import fold_case, fold_many

TEXT_METRICS = ["exact_match", "contains", "levenshtein_distance", "levenshtein_similarity",
                "jaccard"]
TEXT = st.text(alphabet=st.sampled_from("aAbB  \t\nİıΣσς.,"), max_size=10)


def job(metric_id: str, **options) -> MetricJob:
    spec = get_metric(metric_id)
    return MetricJob(spec, spec.default_threshold, spec.resolve_options(options))


# --- metrics -----------------------------------------------------------------------------------

@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(TEXT, TEXT), min_size=1, max_size=20), st.booleans(),
       st.sampled_from(TEXT_METRICS))
def test_vectorised_metrics_equal_the_single_pair_path(pairs, case_sensitive, metric_id):
    spec = get_metric(metric_id)
    options = spec.resolve_options({"case_sensitive": case_sensitive})
    expected, actual = [e for e, _ in pairs], [a for _, a in pairs]
    with sharing_work():  # as in a batch: the folded texts and distances are shared
        many = [get_metric(m).many(expected, actual, get_metric(m).resolve_options(
            {"case_sensitive": case_sensitive})) for m in TEXT_METRICS]
    got = many[TEXT_METRICS.index(metric_id)].scores
    want = [evaluate(spec, e, a, options=options).score for e, a in pairs]
    assert got.tolist() == want


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(max_size=8), max_size=12))
def test_fold_many_is_fold_case_of_each(texts):
    assert fold_many(texts) == [fold_case(t) for t in texts]
    assert fold_many(["AΣ", "İx", "ABC"]) == [fold_case("AΣ"), fold_case("İx"), "abc"]


@settings(max_examples=500, deadline=None)
@given(st.lists(st.floats(allow_nan=True, allow_infinity=False, width=64), max_size=30))
def test_round2_is_python_round(values):
    got = round2(np.array(values, dtype=np.float64)).tolist()
    want = [round(v, 2) for v in values]
    assert [g if g == g else "nan" for g in got] == [w if w == w else "nan" for w in want]


def test_round2_on_every_similarity_ratio():
    # every 1 - d/L for L up to 300: the values the batch rounds
    values = np.array([1.0 - d / n for n in range(1, 301) for d in range(n + 1)])
    assert round2(values).tolist() == [round(v, 2) for v in values.tolist()]


def test_shared_work_is_by_identity_and_only_in_a_scope():
    calls = []
    texts = ["a"]
    compute = lambda: calls.append(1) or len(calls)  # noqa: E731
    assert shared("k", (texts,), compute) == 1 and shared("k", (texts,), compute) == 2
    with sharing_work():
        assert shared("k", (texts,), compute) == 3
        assert shared("k", (texts,), compute) == 3  # same object: computed once
        assert shared("k", (list(texts),), compute) == 4  # an equal list is not the same
    assert shared("k", (texts,), compute) == 5


# --- dedup -------------------------------------------------------------------------------------

def reference_unique(expected, actual):
    index, inverse = {}, []
    for e, a in zip(expected, actual, strict=True):
        inverse.append(-1 if e is None or a is None else index.setdefault((e, a), len(index)))
    return list(index), inverse


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["x", "y", "", None, "x "]),
                          st.sampled_from(["x", "y", None, "z"])), max_size=30))
def test_unique_pairs_matches_a_dict(pairs):
    expected, actual = [e for e, _ in pairs], [a for _, a in pairs]
    got = pair_dedup.unique_pairs(expected, actual)
    uniq, inverse = reference_unique(expected, actual)
    assert list(zip(got.expected, got.actual, strict=True)) == uniq
    assert (list(range(len(pairs))) if got.inverse is None else got.inverse.tolist()) == inverse


def test_unique_pairs_with_colliding_hashes(monkeypatch):
    # equal hashes must be compared, never trusted: every text hashes alike here
    class Same(str):
        def __hash__(self):
            return 7

    expected = [Same("a"), Same("b"), Same("a"), Same("c")]
    actual = [Same("x"), Same("x"), Same("x"), Same("y")]
    got = pair_dedup.unique_pairs(expected, actual)
    assert list(zip(got.expected, got.actual, strict=True)) == [("a", "x"), ("b", "x"),
                                                               ("c", "y")]
    assert got.inverse.tolist() == [0, 1, 0, 2]


# --- two processes -----------------------------------------------------------------------------

def dataset(n: int, seed: int = 3):
    rng = random.Random(seed)
    words = "Paris paris the a b c Ada 1815 {} [1] {\"a\": 1} x y z w".split()
    expected, actual = [], []
    for i in range(n):
        e = " ".join(rng.choices(words, k=rng.randint(0, 8)))
        a = e if i % 3 == 0 else " ".join(rng.choices(words, k=rng.randint(0, 8)))
        expected.append(None if i % 97 == 5 else e)
        actual.append(None if i % 89 == 7 else a)
    return expected, actual


def assert_same_result(a: BatchResult, b: BatchResult) -> None:
    assert a.keys() == b.keys() and a.done == b.done == a.rows
    for key in a.keys():  # noqa: SIM118 - a method, not a dict
        np.testing.assert_array_equal(a.scores[key], b.scores[key])
        np.testing.assert_array_equal(a.status[key], b.status[key])
        assert list(a.messages[key].items()) == list(b.messages[key].items())


def count_forks(monkeypatch) -> list:
    calls: list = []
    real = parallel_batch._score_forked
    monkeypatch.setattr(parallel_batch, "_score_forked",
                        lambda *a: calls.append(1) or real(*a))
    return calls


@pytest.mark.skipif(not parallel_batch.can_fork(), reason="needs fork and two cores")
def test_two_processes_give_the_one_process_result(monkeypatch):
    expected, actual = dataset(3000)
    jobs = [job(m) for m in [*TEXT_METRICS, "json_distance"]]
    actuals = {"a": actual, "b": list(reversed(actual))}
    one = run_to_completion(expected, actuals, jobs, chunk_size=250)
    monkeypatch.setattr(parallel_batch, "PARALLEL_MIN_WORK", 0)
    forks = count_forks(monkeypatch)
    two = run_to_completion(expected, actuals, jobs, chunk_size=250)
    assert forks == [1]
    assert_same_result(one, two)
    statuses = set(two.status[("a", "json_distance")].tolist())
    assert {STATUS_SCORED, STATUS_INVALID, STATUS_MISSING} <= statuses


@pytest.mark.skipif(not parallel_batch.can_fork(), reason="needs fork and two cores")
def test_two_processes_without_repeats_in_the_sample(monkeypatch):
    expected, actual = dataset(3000)
    expected = [None if e is None else f"{i} {e}" for i, e in enumerate(expected)]
    actual = [None if a is None else f"{i} {a}" for i, a in enumerate(actual)]
    expected[2000:2010] = expected[1000:1010]  # a few repeats the sample does not see
    actual[2000:2010] = actual[1000:1010]
    jobs = [job(m) for m in [*TEXT_METRICS, "json_distance"]]
    one = run_to_completion(expected, {"a": actual}, jobs, chunk_size=250)
    monkeypatch.setattr(parallel_batch, "PARALLEL_MIN_WORK", 0)
    monkeypatch.setattr(parallel_batch, "_SAMPLE_ROWS", 100)
    assert not parallel_batch._repeats(expected, actual)
    forks = count_forks(monkeypatch)
    two = run_to_completion(expected, {"a": actual}, jobs, chunk_size=250)
    assert forks == [1]
    assert_same_result(one, two)


def test_a_whole_batch_of_few_distinct_pairs_stays_in_one_process(monkeypatch):
    expected, actual = dataset(3000)
    expected, actual = expected * 3, actual * 3  # 9000 rows, at most 3000 distinct pairs
    jobs = [job("jaccard"), job("json_distance")]
    one = run_to_completion(expected, {"a": actual}, jobs, chunk_size=500)
    # scored whole (9000 rows are worth two processes), but its 3000 distinct pairs are not
    work = parallel_batch.estimated_work(5000, 1, jobs)
    monkeypatch.setattr(parallel_batch, "PARALLEL_MIN_WORK", work)
    forks = count_forks(monkeypatch)
    whole = run_to_completion(expected, {"a": actual}, jobs, chunk_size=500)
    assert forks == []
    assert_same_result(one, whole)


@pytest.mark.skipif(not parallel_batch.can_fork(), reason="needs fork and two cores")
def test_a_failing_child_leaves_its_chunks_to_the_parent(monkeypatch):
    expected, actual = dataset(2000)
    jobs = [job("jaccard"), job("exact_match"), job("json_distance")]
    one = run_to_completion(expected, {"a": actual}, jobs, chunk_size=100)
    parent = os.getpid()
    real = parallel_batch.sharing_work

    def dies_in_the_child():
        if os.getpid() != parent:
            os._exit(3)
        return real()

    monkeypatch.setattr(parallel_batch, "PARALLEL_MIN_WORK", 0)
    monkeypatch.setattr(parallel_batch, "sharing_work", dies_in_the_child)
    forks = count_forks(monkeypatch)
    two = run_to_completion(expected, {"a": actual}, jobs, chunk_size=100)
    assert forks == [1]
    assert_same_result(one, two)


def test_cancel_or_a_small_batch_stays_in_one_process(monkeypatch):
    expected, actual = dataset(500)
    forks = count_forks(monkeypatch)
    small = run_to_completion(expected, {"a": actual}, [job("jaccard")], chunk_size=100)
    assert forks == []  # worth less than a fork
    monkeypatch.setattr(parallel_batch, "PARALLEL_MIN_WORK", 0)
    # the cancellable path (the window's chunks) scores in this process whatever the work
    chunked = BatchResult.empty(len(expected), ["a"], [job("jaccard")])
    for item in score_chunks(expected, {"a": actual}, [job("jaccard")], chunk_rows=100,
                             cancel=lambda: False):
        if hasattr(item, "scores"):
            chunked.add(item)
    assert forks == []
    assert_same_result(small, chunked)


# --- writing -----------------------------------------------------------------------------------

CELL = st.text(alphabet='ab,"\r\n =+-@\t1.é', max_size=6)


@settings(max_examples=300, deadline=None)
@given(st.lists(CELL, max_size=20))
def test_csv_column_is_csv_cell_of_each(cells):
    assert csv_text.csv_column(cells) == [csv_text.csv_cell(c) for c in cells]


class _Table:
    def __init__(self, columns, rows):
        self.columns, self.rows, self.kind, self.path = columns, rows, "csv", "in.csv"

    def __len__(self):
        return len(self.rows)


def reference_csv(table, result: BatchResult) -> str:
    """Row by row: csv_line (itself checked against csv.writer in test_batch) over the input
    cells and the plain score texts of every row."""
    cols = score_columns.score_columns(result)
    lines = [csv_text.csv_line([*table.columns, *(c.name for c in cols)])]
    for i, row in enumerate(table.rows):
        added = []
        for col in cols:
            if col.is_pass:
                added.append({1: "true", 0: "false", -1: ""}[
                    int(result.verdicts(col.variant, col.metric_id)[i])])
            else:
                x = float(result.scores[(col.variant, col.metric_id)][i])
                integer = result.job(col.metric_id).spec.integer
                added.append("" if math.isnan(x) else str(int(x)) if integer else repr(x))
        lines.append(csv_text.csv_line(row + added))
    text = "\n".join(lines) + "\n"
    if "\r" not in text:  # csv.writer leaves a bare \r unquoted; elsewhere it agrees
        buffer = io.StringIO()
        csv.writer(buffer, lineterminator="\n").writerows(
            [[csv_text.formula_safe(c) for c in row] for row in csv.reader(
                io.StringIO(text, newline=""))])
        assert buffer.getvalue() == text
    return text


SCORE = st.one_of(st.sampled_from([0.0, -0.0, 1.0, 0.5, float("nan"), 3.0]),
                  st.floats(min_value=-5, max_value=5, width=64))


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(CELL, CELL), min_size=1, max_size=25), st.data())
def test_csv_writer_matches_csv_module(monkeypatch, rows, data):
    monkeypatch.setattr(csv_text, "_WRITE_ROWS", data.draw(st.sampled_from([1, 3, 1000])))
    monkeypatch.setattr(csv_text, "_MAX_COMBINED", data.draw(st.sampled_from([1, 4, 4096])))
    table = _Table(["id", "text"], [list(r) for r in rows])
    jobs = [job("exact_match"), job("levenshtein_distance", case_sensitive=True),
            job("jaccard")]
    result = BatchResult.empty(len(rows), ["out"], jobs)
    for j in jobs:
        values = data.draw(st.lists(SCORE, min_size=len(rows), max_size=len(rows)))
        if j.spec.integer:
            values = [float(int(abs(v))) if v == v else v for v in values]
        result.scores[("out", j.id)][:] = values
    text = io.StringIO()
    scored_table.write_csv(text, table, result)
    assert text.getvalue() == reference_csv(table, result)


def test_file_output_is_the_text_output_encoded(tmp_path):
    rows = [[str(i), f"=café {i}, \"q\"" if i % 7 == 0 else f"t{i % 13}"] for i in range(2500)]
    table = _Table(["id", "text"], rows)
    table.path = str(tmp_path / "in.csv")
    items = list(score_chunks([r[1] for r in rows], {"out": [r[1][::-1] for r in rows]},
                              [job(m) for m in TEXT_METRICS]))
    result = BatchResult.empty(len(rows), ["out"], [job(m) for m in TEXT_METRICS])
    for item in items:
        if hasattr(item, "scores"):
            result.add(item)
    text = io.StringIO()
    scored_table.write_csv(text, table, result)
    out = tmp_path / "out.csv"
    scored_table.write_scored_table(out, table, result)
    assert out.read_bytes() == text.getvalue().encode("utf-8")
    assert text.getvalue() == reference_csv(table, result)


def test_a_failed_write_is_an_output_error(tmp_path, monkeypatch):
    from matchlens.core.errors import OutputError

    class Full:
        def write(self, data):
            raise OSError(28, "No space left on device")

    table = _Table(["t"], [["x"]] * 10)
    table.path = str(tmp_path / "in.csv")
    result = BatchResult.empty(10, ["out"], [job("exact_match")])
    with pytest.raises(OSError), scored_table._BackgroundWriter(Full()) as out:
        for _ in range(5):
            out.write(b"x")
    real = scored_table._BackgroundWriter
    monkeypatch.setattr(scored_table, "_BackgroundWriter", lambda handle: real(Full()))
    with pytest.raises(OutputError, match="No space left"):
        scored_table.write_scored_table(tmp_path / "out.csv", table, result)
    assert not (tmp_path / "out.csv").exists()
