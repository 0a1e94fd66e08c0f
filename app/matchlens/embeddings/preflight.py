"""Before a run sends anything to an embeddings API: the network metric registered, its endpoint
checked and pinned (the command line and the Python API), a key and what it would cost (the
window).

No Qt: the batch tab runs `preflight` on a worker (reading the keyring may wait on D-Bus, and
resolving a million rows' texts and looking them up in the cache takes a while). The cost, the
cache and the client are imported only when asked for: `matchlens score` imports this module
on every run and sends nothing unless a network metric is named.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from matchlens.core.datasets import Cancelled, Table
from matchlens.core.scoring.mapping import ColumnMapping, Prepared, prepare

if TYPE_CHECKING:
    from matchlens.core.config import Config
    from matchlens.core.scoring.batch import MetricJob
    from matchlens.embeddings.cost import CostEstimate


def load_network_metrics() -> None:
    """Register the embeddings metric when its module is importable (it imports openai
    lazily): the command line, the Python API and the scoring child call this before they
    look a metric id up."""
    with contextlib.suppress(ImportError):
        import matchlens.embeddings.metric  # noqa: F401


def pin_endpoint(jobs: Sequence[MetricJob], config: Config) -> Config:
    """Fail early (a ConfigError, exit 2) on a bad endpoint URL, and pin the endpoint and
    model a network metric will use into the config, so the sidecar records what made the
    scores. The config as it is when no job is a network metric."""
    network = [job for job in jobs if job.spec.network]
    if not network:
        return config
    from matchlens.core.errors import ConfigError
    from matchlens.embeddings.embed import file_endpoint_refusal
    from matchlens.embeddings.endpoint import resolve_endpoint

    endpoint = resolve_endpoint(network[0].options)  # ConfigError: a sentence, exit 2
    refusal = file_endpoint_refusal(endpoint)
    if refusal:
        raise ConfigError(f"semantic_similarity: {refusal}")
    # Recorded without user:password@ or a query (where credentials hide).
    return replace(config, base_url=endpoint.stored_url, model=endpoint.model)


@dataclass(frozen=True)
class Preflight:
    """What the user must hear before a network metric runs: a missing key, or the cost."""

    metric_ids: tuple[str, ...]
    no_key: str | None = None  # the sentence to show when there is no key
    estimate: CostEstimate | None = None
    prepared: Prepared | None = None  # the resolved columns, so the run need not redo them

    @property
    def needs_consent(self) -> bool:
        return self.no_key is None and self.estimate is not None and not self.estimate.free


def preflight(table: Table, mapping: ColumnMapping, network: Mapping[str, Mapping[str, Any]],
              cancel: Callable[[], bool]) -> Preflight:
    """Check the key, then count the distinct uncached texts of every network metric's run.

    No key stops the run only where one is required: OpenAI's own endpoint. A local server
    (Ollama, vLLM) gets the placeholder key, as in the CLI and the Compare panel, so it goes
    on to the cost prompt. A malformed base URL raises ConfigError (a sentence) here.
    """
    from matchlens.embeddings.cost import estimate
    from matchlens.embeddings.credentials import resolve_api_key
    from matchlens.embeddings.endpoint import resolve_endpoint

    ids = tuple(network)
    if any(resolve_endpoint(options).is_openai for options in network.values()):
        key = resolve_api_key()
        if key.value is None:
            return Preflight(ids, no_key=key.note)
    prepared = prepare(table, mapping)
    if cancel():
        raise Cancelled("the cost estimate was cancelled")
    texts = [t for t in prepared.expected if t]
    for values in prepared.actuals.values():
        texts.extend(t for t in values if t)
    # Network metrics take their endpoint and model from the config's one [openai] table, and
    # share the embedding cache: what one sends, the others find. So one estimate covers all.
    options = next(iter(network.values()))
    return Preflight(ids, estimate=estimate(texts, options), prepared=prepared)
