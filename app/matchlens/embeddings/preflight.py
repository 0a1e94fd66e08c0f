"""Before a batch sends anything to an embeddings API: is there a key, and what would it cost?

No Qt: the batch tab runs `preflight` on a worker (reading the keyring may wait on D-Bus, and
resolving a million rows' texts and looking them up in the cache takes a while).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from matchlens.core.datasets import Cancelled, Table
from matchlens.core.scoring.mapping import Mapping as ColumnMapping
from matchlens.core.scoring.mapping import Prepared, prepare
from matchlens.embeddings.cost import CostEstimate, estimate
from matchlens.embeddings.credentials import resolve_api_key
from matchlens.embeddings.endpoint import resolve_endpoint


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
