"""The window fits its screen, the keyboard reaches everything (Tab leaves the table, Ctrl+F
finds in the compare view, every menu action has an accelerator or shortcut), and no key is
ever echoed in a sentence the window shows."""

from __future__ import annotations

from pathlib import Path

import keyring
import pytest
from PySide6.QtCore import QByteArray, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QLabel

from matchlens.embeddings.credentials import SERVICE, USERNAME
from matchlens.embeddings.redact import forget_all
from matchlens.ui.config_model import ConfigModel
from matchlens.ui.dialogs.settings import SettingsDialog
from matchlens.ui.main_window import MainWindow, make_settings
from tests.ui.batch_support import load, small_dataset

# A key of another service (no "sk-" prefix), pasted where a URL belongs.
PASTED_KEY = "AIzaSyD3xAmPlEkEy0123456789abcdefGHI"
STORED_KEY = "sk-stored-0123456789abcdefSTORED"


@pytest.fixture
def window(qtbot):
    win = MainWindow(ConfigModel(), restore=True)
    qtbot.addWidget(win)
    with qtbot.waitActive(win):  # shortcuts answer in the active window only
        win.show()
        win.activateWindow()
    yield win
    win.shutdown()


def test_the_window_fits_the_screen_it_opens_on(window):
    area = QGuiApplication.primaryScreen().availableGeometry()  # 800 x 800 offscreen
    assert area.contains(window.frameGeometry()), (window.frameGeometry(), area)


def test_a_geometry_saved_off_screen_is_not_restored(qtbot):
    first = MainWindow(ConfigModel(), restore=False)
    qtbot.addWidget(first)
    first.setGeometry(5000, 4000, 2400, 1600)  # on a monitor that is gone, larger than this one
    first.save_settings()
    first.shutdown()
    assert isinstance(make_settings().value("window/geometry"), QByteArray)
    second = MainWindow(ConfigModel(), restore=True)
    qtbot.addWidget(second)
    second.show()
    area = QGuiApplication.primaryScreen().availableGeometry()
    assert area.contains(second.frameGeometry()), (second.frameGeometry(), area)
    second.shutdown()


def test_tab_leaves_the_batch_table(qtbot, window, tmp_path):
    tab = window.batch_tab
    window.tabs.setCurrentWidget(tab)
    load(qtbot, tab, small_dataset(tmp_path / "small.csv"))
    view = tab.view
    view.setFocus()
    view.setCurrentIndex(tab.model.index(0, 0))
    assert QApplication.focusWidget() is view
    QTest.keyClick(view, Qt.Key.Key_Tab)
    assert QApplication.focusWidget() is not view  # not trapped moving between cells
    assert view.currentIndex().column() == 0


def test_ctrl_f_finds_in_both_sides_of_the_compare_view(qtbot, window):
    compare = window.compare_tab
    compare.set_texts("the cat sat\n", "a cat ran, a cat sat\n")
    expected = compare.editor("expected")
    expected.setFocus()
    QTest.keyClick(expected, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    bar = compare.find_bar
    assert bar.isVisible() and QApplication.focusWidget() is bar.edit
    QTest.keyClicks(bar.edit, "cat")
    assert expected.textCursor().selectedText() == "cat"
    assert expected.textCursor().selectionStart() == 4  # "the |cat"
    QTest.keyClick(bar.edit, Qt.Key.Key_Return)  # no more in expected: on into actual
    actual = compare.editor("actual")
    assert (actual.textCursor().selectionStart(), bar.side) == (2, "actual")  # "a |cat"
    QTest.keyClick(bar.edit, Qt.Key.Key_Return)
    assert actual.textCursor().selectionStart() == 13  # "a cat ran, a |cat"
    QTest.keyClick(bar.edit, Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier)
    assert actual.textCursor().selectionStart() == 2  # back
    QTest.keyClicks(bar.edit, "x")  # "catx" occurs nowhere
    assert bar.result.text() == "not found"
    QTest.keyClick(bar.edit, Qt.Key.Key_Escape)
    assert not bar.isVisible() and QApplication.focusWidget() is actual


def test_every_menu_action_has_an_accelerator_or_a_shortcut(window):
    def walk(menu):
        for action in menu.actions():
            if action.isSeparator():
                continue
            if action.menu() is not None:
                yield action
                yield from walk(action.menu())
            else:
                yield action

    window.add_recent("dataset", Path("/tmp/a&b.csv"))  # recent entries are numbered
    missing = []
    for top in window.menuBar().actions():
        assert "&" in top.text(), top.text()
        for action in walk(top.menu()):
            text = action.text().replace("&&", "")
            if "&" not in text and action.shortcut().isEmpty():
                missing.append(action.text())
    assert not missing


def test_a_key_pasted_as_base_url_is_not_echoed(qtbot, config):
    forget_all()
    dialog = SettingsDialog(config)
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.base_url_edit.setText(PASTED_KEY)
    dialog.base_url_edit.editingFinished.emit()
    message = dialog.endpoint_message.text()
    assert message.startswith("Not saved") and PASTED_KEY not in message
    assert PASTED_KEY[:8] not in message and "…" in message


def test_the_stored_key_is_masked_in_every_sentence_the_window_shows(qtbot, window, config):
    keyring.set_password(SERVICE, USERNAME, STORED_KEY)
    forget_all()
    dialog = window.open_settings()  # resolves the key in use, as opening Settings does
    sentence = f"The server said: invalid key {STORED_KEY[3:]} for this model"  # no sk- left
    window.show_status(sentence)
    window.show_notice(sentence)
    window.batch_tab.say(sentence)
    dialog._say(sentence)
    shown = [window.statusBar().currentMessage(), window.notice.text(),
             window.batch_tab.message.text(), dialog.key_message.text()]
    for text in shown:
        assert "invalid key" in text and STORED_KEY[3:11] not in text, text
    labels = [w.text() for w in window.findChildren(QLabel)]
    assert not [t for t in labels if STORED_KEY[3:11] in t]
    dialog.close()


def test_ctrl_tab_leaves_an_editor_that_keeps_tab_for_its_text(qtbot, window):
    editor = window.compare_tab.editor("expected")
    editor.setFocus()
    assert QApplication.focusWidget() is editor
    QTest.keyClick(editor, Qt.Key.Key_Tab)  # a tab character is text: whitespace differences
    assert editor.toPlainText() == "\t" and QApplication.focusWidget() is editor
    QTest.keyClick(editor, Qt.Key.Key_Tab, Qt.KeyboardModifier.ControlModifier)
    assert QApplication.focusWidget() is not editor and editor.toPlainText() == "\t"
