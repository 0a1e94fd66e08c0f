"""Human pass/fail labels of one dataset: the data's label column plus what a person changed.

The label column (when mapped) is the starting point; every change a person makes is an entry
in the sidecar (`labels.sidecar`), which is rewritten atomically after each change. The input
file is never touched. Labels belong to a (row, variant): with several actual columns a person
judges the output on screen, and the data's label column is the start for every variant.

An entry exists only while it says something the data does not: a label other than the
column's, or a note. Entries of the sidecar that match no row or variant of this mapping are
kept (and written back) untouched, and counted.

Two windows (or a window and a script) may label the same dataset at once. Each remembers
which (row, variant) it changed since its last save; a save locks the sidecar's folder
(`sidecar.locked`), re-reads the file, lays its own changes over what is there and writes the
result, then shows it: the other window's labels are merged, never overwritten. The same
(row, variant) changed in both: the later save wins for that one. Pure Python + numpy, no Qt.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from matchlens.core.errors import DatasetError, OutputError
from matchlens.core.labels.location import LabelsHome, away_path, locate
from matchlens.core.labels.sidecar import (
    FAIL,
    NONE,
    PASS,
    Entry,
    locked,
    now_text,
    read_sidecar,
    set_aside,
    sidecar_path,
    write_entries,
)

__all__ = ["FAIL", "NONE", "PASS", "Labels", "Snapshot", "next_unlabelled", "sidecar_path"]


@dataclass(frozen=True)
class Snapshot:
    """Every entry at one moment (what Clear all undoes to)."""

    entries: tuple[Entry, ...]


class Labels:
    def __init__(self, rows: int, variants: Sequence[str], base: np.ndarray | None = None,
                 ids: Sequence[str | None] | None = None, path: Path | None = None) -> None:
        self.rows = rows
        self.variants = tuple(variants)
        self.base = (np.full(rows, NONE, np.int8) if base is None
                     else np.asarray(base, dtype=np.int8).copy())
        self.has_base = base is not None
        self.path = path  # the sidecar; None = kept in memory only
        self.data: Path | None = None  # the dataset (set by `open`)
        self.home: LabelsHome | None = None  # where `open` found the labels belong
        self._told_where = False  # said once where labels kept away from the data are
        # The caller's id column itself, never a copy: at a million rows a copy and an id -> row
        # dict cost ~100 MB and a second in the window; `_id_rows` looks up only the ids read.
        self._ids = ids if ids is None or isinstance(ids, Sequence) else list(ids)
        self._entries: dict[tuple[int, str], Entry] = {}
        self._foreign: list[Entry] = []  # read, but no row or variant of this mapping
        # (row, variant) -> the entry this window gave it since the last save (None: removed)
        self._changed: dict[tuple[int, str], Entry | None] = {}
        self._codes = {v: self.base.copy() for v in self.variants}

    # -- opening ---------------------------------------------------------------------------------
    @classmethod
    def open(cls, data: Path, rows: int, variants: Sequence[str], base: np.ndarray | None = None,
             ids: Sequence[str | None] | None = None) -> tuple[Labels, str]:
        """The labels of `data` (its sidecar read when there is one) and a sentence for the
        user ('' when there is nothing to say). An unreadable sidecar is renamed aside, never
        overwritten, and labelling starts from the data's column."""
        home = locate(data)
        path = home.path
        labels = cls(rows, variants, base, ids, path)
        labels.data, labels.home = Path(data), home
        source = home.source()
        if source is None:
            return labels, ""
        try:
            entries = read_sidecar(source)
        except DatasetError as err:
            if source != path:  # beside a read-only dataset: not ours to move, never written
                labels._told_where = True
                return labels, f"{err}. Labelling starts afresh; your labels are saved in {path}."
            try:
                kept = set_aside(path)
            except OSError as move:
                labels.path = None  # never overwrite a file we could not read or move
                return labels, (f"{err}. It could not be moved aside ({move.strerror or move}), "
                                "so new labels are kept in memory only.")
            return labels, f"{err}. It was kept as {kept.name}; labelling starts afresh."
        labels.load(entries)
        n, foreign = len(labels._entries), len(labels._foreign)
        sentence = (f"Restored {n:,} label change{'' if n == 1 else 's'} from "
                    f"{source if home.away else source.name}.")
        if foreign:
            sentence += (f" {foreign:,} of its lines {'matches' if foreign == 1 else 'match'} "
                         f"no row or variant of this mapping; "
                         f"{'it is' if foreign == 1 else 'they are'} kept in the file.")
        if home.away:
            labels._told_where = True
            sentence += (f" The folder of {Path(data).name} cannot be written: your changes "
                         f"are saved in {path}." if source != path else
                         " (Labels of a file whose folder cannot be written are kept there.)")
        return labels, sentence

    def load(self, entries: Sequence[Entry]) -> None:
        """Take entries as read from a sidecar: matched to rows by id (when unique) or number."""
        self._entries, self._foreign = self._matched(entries)
        self._changed = {}
        self._recompute()

    def _matched(self, entries: Sequence[Entry]
                 ) -> tuple[dict[tuple[int, str], Entry], list[Entry]]:
        """(entries of this mapping by (row, variant), the others) of entries read from disk."""
        mine: dict[tuple[int, str], Entry] = {}
        foreign: list[Entry] = []
        id_rows = self._id_rows({e.id for e in entries if e.id})
        for e in entries:
            row = self._match(e, id_rows)
            known = e.variant == "" or e.variant in self.variants
            if row is None or not known:
                foreign.append(e)
            else:
                mine[(row, e.variant)] = replace(e, row=row)
        return mine, foreign

    def _id_rows(self, wanted: set[str]) -> dict[str, int]:
        """The row of each id in `wanted` that exactly one row has (one pass over the ids)."""
        if not wanted or self._ids is None:
            return {}
        rows: dict[str, int] = {}
        repeated: set[str] = set()
        for r, i in enumerate(self._ids):
            if i in wanted:
                if i in rows:
                    repeated.add(i)
                else:
                    rows[i] = r
        for i in repeated:
            del rows[i]
        return rows

    def _match(self, e: Entry, id_rows: dict[str, int]) -> int | None:
        if e.id and self._ids is not None:
            if e.id in id_rows:
                return id_rows[e.id]
            # not unique (or gone): only the same row number with the same id will do
            return e.row if e.row < self.rows and self._ids[e.row] == e.id else None
        return e.row if e.row < self.rows else None

    def _recompute(self) -> None:
        self._codes = {v: self.base.copy() for v in self.variants}
        # Entries for every variant (variant "") first; a variant's own entry wins.
        for (row, variant), e in sorted(self._entries.items(), key=lambda kv: kv[0][1] != ""):
            for v in (self.variants if variant == "" else (variant,)):
                self._codes[v][row] = e.label

    # -- reading ---------------------------------------------------------------------------------
    def codes(self, variant: str) -> np.ndarray:
        """int8 per row: PASS, FAIL or NONE (read-only: change labels through `set`)."""
        view = self._codes[variant].view()
        view.flags.writeable = False
        return view

    def label(self, row: int, variant: str) -> int:
        return int(self._codes[variant][row])

    def note(self, row: int, variant: str) -> str:
        e = self._entries.get((row, variant)) or self._entries.get((row, ""))
        return e.note if e is not None else ""

    def state(self, row: int, variant: str) -> tuple[int, str]:
        return self.label(row, variant), self.note(row, variant)

    def labelled(self, variant: str) -> int:
        return int(np.count_nonzero(self._codes[variant] >= 0))

    def changes(self) -> int:
        """How many entries the sidecar holds for this mapping (human changes and notes)."""
        return len(self._entries)

    def counter_text(self, variant: str) -> str:
        return f"{self.labelled(variant):,} of {self.rows:,} labelled"

    # -- changing --------------------------------------------------------------------------------
    def set(self, row: int, variant: str, label: int, note: str | None = None) -> str:
        """Give (row, variant) a label (and a note, None = keep it), then save; returns
        `save`'s sentence."""
        if not 0 <= row < self.rows or variant not in self.variants:
            raise IndexError(f"no row {row + 1} / variant {variant!r} in these labels")
        note = self.note(row, variant) if note is None else note
        start = self._start(row, variant)
        key = (row, variant)
        if label == start and not note:
            self._entries.pop(key, None)
        else:
            self._entries[key] = Entry(row, self._id(row), variant, label, note, now_text())
        self._changed[key] = self._entries.get(key)
        self._codes[variant][row] = label
        return self.save()

    def _start(self, row: int, variant: str) -> int:
        """What (row, variant) holds without an entry of its own."""
        every = self._entries.get((row, ""))
        return every.label if every is not None else int(self.base[row])

    def _id(self, row: int) -> str:
        return (self._ids[row] or "") if self._ids is not None else ""

    def snapshot(self) -> Snapshot:
        return Snapshot(tuple(self._entries.values()))

    def restore(self, snapshot: Snapshot) -> str:
        """Put a snapshot back. An empty one (Clear all) removes every entry this window shows;
        another (the undo of Clear all) puts its entries back and leaves the rest: an entry
        it lacks came from another window since (this window's own later changes are undone
        before a Clear all is)."""
        after = {(e.row, e.variant): e for e in snapshot.entries}
        if after:
            after = {**self._entries, **after}
        for key in {*self._entries, *after}:  # every key whose entry differs is a change
            if self._entries.get(key) != after.get(key):
                self._changed[key] = after.get(key)
        self._entries = after
        self._recompute()
        return self.save()

    def clear_all(self) -> Snapshot:
        """Forget every change (back to the data's label column, or none); returns what was."""
        before = self.snapshot()
        self.restore(Snapshot(()))
        return before

    def save(self) -> str:
        """Rewrite the labels file atomically. Returns a sentence to show once when the labels
        are not beside the data, where a person would look ('' otherwise). When the data's
        folder refuses the file, the labels go to the user's data folder instead; OutputError
        only when neither place can be written."""
        if self.path is None:
            return ""
        if not self._entries and not self._foreign and not self.path.exists():
            return ""  # nothing to say: no empty file beside the user's data
        try:
            with locked(self.path):
                self._merge_from_disk()
                _write(self.path, [*self._entries.values(), *self._foreign])
            self._changed = {}
        except OutputError as err:
            entries = [*self._entries.values(), *self._foreign]
            if self.data is None or (self.home is not None and self.home.away):
                raise OutputError(f"{err}; the labels are kept in this window, not on disk"
                                  ) from None
            away = away_path(self.data)  # the folder turned read-only since it was opened
            try:
                _write(away, entries)
                self._changed = {}
            except OutputError as also:
                raise OutputError(f"{err}; {also}; the labels are kept in this window, not on "
                                  "disk") from None
            self.path, self.home, self._told_where = away, LabelsHome(away, away=True), True
            return f"{err}; your labels are saved in {away} instead."
        if self.home is not None and self.home.away and not self._told_where:
            self._told_where = True
            name = self.data.name if self.data is not None else "the data"
            return f"The folder of {name} cannot be written, so your labels are saved in {self.path}."
        return ""

    def _merge_from_disk(self) -> None:
        """What the file holds now (another window may have saved), with this window's changes
        since its last save laid over it. A file that cannot be read is left to `open`'s
        handling: this window's state is written as it is."""
        if not self.path.exists():
            return
        try:
            on_disk = read_sidecar(self.path)
        except DatasetError:
            return
        entries, foreign = self._matched(on_disk)
        for key, entry in self._changed.items():
            if entry is None:
                entries.pop(key, None)
            else:
                entries[key] = entry
        self._entries, self._foreign = entries, foreign
        self._recompute()

    def export(self, path: Path) -> int:
        """Every labelled (or noted) row of every variant with its label's source; the count."""
        out = []
        for v in self.variants:
            codes = self._codes[v]
            rows = np.flatnonzero(codes >= 0).tolist()
            noted = {r for (r, var), e in self._entries.items() if e.note and var in ("", v)}
            for row in sorted(set(rows) | noted):
                e = self._entries.get((row, v)) or self._entries.get((row, ""))
                out.append(Entry(row, self._id(row), v, int(codes[row]),
                                 e.note if e else "", e.time if e else ""))
        write_entries(path, out)
        return len(out)


def _write(path: Path, entries: list[Entry]) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)  # the user's data folder, at first use
    except OSError as err:
        raise OutputError(f"{path.parent}: cannot be made ({err.strerror or err})") from None
    write_entries(path, entries)


def next_unlabelled(order: np.ndarray, codes: np.ndarray, current: int | None,
                    wanted: np.ndarray | None = None) -> int | None:
    """The first row after `current` in `order` (view order, wrapping around) that has no
    label (and is `wanted`, e.g. failing); None when there is none."""
    if order.size == 0:
        return None
    ok = codes[order] < 0
    if wanted is not None:
        ok &= wanted[order]
    hits = np.flatnonzero(ok)
    if hits.size == 0:
        return None
    start = -1  # a current row the filter hides: from the top
    if current is not None:
        where = np.flatnonzero(order == current)
        if where.size:
            start = int(where[0])
    after = hits[hits > start]
    return int(order[after[0] if after.size else hits[0]])
