"""`matchlens score` with `--normalise`, `--set ID.normalise=...`, token_f1 and wer/cer, and the
config round trip of the option (metrics.md: Normalisation)."""

from __future__ import annotations

import tomllib

import pytest

from matchlens.core.config import load_config, save_config
from matchlens.core.metrics import get_metric
from tests.cli.conftest import assert_one_line_error, read_csv_file, run_in_process

ROWS = [
    # squad: "eiffel tower" on both sides
    {"id": "1", "expected": "The Eiffel Tower.", "output": "eiffel tower"},
    # squad: "paris" vs "paris france" -> exact 0, token_f1: P 1/2, R 1/1 -> 2/3
    {"id": "2", "expected": "Paris", "output": "Paris, France!"},
    # GSM8K-style: the final number after ####
    {"id": "3", "expected": "3 + 4 = 7\n#### 7", "output": "Adding gives 7.\n#### 7"},
]


@pytest.fixture
def qa_csv(tmp_path):
    path = tmp_path / "qa.csv"
    import csv

    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=["id", "expected", "output"])
        writer.writeheader()
        writer.writerows(ROWS)
    return path


@pytest.fixture
def cli(capsys):
    return lambda *args: run_in_process(capsys, "score", *args)


def column(path, name):
    header, rows = read_csv_file(path)
    return [row[header.index(name)] for row in rows]


def test_normalise_squad_for_every_text_metric(cli, qa_csv, tmp_path):
    out = tmp_path / "scored.csv"
    run = cli(qa_csv, "--expected", "expected", "--actual", "output", "--normalise", "squad",
              "--metrics", "exact_match,token_f1,wer", "-o", out)
    assert run.code == 0, run.err
    # row 3 after squad: "3 4 7 7" vs "adding gives 7 7" -> not equal
    assert column(out, "exact_match") == ["1.0", "0.0", "0.0"]
    f1 = [float(x) for x in column(out, "token_f1")]
    # row 3: tokens [3,4,7,7] vs [adding,gives,7,7]: shared 2 (the two 7s), P = R = 1/2 -> 0.5
    assert f1 == pytest.approx([1.0, 2 / 3, 0.5])
    # wer row 2: "paris" vs "paris france": 1 insertion over 1 word -> 1.0
    assert float(column(out, "wer")[1]) == 1.0
    sidecar = tomllib.loads((tmp_path / "scored.csv.matchlens.toml").read_text("utf-8"))
    assert {m: t["normalise"] for m, t in sidecar["metrics"].items()} == \
        dict.fromkeys(["exact_match", "token_f1", "wer"], "squad")


def test_set_overrides_one_metric_and_round_trips_through_the_sidecar(cli, qa_csv, tmp_path):
    out = tmp_path / "scored.csv"
    run = cli(qa_csv, "--expected", "expected", "--actual", "output",
              "--set", "exact_match.normalise=extract_regex:#### (-?[\\d,.]+)",
              "--set", 'jaccard.normalise=["lowercase","strip_punctuation"]',
              "--metrics", "exact_match,jaccard", "-o", out)
    assert run.code == 0, run.err
    # extract_regex: rows 1-2 have no "####" -> both sides empty -> equal; row 3: "7" == "7"
    assert column(out, "exact_match") == ["1.0", "1.0", "1.0"]
    # jaccard row 2: {paris} vs {paris, france} -> 1/2
    assert float(column(out, "jaccard")[1]) == 0.5
    sidecar = tmp_path / "scored.csv.matchlens.toml"
    config = load_config(sidecar)
    assert config.settings("exact_match").options["normalise"] == \
        ["extract_regex:#### (-?[\\d,.]+)"]
    assert config.settings("jaccard").options["normalise"] == ["lowercase", "strip_punctuation"]
    again = tmp_path / "again.csv"
    assert cli(qa_csv, "--expected", "expected", "--actual", "output", "--config", sidecar,
               "-o", again).code == 0
    assert read_csv_file(again) == read_csv_file(out)


def test_set_after_normalise_wins_for_that_metric(cli, qa_csv, tmp_path):
    out = tmp_path / "scored.csv"
    run = cli(qa_csv, "--expected", "expected", "--actual", "output", "--normalise", "squad",
              "--set", "exact_match.normalise=none", "--metrics", "exact_match,contains",
              "-o", out)
    assert run.code == 0, run.err
    assert column(out, "exact_match") == ["0.0", "0.0", "0.0"]  # as typed: all differ
    # contains keeps squad: row 2 "paris" in "paris france" -> 1
    assert column(out, "contains")[1] == "1.0"


def test_a_bad_step_is_one_sentence(cli, qa_csv):
    run = cli(qa_csv, "--expected", "expected", "--actual", "output", "--normalise", "shout")
    assert_one_line_error(run, "normalise", "unknown normalisation step 'shout'")
    run = cli(qa_csv, "--expected", "expected", "--actual", "output",
              "--set", "wer.normalise=extract_regex:[0-9]+")
    assert_one_line_error(run, "wer.normalise", "has no group")


def test_all_includes_the_new_metrics(cli, qa_csv, tmp_path):
    out = tmp_path / "scored.csv"
    assert cli(qa_csv, "--expected", "expected", "--actual", "output", "--metrics", "all",
               "-o", out).code == 0
    header, _ = read_csv_file(out)
    for metric in ("token_f1", "wer", "cer"):
        assert metric in header and f"{metric}_pass" in header


def test_config_file_round_trip_keeps_presets_lists_and_none(tmp_path):
    from matchlens.core.config import Config

    config = (Config().with_option("exact_match", "normalise", "squad")
              .with_option("jaccard", "normalise", ["nfkc", "ignore_regex:\\s+\\[\\d\\]"])
              .with_option("token_f1", "normalise", []))
    path = tmp_path / "t.toml"
    save_config(config, path, ["exact_match", "jaccard", "token_f1"])
    back = load_config(path)
    assert back.settings("exact_match").options["normalise"] == "squad"
    assert back.settings("jaccard").options["normalise"] == ["nfkc", "ignore_regex:\\s+\\[\\d\\]"]
    # token_f1's default is squad: an explicit "none" must survive the file
    assert back.settings("token_f1").options["normalise"] == []
    assert get_metric("token_f1").default_options()["normalise"] == "squad"
