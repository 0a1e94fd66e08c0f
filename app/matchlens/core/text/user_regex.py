"""Regular expressions users write (`ignore_regex:`, `extract_regex:` in `--normalise`, a
config file or `--set`), run so that none can hang a run.

Python's `re` backtracks without limit: `(a+)+$` on 41 characters never ends, and the match
holds the GIL, so even Ctrl+C waited. Here patterns are compiled with the `regex` package
(re-compatible syntax, VERSION0) and every match runs with a time limit and `concurrent=True`
(the GIL released, so the Ctrl+C watcher runs at once). A match past its limit is one sentence
naming the pattern; a pattern `regex` cannot build (`a{4294967296}`) is one too.
"""

from __future__ import annotations

from typing import Any

from matchlens.core.errors import ConfigError

BASE_SECONDS = 2.0  # per text, plus PER_CHARACTER for each of its characters
PER_CHARACTER = 2e-6


class UserPattern:
    """A compiled user pattern whose matches run with a time limit."""

    __slots__ = ("_compiled", "groups", "pattern")

    def __init__(self, pattern: str, where: str = "normalise") -> None:
        import regex  # here, not at the top: a run without user patterns never pays its import

        try:
            self._compiled = regex.compile(pattern, regex.VERSION0)
        except (regex.error, OverflowError, ValueError, RecursionError, MemoryError) as err:
            raise ConfigError(f"{where}: {pattern!r} is not a valid regular expression "
                              f"({err})") from None
        self.pattern = pattern
        self.groups = self._compiled.groups

    def _limit(self, text: str) -> float:
        return BASE_SECONDS + PER_CHARACTER * len(text)

    def _too_slow(self, text: str) -> ConfigError:
        return ConfigError(
            f"the regular expression {self.pattern!r} took more than "
            f"{self._limit(text):.3g} s on one text of {len(text):,} characters, so it was "
            "stopped: it backtracks without end on such text (nested repeats like (a+)+ or "
            "(a|aa)+ do); rewrite it without a repeat inside a repeat")

    def sub(self, repl: str, text: str) -> str:
        try:
            return self._compiled.sub(repl, text, timeout=self._limit(text), concurrent=True)
        except TimeoutError:
            raise self._too_slow(text) from None

    def finditer(self, text: str) -> list[Any]:
        """Every match (a list: the time limit covers finding them all)."""
        try:
            return list(self._compiled.finditer(text, timeout=self._limit(text),
                                                concurrent=True))
        except TimeoutError:
            raise self._too_slow(text) from None
