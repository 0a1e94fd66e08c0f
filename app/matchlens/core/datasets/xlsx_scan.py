"""What calamine does not say about an .xlsx sheet, read from its XML before calamine loads it.

- Its extent. calamine allocates the whole rectangle from A1 to the farthest cell: one stray
  cell at XFD1048576 in a 1 KB file asked for 512 GiB and aborted the process (SIGABRT), one at
  XFD6000 cost 3.8 GB. The cell references are scanned first and a sheet wider than
  `MAX_CELLS` is one sentence naming the farthest cell.
- Error cells (`#DIV/0!`, `#N/A`): calamine gives them as empty cells, which then passed
  `contains`. They are read as the error text Excel shows.
- Serial date 60: Excel shows 1900-02-29 (Lotus's leap-year bug, kept by Excel); Python has no
  such date and calamine gives 1900-02-28, the same as serial 59.

The XML is scanned in blocks cut at row ends (bounded memory), with byte regexes (C speed); the
per-cell pass runs only when a block holds an error cell or the value 60.
"""

from __future__ import annotations

import re
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

from matchlens.core.errors import DatasetError

MAX_CELLS = 50_000_000  # about 1M rows × 50 columns; calamine holds ~32 bytes a cell
_BLOCK = 8 << 20
_REF = re.compile(rb'<c\s[^>]*?\br="([^"]*)"')
_GOOD_REF = re.compile(rb"([A-Z]{1,3})([0-9]{1,7})")
_GOOD_REFS = re.compile(rb'<c\s[^>]*?\br="([A-Z]{1,3})([0-9]{1,7})"')
_MAX_ROW, _MAX_COLUMN = 1_048_576, 16_384  # XFD1048576, the last cell Excel has
_CELL = re.compile(rb'<c\s([^>]*?)(?:/>|>(.*?)</c>)', re.S)
_ATTR = re.compile(rb'\b(r|t)="([^"]*)"')
_VALUE = re.compile(rb"<v>([^<]*)</v>")
_SIXTY = re.compile(rb"<v>60(?:\.[0-9]+)?</v>")
_SHEET = re.compile(rb'<sheet\s[^>]*?\bname="([^"]*)"[^>]*?\br:id="([^"]*)"')
_RELATION = re.compile(rb'<Relationship\s[^>]*?\bId="([^"]*)"[^>]*?\bTarget="([^"]*)"')
_RELATION_REVERSED = re.compile(rb'<Relationship\s[^>]*?\bTarget="([^"]*)"[^>]*?\bId="([^"]*)"')


@dataclass
class SheetFacts:
    """Where the sheet's farthest cell is, its error cells and its serial-60 cells (0-based
    (row, column) positions)."""

    rows: int = 0
    columns: int = 0
    errors: dict[tuple[int, int], str] = field(default_factory=dict)
    sixty: dict[tuple[int, int], str] = field(default_factory=dict)  # position -> its <v>
    bad: str | None = None  # a cell reference that is no cell of Excel's (damaged file)
    # merged ranges calamine does not report (an .ods's): ((top, left), (bottom, right))
    merged: list[tuple[tuple[int, int], tuple[int, int]]] = field(default_factory=list)


def column_number(letters: bytes) -> int:
    """b"A" -> 1, b"Z" -> 26, b"AA" -> 27, b"XFD" -> 16384."""
    n = 0
    for byte in letters:
        n = n * 26 + byte - 64
    return n


def column_letters(n: int) -> str:
    out = ""
    while n:
        n, rest = divmod(n - 1, 26)
        out = chr(65 + rest) + out
    return out


def scan_sheet(path: Path, sheet: str, index: int, file: str) -> SheetFacts | None:
    """The facts of sheet `sheet` (its `index` among the sheets), or None when the file is not
    an .xlsx this can read (an .ods, an .xls: calamine alone then)."""
    try:
        with zipfile.ZipFile(path) as book:
            member = _sheet_member(book, sheet, index)
            if member is None:
                return None
            with book.open(member) as handle:
                facts = _scan(handle)
    except (zipfile.BadZipFile, OSError, KeyError, EOFError, RuntimeError, ValueError):
        return None  # calamine says what is wrong with the file, in its words
    if facts.bad is not None:
        raise DatasetError(f"sheet {sheet!r} is damaged: it has a cell at {facts.bad!r}, not a "
                           "cell Excel has (columns A to XFD, rows 1 to 1048576)", file=file)
    if facts.rows * facts.columns > MAX_CELLS:
        far = f"{column_letters(facts.columns)}{facts.rows}"
        raise DatasetError(
            f"sheet {sheet!r} reaches cell {far} ({facts.rows:,} rows × {facts.columns:,} "
            f"columns), more than the {MAX_CELLS:,} cells this reads; delete what is at the "
            "far end (Ctrl+End in Excel shows it) or copy the table to a new sheet",
            file=file)
    return facts


def _sheet_member(book: zipfile.ZipFile, sheet: str, index: int) -> str | None:
    names = set(book.namelist())
    try:
        workbook = book.read("xl/workbook.xml")
        rels = book.read("xl/_rels/workbook.xml.rels")
    except KeyError:
        return None
    targets = {rid: target for rid, target in _RELATION.findall(rels)}
    targets.update({rid: target for target, rid in _RELATION_REVERSED.findall(rels)})
    for name, rid in _SHEET.findall(workbook):
        if _unescape(name) == sheet and rid in targets:
            target = targets[rid].decode("utf-8", "replace")
            member = target.lstrip("/") if target.startswith("/") else f"xl/{target}"
            return member if member in names else None
    fallback = f"xl/worksheets/sheet{index + 1}.xml"
    return fallback if fallback in names else None


def _unescape(name: bytes) -> str:
    import html

    return html.unescape(name.decode("utf-8", "replace"))


def _scan(handle) -> SheetFacts:
    facts = SheetFacts()
    carry = b""
    while True:
        block = handle.read(_BLOCK)
        data = carry + block
        if block:
            cut = data.rfind(b"</row>")
            if cut < 0 and len(data) < 8 * _BLOCK:
                carry = data
                continue
            cut = len(data) if cut < 0 else cut + len(b"</row>")
            data, carry = data[:cut], data[cut:]
        _scan_block(data, facts)
        if not block or facts.bad is not None:
            return facts


def _worst(good: list[tuple[bytes, bytes]]) -> str:
    """The first reference past Excel's last cell, or at row 0."""
    for letters, digits in good:
        if column_number(letters) > _MAX_COLUMN or not 1 <= int(digits) <= _MAX_ROW:
            return (letters + digits).decode("ascii")
    return ""


def _scan_block(data: bytes, facts: SheetFacts) -> None:
    good = _GOOD_REFS.findall(data)  # one C pass; Python sees only the distinct letters
    if good:
        facts.columns = max(facts.columns, *map(column_number, {c for c, _ in good}))
        rows = [int(r) for _, r in good]
        facts.rows = max(facts.rows, max(rows))
        if min(rows) < 1:  # "A0"
            facts.bad = _worst(good)
            return
    refs = _REF.findall(data) if len(good) != data.count(b"<c ") else ()
    for ref in refs:  # only when some reference is not a plain A1 one
        match = _GOOD_REF.fullmatch(ref)
        if match is None:
            facts.bad = ref.decode("utf-8", "replace")[:40]
            return
    if not (facts.columns <= _MAX_COLUMN and facts.rows <= _MAX_ROW):
        facts.bad = _worst(good)
        return
    hits = [m.start() for m in _SIXTY.finditer(data)]  # few: errors and the value 60 only
    error = data.find(b' t="e"')
    while error >= 0:
        hits.append(error)
        error = data.find(b' t="e"', error + 1)
    for pos in hits:
        begin = data.rfind(b"<c ", 0, pos)
        cell = _CELL.match(data, begin) if begin >= 0 else None
        if cell is None:
            continue
        found = dict(_ATTR.findall(cell.group(1)))
        ref = found.get(b"r")
        value = _VALUE.search(cell.group(2) or b"")
        match = _GOOD_REF.fullmatch(ref) if ref is not None else None
        if value is None or match is None:
            continue
        at = (int(match.group(2)) - 1, column_number(match.group(1)) - 1)
        kind = found.get(b"t", b"n")
        if kind == b"e":
            facts.errors[at] = value.group(1).decode("utf-8", "replace")
        elif kind == b"n" and _SIXTY.fullmatch(value.group(0)):
            facts.sixty[at] = value.group(1).decode("ascii")
