"""Help ▸ Keyboard shortcuts lists every shortcut, read from the window's actions when it opens
(so a new one is listed without anyone editing the dialog); Esc in the compare view returns to
the Batch tab's table on the row it showed (issue 24, item 9)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from matchlens.ui.config_model import ConfigModel
from matchlens.ui.main_window import MainWindow
from tests.ui.batch_support import load, small_dataset


@pytest.fixture
def window(qtbot):
    win = MainWindow(ConfigModel(), restore=False)
    qtbot.addWidget(win)
    with qtbot.waitActive(win):  # shortcuts answer in the active window only
        win.show()
        win.activateWindow()
    yield win
    win.shutdown()


def _native(action: QAction) -> set[str]:
    return {s.toString(QKeySequence.SequenceFormat.NativeText) for s in action.shortcuts()}


def test_every_action_shortcut_is_listed_and_a_new_one_too(window):
    window.batch_tab  # noqa: B018 - made on first use; its Label actions join the menus
    dialog = window.show_shortcuts()
    listed = {(what, keys) for _where, what, keys in dialog.rows}
    listed_keys = {key for _w, _t, keys in dialog.rows for key in keys.split(", ")}
    with_keys = [a for a in window.findChildren(QAction) if a.shortcuts() and a.text()]
    assert len(with_keys) > 15  # the menus' shortcuts, found by Qt, not by the dialog
    for action in with_keys:
        assert _native(action) <= listed_keys, action.text()
    assert ("Keyboard shortcuts", QKeySequence(QKeySequence.StandardKey.HelpContents)
            .toString(QKeySequence.SequenceFormat.NativeText)) in listed
    assert any(what == "Back to the table" and keys == "Esc" for what, keys in listed)
    dialog.close()
    # A new action is listed the next time, with no change to the dialog.
    extra = QAction("Zoom the moon", window)
    extra.setShortcut("Ctrl+Alt+M")
    window.menuBar().actions()[0].menu().addAction(extra)
    rows = window.show_shortcuts().rows
    assert ("File", "Zoom the moon", QKeySequence("Ctrl+Alt+M").toString(
        QKeySequence.SequenceFormat.NativeText)) in rows


@pytest.mark.qt_log_ignore("propagateSizeHints")
def test_esc_in_the_compare_view_returns_to_the_table_on_the_same_row(qtbot, window, tmp_path):
    tab = window.batch_tab
    window.tabs.setCurrentWidget(tab)
    load(qtbot, tab, small_dataset(tmp_path / "small.csv"))
    tab.view.sortByColumn(2, Qt.SortOrder.DescendingOrder)  # view rows ≠ file rows
    qtbot.waitUntil(lambda: not tab.is_busy())
    window.open_batch_row(5)
    assert window.tabs.currentWidget() is window.compare_tab
    editor = window.compare_tab.editor("expected")
    editor.setFocus()
    QTest.keyClick(editor, Qt.Key.Key_Escape)
    assert window.tabs.currentWidget() is tab
    assert tab.model.source_row(tab.view.currentIndex().row()) == 5
    assert QApplication.focusWidget() is tab.view


def test_no_two_things_share_a_shortcut(window):
    # Two actions on one key: Qt runs neither ("ambiguous shortcut") — the moved-text jump and
    # the mapping panel's toggle both took Ctrl+Shift+M once.
    window.batch_tab  # noqa: B018 - its actions join the menus
    dialog = window.show_shortcuts()
    owners: dict[str, set[str]] = {}
    for _where, what, keys in dialog.rows:
        for key in keys.split(", "):
            owners.setdefault(key, set()).add(what)
    dialog.close()
    shared = {key: sorted(names) for key, names in owners.items() if len(names) > 1}
    # Esc belongs to two tabs that are never shown together (the Batch tab's Cancel button, the
    # compare view's way back to the table): Qt only matches shortcuts of visible widgets.
    assert shared == {"Esc": ["Back to the table", "Cancel"]}
