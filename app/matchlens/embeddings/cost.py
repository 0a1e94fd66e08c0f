"""What a run would send, for the "about to send N texts (~T tokens), continue?" prompt."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from matchlens.embeddings.cache import EmbeddingCache
from matchlens.embeddings.embed import distinct_texts
from matchlens.embeddings.endpoint import resolve_endpoint
from matchlens.embeddings.tokens import token_counter


@dataclass(frozen=True)
class CostEstimate:
    distinct: int  # distinct non-empty texts in the run
    uncached: int  # of which not in the disk cache: these would be sent
    approx_tokens: int  # estimated tokens of the uncached texts
    base_url: str = ""
    model: str = ""

    def cached_sentence(self) -> str:
        """Said after a run that needed nothing from the network."""
        return f"All {self.distinct:,} texts were cached: nothing was sent."

    @property
    def free(self) -> bool:
        """Nothing would be sent."""
        return self.uncached == 0

    def sentence(self) -> str:
        if self.free:
            return f"All {self.distinct:,} texts are cached: nothing will be sent."
        cached = self.distinct - self.uncached
        tail = f"; {cached:,} more are cached" if cached else ""
        return (f"About to send {self.uncached:,} texts (~{self.approx_tokens:,} tokens) to "
                f"{self.base_url} for {self.model}{tail}. Continue?")


def estimate(texts: Iterable[str], options: Mapping[str, Any], *,
             cache_path: Path | str | None = None) -> CostEstimate:
    """Count what `embed_texts(texts, options)` would send. Raises ConfigError for a bad URL."""
    endpoint = resolve_endpoint(options)
    distinct = distinct_texts(texts)
    with EmbeddingCache(cache_path) as cache:
        cached = cache.get_many(endpoint.stored_url, endpoint.model, distinct)
    uncached = [t for t in distinct if t not in cached]
    count = token_counter(endpoint.model)
    return CostEstimate(len(distinct), len(uncached), sum(count(t) for t in uncached),
                        endpoint.display_url, endpoint.model)
