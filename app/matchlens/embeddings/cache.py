"""The on-disk embeddings cache: SQLite under the user cache dir, keyed by (endpoint, model, text).

The text is stored only as its sha256; vectors as float32 bytes. A second run over the same
texts sends nothing. The cache is an optimisation: if the file cannot be opened, read or written
(read-only home, corrupt file, a full disk) scoring goes on without it and `problem` says why.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import sqlite3
from collections.abc import Iterable, Mapping
from pathlib import Path

import numpy as np

log = logging.getLogger(__name__)

FILENAME = "embeddings.sqlite3"
_LOOKUP_CHUNK = 500  # host parameters per SELECT (old SQLite builds allow 999)
_SCHEMA = """
CREATE TABLE IF NOT EXISTS embeddings (
    base_url    TEXT    NOT NULL,
    model       TEXT    NOT NULL,
    text_sha256 BLOB    NOT NULL,
    dim         INTEGER NOT NULL,
    vector      BLOB    NOT NULL,
    PRIMARY KEY (base_url, model, text_sha256)
) WITHOUT ROWID
"""


def default_cache_path() -> Path:
    import platformdirs

    return Path(platformdirs.user_cache_dir("matchlens")) / FILENAME


def text_key(text: str) -> bytes:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).digest()


class EmbeddingCache:
    """`get_many`/`put_many` by (base_url, model, text). Use as a context manager, one thread."""

    def __init__(self, path: Path | str | None = None) -> None:
        self.path = Path(path) if path is not None else default_cache_path()
        self.problem: str | None = None
        self._conn: sqlite3.Connection | None = None
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            conn = sqlite3.connect(self.path, timeout=10)
            conn.execute("PRAGMA journal_mode=WAL")  # the window and the CLI may share it
            conn.execute(_SCHEMA)
            conn.commit()
            self._conn = conn
            if os.name == "posix":
                os.chmod(self.path, 0o600)
        except (sqlite3.Error, OSError) as err:
            self._disable(f"cannot open {self.path}: {err}")

    def get_many(self, base_url: str, model: str, texts: Iterable[str]) -> dict[str, np.ndarray]:
        """The cached vectors among `texts` (float32 arrays), by text."""
        if self._conn is None:
            return {}
        by_key = {text_key(t): t for t in texts}
        keys = list(by_key)
        found: dict[str, np.ndarray] = {}
        try:
            for start in range(0, len(keys), _LOOKUP_CHUNK):
                chunk = keys[start:start + _LOOKUP_CHUNK]
                marks = ",".join("?" * len(chunk))
                rows = self._conn.execute(
                    "SELECT text_sha256, dim, vector FROM embeddings "
                    f"WHERE base_url = ? AND model = ? AND text_sha256 IN ({marks})",
                    (base_url, model, *chunk),
                )
                for key, dim, blob in rows:
                    if len(blob) == 4 * dim and dim > 0:  # anything else is a miss
                        found[by_key[bytes(key)]] = np.frombuffer(blob, dtype=np.float32)
        except sqlite3.Error as err:
            self._disable(f"cannot read {self.path}: {err}")
        return found

    def put_many(self, base_url: str, model: str, vectors: Mapping[str, np.ndarray]) -> None:
        if self._conn is None or not vectors:
            return
        rows = []
        for text, vec in vectors.items():
            arr = np.ascontiguousarray(vec, dtype=np.float32).ravel()
            rows.append((base_url, model, text_key(text), int(arr.size), arr.tobytes()))
        try:
            with self._conn:
                self._conn.executemany(
                    "INSERT OR REPLACE INTO embeddings VALUES (?, ?, ?, ?, ?)", rows)
        except sqlite3.Error as err:
            self._disable(f"cannot write {self.path}: {err}")

    def count(self) -> int:
        if self._conn is None:
            return 0
        return int(self._conn.execute("SELECT COUNT(*) FROM embeddings").fetchone()[0])

    def clear(self) -> int:
        """Forget every cached vector; returns how many there were (for a Settings button)."""
        if self._conn is None:
            return 0
        n = self.count()
        with self._conn:
            self._conn.execute("DELETE FROM embeddings")
        self._conn.execute("VACUUM")
        return n

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def __enter__(self) -> EmbeddingCache:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _disable(self, why: str) -> None:
        self.problem = f"embeddings cache off: {why}"
        log.warning(self.problem)
        if self._conn is not None:
            with contextlib.suppress(sqlite3.Error):
                self._conn.close()
        self._conn = None
