"""Hostile answers and a damaged cache, against the loopback server with the real openai client.

Every case checks what a person sees (the sentence for the rows that failed, the right score for
the others), that nothing wrong was cached, and that no piece of the key escaped anywhere.
"""

from __future__ import annotations

import base64
import math
import sqlite3
from pathlib import Path

import numpy as np
import pytest

from matchlens.core.metrics.registry import STATUS_ERROR, STATUS_SCORED
from matchlens.embeddings import cache as cache_module
from matchlens.embeddings import client as client_module
from matchlens.embeddings.embed import embed_texts
from matchlens.embeddings.metric import SPEC
from tests.embeddings.conftest import TEST_KEY
from tests.embeddings.leaks import assert_nothing_leaked
from tests.embeddings.openai_server import vector_for

PAIRS = (["the cat sat", "red door"], ["a cat sat", "blue door"])


def _cosine(a: str, b: str) -> float:
    u, v = vector_for(a).astype(np.float64), vector_for(b).astype(np.float64)
    return float(u @ v / (np.linalg.norm(u) * np.linalg.norm(v)))


def _cache_path() -> Path:
    return cache_module.default_cache_path()


def _cached_rows() -> int:
    path = _cache_path()
    if not path.exists():
        return 0
    with sqlite3.connect(path) as db:
        return int(db.execute("SELECT COUNT(*) FROM embeddings").fetchone()[0])


def _b64(values) -> str:
    return base64.b64encode(np.asarray(values, dtype="<f4").tobytes()).decode("ascii")


def _all_index_zero(data):
    return [{**item, "index": 0} for item in reversed(data)]


def _reversed_items(data):
    return list(reversed(data))


def _one_index_missing(data):
    return [{**item, "index": min(item["index"], len(data) - 2)} for item in data]


def _mixed_dimensions(data):
    return [data[0], *({**item, "embedding": _b64(np.ones(3))} for item in data[1:])]


WHOLE_ANSWER_REFUSED = [
    pytest.param(_all_index_zero, "indices", id="every_index_0_reversed"),
    pytest.param(_one_index_missing, "indices", id="an_index_twice"),
    pytest.param(_mixed_dimensions, "same length", id="two_dimensions"),
    pytest.param(lambda data: data[:-1], "embeddings for", id="one_item_short"),
    pytest.param(lambda data: [{**i, "embedding": "!!not base64"} for i in data], "base64",
                 id="bad_base64"),
]


@pytest.mark.parametrize("mangle, needle", WHOLE_ANSWER_REFUSED)
def test_an_untrustworthy_answer_scores_nothing_and_caches_nothing(options, fake_openai, env_key,
                                                                   caplog, mangle, needle):
    fake_openai.mangle = mangle
    out = SPEC.many(*PAIRS, options)
    assert out.status.tolist() == [STATUS_ERROR, STATUS_ERROR]
    assert all(np.isnan(out.scores))
    for message in out.messages.values():
        assert "did not send a valid embeddings answer" in message and needle in message
    assert _cached_rows() == 0
    assert_nothing_leaked(TEST_KEY, *out.messages.values(), caplog.text)


def test_items_out_of_order_are_matched_by_their_index(options, fake_openai):
    fake_openai.mangle = _reversed_items
    out = SPEC.many(*PAIRS, options)
    assert out.status.tolist() == [STATUS_SCORED, STATUS_SCORED]
    assert out.scores.tolist() == pytest.approx([_cosine("the cat sat", "a cat sat"),
                                                 _cosine("red door", "blue door")])


@pytest.mark.parametrize("bad, sentence", [
    (np.full(64, np.nan), "not numbers"),
    (np.full(64, np.inf), "not numbers"),
    (np.zeros(64), "all-zero"),
], ids=["nan", "infinite", "zero"])
def test_an_unusable_vector_fails_its_rows_alone_and_is_not_cached(options, fake_openai, bad,
                                                                    sentence):
    def poison(data):  # the vector of "red door" (inputs: e0, a0, e1, a1) is unusable
        return [{**item, "embedding": _b64(bad)} if item["index"] == 2 else item
                for item in data]

    fake_openai.mangle = poison
    out = SPEC.many(*PAIRS, options)
    assert out.status.tolist() == [STATUS_SCORED, STATUS_ERROR]
    assert out.scores[0] == pytest.approx(_cosine("the cat sat", "a cat sat"))
    assert sentence in out.messages[1]
    assert _cached_rows() == 3  # every text but "red door"


def test_floats_beyond_float32_are_refused_not_infinite(options):
    from tests.embeddings.openai_server import FakeOpenAI

    with FakeOpenAI(always_floats=True) as server:
        server.mangle = lambda data: [{**item, "embedding": [1e39] * 64} for item in data]
        options = {**options, "base_url": server.base_url}
        out = SPEC.many(*PAIRS, options)
    assert out.status.tolist() == [STATUS_ERROR, STATUS_ERROR]
    assert "not numbers" in out.messages[0]


def test_an_html_page_with_status_200_is_a_sentence(options, fake_openai):
    fake_openai.raw_reply = (200, "text/html", b"<html><body>Sign in to the proxy</body></html>")
    out = SPEC.many(*PAIRS, options)
    assert out.status.tolist() == [STATUS_ERROR, STATUS_ERROR]
    assert "did not send a valid embeddings answer" in out.messages[0]
    assert "AttributeError" not in out.messages[0]


def test_a_trickling_server_meets_one_deadline_per_request(options, fake_openai, monkeypatch):
    # One byte every 0.2 s never trips a 0.5 s read timeout; only an overall deadline ends it.
    monkeypatch.setattr(client_module, "DEFAULT_TIMEOUT", 0.5)
    monkeypatch.setattr(client_module, "MAX_RETRIES", 0)
    fake_openai.trickle = 0.2
    out = SPEC.many(*PAIRS, options)
    assert out.status.tolist() == [STATUS_ERROR, STATUS_ERROR]
    assert "timed out after 0.5 s" in out.messages[0]


# -- the cache ----------------------------------------------------------------------------------

def _tamper(update) -> None:
    with sqlite3.connect(_cache_path()) as db:
        rows = db.execute("SELECT text_sha256, vector, dim FROM embeddings").fetchall()
        for key, blob, dim in rows:
            db.execute("UPDATE embeddings SET vector = ?, dim = ? WHERE text_sha256 = ?",
                       (*update(bytes(blob), dim), key))


def _flip_one_bit(blob: bytes, dim: int) -> tuple[bytes, int]:
    return bytes([blob[0] ^ 0x01]) + blob[1:], dim


def _random_bytes(blob: bytes, dim: int) -> tuple[bytes, int]:
    return np.random.default_rng(7).bytes(len(blob)), dim


def _shorter(blob: bytes, dim: int) -> tuple[bytes, int]:
    return blob[:-4], dim - 1


@pytest.mark.parametrize("tamper", [_flip_one_bit, _random_bytes, _shorter],
                         ids=["one_bit", "random_bytes", "dimension"])
def test_a_tampered_cache_row_is_a_miss_and_is_fetched_again(options, fake_openai, tamper):
    first = SPEC.many(*PAIRS, options)
    assert fake_openai.request_count == 1 and _cached_rows() == 4
    _tamper(tamper)
    again = SPEC.many(*PAIRS, options)
    assert fake_openai.request_count == 2  # every row failed its checksum: all sent again
    np.testing.assert_allclose(again.scores, first.scores)
    third = SPEC.many(*PAIRS, options)  # ...and the rows were rewritten, checksums and all
    assert fake_openai.request_count == 2
    np.testing.assert_allclose(third.scores, first.scores)


def test_a_vector_moved_to_another_texts_row_is_a_miss(options, fake_openai):
    SPEC.many(*PAIRS, options)
    with sqlite3.connect(_cache_path()) as db:
        (blob,) = db.execute("SELECT vector FROM embeddings LIMIT 1").fetchone()
        db.execute("UPDATE embeddings SET vector = ?", (blob,))  # every row: one text's vector
    run = embed_texts([t for pair in zip(*PAIRS, strict=True) for t in pair], options)
    assert run.cached == 1 and run.sent == 3


def test_a_damaged_cache_file_is_moved_aside_once_and_rebuilt(options, fake_openai):
    path = _cache_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"this is not sqlite" * 100)
    first = embed_texts(["a b", "c d"], options)
    assert set(first.vectors) == {"a b", "c d"} and not first.errors
    assert first.cache_problem and "damaged" in first.cache_problem
    assert "embeddings.sqlite3.damaged" in first.cache_problem
    assert (path.parent / "embeddings.sqlite3.damaged").read_bytes() == b"this is not sqlite" * 100
    second = embed_texts(["a b", "c d"], options)
    assert second.cache_problem is None and second.cached == 2 and second.sent == 0


def test_a_cache_from_before_checksums_is_started_afresh(options, fake_openai):
    path = _cache_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    with sqlite3.connect(path) as db:  # the version-1 table: no checksum column
        db.execute("CREATE TABLE embeddings (base_url TEXT, model TEXT, text_sha256 BLOB, "
                   "dim INTEGER, vector BLOB, PRIMARY KEY (base_url, model, text_sha256))")
        db.execute("INSERT INTO embeddings VALUES (?, ?, ?, 1, ?)",
                   (fake_openai.base_url, options["model"], cache_module.text_key("a b"),
                    np.float32(1).tobytes()))
    run = embed_texts(["a b"], options)
    assert run.cache_problem is None and run.cached == 0 and run.sent == 1
    assert not math.isnan(float(run.vectors["a b"][0]))
