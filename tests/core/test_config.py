"""The TOML config: read, write, round trip, validation sentences."""

from __future__ import annotations

import pytest

from matchlens.core.config import Config, load_config, save_config
from matchlens.core.errors import ConfigError

SPEC_EXAMPLE = """
[metrics.levenshtein_similarity]
threshold = 0.8
case_sensitive = false

[metrics.json_distance]
threshold = 0
ignore_keys = ["id", "timestamp"]

[openai]
base_url = "http://localhost:11434/v1"   # optional
model = "text-embedding-3-small"
"""


def test_reads_the_contract_example(tmp_path):
    path = tmp_path / "c.toml"
    path.write_text(SPEC_EXAMPLE, encoding="utf-8")
    config = load_config(path)
    assert config.settings("levenshtein_similarity").threshold == 0.8
    assert config.settings("json_distance").threshold == 0
    assert config.settings("json_distance").options["ignore_keys"] == ["id", "timestamp"]
    assert config.base_url == "http://localhost:11434/v1"
    # untouched metrics keep the contract's defaults
    assert config.settings("exact_match").threshold == 0.5
    assert config.settings("levenshtein_distance").threshold is None


def test_round_trip_keeps_every_threshold_including_unset_ones(tmp_path):
    config = (Config().with_threshold("jaccard", 0.25)
              .with_threshold("levenshtein_similarity", None)
              .with_option("json_distance", "numeric_tolerance", 0.5))
    ids = ["jaccard", "levenshtein_similarity", "json_distance", "exact_match"]
    path = tmp_path / "out.toml"
    save_config(config, path, ids)
    back = load_config(path)
    for metric_id in ids:
        assert back.settings(metric_id) == config.settings(metric_id), metric_id
    assert "api_key" not in path.read_text()


@pytest.mark.parametrize(
    ("assignment", "check"),
    [
        ("levenshtein_similarity.threshold=0.8",
         lambda c: c.settings("levenshtein_similarity").threshold == 0.8),
        ("exact_match.case_sensitive=false",
         lambda c: c.settings("exact_match").options["case_sensitive"] is False),
        ('json_distance.ignore_keys=["id"]',
         lambda c: c.settings("json_distance").options["ignore_keys"] == ["id"]),
        ("json_distance.ignore_keys=id,ts",
         lambda c: c.settings("json_distance").options["ignore_keys"] == ["id", "ts"]),
        ("jaccard.threshold=none", lambda c: c.settings("jaccard").threshold is None),
    ],
)
def test_set_overrides(assignment, check):
    assert check(Config().with_override(assignment))


@pytest.mark.parametrize(
    ("assignment", "message"),
    [
        ("nosuch.threshold=1", "unknown metric 'nosuch'; valid metrics: exact_match, contains"),
        ("jaccard.colour=red", "metric jaccard has no option 'colour'; valid: threshold, "
                               "case_sensitive"),
        ("jaccard.threshold=high", "jaccard.threshold must be a number, not 'high'"),
        ("jaccard.case_sensitive=maybe", "jaccard.case_sensitive must be true or false"),
        ("jaccard", "expected ID.OPTION=VALUE"),
        ("jaccard.threshold", "expected ID.OPTION=VALUE"),
    ],
)
def test_bad_overrides_get_a_sentence(assignment, message):
    with pytest.raises(ConfigError, match=None) as info:
        Config().with_override(assignment)
    assert message in str(info.value)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[metrics.jaccard\nthreshold = 1", "not valid TOML"),
        ("[colours]\na = 1", "unknown section(s) colours"),
        ('[openai]\napi_key = "sk-secret"', "an API key never goes in a config file"),
        ("[metrics.jaccard]\nthreshold = 'x'", "jaccard.threshold must be a number"),
        ("[metrics]\njaccard = 3", "[metrics.jaccard] must be a table"),
    ],
)
def test_bad_files_get_a_sentence_naming_the_file(tmp_path, text, message):
    path = tmp_path / "bad.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as info:
        load_config(path)
    assert str(path) in str(info.value)
    assert message in str(info.value)
    assert "sk-secret" not in str(info.value)
