"""Header rows as people write them: empty and repeated names get unique ones, and one note.

Kaggle exports (`v1,v2,,,`), spreadsheets with a blank header cell and pandas dumps with a
repeated name must still load: a column nobody uses cannot be wrong. Only a *used* name that
is ambiguous (it appears more than once in the header) is an error, raised by the column
lookup with `ambiguous_column`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from matchlens.core.errors import DatasetError


@dataclass
class Header:
    """Unique column names, what was renamed, and the names that were repeated."""

    names: list[str]
    note: str | None = None  # one sentence for the summary, when anything was renamed
    repeated: dict[str, list[int]] = field(default_factory=dict)  # name -> 1-based positions
    line: int | None = None  # where the header is (a physical line, or a spreadsheet row)


def unique_header(raw: list[str]) -> Header:
    """`["v1", "v2", "", "v2"]` -> names `["v1", "v2", "column 3", "v2 (2)"]`.

    An empty (or blank) name becomes `column N` (N its 1-based position, as a spreadsheet
    user counts); a repeat of a name becomes `name (k)` for its k-th occurrence. A made-up
    name never collides with a real one (it takes the next free suffix).
    """
    taken = {name for name in raw if name.strip()}
    seen: dict[str, int] = {}
    names: list[str] = []
    blank: list[int] = []
    repeated: dict[str, list[int]] = {}
    for position, name in enumerate(raw, 1):
        if not name.strip():
            blank.append(position)
            names.append(_free(f"column {position}", taken))
            continue
        count = seen.get(name, 0) + 1
        seen[name] = count
        if count == 1:
            names.append(name)
            continue
        repeated.setdefault(name, [raw.index(name) + 1]).append(position)
        names.append(_free(f"{name} ({count})", taken))
    return Header(names, _note(blank, repeated, names, raw), repeated)


def _free(name: str, taken: set[str]) -> str:
    candidate, k = name, 2
    while candidate in taken:
        candidate, k = f"{name} ({k})", k + 1
    taken.add(candidate)
    return candidate


def _note(blank: list[int], repeated: dict[str, list[int]], names: list[str],
          raw: list[str]) -> str | None:
    parts = []
    if blank:
        shown = ", ".join(repr(names[p - 1]) for p in blank[:5])
        more = f" and {len(blank) - 5} more" if len(blank) > 5 else ""
        word = "column has" if len(blank) == 1 else "columns have"
        parts.append(f"{len(blank)} {word} no name in the header, now {shown}{more}")
    for name, positions in list(repeated.items())[:5]:
        renamed = ", ".join(repr(names[p - 1]) for p in positions[1:])
        parts.append(f"{name!r} repeats (columns {', '.join(map(str, positions))}), "
                     f"the repeats are now {renamed}")
    if len(repeated) > 5:
        parts.append(f"and {len(repeated) - 5} more repeated names")
    return "; ".join(parts) if parts else None


def ambiguous_column(file: str, name: str, positions: list[int], renamed: list[str],
                     header_line: int | None, unit: str = "line") -> DatasetError:
    """The error for a used column whose name the header repeats."""
    others = ", ".join(repr(n) for n in renamed)
    return DatasetError(f"the header repeats column names ({name!r} at columns "
                        f"{', '.join(map(str, positions))}), so {name!r} is ambiguous; give "
                        f"each column a different name, or use {others} for the repeat",
                        file=file, row=header_line, column=name, unit=unit)
