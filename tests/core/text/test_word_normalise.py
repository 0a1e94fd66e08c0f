"""The squad preset applied to a big chunk through its words (word_table) gives the texts
`Pipeline.apply` gives one by one, and the metrics that take it score as their single-pair
paths do."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from matchlens.core.metrics import evaluate, get_metric, normalising
from matchlens.core.metrics.fast.word_table import normalised_by_word
from matchlens.core.metrics.registry import sharing_work
from tests.core.metrics.fast.test_word_table import ASCII_TEXT, TEXT
from tests.core.text.test_normalise import squad_normalize_answer


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(TEXT, TEXT), max_size=8)
       | st.lists(st.tuples(ASCII_TEXT, ASCII_TEXT), max_size=8))
def test_squad_by_word_is_squad_text_by_text(pairs):
    # ASCII-only chunks take the one-byte paths (split and join), the others the code points
    expected, actual = [e for e, _ in pairs], [a for _, a in pairs]
    got = normalised_by_word(expected, actual, "squad")
    assert got == ([squad_normalize_answer(t) for t in expected],
                   [squad_normalize_answer(t) for t in actual])


def test_metrics_with_squad_on_a_big_chunk_score_as_their_single_pair_paths(monkeypatch):
    # a chunk of MIN_ROWS rows or more goes through the words: made small here so that this
    # one does (breaking normalised_by_word's join, e.g. no space between tokens, fails this)
    monkeypatch.setattr(normalising, "MIN_ROWS", 3)
    expected = ["The Eiffel Tower.", "Paris", "a  b\tthe c", "İΣ.", "", "x—the—y",
                "the cat sat"]
    actual = ["eiffel tower", "paris!", "b c", "iσ", "the", "x— —y", "Cat  sat on."]
    for metric_id in ("exact_match", "levenshtein_distance", "jaccard", "chrf", "cer"):
        spec = get_metric(metric_id)
        options = spec.resolve_options({"normalise": "squad"})
        with sharing_work():
            got = spec.many(expected, actual, options).scores
        want = [evaluate(spec, e, a, options={"normalise": "squad"}).score
                for e, a in zip(expected, actual, strict=True)]
        np.testing.assert_array_equal(got, want, err_msg=metric_id)
