"""A test helper: an edit script (difflib-style opcodes) checked whole and valid."""

from __future__ import annotations


def check_script(e: str, a: str, ops) -> int:
    """The script is whole and valid (it rebuilds both texts; equal runs are equal) and returns
    its edit count."""
    assert "".join(e[i1:i2] for t, i1, i2, _j1, _j2 in ops if t != "insert") == e
    assert "".join(a[j1:j2] for t, _i1, _i2, j1, j2 in ops if t != "delete") == a
    for tag, i1, i2, j1, j2 in ops:
        if tag == "equal":
            assert e[i1:i2] == a[j1:j2]
    pos = (0, 0)
    for _tag, i1, i2, j1, j2 in ops:
        assert (i1, j1) == pos
        pos = (i2, j2)
    return sum(max(i2 - i1, j2 - j1) for t, i1, i2, j1, j2 in ops if t != "equal")
