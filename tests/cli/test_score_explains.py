"""`matchlens score` says why rows have no score, reproduces a table from its sidecar, and
checks the embeddings endpoint before reading anything."""

from __future__ import annotations

import tomllib
from pathlib import Path

from matchlens.core.metrics.registry import local_metric_ids
from tests.cli.conftest import DEFAULT_METRICS, assert_one_line_error, read_csv_file
from tests.embeddings.openai_server import closed_port_url


def _data(tmp_path: Path) -> Path:
    path = tmp_path / "pairs.csv"
    path.write_text('expected,actual\n"{""a"": 1}","{""a"": 2}"\n"{""a"": 1}",not json\n'
                    "Paris,Paris\n", encoding="utf-8")
    return path


def test_invalid_rows_are_explained_with_their_line(cli, tmp_path):
    run = cli("score", _data(tmp_path), "--expected", "expected", "--actual", "actual",
              "--metrics", "json_distance")
    assert run.code == 0, run.err
    # Data row 2 is physical line 3 (the header is line 1); row 3 (Paris) is line 4.
    assert ("  why: json_distance: actual is not valid JSON: Expecting value at line 1 column 1 "
            "(line 3)") in run.err_lines
    assert ("  why: json_distance: expected is not valid JSON: Expecting value at line 1 "
            "column 1 (line 4)") in run.err_lines


def test_a_dead_endpoint_is_one_sentence_for_all_its_rows(cli, tmp_path, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-0123456789abcdef")
    url = closed_port_url()
    run = cli("score", _data(tmp_path), "--expected", "expected", "--actual", "actual",
              "--metrics", "semantic_similarity", "--set", f"semantic_similarity.base_url={url}")
    assert run.code == 0, run.err
    why = [line for line in run.err_lines if line.startswith("  why:")]
    assert why == [f"  why: semantic_similarity: cannot reach {url}: connection refused "
                   "(3 rows, the first at line 2)"]


def test_no_key_for_openai_is_said_plainly(cli, tmp_path):
    run = cli("score", _data(tmp_path), "--expected", "expected", "--actual", "actual",
              "--metrics", "semantic_similarity")
    why = [line for line in run.err_lines if line.startswith("  why:")]
    assert len(why) == 1 and "OPENAI_API_KEY" in why[0] and "(3 rows" in why[0], run.err


def test_a_bad_endpoint_url_is_bad_usage(cli, tmp_path):
    run = cli("score", _data(tmp_path), "--expected", "expected", "--actual", "actual",
              "--metrics", "semantic_similarity", "--set", "semantic_similarity.base_url=ftp://x")
    assert_one_line_error(run, "'ftp://x'", "http")


def test_the_sidecar_reproduces_a_table_of_non_default_metrics(cli, tmp_path):
    data = _data(tmp_path)
    first, second = tmp_path / "first.csv", tmp_path / "second.csv"
    made = cli("score", data, "--expected", "expected", "--actual", "actual",
               "--metrics", "json_distance,bleu", "--set", "json_distance.threshold=0", "-o", first)
    assert made.code == 0, made.err
    again = cli("score", data, "--expected", "expected", "--actual", "actual",
                "--config", tmp_path / "first.csv.matchlens.toml", "-o", second)
    assert again.code == 0, again.err
    assert second.read_bytes() == first.read_bytes()
    header, _ = read_csv_file(second)
    assert header[2:] == ["json_distance", "json_distance_pass", "bleu", "bleu_pass"]


def test_a_network_run_records_its_endpoint_and_model(cli, tmp_path, monkeypatch):
    url = closed_port_url()
    monkeypatch.setenv("OPENAI_BASE_URL", url)
    out = tmp_path / "out.csv"
    run = cli("score", _data(tmp_path), "--expected", "expected", "--actual", "actual",
              "--metrics", "semantic_similarity", "-o", out)
    assert run.code == 0, run.err
    sidecar = tomllib.loads((tmp_path / "out.csv.matchlens.toml").read_text(encoding="utf-8"))
    assert sidecar["openai"] == {"base_url": url, "model": "text-embedding-3-small"}


def test_all_combines_with_more_ids(cli, tmp_path):
    run = cli("score", _data(tmp_path), "--expected", "expected", "--actual", "actual",
              "--metrics", "exact_match,all")
    assert run.code == 0, run.err
    header, _ = run.table()
    scored = [h for h in header[2:] if not h.endswith("_pass")]
    assert scored == list(dict.fromkeys(["exact_match", *local_metric_ids()]))
    assert set(DEFAULT_METRICS) <= set(scored)
