"""Batched requests to an OpenAI-compatible /v1/embeddings endpoint through the official client.

`openai` is imported on first use (it costs ~0.7 s). Each batch that fails costs only its own
texts: they get a sentence in `EmbedResult.errors` and the next batch goes out anyway. A 400
for a batch is bisected so that one over-long text does not take its 255 neighbours with it.

The exception is an endpoint that is down: refused or unresolvable, or silent until the
timeout even after the client's retries *and* silent to a one-word probe right after. Every
later batch would only wait the same way (a hung server cost 3 tries x 30 s per batch), so the
rest of the run is not sent and its texts get that same sentence. A batch that timed out while
the probe is answered was only slow: it fails alone and the run goes on. 429 and 5xx stay per
batch: the server answered, and may answer the next one.
"""

from __future__ import annotations

import base64
import logging
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from urllib.parse import parse_qsl

import numpy as np

from matchlens.embeddings.deadline import deadline_http_client
from matchlens.embeddings.endpoint import Endpoint
from matchlens.embeddings.failures import Context, describe

log = logging.getLogger(__name__)

DEFAULT_TIMEOUT = 30.0  # seconds per HTTP attempt (openai's own default is 600 s)
MAX_RETRIES = 2  # openai retries 408/409/429/5xx and connection errors, honouring Retry-After
PLACEHOLDER_KEY = "not-needed"
PROBE_TIMEOUT = 10.0  # after a timeout: is the endpoint alive at all? (one try, one word)


@dataclass(frozen=True)
class BatchLimits:
    max_inputs: int
    max_tokens: int


# OpenAI: at most 2048 inputs and 300,000 tokens per request; we plan with a third of the token
# limit because our count is an estimate. Other servers (Ollama, vLLM on a laptop) embed far
# slower, and a 2048-text batch could outlast the timeout: smaller batches there.
OPENAI_LIMITS = BatchLimits(max_inputs=2048, max_tokens=100_000)
OTHER_LIMITS = BatchLimits(max_inputs=256, max_tokens=32_000)


def limits_for(endpoint: Endpoint) -> BatchLimits:
    return OPENAI_LIMITS if endpoint.is_openai else OTHER_LIMITS


def plan_batches(texts: Sequence[str], count: Callable[[str], int],
                 limits: BatchLimits) -> list[list[str]]:
    """Greedy batches in order: each ≤ max_inputs texts and ≤ max_tokens (a lone big text alone)."""
    batches: list[list[str]] = []
    current: list[str] = []
    tokens = 0
    for text in texts:
        cost = count(text)
        if current and (len(current) >= limits.max_inputs or tokens + cost > limits.max_tokens):
            batches.append(current)
            current, tokens = [], 0
        current.append(text)
        tokens += cost
    if current:
        batches.append(current)
    return batches


@dataclass
class EmbedResult:
    """Vectors (float32) and error sentences by text, and the HTTP requests made."""

    vectors: dict[str, np.ndarray] = field(default_factory=dict)
    errors: dict[str, str] = field(default_factory=dict)
    requests: int = 0  # HTTP requests, retries and bisection included
    sent: int = 0  # distinct texts that went out (a skipped batch is not counted)


class EmbeddingClient:
    """One run's connection to an endpoint. Use as a context manager (closes the connections).

    With no key, send `PLACEHOLDER_KEY`: local servers (Ollama, vLLM) need no real key but
    the openai client insists on one. The caller decides when that is acceptable.
    """

    def __init__(self, endpoint: Endpoint, api_key: str, *, key_hint: str = "",
                 timeout: float | None = None, max_retries: int | None = None) -> None:
        import openai

        self.endpoint = endpoint
        self.timeout = DEFAULT_TIMEOUT if timeout is None else timeout
        self.max_retries = MAX_RETRIES if max_retries is None else max_retries
        self._key = api_key
        self._key_hint = key_hint or "check the key in Settings or OPENAI_API_KEY"
        self._attempts = 0
        self._down: str | None = None  # the sentence once the endpoint proved unreachable
        self._dim: int | None = None  # every vector of a run has the first one's length
        # One overall deadline per HTTP attempt: a server trickling a byte every 2 s never
        # trips a per-read timeout (deadline.py).
        http = deadline_http_client(self.timeout, self._count_attempt)
        # A query in the base URL (`…/v1?api-key=…`, Azure-style) goes on every request; left in
        # the base URL the client would append the route after it.
        base, _, query = endpoint.base_url.partition("?")
        self._client = openai.OpenAI(api_key=api_key, base_url=base,
                                     default_query=dict(parse_qsl(query)) or None,
                                     timeout=self.timeout, max_retries=self.max_retries,
                                     http_client=http)

    def _count_attempt(self, _request: object) -> None:
        self._attempts += 1

    def embed(self, texts: Sequence[str], *, count: Callable[[str], int],
              limits: BatchLimits | None = None,
              on_batch: Callable[[Mapping[str, np.ndarray]], None] | None = None,
              cancel: Callable[[], bool] | None = None) -> EmbedResult:
        """Embed distinct non-empty `texts`; `on_batch` gets each batch's vectors as they come."""
        result = EmbedResult()
        batches = plan_batches(texts, count, limits or limits_for(self.endpoint))
        queue: list[list[str]] = list(reversed(batches))
        self._down = None
        while queue:
            batch = queue.pop()
            if cancel is not None and cancel():
                break
            if self._down is not None:  # the endpoint is down: every later batch would wait too
                result.errors.update(dict.fromkeys(batch, self._down))
                continue
            for part, outcome in self._send_bisecting(batch, result):
                if isinstance(outcome, str):
                    result.errors.update(dict.fromkeys(part, outcome))
                else:
                    result.vectors.update(outcome)
                    if on_batch is not None:
                        on_batch(outcome)
        return result

    def _send_bisecting(self, batch: list[str], result: EmbedResult
                        ) -> Iterator[tuple[list[str], dict[str, np.ndarray] | str]]:
        """Send a batch; on a 400 split it so that the refused text(s) fail alone."""
        result.sent += len(batch)
        outcome, bad_request = self._send(batch, result)
        yield from self._settle(batch, outcome, bad_request, result)

    def _settle(self, batch: list[str], outcome: dict[str, np.ndarray] | str, bad_request: bool,
                result: EmbedResult) -> Iterator[tuple[list[str], dict[str, np.ndarray] | str]]:
        if not bad_request or len(batch) == 1:
            yield batch, outcome
            return
        half = len(batch) // 2
        left, right = batch[:half], batch[half:]
        left_out, left_bad = self._send(left, result)
        right_out, right_bad = self._send(right, result)
        if left_bad and right_bad and left_out == right_out == outcome:
            # The same refusal for both halves is about the request (a bad model name, an
            # unsupported parameter), not about a text: splitting further would only cost.
            yield batch, outcome
            return
        yield from self._settle(left, left_out, left_bad, result)
        yield from self._settle(right, right_out, right_bad, result)

    def _send(self, batch: list[str], result: EmbedResult
              ) -> tuple[dict[str, np.ndarray] | str, bool]:
        """(vectors by text, or an error sentence; True when the server answered 400).

        Once the endpoint is down nothing more is sent (a bisection's other half included).
        """
        import openai

        if self._down is not None:
            return self._down, False
        before = self._attempts
        try:
            # base64 is what the client asks for by default anyway; saying so explicitly makes it
            # hand us the strings, and numpy decodes them ~10x faster than its float lists.
            response = self._client.embeddings.create(model=self.endpoint.model, input=batch,
                                                      encoding_format="base64")
            vectors, unusable = _vectors(response, batch, self._dim)
        except Exception as exc:  # every failure becomes a sentence for these rows only
            result.requests += self._attempts - before
            # The placeholder is no secret: a 401 names it as it is ('not-needed').
            secret = None if self._key == PLACEHOLDER_KEY else self._key
            ctx = Context(self.endpoint.display_url, self.endpoint.model, self.timeout,
                          max(1, self._attempts - before), self._key_hint, secret)
            sentence = describe(exc, ctx)
            log.info("embeddings request failed: %s", sentence)
            if isinstance(exc, openai.APITimeoutError):
                if not self._answers_a_probe(result):
                    self._down = sentence
            elif isinstance(exc, openai.APIConnectionError):  # refused, DNS, TLS
                self._down = sentence
            return sentence, isinstance(exc, openai.BadRequestError)
        result.requests += self._attempts - before
        if vectors and self._dim is None:  # one length for the whole run
            self._dim = next(iter(vectors.values())).size
        result.errors.update(unusable)  # these texts fail alone, and are never cached
        return vectors, False

    def _answers_a_probe(self, result: EmbedResult) -> bool:
        """After a timeout: does the endpoint answer a one-word request at all? Any answer,
        even an HTTP error, means it is alive and the timed-out batch was only slow."""
        import openai

        before = self._attempts
        try:
            self._client.with_options(timeout=min(self.timeout, PROBE_TIMEOUT), max_retries=0
                                      ).embeddings.create(model=self.endpoint.model, input=["ok"],
                                                          encoding_format="base64")
        except openai.APIConnectionError:  # timed out again, or gone
            return False
        except Exception:
            return True
        finally:
            result.requests += self._attempts - before
        return True

    def close(self) -> None:
        self._client.close()

    def __enter__(self) -> EmbeddingClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _vectors(response, batch: list[str], dim: int | None
             ) -> tuple[dict[str, np.ndarray], dict[str, str]]:
    """(vectors by text, sentences for texts whose vector is unusable). ValueError (the whole
    answer is untrustworthy) unless the indices are a permutation of 0..n-1 and every vector
    has the same dimension (`dim`, the run's, when known)."""
    data = getattr(response, "data", None)
    if not isinstance(data, list):  # an HTML page with status 200, a proxy's login form…
        kind = "text" if isinstance(response, str) else type(response).__name__
        raise ValueError(f"the answer is {kind}, not a list of embeddings")
    if len(data) != len(batch):
        raise ValueError(f"{len(data)} embeddings for {len(batch)} texts")
    indices = [getattr(item, "index", None) for item in data]
    if sorted(i for i in indices if isinstance(i, int)) != list(range(len(batch))):
        raise ValueError(f"its indices are not each of 0..{len(batch) - 1} once")
    out: dict[str, np.ndarray] = {}
    bad: dict[str, str] = {}
    for item in data:
        text = batch[item.index]
        vec = _decode(item.embedding)
        if dim is None:
            dim = vec.size
        if vec.ndim != 1 or vec.size == 0 or vec.size != dim:
            raise ValueError(f"its embeddings do not all have the same length ({dim} and "
                             f"{vec.size})")
        if not np.isfinite(vec).all():
            bad[text] = "the server sent an embedding with values that are not numbers"
        elif not vec.any():
            bad[text] = ("the server sent an all-zero embedding, so the cosine similarity is "
                         "undefined")
        else:
            out[text] = vec
    return out, bad


def _decode(raw: object) -> np.ndarray:
    if isinstance(raw, str):  # little-endian float32, base64-encoded
        try:
            return np.frombuffer(base64.b64decode(raw, validate=True), dtype="<f4").astype(
                np.float32, copy=False)
        except ValueError:  # bad base64, or a length that is not a multiple of 4
            raise ValueError("an embedding is not valid base64 float32") from None
    try:  # a server that ignores encoding_format and sends floats
        with np.errstate(all="ignore"):  # 1e39 becomes inf (then refused), without a warning
            return np.asarray(raw, dtype=np.float32)
    except (TypeError, ValueError, OverflowError):
        raise ValueError("an embedding is not a list of numbers") from None
