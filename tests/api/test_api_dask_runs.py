"""`matchlens.dask.score(..., id=, references=, baseline=, baseline_actual=)` on a real
`distributed.LocalCluster`: the frames joined by Dask's merge, the rows equal
`matchlens.score`'s row for row (sorted by id: the order is Dask's), ids missing on either
side; a repeated id is one sentence before anything is computed."""

from __future__ import annotations

import dask
import dask.dataframe as dd
import numpy as np
import pandas as pd
import pytest
from distributed import Client, LocalCluster

import matchlens
import matchlens.dask
from matchlens.core.errors import DatasetError
from tests.api.conftest import release_dask_threads
from tests.api.helpers import frame_rows

WORDS = ["Paris", "paris", "Lisbon", "Lisbon, Portugal", "Bern", "Berlin", ""]


@pytest.fixture(scope="module")
def client():
    with LocalCluster(n_workers=2, processes=True, threads_per_worker=1,
                      dashboard_address=None) as cluster, \
            Client(cluster, set_as_default=False) as client:
        yield client
    release_dask_threads()


def _frames(seed):
    rng = np.random.default_rng(seed)
    # ids 0-299 run, 50-349 references, 100-399 baseline (shuffled): each side misses some
    run = pd.DataFrame({"id": [f"q{i}" for i in rng.permutation(300)],
                        "result": rng.choice(WORDS, 300)})
    refs = pd.DataFrame({"id": [f"q{i}" for i in rng.permutation(range(50, 350))],
                         "answer": rng.choice(WORDS, 300)})
    base = pd.DataFrame({"id": [f"q{i}" for i in rng.permutation(range(100, 400))],
                         "out": rng.choice(WORDS, 300)})
    return run, refs, base


def _sorted_rows(frame):
    return sorted(frame_rows(frame), key=lambda row: row["id"])


@pytest.mark.parametrize("with_refs", [True, False])
def test_cluster_rows_equal_single_process(client, with_refs):
    run, refs, base = _frames(1)
    kwargs = {"expected": "answer" if with_refs else "result", "actual": "result",
              "metrics": ["exact_match", "levenshtein_distance", "jaccard"], "id": "id",
              "baseline_actual": "out"}
    single = matchlens.score(run, references=refs if with_refs else None, baseline=base,
                             **kwargs)
    # the id checks compute before the merge is planned: on the cluster too
    with dask.config.set(scheduler=client):
        lazy = matchlens.dask.score(dd.from_pandas(run, npartitions=3),
                                    references=dd.from_pandas(refs, npartitions=2)
                                    if with_refs else None,
                                    baseline=dd.from_pandas(base, npartitions=4), **kwargs)
        (on_cluster,) = dask.compute(lazy)
    assert list(on_cluster.columns) == list(single.columns)
    # the union of the ids: 0-399 with references, else the run's and the baseline's
    assert len(on_cluster) == len(single) == 400
    assert _sorted_rows(on_cluster) == _sorted_rows(single)
    assert set(on_cluster["change"]) >= {"new", "gone"}


def test_a_repeated_id_is_a_sentence(client):
    run, refs, base = _frames(2)
    refs.loc[5, "id"] = refs.loc[6, "id"]
    with dask.config.set(scheduler=client), pytest.raises(DatasetError, match="two rows of "
                                                                              "the references"):
        matchlens.dask.score(dd.from_pandas(run, npartitions=2), expected="answer",
                             actual="result", id="id",
                             references=dd.from_pandas(refs, npartitions=2))


@pytest.mark.parametrize("with_refs", [True, False])
def test_summary_of_a_joined_run_equals_the_single_process_one(client, with_refs):
    run, refs, base = _frames(3)
    kwargs = {"expected": "answer" if with_refs else "result", "actual": "result",
              "metrics": ["exact_match", "levenshtein_similarity", "jaccard"], "id": "id",
              "baseline_actual": "out",
              "config": {"metrics": {"levenshtein_similarity": {"threshold": 0.5}}}}
    single = matchlens.score(run, references=refs if with_refs else None, baseline=base,
                             **kwargs)
    with dask.config.set(scheduler=client):
        lazy = matchlens.dask.score(dd.from_pandas(run, npartitions=3),
                                    references=dd.from_pandas(refs, npartitions=2)
                                    if with_refs else None,
                                    baseline=dd.from_pandas(base, npartitions=4), **kwargs)
        scored, combined = dask.compute(lazy, matchlens.dask.summary(lazy))
    alone = single.attrs["matchlens"]
    assert combined["rows"] == alone["rows"] == len(scored) == 400
    assert combined["partitions"] == lazy.npartitions
    for variant, mine in alone["variants"].items():
        theirs = combined["variants"][variant]
        for key in ("rows", "scored", "missing", "passed", "pass_rate"):
            assert theirs[key] == mine[key], key
        for metric_id, numbers in mine["metrics"].items():
            for key, value in numbers.items():
                assert theirs["metrics"][metric_id][key] == pytest.approx(value), \
                    (metric_id, key)
    # what changed: every count, the sign test and the bootstrap interval exactly (the
    # partitions' deltas gathered; the interval does not depend on their order), the mean
    # delta up to the order of its sum
    assert combined["baseline"].keys() == alone["baseline"].keys()
    for variant, mine in alone["baseline"].items():
        theirs = combined["baseline"][variant]
        assert (theirs["regressed_rows"], theirs["improved_rows"]) == \
            (mine["regressed_rows"], mine["improved_rows"])
        # not a trivial case (without references a run is its own reference: it never fails)
        assert mine["improved_rows"] > 0 and (mine["regressed_rows"] > 0 or not with_refs)
        for metric_id, numbers in mine["metrics"].items():
            got = theirs["metrics"][metric_id]
            for key in ("regressed", "improved", "worse", "better", "same", "new", "gone",
                        "pairs", "p_value"):
                assert got[key] == numbers[key], (metric_id, key)
            assert got["mean_delta"] == pytest.approx(numbers["mean_delta"])
            for key in ("ci_low", "ci_high", "confidence"):
                assert got[key] == numbers[key], (metric_id, key)
            # a real interval: the rows are resampled, not all equal
            assert numbers["ci_low"] < numbers["ci_high"]
