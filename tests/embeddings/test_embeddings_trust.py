"""A key only goes to an endpoint the user named; nothing a run surfaces carries a credential.

Real parts: `matchlens score` in-process, the real openai client against the loopback server,
the real keyring API on the in-memory backend, real files and the real cache database.
"""

from __future__ import annotations

import sqlite3
import tomllib
from pathlib import Path

import pytest

from matchlens.core.config import BASE_URL_FROM
from matchlens.embeddings import save_api_key
from matchlens.embeddings.embed import embed_texts
from matchlens.embeddings.endpoint import stored_url
from matchlens.embeddings.redact import scrub
from tests.cli.conftest import assert_one_line_error, run_in_process, snapshot
from tests.embeddings.conftest import TEST_KEY
from tests.embeddings.leaks import assert_nothing_leaked


@pytest.fixture
def cli(capsys):
    return lambda *args: run_in_process(capsys, *args)


STORED_KEY = "sk-st0r3d-Q9w8E7r6T5y4U3i2"


def _data(tmp_path: Path) -> Path:
    path = tmp_path / "pairs.csv"
    path.write_text("expected,actual\nthe cat sat,a cat sat\nred door,blue door\n",
                    encoding="utf-8")
    return path


def _config(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "colleague.toml"
    path.write_text(body, encoding="utf-8")
    return path


def _score(cli, tmp_path, *more):
    return cli("score", _data(tmp_path), "--expected", "expected", "--actual", "actual",
               "--metrics", "semantic_similarity", *more)


def _openai_table(url: str) -> str:
    return f'[openai]\nbase_url = "{url}"\n'


def _metric_table(url: str) -> str:
    return f'[metrics.semantic_similarity]\nbase_url = "{url}"\n'


@pytest.mark.parametrize("table", [_openai_table, _metric_table], ids=["openai", "metric"])
def test_a_config_files_endpoint_never_gets_the_users_key(cli, tmp_path, fake_openai, env_key,
                                                          table):
    config = _config(tmp_path, table(fake_openai.base_url))
    _data(tmp_path)
    before = snapshot(tmp_path)
    run = _score(cli, tmp_path, "--config", config)
    line = assert_one_line_error(run, "nothing was sent", str(config), "--base-url",
                                 fake_openai.base_url)
    assert fake_openai.request_count == 0  # neither the key nor a text left the machine
    assert snapshot(tmp_path) == before
    assert_nothing_leaked(TEST_KEY, line, run.out)


def test_the_keyring_key_is_refused_to_a_files_endpoint_too(cli, tmp_path, fake_openai):
    save_api_key(TEST_KEY)
    run = _score(cli, tmp_path, "--config", _config(tmp_path, _openai_table(fake_openai.base_url)))
    assert_one_line_error(run, "nothing was sent")
    assert fake_openai.request_count == 0


def test_a_files_endpoint_gets_the_key_stored_for_it(cli, tmp_path, fake_openai, env_key):
    save_api_key(STORED_KEY, endpoint=stored_url(fake_openai.base_url))
    run = _score(cli, tmp_path, "--config", _config(tmp_path, _openai_table(fake_openai.base_url)))
    assert run.code == 0, run.err
    assert {r.authorization for r in fake_openai.requests} == {f"Bearer {STORED_KEY}"}
    assert_nothing_leaked(TEST_KEY, run.err, run.out)
    assert_nothing_leaked(STORED_KEY, run.err, run.out)


def test_a_files_endpoint_without_any_key_gets_no_key(cli, tmp_path, fake_openai):
    run = _score(cli, tmp_path, "--config", _config(tmp_path, _openai_table(fake_openai.base_url)))
    assert run.code == 0, run.err
    assert {r.authorization for r in fake_openai.requests} == {"Bearer not-needed"}


@pytest.mark.parametrize("how", ["flag", "set", "environment"])
def test_an_endpoint_the_user_names_gets_their_key(cli, tmp_path, fake_openai, env_key,
                                                   monkeypatch, how):
    url = fake_openai.base_url
    config = _config(tmp_path, _openai_table(url))
    more = {"flag": ("--base-url", url), "set": ("--set", f"semantic_similarity.base_url={url}"),
            "environment": ()}[how]
    if how == "environment":
        monkeypatch.setenv("OPENAI_BASE_URL", url)
    run = _score(cli, tmp_path, "--config", config, *more)
    assert run.code == 0, run.err
    assert {r.authorization for r in fake_openai.requests} == {f"Bearer {TEST_KEY}"}


def test_the_window_path_refuses_too(fake_openai, env_key, tmp_path):
    """embed_texts with options from a file (what the window's worker runs) sends nothing."""
    options = {"base_url": fake_openai.base_url, "model": "m", BASE_URL_FROM: "colleague.toml"}
    run = embed_texts(["one", "two"], options, cache_path=tmp_path / "c.sqlite3")
    assert fake_openai.request_count == 0
    assert set(run.errors) == {"one", "two"}
    assert all("nothing was sent" in e and "colleague.toml" in e for e in run.errors.values())


# -- masking -----------------------------------------------------------------------------------

@pytest.mark.parametrize("text, gone", [
    ("upstream rejected credential 'test-9f8e7d6c5b4a3210SECRET'", "test-9f8e"),
    ("key fragment 7d6c5b4a3210 seen", "7d6c5b4a"),
    ("Authorization: Bearer abc.def-ghi", "abc.def"),
    ("GET https://x.example/v1?api-key=hunter2hunter2&x=1", "hunter2"),
    ("url https://h/v1?key=AAAA1111&sig=BBBB2222&token=CCCC3333", "AAAA1111"),
    ("url https://h/v1?key=AAAA1111&sig=BBBB2222&token=CCCC3333", "BBBB2222"),
    ("url https://h/v1?key=AAAA1111&sig=BBBB2222&token=CCCC3333", "CCCC3333"),
    ("http://alice:s3cretpass@host/v1 refused", "s3cretpass"),
])
def test_scrub_masks_every_form_of_a_credential(text, gone):
    out = scrub(text, TEST_KEY)
    assert gone not in out, out
    assert out != text


def test_scrub_keeps_ordinary_text():
    text = "404: model 'text-embedding-3-small' was not found at http://127.0.0.1:8080/v1"
    assert scrub(text, TEST_KEY) == text


def test_a_partial_echo_of_the_key_never_reaches_stderr(cli, tmp_path, fake_openai, env_key):
    # The server quotes the key without its `sk-` prefix (the example).
    fake_openai.fail_on("cat", 500, message="upstream rejected credential '{key}'".replace(
        "{key}", TEST_KEY.removeprefix("sk-")))
    run = _score(cli, tmp_path, "--base-url", fake_openai.base_url)
    assert run.code == 0, run.err
    assert "the server failed" in run.err
    assert_nothing_leaked(TEST_KEY, run.err, run.out)


def test_credentials_in_the_base_url_are_stored_nowhere(cli, tmp_path, fake_openai, env_key,
                                                        monkeypatch):
    query_secret = "qs-0a1b2c3d4e5f6a7b8c9d"
    monkeypatch.setenv("OPENAI_BASE_URL", f"{fake_openai.base_url}?api-key={query_secret}")
    out = tmp_path / "out.csv"
    run = _score(cli, tmp_path, "-o", out)
    assert run.code == 0, run.err
    assert "2 scored" in run.err
    sidecar = tomllib.loads((tmp_path / "out.csv.matchlens.toml").read_text(encoding="utf-8"))
    assert sidecar["openai"]["base_url"] == fake_openai.base_url
    cache_dir = Path(__import__("platformdirs").user_cache_dir("matchlens"))
    with sqlite3.connect(cache_dir / "embeddings.sqlite3") as db:
        urls = {row[0] for row in db.execute("SELECT base_url FROM embeddings")}
    assert urls == {fake_openai.base_url}
    assert_nothing_leaked(query_secret, run.err, run.out, folders=(tmp_path, cache_dir))
    assert_nothing_leaked(TEST_KEY, run.err, run.out, folders=(tmp_path, cache_dir))


def test_where_a_url_came_from_survives_resolving_the_options(tmp_path):
    """The compare tab resolves options again before scoring: the provenance must stay."""
    from matchlens.core.config import load_config
    from matchlens.embeddings.endpoint import resolve_endpoint
    from matchlens.embeddings.metric import SPEC

    config = load_config(_config(tmp_path, _openai_table("http://10.0.0.9:8000/v1")))
    options = SPEC.resolve_options(config.settings("semantic_similarity").options)
    assert resolve_endpoint(options).source == "file"
    named = config.with_endpoint("http://10.0.0.9:8000/v1")  # the user names the same URL
    assert resolve_endpoint(named.settings("semantic_similarity").options).source == "settings"
