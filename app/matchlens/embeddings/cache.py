"""The on-disk embeddings cache: SQLite under the user cache dir, keyed by (endpoint, model, text).

The text is stored only as its sha256; vectors as float32 bytes with their dimension and a
checksum over key, dimension and bytes. A second run over the same texts sends nothing.

What is read back is not trusted: a row whose checksum, length or values are wrong (a flipped
bit, bytes overwritten) is a miss, fetched again and overwritten. A file SQLite calls damaged
("not a database", "malformed") is moved aside once (`embeddings.sqlite3.damaged`) and a new
one started, with one sentence in `problem`. Any other failure (read-only home, full disk)
turns the cache off for the run: scoring goes on without it and `problem` says why.
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

from matchlens.embeddings.redact import scrub

log = logging.getLogger(__name__)

FILENAME = "embeddings.sqlite3"
SCHEMA_VERSION = 2  # 2: a checksum per vector (version 1 rows had none: dropped)
_LOOKUP_CHUNK = 500  # host parameters per SELECT (old SQLite builds allow 999)
_SCHEMA = """
CREATE TABLE IF NOT EXISTS embeddings (
    base_url    TEXT    NOT NULL,
    model       TEXT    NOT NULL,
    text_sha256 BLOB    NOT NULL,
    dim         INTEGER NOT NULL,
    vector      BLOB    NOT NULL,
    checksum    BLOB    NOT NULL,
    PRIMARY KEY (base_url, model, text_sha256)
) WITHOUT ROWID
"""


def default_cache_path() -> Path:
    import platformdirs

    return Path(platformdirs.user_cache_dir("matchlens")) / FILENAME


def text_key(text: str) -> bytes:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).digest()


def checksum(base_url: str, model: str, key: bytes, dim: int, blob: bytes) -> bytes:
    """Ties the vector to its row: a blob moved to another text's row fails too."""
    digest = hashlib.blake2b(digest_size=16)
    for part in (base_url.encode("utf-8", "surrogatepass"), model.encode("utf-8", "surrogatepass"),
                 key, dim.to_bytes(8, "little"), blob):
        digest.update(len(part).to_bytes(8, "little"))
        digest.update(part)
    return digest.digest()


def usable(vec: np.ndarray) -> bool:
    """A vector worth scoring or caching: finite, one dimension, not all zeros."""
    return vec.ndim == 1 and vec.size > 0 and bool(np.isfinite(vec).all()) and bool(vec.any())


def _damaged(err: sqlite3.Error) -> bool:
    text = str(err).lower()
    return "not a database" in text or "malformed" in text or "corrupt" in text


class EmbeddingCache:
    """`get_many`/`put_many` by (base_url, model, text). Use as a context manager, one thread."""

    def __init__(self, path: Path | str | None = None) -> None:
        self.path = Path(path) if path is not None else default_cache_path()
        self.problem: str | None = None
        self.rejected = 0  # rows read back that failed their check (treated as misses)
        self._conn: sqlite3.Connection | None = None
        self._rebuilt = False
        self._open()

    def _open(self) -> None:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            conn = sqlite3.connect(self.path, timeout=10)
            try:
                conn.execute("PRAGMA journal_mode=WAL")  # the window and the CLI may share it
                if conn.execute("PRAGMA user_version").fetchone()[0] != SCHEMA_VERSION:
                    conn.execute("DROP TABLE IF EXISTS embeddings")  # rows without checksums
                    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
                conn.execute(_SCHEMA)
                conn.commit()
            except BaseException:
                conn.close()
                raise
            self._conn = conn
            if os.name == "posix":
                os.chmod(self.path, 0o600)
        except sqlite3.Error as err:
            if not self._rebuild(err):
                self._disable(f"cannot open {self.path}: {err}")
        except OSError as err:
            self._disable(f"cannot open {self.path}: {err}")

    def _rebuild(self, err: sqlite3.Error) -> bool:
        """Move a damaged file aside and start afresh, once; False when that is not the case."""
        if self._rebuilt or not _damaged(err):
            return False
        self._rebuilt = True
        self.close()
        aside = self.path.with_name(self.path.name + ".damaged")
        try:
            os.replace(self.path, aside)
            for suffix in ("-wal", "-shm"):
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(f"{self.path}{suffix}")
        except OSError as move_err:
            self._disable(f"{self.path} is damaged ({err}) and could not be moved aside "
                          f"({move_err.strerror or move_err})")
            return True
        self.problem = (f"embeddings cache: {self.path} was damaged ({err}); moved it to "
                        f"{aside.name} and started a new one")
        log.warning(scrub(self.problem))
        self._open()
        return True

    def get_many(self, base_url: str, model: str, texts: Iterable[str]) -> dict[str, np.ndarray]:
        """The cached vectors among `texts` (float32 arrays), by text; a row that fails its
        check is a miss."""
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
                    "SELECT text_sha256, dim, vector, checksum FROM embeddings "
                    f"WHERE base_url = ? AND model = ? AND text_sha256 IN ({marks})",
                    (base_url, model, *chunk),
                )
                for key, dim, blob, check in rows:
                    vec = self._checked(base_url, model, bytes(key), dim, blob, check)
                    if vec is None:
                        self.rejected += 1
                    else:
                        found[by_key[bytes(key)]] = vec
        except sqlite3.Error as err:
            if self._rebuild(err):
                return {}
            self._disable(f"cannot read {self.path}: {err}")
        return found

    @staticmethod
    def _checked(base_url: str, model: str, key: bytes, dim: object, blob: object,
                 check: object) -> np.ndarray | None:
        if not isinstance(dim, int) or not isinstance(blob, bytes) or dim <= 0:
            return None
        if len(blob) != 4 * dim or check != checksum(base_url, model, key, dim, blob):
            return None
        vec = np.frombuffer(blob, dtype="<f4")
        return vec if usable(vec) else None

    def put_many(self, base_url: str, model: str, vectors: Mapping[str, np.ndarray]) -> None:
        """Store usable vectors (never NaN, infinite or all-zero ones)."""
        if self._conn is None or not vectors:
            return
        rows = []
        for text, vec in vectors.items():
            arr = np.ascontiguousarray(vec, dtype="<f4").ravel()
            if not usable(arr):
                continue
            key, blob = text_key(text), arr.tobytes()
            rows.append((base_url, model, key, int(arr.size), blob,
                         checksum(base_url, model, key, int(arr.size), blob)))
        try:
            with self._conn:
                self._conn.executemany(
                    "INSERT OR REPLACE INTO embeddings VALUES (?, ?, ?, ?, ?, ?)", rows)
        except sqlite3.Error as err:
            if not self._rebuild(err):
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
        self.problem = scrub(f"embeddings cache off: {why}")
        log.warning(self.problem)
        if self._conn is not None:
            with contextlib.suppress(sqlite3.Error):
                self._conn.close()
        self._conn = None
