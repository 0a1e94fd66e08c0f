"""The semantic similarity panel: on demand, off the GUI thread, key-aware, stale answers dropped.

Real widgets and the real openai client against the loopback server of tests/embeddings.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from PySide6.QtGui import QPalette

from matchlens.core.metrics.registry import evaluate
from matchlens.core.results import Label
from matchlens.embeddings.credentials import SERVICE, USERNAME
from matchlens.embeddings.metric import SPEC, cosine
from matchlens.ui.compare.panels import format_score
from matchlens.ui.compare.semantic import NetworkPanel
from matchlens.ui.dialogs.settings import SettingsDialog
from tests.embeddings.openai_server import FakeOpenAI, closed_port_url, vector_for
from tests.ui.conftest import set_pair, wait_done
from tests.ui.dialogs.test_settings_dialog import assert_key_hidden

ENV_KEY = "sk-env-0123456789abcdefENVKEY"
EXPECTED = "The cat sat on the mat."
ACTUAL = "A cat was sitting on the mat."


@pytest.fixture
def server():
    with FakeOpenAI() as fake:
        yield fake


def point_at(config, url: str) -> None:
    config.replace(dataclasses.replace(config.config(), base_url=url))


@pytest.fixture
def panel(qtbot, compare_tab) -> NetworkPanel:
    found = compare_tab.panels[SPEC.id]
    assert isinstance(found, NetworkPanel)
    qtbot.waitUntil(lambda: found.has_key() is not None)  # the key check runs off-thread
    return found


@pytest.fixture
def keyed(monkeypatch, server, config):
    """A key in OPENAI_API_KEY and the endpoint set to the fake server (set before the tab)."""
    monkeypatch.setenv("OPENAI_API_KEY", ENV_KEY)
    point_at(config, server.base_url)
    return server


def compute(qtbot, tab, panel: NetworkPanel) -> None:
    panel.compute_button.click()
    wait_done(qtbot, tab)


def test_computes_only_on_compute_and_matches_the_metric(qtbot, keyed, config, compare_tab,
                                                         panel) -> None:
    server = keyed
    set_pair(qtbot, compare_tab, EXPECTED, ACTUAL)
    qtbot.wait(200)
    assert server.request_count == 0  # typing never sends anything
    assert panel.result() is None
    assert panel.compute_button.isEnabled()
    assert panel.endpoint_label.text() == (
        f"text-embedding-3-small at {server.base_url.removeprefix('http://')}")

    compute(qtbot, compare_tab, panel)
    assert server.request_count == 1
    assert sorted(server.inputs_sent) == sorted([EXPECTED, ACTUAL])  # once each, one request
    assert server.requests[0].authorization == f"Bearer {ENV_KEY}"
    got = panel.result()
    settings = config.settings(SPEC.id)
    want = evaluate(SPEC, EXPECTED, ACTUAL, threshold=settings.threshold,
                    options=settings.options)
    assert (got.score, got.label, got.explanation) == (want.score, want.label, want.explanation)
    assert got.score == pytest.approx(cosine(vector_for(EXPECTED), vector_for(ACTUAL)), abs=1e-12)
    assert panel.score_label.text() == format_score(SPEC, got.score)
    assert panel.explanation.text() == want.explanation
    assert panel.badge.text() == got.label.value
    assert not panel.is_stale()


def test_the_request_runs_off_the_gui_thread(qtbot, keyed, compare_tab, panel) -> None:
    server = keyed
    server.slow_on("slowly", 0.8)
    set_pair(qtbot, compare_tab, "It answers slowly.", "It answers slowly, too.")
    panel.compute_button.click()
    # The click has returned while the server still holds the request (0.8 s): had it been
    # sent from the GUI thread, the panel would already show the answer.
    assert panel.is_computing() and panel.result() is None
    assert panel.explanation.text() == "Asking the embeddings endpoint…"
    assert not panel.compute_button.isEnabled()
    assert panel.score_label.foregroundRole() == QPalette.ColorRole.PlaceholderText
    wait_done(qtbot, compare_tab)
    assert panel.result() is not None and panel.result().score is not None
    assert panel.compute_button.isEnabled()


def test_an_answer_for_old_texts_is_dropped(qtbot, keyed, compare_tab, panel) -> None:
    server = keyed
    server.slow_on("first", 0.8)
    set_pair(qtbot, compare_tab, "the first text", "the first answer")
    panel.compute_button.click()
    assert panel.is_computing()
    set_pair(qtbot, compare_tab, "the second text", "the second answer")  # before it answers
    assert not panel.is_computing()
    assert panel.explanation.text().startswith("Press Compute")
    qtbot.waitUntil(lambda: compare_tab.scheduler.network_running() == 0, timeout=10000)
    qtbot.wait(50)
    assert server.request_count == 1  # it was asked, and it answered ...
    assert panel.result() is None  # ... but for texts that are gone
    assert panel.score_label.text() == "—"


def test_a_score_goes_stale_when_the_texts_change(qtbot, keyed, compare_tab, panel) -> None:
    set_pair(qtbot, compare_tab, EXPECTED, ACTUAL)
    compute(qtbot, compare_tab, panel)
    score_text = panel.score_label.text()
    editor = compare_tab.editor("actual")
    editor.moveCursor(editor.textCursor().MoveOperation.End)
    qtbot.keyClicks(editor, " Really")
    wait_done(qtbot, compare_tab)
    assert panel.is_stale()
    assert panel.score_label.text() == score_text  # still readable, but greyed
    assert panel.score_label.foregroundRole() == QPalette.ColorRole.PlaceholderText
    assert not panel.badge.isVisible()
    assert panel.explanation.text() == ("This score is for earlier texts (or another endpoint); "
                                        "press Compute to update it.")
    compute(qtbot, compare_tab, panel)
    assert not panel.is_stale()
    assert panel.score_label.foregroundRole() == QPalette.ColorRole.WindowText


def test_another_endpoint_makes_the_score_stale(qtbot, keyed, config, compare_tab,
                                                panel) -> None:
    set_pair(qtbot, compare_tab, EXPECTED, ACTUAL)
    compute(qtbot, compare_tab, panel)
    config.replace(dataclasses.replace(config.config(), model="other-model"))
    assert panel.is_stale()
    assert panel.endpoint_label.text().startswith("other-model at ")
    config.set_threshold(SPEC.id, 0.5)  # a threshold is not a new score: no change there
    assert panel.is_stale()


def test_auto_recomputes_once_typing_pauses(qtbot, keyed, compare_tab, panel) -> None:
    server = keyed
    set_pair(qtbot, compare_tab, EXPECTED, ACTUAL)
    panel.auto_box.setChecked(True)
    qtbot.waitUntil(lambda: server.request_count == 1, timeout=5000)
    wait_done(qtbot, compare_tab)
    assert panel.result().score is not None
    editor = compare_tab.editor("actual")
    editor.moveCursor(editor.textCursor().MoveOperation.End)
    qtbot.keyClicks(editor, " Indeed")  # seven keystrokes, one request after the pause
    qtbot.wait(400)
    assert server.request_count == 1  # still debouncing (about a second)
    qtbot.waitUntil(lambda: server.request_count == 2, timeout=5000)
    wait_done(qtbot, compare_tab)
    assert server.requests[1].inputs == [ACTUAL + " Indeed"]  # the expected text was cached
    assert not panel.is_stale()
    panel.auto_box.setChecked(False)


def test_errors_are_the_explanation_with_label_error(qtbot, keyed, compare_tab, panel) -> None:
    server = keyed
    server.fail_on("refused", 401)  # the fake server echoes the key in its message
    set_pair(qtbot, compare_tab, "this will be refused", "refused too")
    compute(qtbot, compare_tab, panel)
    result = panel.result()
    assert result.label is Label.ERROR and result.score is None
    assert panel.badge.text() == "error"
    assert panel.score_label.text() == "—"
    assert panel.explanation.text() == ("401: the API key was rejected "
                                        "(the key from OPENAI_API_KEY)")
    assert_key_hidden(compare_tab, ENV_KEY)


def test_an_unreachable_endpoint_is_a_sentence(qtbot, config, monkeypatch, compare_tab,
                                               panel) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", ENV_KEY)
    url = closed_port_url()
    point_at(config, url)
    set_pair(qtbot, compare_tab, EXPECTED, ACTUAL)
    compute(qtbot, compare_tab, panel)
    assert panel.result().label is Label.ERROR
    assert panel.explanation.text() == f"Cannot reach {url}: connection refused"


def test_no_key_shows_a_set_key_button_that_opens_settings(qtbot, compare_tab, panel,
                                                           memory_keyring) -> None:
    set_pair(qtbot, compare_tab, EXPECTED, ACTUAL)
    assert panel.has_key() is False
    assert panel.endpoint_label.text().startswith("No API key")
    assert panel.settings_button.text() == "Set key…"
    assert panel.settings_button.isVisible()
    assert not panel.compute_button.isEnabled()
    assert not panel.auto_box.isEnabled()
    assert "OPENAI_API_KEY" in panel.explanation.text()

    panel.settings_button.click()
    dialogs = compare_tab.window().findChildren(SettingsDialog)
    assert len(dialogs) == 1 and dialogs[0].isVisible()
    dialog = dialogs[0]
    dialog.key_edit.setText("sk-saved-in-the-dialog-1234")
    assert dialog.save_key()
    assert memory_keyring.store[(SERVICE, USERNAME)] == "sk-saved-in-the-dialog-1234"
    assert panel.has_key() is True  # told by the dialog, no new check needed
    assert panel.compute_button.isEnabled()
    assert panel.settings_button.text() == "Settings…"
    assert panel.explanation.text().startswith("Press Compute")
    assert_key_hidden(compare_tab, "sk-saved-in-the-dialog-1234")
    dialog.remove_key()
    assert panel.has_key() is False and not panel.compute_button.isEnabled()
    dialog.close()


def test_a_local_endpoint_needs_no_key(qtbot, server, config, compare_tab, panel) -> None:
    assert panel.has_key() is False
    point_at(config, server.base_url)  # e.g. Ollama: no key needed, none is asked for
    assert panel.compute_button.isEnabled()
    assert not panel.endpoint_label.text().startswith("No API key")
    set_pair(qtbot, compare_tab, EXPECTED, ACTUAL)
    compute(qtbot, compare_tab, panel)
    assert panel.result().score is not None
    assert server.requests[0].authorization == "Bearer not-needed"


def test_key_state_is_read_at_start(qtbot, config, monkeypatch, memory_keyring) -> None:
    from matchlens.ui.compare.compare_tab import CompareTab

    memory_keyring.store[(SERVICE, USERNAME)] = "sk-from-keyring-abcdefgh"
    tab = CompareTab(config)
    qtbot.addWidget(tab)
    try:
        panel = tab.panels[SPEC.id]
        qtbot.waitUntil(lambda: panel.has_key() is not None)
        assert panel.key_source() == "keyring"
        assert "system keyring" in panel.endpoint_label.toolTip()
    finally:
        tab.shutdown()


def test_the_tooltip_is_honest_about_what_cosine_misses(panel) -> None:
    tip = panel.toolTip()
    assert '"A beat B" and "B beat A"' in tip
    assert "negation" in tip


def test_swapped_roles_score_high_here_too(qtbot, keyed, compare_tab, panel) -> None:
    """What the tooltip warns about, shown for real (a bag-of-words embedding is blind to it)."""
    set_pair(qtbot, compare_tab, "Alice beat Bob", "Bob beat Alice")
    compute(qtbot, compare_tab, panel)
    assert panel.result().score == pytest.approx(1.0)
    assert np.allclose(vector_for("Alice beat Bob"), vector_for("Bob beat Alice"))
