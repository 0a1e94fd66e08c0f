"""`matchlens.dask` on a real cluster: a `distributed.LocalCluster` of two worker processes
scoring a Parquet folder of several files. Rows equal the single-process ones row for row, the
combined summary equals the single-process summary, and an API key reaches the workers only
through their own environment, never through the task graph."""

from __future__ import annotations

import pickle

import dask
import dask.dataframe as dd
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from distributed import Client, LocalCluster, get_task_stream

import matchlens
import matchlens.dask
from matchlens.core.errors import ConfigError, DatasetError
from tests.api.conftest import release_dask_threads
from tests.api.helpers import frame_rows
from tests.cli.conftest import SAMPLE_CSV
from tests.embeddings.openai_server import FakeOpenAI, vector_for

WORKER_KEY = "sk-worker-0a1b2c3d4e5f6a7b8c9dWORKER"  # what the workers' environment holds
CLIENT_KEY = "sk-client-9f8e7d6c5b4a39281706CLIENT"  # what the notebook's process holds
FILES = 4


@pytest.fixture(scope="module")
def worker_cache(tmp_path_factory):
    return tmp_path_factory.mktemp("worker-cache")


@pytest.fixture(scope="module")
def client(worker_cache):
    """One cluster for the module: two worker processes, one thread each. Their environment
    is set the way a deployment sets it (the key and the cache folder of their machine)."""
    with LocalCluster(n_workers=2, processes=True, threads_per_worker=1,
                      dashboard_address=None,
                      env={"OPENAI_API_KEY": WORKER_KEY,
                           "XDG_CACHE_HOME": str(worker_cache)}) as cluster, \
            Client(cluster, set_as_default=False) as client:
        yield client
    release_dask_threads()


@pytest.fixture(scope="module")
def parquet_folder(tmp_path_factory):
    """The shipped sample, twice over (400 rows), as a folder of FILES Parquet files."""
    frame = pd.read_csv(SAMPLE_CSV, dtype=str, keep_default_na=False)
    frame = pd.concat([frame, frame.assign(id=frame["id"] + "-b")], ignore_index=True)
    folder = tmp_path_factory.mktemp("parquet")
    size = len(frame) // FILES
    for i in range(FILES):
        part = frame.iloc[i * size:(i + 1) * size]
        pq.write_table(pa.Table.from_pandas(part, preserve_index=False),
                       folder / f"part-{i}.parquet")
    return folder


def _on(client, *collections):
    return dask.compute(*collections, scheduler=client)


def test_cluster_rows_equal_single_process_row_for_row(client, parquet_folder):
    ddf = dd.read_parquet(parquet_folder)
    assert ddf.npartitions == FILES
    kwargs = {"expected": "expected", "actual": ["output_a", "output_b"], "metrics": "all",
              "config": {"metrics": {"levenshtein_similarity": {"threshold": 0.8}}}}
    scored = matchlens.dask.score(ddf, **kwargs)
    summary = matchlens.dask.summary(scored)
    on_cluster, combined = _on(client, scored, summary)
    single = matchlens.score(pd.read_parquet(parquet_folder), **kwargs)
    assert list(on_cluster.columns) == list(single.columns) == list(scored.columns)
    assert frame_rows(on_cluster.reset_index(drop=True)) == frame_rows(single)
    added = [c for c in single.columns if c not in ddf.columns]
    assert on_cluster[added].dtypes.tolist() == single[added].dtypes.tolist()
    # the merged summary is the single-process one (rows, counts, means, medians)
    alone = single.attrs["matchlens"]
    assert combined["variants"] == alone["variants"]
    assert (combined["rows"], combined["partitions"]) == (400, FILES)


def test_summary_and_a_write_score_each_partition_once(client, parquet_folder, tmp_path):
    ddf = dd.read_parquet(parquet_folder)
    scored = matchlens.dask.score(ddf, expected="expected", actual="output_a")
    out = tmp_path / "scored"
    written = scored.to_parquet(out, compute=False)
    with get_task_stream(client) as stream:
        _, combined = _on(client, written, matchlens.dask.summary(scored))
    names = [str(task["key"]) for task in stream.data]
    scoring = [n for n in names if "score_partition" in n]
    # one scoring task per partition, shared by both results
    assert len(scoring) == FILES, names
    back = pd.read_parquet(out)
    assert len(back) == combined["rows"] == 400
    assert back["exact_match"].notna().sum() == \
        combined["variants"]["output_a"]["metrics"]["exact_match"]["scored"]


def test_bad_columns_fail_before_anything_runs(parquet_folder):
    ddf = dd.read_parquet(parquet_folder)
    with pytest.raises(DatasetError, match="no column 'expectd'"):
        matchlens.dask.score(ddf, expected="expectd", actual="output_a")
    with pytest.raises(ConfigError, match="takes a Dask DataFrame"):
        matchlens.dask.score(pd.read_parquet(parquet_folder), expected="expected",
                             actual="output_a")


def test_summary_of_changed_rows_is_refused(client, parquet_folder):
    ddf = dd.read_parquet(parquet_folder)
    scored = matchlens.dask.score(ddf, expected="expected", actual="output_a")
    filtered = scored[scored["exact_match"] == 1]
    with pytest.raises(ConfigError, match="before filtering"):
        _on(client, matchlens.dask.summary(filtered))
    with pytest.raises(ConfigError, match="carry no scoring summary"):
        _on(client, matchlens.dask.summary(ddf))


def test_semantic_similarity_on_workers_uses_their_key_and_cache(
        client, parquet_folder, worker_cache, monkeypatch, memory_keyring):
    # the notebook's process has a key of its own, in its keyring and its environment
    memory_keyring.set_password("matchlens", "openai_api_key", CLIENT_KEY)
    monkeypatch.setenv("OPENAI_API_KEY", CLIENT_KEY)
    with FakeOpenAI() as server:
        ddf = dd.read_parquet(parquet_folder)
        kwargs = {"expected": "expected", "actual": "output_a",
                  "metrics": ["semantic_similarity", "exact_match"],
                  "config": {"openai": {"base_url": server.base_url}}}
        scored = matchlens.dask.score(ddf, **kwargs)
        graph = pickle.dumps(dict(scored.__dask_graph__()))  # what the scheduler receives
        for key in (CLIENT_KEY, WORKER_KEY):
            assert key.encode() not in graph and key[-12:].encode() not in graph
        (on_cluster,) = _on(client, scored)
        sent = server.request_count
        assert sent > 0
        # every request came from a worker, with the key of the workers' own environment
        assert {r.authorization for r in server.requests} == {f"Bearer {WORKER_KEY}"}
        assert on_cluster["semantic_similarity"].notna().sum() > 300
        single = matchlens.score(pd.read_parquet(parquet_folder), **kwargs)
        assert frame_rows(on_cluster.reset_index(drop=True)) == frame_rows(single)
        # the workers' on-disk cache: a second run sends only what could not be embedded
        # (the fake server answers a text without words with a zero vector: no direction)
        assert (worker_cache / "matchlens" / "embeddings.sqlite3").exists()
        first_run = server.inputs_sent
        _on(client, scored)
        again = server.inputs_sent[len(first_run):]
        assert len(again) < len(first_run) / 10
        assert all(not vector_for(text).any() for text in again), again
