"""core.scoring.run_scoring: a joined run scores each row exactly as scoring that run alone
(a table the test joins by hand), and the baseline is rescored with this run's thresholds."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from matchlens.core.config import Config
from matchlens.core.datasets import table_from_columns
from matchlens.core.scoring import plan
from matchlens.core.scoring.mapping import ColumnMapping
from matchlens.core.scoring.pipeline import score_table
from matchlens.core.scoring.run_scoring import BASELINE, RunFiles, score_runs

TEXTS = ["Paris", "paris", "Lisbon, Portugal", "Lisbon", "", "Bern", "Berlin"]
JOBS = plan.make_plan(Config(), None).jobs
keys = st.lists(st.sampled_from([f"q{i}" for i in range(15)]), unique=True, max_size=12)


def _file(name, ids, column, draw):
    texts = [draw(st.sampled_from(TEXTS)) for _ in ids]
    return table_from_columns({"id": ids, column: texts}, name), dict(zip(ids, texts,
                                                                          strict=True))


@settings(max_examples=60, deadline=None)
@given(run_ids=keys.filter(bool), data=st.data())
def test_equal_to_scoring_each_run_alone(run_ids, data):
    ref_ids = data.draw(st.permutations(
        data.draw(keys.filter(lambda k: set(k) & set(run_ids)))))
    base_ids = data.draw(st.permutations(
        data.draw(keys.filter(lambda k: set(k) & set(run_ids)))))
    run, outputs = _file("run", run_ids, "out", data.draw)
    refs, answers = _file("refs", ref_ids, "ans", data.draw)
    base, before = _file("base", base_ids, "old", data.draw)
    runs = score_runs(RunFiles(run, "id", refs, base, "old"), ColumnMapping("ans", ("out",)),
                      JOBS)
    # the same rows joined by the test itself (dicts), scored as one plain table
    ids = runs.joined.ids
    alone = table_from_columns({"ans": [answers.get(k) for k in ids],
                                "out": [outputs.get(k) for k in ids],
                                "old": [before.get(k) for k in ids]}, "joined")
    result, _ = score_table(alone, ColumnMapping("ans", ("out", "old")), JOBS)
    for job in JOBS:
        np.testing.assert_array_equal(runs.result.scores[("out", job.id)],
                                      result.scores[("out", job.id)])
        np.testing.assert_array_equal(runs.baseline.scores[(BASELINE, job.id)],
                                      result.scores[("old", job.id)])
    # a reference no output answers is unanswered (its _pass is written false)
    expected_unanswered = [k in answers and k not in outputs for k in ids]
    assert runs.unanswered.tolist() == expected_unanswered


def test_the_baseline_is_rescored_with_this_runs_thresholds():
    ids = ["a", "b"]
    refs = table_from_columns({"id": ids, "e": ["abcd", "abcd"]}, "refs")
    run = table_from_columns({"id": ids, "o": ["abcd", "abcx"]}, "run")
    base = table_from_columns({"id": ids, "o": ["abcd", "abxx"]}, "base")
    mapping = ColumnMapping("e", ("o",))

    def regressed(threshold):
        jobs = plan.make_plan(plan.shape_config(
            Config(), overrides=[f"levenshtein_similarity.threshold={threshold}"]),
            "levenshtein_similarity").jobs
        runs = score_runs(RunFiles(run, "id", refs, base, "o"), mapping, jobs)
        return runs.changes[0].metrics["levenshtein_similarity"].labels()

    # row b: baseline "abxx" similarity 0.5, now "abcx" 0.75
    assert regressed(0.7) == ["same", "improved"]  # 0.5 fails, 0.75 passes
    assert regressed(0.4) == ["same", "better"]  # both pass: only the score moved
