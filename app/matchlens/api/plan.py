"""A scoring run as `matchlens score` makes it, from Python arguments instead of flags.

The choices (which metrics, which thresholds and options, the endpoint of a network metric) are
made by the same core functions the command uses (core.scoring.plan), so
`matchlens.score(..., metrics=None)` scores what `matchlens score` without `--metrics` scores. A
`ScorePlan` holds only plain data (the column mapping, ids and the Config): it is what a Dask
task carries to a worker, and it never holds an API key (the worker reads its own keyring or
OPENAI_API_KEY when it embeds).
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from matchlens.core.config import Config, config_from_dict, load_config
from matchlens.core.errors import ConfigError
from matchlens.core.scoring.batch import MetricJob
from matchlens.core.scoring.mapping import ColumnMapping

ConfigLike = str | os.PathLike | Mapping[str, Any] | Config | None


@dataclass(frozen=True)
class ScorePlan:
    mapping: ColumnMapping  # the expected SPEC (or literal) and the variants, each once
    metric_ids: tuple[str, ...]
    config: Config

    def jobs(self) -> list[MetricJob]:
        """The configured metrics; built where they run (a worker registers the network
        metric on first use)."""
        from matchlens.core.scoring.plan import make_jobs
        from matchlens.embeddings.preflight import load_network_metrics

        load_network_metrics()
        return make_jobs(self.metric_ids, self.config)


def make_plan(expected: str | None, actual: str | Sequence[str], *,
              metrics: str | Sequence[str] | None = None, config: ConfigLike = None,
              overrides: Sequence[str] = (), normalise: str | Sequence[str] | None = None,
              expected_literal: str | None = None) -> ScorePlan:
    """ConfigError (one sentence) for anything `matchlens score` would refuse with exit 2;
    TypeError naming the argument for a value of the wrong type (`expected=5`)."""
    for name, value, what in (("expected", expected, "a column name or a $.json.path"),
                              ("expected_literal", expected_literal, "the reference text")):
        if value is not None and not isinstance(value, str):
            raise TypeError(f"{name}= takes {what} as a str, not {type(value).__name__} "
                            f"({value!r:.40})")
    if expected == "":
        raise ConfigError("expected= is empty; give a column name or a $.json.path")
    if expected is not None and expected_literal is not None:
        raise ConfigError("give expected= or expected_literal=, not both")
    if expected is None and expected_literal is None:
        raise ConfigError("missing expected= (a column or $.json.path) or expected_literal=")
    variants = _variants(actual)
    metric_ids, settled = settle_metrics(metrics, config, overrides, normalise)
    mapping = ColumnMapping(expected_literal, variants, expected_literal=True) \
        if expected_literal is not None else ColumnMapping(expected, variants)
    return ScorePlan(mapping, tuple(metric_ids), settled)


def settle_metrics(metrics: str | Sequence[str] | None, config: ConfigLike,
                   overrides: Sequence[str] = (), normalise: str | Sequence[str] | None = None
                   ) -> tuple[list[str], Config]:
    """The metric ids and the config, as `matchlens score` settles them from its flags (the
    endpoint of a network metric pinned, a bad URL refused before anything is sent)."""
    from matchlens.core.scoring.plan import make_plan as plan_run
    from matchlens.core.scoring.plan import shape_config
    from matchlens.embeddings.preflight import load_network_metrics, pin_endpoint

    load_network_metrics()
    shaped = shape_config(
        _config(config),
        normalise=normalise if normalise is None or isinstance(normalise, str)
        else list(normalise),
        overrides=[overrides] if isinstance(overrides, str) else overrides)
    planned = plan_run(shaped, _metrics_flag(metrics), pin=pin_endpoint)
    return planned.metric_ids, planned.config


def _variants(actual: str | Sequence[str]) -> tuple[str, ...]:
    if actual is not None and not isinstance(actual, str | Sequence):
        raise TypeError(f"actual= takes a column name or $.json.path, or a list of them, not "
                        f"{type(actual).__name__} ({actual!r:.40})")
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
