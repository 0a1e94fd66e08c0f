"""A loopback server that speaks OpenAI's POST /v1/embeddings, for tests and the benchmark.

The real `openai` client talks to it over real HTTP (httpx mocking libraries do not intercept
openai 3.x). Vectors are deterministic: a hashed bag of words, so texts that share words get
similar vectors and a text with no words gets the zero vector.

    with FakeOpenAI() as server:
        server.fail_on("boom", 500)          # any request whose inputs contain "boom" -> 500
        ... base_url=server.base_url ...
        server.request_count, server.inputs_sent

Scripted failures: 401, 429 (with `Retry-After: 0`), 5xx, 400 and slow answers (timeouts).
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import numpy as np

DIMENSIONS = 64
_WORD = re.compile(r"\w+")

_ERRORS = {
    400: ("invalid_request_error", "This model's maximum context length is 8192 tokens"),
    401: ("invalid_request_error", "Incorrect API key provided: {key}."),
    403: ("permission_error", "You are not allowed to use this model"),
    404: ("invalid_request_error", "The model `{model}` does not exist"),
    429: ("rate_limit_error", "Rate limit reached for requests"),
    500: ("server_error", "The server had an error while processing your request"),
    503: ("server_error", "The engine is currently overloaded"),
}


def vector_for(text: str, dimensions: int = DIMENSIONS) -> np.ndarray:
    """Hashed bag of lower-cased words: each word adds ±1 at a hashed position (float32)."""
    vec = np.zeros(dimensions, dtype=np.float32)
    for word in _WORD.findall(text.lower()):
        digest = hashlib.blake2b(word.encode("utf-8"), digest_size=8).digest()
        slot = int.from_bytes(digest[:4], "little") % dimensions
        vec[slot] += 1.0 if digest[4] & 1 else -1.0
    return vec


@dataclass
class Rule:
    """Answer `status` (or wait `delay` s) when an input contains `needle`; `times` None = always."""

    needle: str
    status: int | None = None
    delay: float = 0.0
    times: int | None = None
    message: str | None = None  # error text; "{key}" becomes the bearer key sent
    hits: int = 0

    def matches(self, inputs: list[str]) -> bool:
        if self.times is not None and self.hits >= self.times:
            return False
        return any(self.needle in text for text in inputs)


@dataclass
class Recorded:
    model: str
    inputs: list[str]
    encoding_format: str | None
    authorization: str | None
    status: int


@dataclass
class FakeOpenAI:
    """The server; start it with `with FakeOpenAI() as server:` (port 0 on 127.0.0.1)."""

    dimensions: int = DIMENSIONS
    always_floats: bool = False  # ignore encoding_format, as some compatible servers do
    rules: list[Rule] = field(default_factory=list)
    requests: list[Recorded] = field(default_factory=list)
    # Hostile answers: `mangle(data)` rewrites the items of a 200 answer (wrong indices, NaN…);
    # `raw_reply` = (status, content type, body) replaces the answer (an HTML page);
    # `trickle` = seconds between the bytes of an answer (a server that never quite stops).
    mangle: Any = None
    raw_reply: tuple[int, str, bytes] | None = None
    trickle: float | None = None

    def __post_init__(self) -> None:
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # -- scripting -------------------------------------------------------------------------
    def fail_on(self, needle: str, status: int, times: int | None = None,
                message: str | None = None) -> Rule:
        rule = Rule(needle, status=status, times=times, message=message)
        self.rules.append(rule)
        return rule

    def slow_on(self, needle: str, seconds: float, times: int | None = None) -> Rule:
        rule = Rule(needle, delay=seconds, times=times)
        self.rules.append(rule)
        return rule

    # -- what was asked -------------------------------------------------------------------
    @property
    def request_count(self) -> int:
        with self._lock:
            return len(self.requests)

    @property
    def inputs_sent(self) -> list[str]:
        with self._lock:
            return [text for req in self.requests for text in req.inputs]

    def reset(self) -> None:
        with self._lock:
            self.requests.clear()
            self.rules.clear()

    # -- life cycle -----------------------------------------------------------------------
    @property
    def base_url(self) -> str:
        assert self._httpd is not None, "start the server first"
        host, port = self._httpd.server_address[:2]
        return f"http://{host}:{port}/v1"

    def start(self) -> FakeOpenAI:
        server = self

        class Handler(_Handler):
            fake = server

        self._httpd = _QuietServer(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(target=self._httpd.serve_forever,
                                        kwargs={"poll_interval": 0.05}, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stopping.set()  # wakes slow handlers
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()  # joins the handler threads
        if self._thread is not None:
            self._thread.join(timeout=5)

    def __enter__(self) -> FakeOpenAI:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- answering ------------------------------------------------------------------------
    def answer(self, body: dict[str, Any], authorization: str | None
               ) -> tuple[int, dict[str, str], dict[str, Any]]:
        model = str(body.get("model", ""))
        raw = body.get("input", [])
        inputs = [raw] if isinstance(raw, str) else [str(t) for t in raw]
        fmt = body.get("encoding_format")
        status, delay, message = 200, 0.0, None
        with self._lock:
            for rule in self.rules:
                if rule.matches(inputs):
                    rule.hits += 1
                    if rule.status is not None and status == 200:
                        status, message = rule.status, rule.message
                    delay = max(delay, rule.delay)
            self.requests.append(Recorded(model, inputs, fmt, authorization, status))
        if delay:
            self._stopping.wait(delay)
        if status != 200:
            return (status, _error_headers(status),
                    _error_body(status, model, authorization, message))
        data = []
        for i, text in enumerate(inputs):
            vec = vector_for(text, self.dimensions)
            if fmt == "base64" and not self.always_floats:
                embedding: Any = base64.b64encode(vec.tobytes()).decode("ascii")
            else:
                embedding = [float(x) for x in vec]
            data.append({"object": "embedding", "index": i, "embedding": embedding})
        if self.mangle is not None:
            data = self.mangle(data)
        tokens = sum(len(_WORD.findall(t)) for t in inputs)
        return 200, {}, {"object": "list", "data": data, "model": model,
                         "usage": {"prompt_tokens": tokens, "total_tokens": tokens}}


def _error_headers(status: int) -> dict[str, str]:
    if status == 429 or status >= 500:
        # `Retry-After: 0` is what the brief's servers send; openai only honours a positive
        # delay, so `retry-after-ms` (which it reads first) keeps the retries fast in tests.
        return {"Retry-After": "0", "retry-after-ms": "1"}
    return {}


def _error_body(status: int, model: str, authorization: str | None,
                message: str | None = None) -> dict[str, Any]:
    kind, default = _ERRORS.get(status, ("server_error", "Something went wrong"))
    message = message or default
    key = (authorization or "").removeprefix("Bearer ")
    # Like the real API, echo (part of) the key: the app must scrub it from what it shows.
    message = message.format(model=model, key=key)
    return {"error": {"message": message, "type": kind, "param": None,
                      "code": "invalid_api_key" if status == 401 else None}}


class _QuietServer(ThreadingHTTPServer):
    daemon_threads = False  # server_close() joins them: no thread outlives a test
    block_on_close = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        pass  # a client that timed out and hung up is expected here


class _Handler(BaseHTTPRequestHandler):
    fake: FakeOpenAI

    def do_POST(self) -> None:  # noqa: N802 (http.server's name)
        if self.path.partition("?")[0].rstrip("/") != "/v1/embeddings":
            self._send(404, {}, {"error": {"message": f"no route {self.path}"}})
            return
        length = int(self.headers.get("Content-Length", "0"))
        try:
            body = json.loads(self.rfile.read(length) or b"{}")
        except json.JSONDecodeError:
            self._send(400, {}, {"error": {"message": "body is not JSON"}})
            return
        status, headers, payload = self.fake.answer(body, self.headers.get("Authorization"))
        if self.fake.raw_reply is not None:
            status, kind, raw = self.fake.raw_reply
            self._send(status, {}, raw, kind)
            return
        self._send(status, headers, payload)

    def _send(self, status: int, headers: dict[str, str], payload: Any,
              kind: str = "application/json") -> None:
        data = payload if isinstance(payload, bytes) else json.dumps(payload).encode("utf-8")
        try:
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(data)))
            for name, value in headers.items():
                self.send_header(name, value)
            self.end_headers()
            if self.fake.trickle is None:
                self.wfile.write(data)
                return
            for i in range(len(data)):  # one byte at a time until the client gives up
                if self.fake._stopping.wait(self.fake.trickle):
                    return
                self.wfile.write(data[i:i + 1])
                self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            pass

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
        pass


def closed_port_url() -> str:
    """A base URL on a loopback port nobody listens on (connection refused)."""
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"

