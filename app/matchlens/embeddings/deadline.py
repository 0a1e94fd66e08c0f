"""One overall deadline per HTTP request, however slowly the server trickles its answer.

httpx's timeouts are per socket operation: a server that sends one byte every 2 s never trips a
30 s read timeout and holds the run forever. Here every read, write and connect of a request's
connection gets at most the time left until that request's deadline, and none at all once it
has passed (`httpcore2.ReadTimeout`, which openai reports as `APITimeoutError`).

`deadline_http_client(seconds, on_request)` builds the httpx client the openai client uses: the
deadline starts when a request (each retry too) is handed to the transport.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from typing import Any


class Deadline:
    """The monotonic time the current request must be done by (None: no request running)."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.at: float | None = None

    def start(self) -> None:
        self.at = time.monotonic() + self.seconds

    def left(self, timeout: float | None) -> float | None:
        """The timeout to give one socket operation: never beyond the deadline."""
        if self.at is None:
            return timeout
        remaining = self.at - time.monotonic()
        if remaining <= 0:
            import httpcore2

            raise httpcore2.ReadTimeout(f"no complete answer within {self.seconds:g} s")
        return remaining if timeout is None else min(timeout, remaining)


def deadline_http_client(seconds: float, on_request: Callable[[Any], None]) -> Any:
    """An openai-ready httpx client whose every request must finish within `seconds`."""
    import httpcore2
    import httpx2
    import openai

    deadline = Deadline(seconds)

    def started(request: Any) -> None:
        deadline.start()
        on_request(request)

    transport = httpx2.HTTPTransport()
    pool = getattr(transport, "_pool", None)
    if isinstance(pool, httpcore2.ConnectionPool):  # a proxy pool keeps its own backend
        pool._network_backend = _Backend(pool._network_backend, deadline)
    return openai.DefaultHttpxClient(transport=transport,
                                     event_hooks={"request": [started]})


class _Stream:
    def __init__(self, inner: Any, deadline: Deadline) -> None:
        self._inner = inner
        self._deadline = deadline

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        return self._inner.read(max_bytes, self._deadline.left(timeout))

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        self._inner.write(buffer, self._deadline.left(timeout))

    def close(self) -> None:
        self._inner.close()

    def start_tls(self, ssl_context: Any, server_hostname: str | None = None,
                  timeout: float | None = None) -> _Stream:
        return _Stream(self._inner.start_tls(ssl_context, server_hostname,
                                             self._deadline.left(timeout)), self._deadline)

    def get_extra_info(self, info: str) -> Any:
        return self._inner.get_extra_info(info)


class _Backend:
    def __init__(self, inner: Any, deadline: Deadline) -> None:
        self._inner = inner
        self._deadline = deadline

    def connect_tcp(self, host: str, port: int, timeout: float | None = None,
                    local_address: str | None = None,
                    socket_options: Iterable[Any] | None = None) -> _Stream:
        return _Stream(self._inner.connect_tcp(host, port, self._deadline.left(timeout),
                                               local_address, socket_options), self._deadline)

    def connect_unix_socket(self, path: str, timeout: float | None = None,
                            socket_options: Iterable[Any] | None = None) -> _Stream:
        return _Stream(self._inner.connect_unix_socket(path, self._deadline.left(timeout),
                                                       socket_options), self._deadline)

    def sleep(self, seconds: float) -> None:
        self._inner.sleep(seconds)
