"""Labelling the sample the window opens by default, from resources that cannot be written (an
installed app): the labels are kept in the user's data folder, the window says where once, and
they are back after a restart. The resources folder is made read-only for real
(tests/read_only.py: chattr +i as root, chmod otherwise)."""

from __future__ import annotations

import argparse
import hashlib
import shutil

from PySide6.QtCore import Qt

from matchlens.core.labels.location import away_path
from matchlens.core.labels.sidecar import read_sidecar
from matchlens.core.labels.store import FAIL, PASS
from matchlens.core.paths import resource_dir, sample_dataset
from matchlens.ui import app as app_module
from tests.read_only import read_only
from tests.ui.batch_support import wait_idle


def _start(qtbot):
    """The window as `matchlens` with no arguments opens it: a sample pair, then the sample
    dataset (with its label column) once the window has painted."""
    args = argparse.Namespace(command=None, screenshot=None, config=None)
    window, errors, _ = app_module.build_window(args, screenshot=False)
    qtbot.addWidget(window)
    assert errors == []
    window.show()
    qtbot.waitUntil(lambda: window._batch_made, timeout=30_000)
    qtbot.waitUntil(lambda: window.batch_finished, timeout=60_000)
    wait_idle(qtbot, window.batch_tab)
    return window


def _listing(folder):
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in folder.iterdir()}


def test_labels_of_the_read_only_sample_survive_a_restart(qtbot, tmp_path, monkeypatch):
    installed = tmp_path / "installed" / "resources"
    shutil.copytree(resource_dir() / "samples", installed / "samples")
    monkeypatch.setenv("MATCHLENS_RESOURCES", str(installed))
    samples = installed / "samples"
    before = _listing(samples)
    with read_only(samples):
        window = _start(qtbot)
        try:
            data = sample_dataset()
            assert data.parent == samples
            labels = window.batch_tab.labelling.session.labels
            assert labels.label(1, "output_a") == FAIL  # qa-002 "Sydney": fail in the column
            window.open_batch_row(1)
            editor = window.compare_tab.editor("actual")
            editor.setFocus()
            qtbot.keyClick(editor, Qt.Key.Key_1, Qt.KeyboardModifier.ControlModifier)
            assert labels.label(1, "output_a") == PASS
            away = away_path(data)
            assert window.statusBar().currentMessage() == "Row 2: pass · 200 of 200 labelled"
            # Where they are: above the tabs until dismissed (a path to note, not a flash).
            where = ("The folder of qa_extraction_sample.csv cannot be written, so your labels "
                     f"are saved in {away}.")
            assert window.notice.text() == where
            assert [(e.row, e.id, e.variant, e.label) for e in read_sidecar(away)] == [
                (1, "qa-002", "output_a", PASS)]
            # Said once: the next label only says what it did.
            window.open_batch_row(2)
            qtbot.keyClick(editor, Qt.Key.Key_2, Qt.KeyboardModifier.ControlModifier)
            assert window.statusBar().currentMessage() == "Row 3: fail · 200 of 200 labelled"
            window.notice.dismiss()
            qtbot.keyClick(editor, Qt.Key.Key_2, Qt.KeyboardModifier.ControlModifier)  # clears
            assert window.notice.text() == ""  # dismissed, not said again
            qtbot.keyClick(editor, Qt.Key.Key_2, Qt.KeyboardModifier.ControlModifier)
        finally:
            window.close()  # as the person closes it: settings saved, workers stopped
        assert _listing(samples) == before  # the installed files are untouched

        window = _start(qtbot)  # the next start
        try:
            labels = window.batch_tab.labelling.session.labels
            assert labels.label(1, "output_a") == PASS and labels.label(2, "output_a") == FAIL
            assert window.batch_tab.message.text().startswith(
                f"Restored 2 label changes from {away}.")
        finally:
            window.close()
