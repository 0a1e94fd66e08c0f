"""The file formats read here, in one registry: each format's id (`--format`), label, file
name suffixes, first bytes, its whole-file reader and its piece (streaming) reader.

A reader module registers its formats with `@data_format(...)` on the whole-file reader;
importing the package `matchlens.core.datasets` imports them all (`readers`), so the lookups
here (the CLI's `--format` choices, the window's Open dialog filter and drop target, which
reader a file name or a file's first bytes call for) always see every format.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from matchlens.core.datasets.table import Table


@dataclass(frozen=True)
class Request:
    """What a reader is asked: the regular file to read (`real`: standard input's copy, say),
    the path tables carry (`display`), how messages name the input, and the options."""

    real: Path
    display: Path
    name: str
    encoding: str | None = None
    delimiter: str | None = None
    records: str | None = None
    sheet: str | None = None
    cancel: Callable[[], bool] | None = None
    # Pieces may add columns (at the end) as keys first appear: JSON Lines is then read in one
    # pass instead of two (a first pass collects every key for a header written first).
    growing: bool = False

    @property
    def table_name(self) -> str | None:
        """A table's `name`: None when messages name the input by its path."""
        return None if self.name == str(self.display) else self.name


WholeReader = Callable[[Request], "Table"]
PieceReader = Callable[[Request, int], Iterator["Table"]]


@dataclass(frozen=True)
class Format:
    id: str  # the `--format` value
    label: str  # what people call it
    order: int  # where `--format`, the Open dialog and messages list it: ascending
    suffixes: tuple[str, ...]
    read: WholeReader
    # The file in tables of about `chunk_rows` rows, never held whole; None: read whole, then
    # handed out in pieces.
    pieces: PieceReader | None = None
    magic: tuple[bytes, ...] = ()  # first bytes that say this format when the name does not
    sheets: bool = False  # a spreadsheet: `--sheet` applies
    records: bool = False  # a JSON document: `--records` applies


# id -> Format, kept in `order` whatever order the reader modules were imported in.
FORMATS: dict[str, Format] = {}


def data_format(*, id: str, label: str, order: int, suffixes: tuple[str, ...],  # noqa: A002
                pieces: PieceReader | None = None, magic: tuple[bytes, ...] = (),
                sheets: bool = False, records: bool = False,
                ) -> Callable[[WholeReader], WholeReader]:
    """Register the decorated whole-file reader as format `id` (the `--format` value)."""
    def register(read: WholeReader) -> WholeReader:
        new = Format(id, label, order, suffixes, read, pieces, magic, sheets, records)
        ordered = sorted([*(f for f in FORMATS.values() if f.id != id), new],
                         key=lambda fmt: fmt.order)
        FORMATS.clear()
        FORMATS.update((fmt.id, fmt) for fmt in ordered)
        return read
    return register


def format_ids() -> tuple[str, ...]:
    """Every `--format` value, in order."""
    return tuple(FORMATS)


def by_suffix(name: str | os.PathLike) -> Format | None:
    suffix = Path(name).suffix.lower()
    return next((fmt for fmt in FORMATS.values() if suffix in fmt.suffixes), None)


def by_magic(head: bytes) -> Format | None:
    """The format whose first bytes `head` starts with (a binary format), or None."""
    return next((fmt for fmt in FORMATS.values()
                 if any(head.startswith(magic) for magic in fmt.magic)), None)


def all_suffixes() -> list[str]:
    return [suffix for fmt in FORMATS.values() for suffix in fmt.suffixes]


def open_filter() -> str:
    """The Open dialog's filter: every suffix read here (the window offers what it reads)."""
    return ("Datasets (" + " ".join(f"*{suffix}" for suffix in all_suffixes())
            + ");;All files (*)")


def is_dataset_name(name: str) -> bool:
    """True for a name whose extension is a format read here (or none: sniffed)."""
    suffix = Path(name).suffix.lower()
    return suffix in all_suffixes() or suffix in ("", ".txt")
