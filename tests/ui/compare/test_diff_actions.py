"""ui.compare.diff_actions: Copy diff (plain `[-…-]{+…+}` text and HTML on the clipboard) and
Save diff as HTML, from the highlight the compare view shows (readable or exact)."""

from __future__ import annotations

import re

import html5lib
import pytest
from PySide6.QtWidgets import QApplication

from tests.ui.conftest import set_pair

EXPECTED = "such as glucose."
ACTUAL = "like glucose and starch. Oxygen is released as a byproduct."
MARK = re.compile(r"\[-(.*?)-\]|\{\+(.*?)\+\}", re.S)


@pytest.fixture(autouse=True)
def empty_clipboard():
    """Leave the clipboard empty: mime data still owned by it when the test process's
    QApplication goes away crashes the offscreen platform at exit."""
    yield
    QApplication.clipboard().clear()


def sides(plain: str) -> tuple[str, str]:
    """The two texts a marked diff holds: deleted + equal, inserted + equal."""
    return (MARK.sub(lambda m: m.group(1) or "", plain),
            MARK.sub(lambda m: m.group(2) or "", plain))


def test_copy_diff_is_the_readable_highlight(qtbot, compare_tab) -> None:
    set_pair(qtbot, compare_tab, EXPECTED, ACTUAL)
    assert compare_tab.diff_actions.copy()
    data = QApplication.clipboard().mimeData()
    # the view draws "such as" -> "like" and the inserted sentence (test_compare_readable.py)
    assert data.text() == ("[-such as-]{+like+} glucose{+ and starch. Oxygen is released as a "
                           "byproduct+}.")
    tree = html5lib.parse(data.html(), treebuilder="etree", namespaceHTMLElements=False)
    assert [d.text for d in tree.iter("del")] == ["such as"]
    assert [i.text for i in tree.iter("ins")] == ["like", " and starch. Oxygen is released as "
                                                          "a byproduct"]


def test_copy_diff_in_the_exact_view_rebuilds_both_texts(qtbot, compare_tab) -> None:
    compare_tab.set_view("exact")
    set_pair(qtbot, compare_tab, EXPECTED, ACTUAL)
    assert compare_tab.diff_actions.copy()
    plain = QApplication.clipboard().text()
    assert sides(plain) == (EXPECTED, ACTUAL)
    # the minimal script matches scattered letters: not the readable view's two pieces
    assert plain != ("[-such as-]{+like+} glucose{+ and starch. Oxygen is released as a "
                     "byproduct+}.")


def test_save_diff_as_html(qtbot, compare_tab, tmp_path) -> None:
    set_pair(qtbot, compare_tab, "<b>a</b> & b", "<i>a</i> & c")
    path = tmp_path / "diff.html"
    assert compare_tab.diff_actions.save(path)
    tree = html5lib.parse(path.read_text(encoding="utf-8"), treebuilder="etree",
                          namespaceHTMLElements=False)
    assert not list(tree.iter("b")) and not list(tree.iter("i"))  # the texts stay text
    diff, expected, actual = [d for d in tree.iter("div") if d.get("class") == "diff"]
    assert "".join(expected.itertext()) == "<b>a</b> & b"
    assert "".join(actual.itertext()) == "<i>a</i> & c"
    deleted = "".join(t for d in diff.iter("del") for t in d.itertext())
    inserted = "".join(t for i in diff.iter("ins") for t in i.itertext())
    assert deleted and inserted  # b→i, b→c (however the highlight cuts them)
