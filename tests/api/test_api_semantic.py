"""semantic_similarity from Python: the command's key rules, cache and failure sentences,
against the real openai client and a loopback OpenAI server."""

from __future__ import annotations

import pytest

import matchlens
from matchlens.embeddings.credentials import NO_KEY
from tests.api.helpers import cli_rows, frame_rows
from tests.cli.conftest import read_jsonl_file, run_in_process

KEYRING_KEY = "sk-keyring-1234567890abcdefKEYRING"
ENV_KEY = "sk-env-0987654321fedcbaENVIRON"
ROWS = [("the cat sat on the mat", "the cat sat on a mat"),
        ("Paris is the capital", "the capital is Paris"),
        ("refund issued", "boom: the server breaks on this one"),
        ("alpha beta", "delta epsilon"),
        ("", "an empty reference")]


@pytest.fixture
def data(tmp_path):
    path = tmp_path / "pairs.csv"
    lines = ["expected,actual", *(f'"{e}","{a}"' for e, a in ROWS)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_the_api_scores_sends_and_fails_as_the_command(data, tmp_path, capsys, fake_openai,
                                                       batch_of, memory_keyring, monkeypatch,
                                                       private_dirs):
    memory_keyring.set_password("matchlens", "openai_api_key", KEYRING_KEY)
    monkeypatch.setenv("OPENAI_API_KEY", ENV_KEY)
    batch_of(2)  # two texts a request: the failing request costs only its own rows
    fake_openai.fail_on("boom", 401)
    out = tmp_path / "scored.jsonl"
    run = run_in_process(capsys, "score", data, "--expected", "expected", "--actual", "actual",
                         "--metrics", "semantic_similarity", "--base-url",
                         fake_openai.base_url, "-o", out)
    assert run.code == 0, run.err
    fake_openai.reset()
    fake_openai.fail_on("boom", 401)
    # the command cached every vector it got: start from an empty cache, so the API sends
    # again (XDG_CACHE_HOME is this test's own folder)
    cached = list((private_dirs / "cache").rglob("embeddings.sqlite3*"))
    assert cached
    for path in cached:
        path.unlink()
    scored = matchlens.score(data, expected="expected", actual="actual",
                             metrics=["semantic_similarity"],
                             config={"openai": {"base_url": fake_openai.base_url}})
    assert frame_rows(scored) == cli_rows(read_jsonl_file(out), list(scored.columns))
    # the keyring's key first, as the command and the window (never the environment's here)
    assert {r.authorization for r in fake_openai.requests} == {f"Bearer {KEYRING_KEY}"}
    summary = scored.attrs["matchlens"]
    metric = summary["variants"]["actual"]["metrics"]["semantic_similarity"]
    assert (metric["scored"], metric["errored"], metric["invalid"]) == (3, 1, 1)
    for why in summary["why"]:  # the same sentences the command's summary gives
        assert f"why: semantic_similarity: {why['message']}" in run.err
    assert any(w["message"].startswith("401") for w in summary["why"])
    assert KEYRING_KEY not in str(summary) and KEYRING_KEY[-8:] not in str(summary)
    # the on-disk cache: a second call sends only what failed
    sent = fake_openai.inputs_sent
    again = matchlens.score(data, expected="expected", actual="actual",
                            metrics=["semantic_similarity"],
                            config={"openai": {"base_url": fake_openai.base_url}})
    resent = fake_openai.inputs_sent[len(sent):]
    assert all("boom" in text or text == "refund issued" for text in resent), resent
    assert frame_rows(again) == frame_rows(scored)


def test_no_key_for_openai_is_the_commands_sentence(data, capsys, fake_openai):
    run = run_in_process(capsys, "score", data, "--expected", "expected", "--actual", "actual",
                         "--metrics", "semantic_similarity")
    scored = matchlens.score(data, expected="expected", actual="actual",
                             metrics="semantic_similarity")
    whys = [w["message"] for w in scored.attrs["matchlens"]["why"]]
    assert NO_KEY in whys
    assert f"why: semantic_similarity: {NO_KEY}" in run.err
    assert scored["semantic_similarity"].isna().all()
    assert fake_openai.request_count == 0  # nothing was sent anywhere (OpenAI's URL: no key)


def test_a_bad_endpoint_is_refused_before_anything_is_sent(data):
    with pytest.raises(matchlens.MatchLensError, match="must be an http:// or https:// URL"):
        matchlens.score(data, expected="expected", actual="actual",
                        metrics="semantic_similarity",
                        config={"openai": {"base_url": "ftp://example.org"}})
