"""Where a readable diff's changes are: the exact script's runs merged and grown to words.

Steps 1 and 2 of `core.readable` (see its docstring): the semantic merge (diff-match-patch's
rule, plus whitespace and line breaks kept apart) and the word extension. The result is a list of
change regions; `readable_pieces` cuts each into chunks.
"""

from __future__ import annotations

from collections.abc import Sequence

from matchlens.core.text.word_edges import WordEdges


def is_blank(e: str, a: str, i1: int, i2: int, j1: int, j2: int) -> bool:
    """Whether a change is whitespace only (on both sides)."""
    return (e[i1:i2] + a[j1:j2]).isspace()


def merge_semantic(ops: Sequence[tuple[str, int, int, int, int]], e: str, a: str
                    ) -> list[list[int]]:
    """Change regions [i1, i2, j1, j2] after absorbing equalities no longer than the edits on
    both sides (diff-match-patch's semantic rule; a stack instead of its rescans).

    A whitespace-only change absorbs nothing and is not absorbed: "a + b" against "a+b" is two
    deleted spaces around a kept "+", each visible as whitespace (the view marks those as
    ignorable), not one replacement of " + b" by "+b". An equality holding a line break is
    kept too: lines are structure a reader follows (a sentence added on a new line stays an
    insertion after the kept line break)."""
    merged: list[list[int]] = []
    # Whether each merged change is whitespace only, kept beside it so that a change growing
    # by merges is never re-read (a gap merge joins two non-blank changes: never blank).
    blank: list[bool] = []
    for tag, i1, i2, j1, j2 in ops:
        if tag == "equal":
            continue
        if merged and merged[-1][1] == i1 and merged[-1][3] == j1:
            merged[-1][1], merged[-1][3] = i2, j2  # touching runs: one change
            blank[-1] = blank[-1] and is_blank(e, a, i1, i2, j1, j2)
            continue
        merged.append([i1, i2, j1, j2])
        blank.append(is_blank(e, a, i1, i2, j1, j2))
        # The equality between the last two changes, and so on backwards while they merge.
        while len(merged) >= 2:
            before, after = merged[-2], merged[-1]
            gap = after[0] - before[1]
            if (gap <= max(before[1] - before[0], before[3] - before[2])
                    and gap <= max(after[1] - after[0], after[3] - after[2])
                    and not blank[-2] and not blank[-1]
                    and "\n" not in e[before[1]:after[0]]):
                merged[-2:] = [[before[0], after[1], before[2], after[3]]]
                blank.pop()
            else:
                break
    return merged


def extend_to_words(e: str, a: str, changes: list[list[int]],
                     e_mask: bytes | None = None, a_mask: bytes | None = None
                     ) -> list[list[int]]:
    """Grow each change to word edges, merging changes one word fragment apart.

    A change keeps its original bounds as a fifth item while it merges with no other, so that
    a small one (a typo) can be written from the exact script as it is (see `readable_pieces.write_typo`)."""
    e_edges, a_edges = WordEdges(e, e_mask), WordEdges(a, a_mask)
    e_split, a_split = e_edges.split, a_edges.split
    out: list[list] = []
    for i1, i2, j1, j2 in changes:
        original = (i1, i2, j1, j2)
        # Left edge: absorb the word fragment that ends the equality before.
        while e_split[i1] or a_split[j1]:
            floor = out[-1][1] if out else 0
            k = e_edges.word_start(i1, floor)
            i1, j1 = k, j1 - (i1 - k)
            if out and k == floor:  # the whole equality was a word fragment: one change
                prev = out.pop()
                i1, j1, original = prev[0], prev[2], None
                continue
            break
        out.append([i1, i2, j1, j2, original])
    # Right edges, right to left, so a grown change can reach the next one.
    done: list[list] = []
    for i1, i2, j1, j2, original in reversed(out):
        while e_split[i2] or a_split[j2]:
            ceiling = done[-1][0] if done else len(e)
            k = e_edges.word_end(i2, ceiling)
            i2, j2 = k, j2 + (k - i2)
            if done and k == ceiling:
                nxt = done.pop()
                i2, j2, original = nxt[1], nxt[3], None
                continue
            break
        done.append([i1, i2, j1, j2, original])
    done.reverse()
    return done
