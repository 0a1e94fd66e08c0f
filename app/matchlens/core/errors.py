"""One exception family whose message is the sentence a user reads."""

from __future__ import annotations


def first_line(exc: BaseException) -> str:
    """A library's error in a sentence of ours: its first line, at most 200 characters."""
    text = str(exc).strip().splitlines()
    return text[0][:200] if text else type(exc).__name__


class MatchLensError(Exception):
    """Base of every error we expect a user to see as a sentence, not a traceback."""


_PREDICATES = ("is ", "has ", "have ", "does ", "cannot ", "can't ", "holds ", "contains ",
               "starts ")


class DatasetError(MatchLensError):
    """Bad input data: names the file, and the row (line) and column when known."""

    def __init__(
        self,
        message: str,
        *,
        file: str | None = None,
        row: int | None = None,
        column: str | None = None,
        unit: str = "line",
    ) -> None:
        self.file = file
        self.unit = unit  # "line" in a text file; "row" in a spreadsheet or a Parquet file
        self.row = row
        self.column = column
        self.reason = message
        super().__init__(self._sentence())

    def _sentence(self) -> str:
        where = []
        if self.file:
            where.append(str(self.file))
        if self.row is not None:
            where.append(f"{self.unit} {self.row}")
        if self.column is not None:
            where.append(f"column {self.column!r}")
        prefix = ", ".join(where)
        if not prefix:
            return self.reason
        # "data.csv, line 3 is not valid JSON", not "data.csv, line 3: is not valid JSON".
        joiner = " " if self.reason.startswith(_PREDICATES) else ": "
        return f"{prefix}{joiner}{self.reason}"


class ConfigError(MatchLensError):
    """Bad thresholds, options, metric ids or config file."""


class OutputError(MatchLensError):
    """An output file could not be written."""
