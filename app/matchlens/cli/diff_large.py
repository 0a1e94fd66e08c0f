"""`matchlens diff` on texts too long for an exact character diff: a line diff, in seconds.

The exact script costs the product of the lengths (two unrelated 10 MB texts ran past 600 s;
100k × 100k characters takes ~2.5 s here). Above `EXACT_LIMIT` the texts are compared line by
line (each distinct line a number; rapidfuzz's banded script when at most `LINE_EDITS` lines
change, else the differing middle as one block after the common first and last lines), printed
as `-`/`+` lines like `diff`, the distance said to be skipped, and only the metrics whose cost grows with the texts'
lengths, not with their product, are scored (`LINEAR_METRICS`); the others are listed as
skipped with the reason.
"""

from __future__ import annotations

import json
from typing import TextIO

from rapidfuzz.distance import Levenshtein

EXACT_LIMIT = 10_000_000_000  # len(expected) × len(actual), in characters
LINEAR_METRICS = ("exact_match", "contains", "jaccard")
LINE_EDITS = 20_000  # line edits past which the texts are one differing block


def too_long(expected: str, actual: str) -> bool:
    return len(expected) * len(actual) > EXACT_LIMIT


def why_skipped(expected: str, actual: str) -> str:
    return (f"skipped: the texts are {len(expected):,} and {len(actual):,} characters, past "
            f"the {EXACT_LIMIT:,} (length × length) an exact character diff takes in seconds")


def line_diff(expected: str, actual: str) -> list[str]:
    """`  ` equal, `- ` expected only, `+ ` actual only, one per line, in order."""
    e, a = expected.split("\n"), actual.split("\n")
    ids: dict[str, int] = {}
    e_ids = [ids.setdefault(line, len(ids)) for line in e]
    a_ids = [ids.setdefault(line, len(ids)) for line in a]
    edits = Levenshtein.distance(e_ids, a_ids, score_cutoff=LINE_EDITS)  # banded: cheap
    if edits <= LINE_EDITS:
        script = Levenshtein.opcodes(e_ids, a_ids, score_hint=max(edits, 31)).as_list()
    else:
        script = _one_block(e_ids, a_ids)
    out = []
    for tag, i1, i2, j1, j2 in script:
        if tag == "equal":
            out.extend(f"  {line}" for line in e[i1:i2])
            continue
        out.extend(f"- {line}" for line in e[i1:i2])
        out.extend(f"+ {line}" for line in a[j1:j2])
    return out


def _one_block(e: list[int], a: list[int]) -> list[tuple[str, int, int, int, int]]:
    """The common first and last lines equal, everything between replaced."""
    head = 0
    while head < min(len(e), len(a)) and e[head] == a[head]:
        head += 1
    tail = 0
    while tail < min(len(e), len(a)) - head and e[-1 - tail] == a[-1 - tail]:
        tail += 1
    script = [("equal", 0, head, 0, head)] if head else []
    script.append(("replace", head, len(e) - tail, head, len(a) - tail))
    if tail:
        script.append(("equal", len(e) - tail, len(e), len(a) - tail, len(a)))
    return script


def write_large(out: TextIO, expected: str, actual: str, scores: dict[str, tuple],
                as_json: bool) -> None:
    """The line diff and the scores (`scores`: metric -> (score, label) or None = skipped)."""
    reason = why_skipped(expected, actual)
    lines = line_diff(expected, actual)
    if as_json:
        json.dump({"distance": None, "distance_note": reason, "lines": lines,
                   "scores": {m: ({"score": s[0], "label": s[1]} if s is not None
                                  else {"score": None, "label": None, "note": reason})
                              for m, s in scores.items()}}, out, ensure_ascii=False)
        out.write("\n")
        return
    out.write("\n".join(lines) + "\n")
    out.write(f"\ndistance: {reason}\n")
    width = max((len(m) for m in scores), default=0) + 2
    for metric_id, found in scores.items():
        shown = "skipped (too long for an exact score)" if found is None else \
            f"{found[0]:>8.2f}  {found[1]}"
        out.write(f"{metric_id:<{width}}{shown}\n")
