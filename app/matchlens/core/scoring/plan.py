"""A scoring run's plan from plain arguments (no argparse): the config as the user shaped it,
which metrics run, and the jobs (each metric with its threshold and options).

`matchlens score` (cli/score.py) and `matchlens.score` (api/plan.py) both settle a run here, so
the API scores what the command scores. A network metric's endpoint is checked and pinned by
the caller's `pin` (embeddings.preflight.pin_endpoint): core never imports the embeddings
package, and the caller registers the network metric before it asks for one.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from matchlens.core.config import Config
from matchlens.core.errors import ConfigError
from matchlens.core.metrics.registry import (
    DEFAULT_METRICS,
    all_metrics,
    get_metric,
    local_metric_ids,
)
from matchlens.core.scoring.batch import MetricJob


@dataclass(frozen=True)
class Plan:
    """What a run scores: the metric ids, their jobs, and the config (a network metric's
    endpoint pinned: the sidecar records what made the scores)."""

    metric_ids: list[str]
    jobs: list[MetricJob]
    config: Config


def shape_config(config: Config, *, normalise: Any = None, overrides: Sequence[str] = (),
                 base_url: str | None = None) -> Config:
    """`config` with every text metric's normalisation (a preset, a step or a list of steps),
    then each `ID.OPTION=VALUE` override (so one metric's own normalisation still wins), then
    the endpoint the user named (trusted with a key)."""
    if normalise is not None:
        config = config.with_normalisation(normalise)
    for assignment in overrides:
        config = config.with_override(assignment)
    if base_url:
        config = config.with_endpoint(base_url)
    return config


def check_override_metrics(config: Config) -> None:
    """A ConfigError listing the valid ids for a threshold or option of an unknown metric."""
    for metric_id in [*config.thresholds, *config.options]:
        get_metric(metric_id)


def choose_metrics(metrics: str | None, config: Config) -> list[str]:
    """`metrics` as given, ids separated by commas (`all` = every local metric, combinable
    with more ids); else the metrics a scored table's sidecar names; else the five text
    metrics plus any local metric the config gates."""
    if metrics:
        names = [n.strip() for n in metrics.split(",") if n.strip()]
        if not names:
            raise ConfigError("--metrics is empty; give metric ids separated by commas")
        expanded: list[str] = []
        for name in names:
            if name == "all":
                expanded.extend(local_metric_ids())
            else:
                get_metric(name)  # raises a ConfigError listing the valid ids
                expanded.append(name)
        return list(dict.fromkeys(expanded))
    if config.metrics:
        return list(config.metrics)
    chosen = list(DEFAULT_METRICS)
    for spec in all_metrics():
        gated = spec.id in config.thresholds and config.thresholds[spec.id] is not None
        if gated and not spec.network and spec.id not in chosen:
            chosen.append(spec.id)
    return chosen


def make_jobs(metric_ids: Sequence[str], config: Config) -> list[MetricJob]:
    """Each metric with the threshold and options `config` gives it."""
    jobs = []
    for metric_id in metric_ids:
        settings = config.settings(metric_id)
        jobs.append(MetricJob(get_metric(metric_id), settings.threshold, settings.options))
    return jobs


def make_plan(config: Config, metrics: str | None,
              pin: Callable[[list[MetricJob], Config], Config] | None = None) -> Plan:
    """The overrides' metrics checked, the metrics chosen, their jobs built from `config`,
    and `pin(jobs, config)`'s config (the endpoint of a network metric) kept."""
    check_override_metrics(config)
    metric_ids = choose_metrics(metrics, config)
    jobs = make_jobs(metric_ids, config)
    return Plan(metric_ids, jobs, pin(jobs, config) if pin is not None else config)
