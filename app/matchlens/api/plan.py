"""A scoring run as `matchlens score` makes it, from Python arguments instead of flags.

The choices (which metrics, which thresholds and options, the endpoint of a network metric) are
made by the same functions the command uses, so `matchlens.score(..., metrics=None)` scores what
`matchlens score` without `--metrics` scores. A `ScorePlan` holds only plain data (ids, specs and
the Config): it is what a Dask task carries to a worker, and it never holds an API key (the
worker reads its own keyring or OPENAI_API_KEY when it embeds).
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from matchlens.core.config import Config, config_from_dict, load_config
from matchlens.core.errors import ConfigError
from matchlens.core.scoring.batch import MetricJob

ConfigLike = str | os.PathLike | Mapping[str, Any] | Config | None


@dataclass(frozen=True)
class ScorePlan:
    expected: str | None  # a column or JSONPath; None with expected_literal
    expected_literal: str | None
    actual: tuple[str, ...]  # the variants, in order, each once
    metric_ids: tuple[str, ...]
    config: Config

    def jobs(self) -> list[MetricJob]:
        """The configured metrics; built where they run (a worker registers the network
        metric on first use)."""
        from matchlens.cli.score import load_network_metrics, make_jobs

        load_network_metrics()
        return make_jobs(list(self.metric_ids), self.config)

    @property
    def expected_text(self) -> str:
        """How the sidecar and messages name the reference."""
        return self.expected or f"literal:{self.expected_literal}"


def make_plan(expected: str | None, actual: str | Sequence[str], *,
              metrics: str | Sequence[str] | None = None, config: ConfigLike = None,
              overrides: Sequence[str] = (), normalise: str | Sequence[str] | None = None,
              expected_literal: str | None = None) -> ScorePlan:
    """ConfigError (one sentence) for anything `matchlens score` would refuse with exit 2."""
    if expected is not None and expected_literal is not None:
        raise ConfigError("give expected= or expected_literal=, not both")
    if expected is None and expected_literal is None:
        raise ConfigError("missing expected= (a column or $.json.path) or expected_literal=")
    variants = _variants(actual)
    metric_ids, settled = settle_metrics(metrics, config, overrides, normalise)
    return ScorePlan(expected, expected_literal, variants, tuple(metric_ids), settled)


def settle_metrics(metrics: str | Sequence[str] | None, config: ConfigLike,
                   overrides: Sequence[str] = (), normalise: str | Sequence[str] | None = None
                   ) -> tuple[list[str], Config]:
    """The metric ids and the config, as `matchlens score` settles them from its flags (the
    endpoint of a network metric pinned, a bad URL refused before anything is sent)."""
    from matchlens.cli.score import (
        _check_network,
        _check_overrides_metrics,
        choose_metrics,
        load_network_metrics,
        make_jobs,
    )

    load_network_metrics()
    loaded = _with_normalise(_config(config), normalise)
    for assignment in [overrides] if isinstance(overrides, str) else overrides:
        loaded = loaded.with_override(assignment)
    _check_overrides_metrics(loaded)
    metric_ids = choose_metrics(argparse.Namespace(metrics=_metrics_flag(metrics)), loaded)
    return metric_ids, _check_network(make_jobs(metric_ids, loaded), loaded)


def _variants(actual: str | Sequence[str]) -> tuple[str, ...]:
    specs = [actual] if isinstance(actual, str) else list(actual or ())
    for spec in specs:
        if not isinstance(spec, str) or not spec:
            raise ConfigError(f"actual= takes column names or $.json.paths, not {spec!r}")
    if not specs:
        raise ConfigError("missing actual= (a column or $.json.path, or a list of them)")
    return tuple(dict.fromkeys(specs))


def _config(config: ConfigLike) -> Config:
    if config is None:
        return Config()
    if isinstance(config, Config):
        return config
    if isinstance(config, Mapping):
        return config_from_dict(config, source="config=")
    if isinstance(config, str | os.PathLike):
        return load_config(Path(config))
    raise ConfigError(f"config= takes a TOML file's path or a dict shaped like it, "
                      f"not {type(config).__name__}")


def _metrics_flag(metrics: str | Sequence[str] | None) -> str | None:
    """The `--metrics` text for a list (or the text itself): `choose_metrics` reads that."""
    if metrics is None:
        return None
    names = [metrics] if isinstance(metrics, str) else list(metrics)
    for name in names:
        if not isinstance(name, str):
            raise ConfigError(f"metrics= takes metric ids, not {name!r}")
    flag = ",".join(names)
    if not flag.strip(", "):
        raise ConfigError("metrics= is empty; give metric ids such as ['exact_match', 'jaccard']")
    return flag


def _with_normalise(config: Config, normalise: str | Sequence[str] | None) -> Config:
    """`--normalise`: every text metric's normalisation (a preset, a step, or a list of
    steps); applied before the overrides, as the command applies them, so one metric's
    `overrides=["jaccard.normalise=..."]` still wins."""
    return config if normalise is None else config.with_normalisation(
        normalise if isinstance(normalise, str) else list(normalise))
