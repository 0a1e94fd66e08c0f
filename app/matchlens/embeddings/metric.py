"""`semantic_similarity`: cosine similarity of the two texts' embeddings, in [-1, 1].

Importing this module registers the metric in the core registry (core never imports us).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from matchlens.core.metrics import builtin  # noqa: F401  (the built-ins first: window order)
from matchlens.core.metrics.registry import (
    STATUS_ERROR,
    STATUS_INVALID,
    ManyOutcome,
    MetricSpec,
    OptionSpec,
    register,
)
from matchlens.core.results import Direction, Label, Outcome
from matchlens.embeddings.endpoint import DEFAULT_MODEL

if TYPE_CHECKING:
    from matchlens.embeddings.embed import Embeddings

METRIC_ID = "semantic_similarity"

MODEL = OptionSpec("model", str, DEFAULT_MODEL, "Embeddings model name at the endpoint")
BASE_URL = OptionSpec(
    "base_url", str, "",
    "OpenAI-compatible endpoint, e.g. http://localhost:11434/v1 for Ollama; "
    "empty: OPENAI_BASE_URL, else OpenAI",
)

DEFINITION = (
    "Cosine similarity of the two texts' embeddings from an OpenAI-compatible endpoint, "
    "from -1 to 1 (1: same direction). It rewards shared topic and wording, and barely sees "
    "negation or swapped roles: \"A beat B\" and \"B beat A\", or \"is\" and \"is not\", "
    "still score close to 1. Both texts are sent to the endpoint (cached on disk afterwards)."
)


class ZeroVector(ValueError):
    """An embedding with no direction: the cosine is undefined."""


def cosine(u: np.ndarray, v: np.ndarray) -> float:
    """Cosine similarity in float64, clipped to [-1, 1]; ZeroVector/ValueError when undefined."""
    a = np.asarray(u, dtype=np.float64)
    b = np.asarray(v, dtype=np.float64)
    if a.shape != b.shape:
        raise ValueError(f"the two embeddings have different lengths ({a.size} and {b.size})")
    if not (np.isfinite(a).all() and np.isfinite(b).all()):
        raise ValueError("an embedding contains values that are not numbers")
    na, nb = float(np.linalg.norm(a)), float(np.linalg.norm(b))
    if na == 0.0 or nb == 0.0:
        side = "both embeddings are" if na == nb else "an embedding is"
        raise ZeroVector(f"{side} all zeros, so the cosine similarity is undefined")
    return float(np.clip(np.dot(a, b) / (na * nb), -1.0, 1.0))


def _row(e: str, a: str, run: Embeddings) -> tuple[float | None, Label | None, str]:
    """(score, None, "") or (None, label, sentence) for one pair."""
    if not e or not a:
        which = "Both texts are" if not e and not a else (
            "The expected text is" if not e else "The actual text is")
        return None, Label.INVALID, f"{which} empty: there is nothing to embed"
    for text in (e, a):
        if text in run.errors:
            return None, Label.ERROR, run.errors[text]
    try:
        return cosine(run.vectors[e], run.vectors[a]), None, ""
    except KeyError:  # cancelled before this text was sent
        return None, Label.ERROR, "not embedded: the run was cancelled"
    except ValueError as err:
        msg = str(err)
        return None, Label.ERROR, msg[:1].upper() + msg[1:]


def semantic_similarity(expected: str, actual: str, options: Mapping[str, Any]) -> Outcome:
    # deferred: the client (ssl, sockets) and the disk cache (sqlite3) cost ~40 ms to import,
    # paid by every `matchlens score` that only registers this metric
    from matchlens.embeddings.embed import embed_texts

    run = embed_texts([expected, actual] if expected and actual else [], options)
    score, label, sentence = _row(expected, actual, run)
    if score is None:
        return Outcome(None, sentence, label)
    model = run.endpoint.model if run.endpoint else options.get("model", DEFAULT_MODEL)
    return Outcome(score, f"Cosine similarity {score:.3f} of the two embeddings ({model})")


def semantic_similarity_many(expected: Sequence[str], actual: Sequence[str],
                             options: Mapping[str, Any]) -> ManyOutcome:
    """Every distinct text embedded once (cache first, then batched requests).

    A row whose text could not be embedded gets NaN, STATUS_ERROR and the failure's sentence;
    an empty text gets STATUS_INVALID. The other rows are scored: each distinct vector is
    normalised once, a row is one dot product (a gathered einsum was slower: it copies two
    rows x dims float64 matrices). Rows that need a sentence (zero vectors, odd lengths) go
    through `_row`, the exact single-pair path.
    """
    if len(expected) != len(actual):
        raise ValueError("expected and actual must have the same length")
    n = len(expected)
    # Rows with an empty side are invalid anyway: their other text need not be paid for.
    from matchlens.embeddings.embed import embed_texts  # deferred, as in semantic_similarity

    run = embed_texts([t for e, a in zip(expected, actual, strict=True) if e and a
                       for t in (e, a)], options)
    scores = np.full(n, np.nan)
    status = np.zeros(n, dtype=np.int8)
    messages: dict[int, str] = {}
    units = _UnitVectors(run)
    for i, (e, a) in enumerate(zip(expected, actual, strict=True)):
        u, v = units.get(e), units.get(a)
        if u is not None and v is not None:
            scores[i] = min(1.0, max(-1.0, float(u @ v)))
            continue
        score, label, sentence = _row(e, a, run)
        if score is None:
            status[i] = STATUS_INVALID if label is Label.INVALID else STATUS_ERROR
            messages[i] = sentence
        else:
            scores[i] = score
    return ManyOutcome(scores, status, messages)


class _UnitVectors:
    """Each usable text's unit vector (float64), normalised once; None sends a row to `_row`."""

    def __init__(self, run: Embeddings) -> None:
        self._run = run
        self._units: dict[str, np.ndarray | None] = {}
        self._size: int | None = None

    def get(self, text: str) -> np.ndarray | None:
        if text in self._units:
            return self._units[text]
        vec = self._run.vectors.get(text) if text and text not in self._run.errors else None
        unit = None
        if vec is not None and self._size in (None, vec.size):
            v = np.asarray(vec, dtype=np.float64)
            norm = float(np.linalg.norm(v))
            if norm > 0.0 and np.isfinite(norm):
                unit = v / norm
                self._size = vec.size
        self._units[text] = unit
        return unit


SPEC = register(MetricSpec(
    id=METRIC_ID,
    label="Semantic similarity",
    direction=Direction.MAX,
    default_threshold=0.8,
    options=(MODEL, BASE_URL),
    definition=DEFINITION,
    compute=semantic_similarity,
    compute_many=semantic_similarity_many,
    score_range=(-1.0, 1.0),
    network=True,
    display_order=130,
    batch_cost_us=5.0,
    shares_edit_script=False,
))
