"""Several references per row (metrics.md, "Several references"): best per metric, ties to the
first, an empty list is missing, `<metric>_ref` is the winner's index."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from matchlens.core.metrics import evaluate, get_metric
from matchlens.core.metrics.registry import STATUS_INVALID, STATUS_MISSING, STATUS_SCORED
from matchlens.core.results import Direction
from matchlens.core.scoring.batch import MetricJob
from matchlens.core.scoring.references import parse_references, score_any


def jobs(*ids, **options):
    out = []
    for metric_id in ids:
        spec = get_metric(metric_id)
        out.append(MetricJob(spec, spec.default_threshold,
                             spec.resolve_options(options.get(metric_id))))
    return out


def test_best_reference_per_metric_by_hand():
    refs = [["Denver Broncos", "The Broncos", "Broncos"]]
    result = score_any(refs, {"out": ["broncos"]},
                       jobs("exact_match", "levenshtein_distance", "token_f1"))
    # exact_match as typed: none equal -> all 0.0, tie -> the first reference (0)
    assert result.scores[("out", "exact_match")].tolist() == [0.0]
    assert result.refs[("out", "exact_match")].tolist() == [0]
    # levenshtein_distance (min): "Broncos" -> "broncos" is 1 edit (B->b); "The Broncos" 5,
    # "Denver Broncos" 8 -> the lowest wins: index 2
    assert result.scores[("out", "levenshtein_distance")].tolist() == [1.0]
    assert result.refs[("out", "levenshtein_distance")].tolist() == [2]
    # token_f1 (squad): "denver broncos" vs "broncos": P 1/1, R 1/2 -> 2/3; "broncos" (after
    # dropping "the") -> 1.0 for both index 1 and 2: the tie goes to the first, index 1
    assert result.scores[("out", "token_f1")].tolist() == [1.0]
    assert result.refs[("out", "token_f1")].tolist() == [1]


def test_missing_rows_and_rows_where_no_reference_scores():
    refs = [None, ["", ""], ["a b"]]
    result = score_any(refs, {"out": ["x", "something", None]}, jobs("wer"))
    key = ("out", "wer")
    # row 0: no references -> missing; row 1: both references empty and the output is not ->
    # wer undefined for each: invalid, with the first reference's message; row 2: no actual
    assert result.status[key].tolist() == [STATUS_MISSING, STATUS_INVALID, STATUS_MISSING]
    assert result.refs[key].tolist() == [-1, -1, -1]
    assert "undefined for an empty reference" in result.messages[key][1]
    assert all(math.isnan(x) for x in result.scores[key])


def test_a_scored_reference_beats_an_invalid_one():
    # wer: reference 0 is empty (invalid), reference 1 "a b" vs "a c" = 1/2 -> 0.5, index 1
    result = score_any([["", "a b"]], {"out": ["a c"]}, jobs("wer"))
    assert result.status[("out", "wer")].tolist() == [STATUS_SCORED]
    assert result.scores[("out", "wer")].tolist() == [0.5]
    assert result.refs[("out", "wer")].tolist() == [1]


@pytest.mark.parametrize(("cell", "want"), [
    ('["Paris", "paris, France"]', ["Paris", "paris, France"]),
    ("[7, 1.5]", ["7", "1.5"]),  # numbers as their JSON text
    ("Paris", ["Paris"]),  # not an array: one reference
    ("[]", None),  # empty: missing
    (None, None),
])
def test_parse_references(cell, want):
    assert parse_references(cell) == want


@pytest.mark.parametrize("cell", ['["a", {"b": 1}]', "[1, 2", '["a", null]'])
def test_parse_references_rejects_with_a_reason(cell):
    with pytest.raises(ValueError, match="not a"):
        parse_references(cell)


TEXTS = st.text(alphabet="ab .", max_size=5)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.one_of(st.none(), st.lists(TEXTS, max_size=3)), min_size=1, max_size=6),
       st.data())
def test_equals_the_per_row_best_of_evaluate(refs, data):
    actual = data.draw(st.lists(TEXTS, min_size=len(refs), max_size=len(refs)))
    metrics = ("jaccard", "levenshtein_distance", "cer")
    result = score_any(refs, {"out": actual}, jobs(*metrics))
    for metric_id in metrics:
        spec = get_metric(metric_id)
        for row, (row_refs, out) in enumerate(zip(refs, actual, strict=True)):
            key = ("out", metric_id)
            if not row_refs:
                assert result.status[key][row] == STATUS_MISSING
                continue
            scores = [evaluate(spec, ref, out).score for ref in row_refs]
            real = [(s if spec.direction is Direction.MAX else -s, -i)
                    for i, s in enumerate(scores) if s is not None]
            if not real:
                assert result.refs[key][row] == -1
                continue
            best, minus_index = max(real)
            assert result.refs[key][row] == -minus_index
            assert result.scores[key][row] == scores[-minus_index]


def test_the_windows_chunked_path_equals_the_whole_batch_path():
    from matchlens.core.scoring.batch import BatchResult, Chunk
    from matchlens.core.scoring.pipeline import score_chunks

    refs = [["a b", "a"], None, ["", "x y"], ["c"], [], ["a", "a b c"]] * 7
    actual = {"v1": ["a", "b", None, "c", "d", "a b"] * 7, "v2": ["a b"] * 42}
    chosen = jobs("jaccard", "wer", "exact_match")
    whole = score_any(refs, actual, chosen)
    chunked = BatchResult.empty(len(refs), list(actual), chosen)
    cells = [""] * len(refs)  # the window shows the cells; only `references` is scored
    for item in score_chunks(cells, actual, chosen, references=refs, chunk_rows=5):  # uneven
        if isinstance(item, Chunk):
            chunked.add(item)
    for key in whole.keys():  # noqa: SIM118 - a method
        assert chunked.refs[key].tolist() == whole.refs[key].tolist()
        assert chunked.status[key].tolist() == whole.status[key].tolist()
        assert str(chunked.scores[key].tolist()) == str(whole.scores[key].tolist())  # NaN too
        assert chunked.messages[key] == whole.messages[key]
