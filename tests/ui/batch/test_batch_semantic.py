"""Semantic similarity in the batch tab: only when ticked, never without a key, never without
the user agreeing to what it sends; the real openai client against the loopback server."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtWidgets import QMessageBox

from matchlens.embeddings.credentials import SERVICE, USERNAME
from matchlens.embeddings.metric import SPEC, cosine
from matchlens.ui.batch import scoring_run
from tests.embeddings.openai_server import FakeOpenAI, vector_for
from tests.ui.batch_support import load, make_tab, small_dataset, wait_idle

ENV_KEY = "sk-env-0123456789abcdefBATCHKEY"
SEMANTIC = SPEC.id


@pytest.fixture
def server():
    with FakeOpenAI() as fake:
        yield fake


@pytest.fixture
def tab(qtbot, config, server):
    config.replace(dataclasses.replace(config.config(), base_url=server.base_url))
    tab = make_tab(qtbot, config)
    yield tab
    tab.shutdown()


def loaded(qtbot, tab, tmp_path: Path) -> Path:
    path = small_dataset(tmp_path / "small.csv")
    load(qtbot, tab, path, score=False)
    tab.mapping_panel.set_metrics(["exact_match", SEMANTIC])
    return path


def prompt(qtbot, tab) -> QMessageBox:
    qtbot.waitUntil(lambda: tab.network_prompt is not None and tab.network_prompt.isVisible(),
                    timeout=20_000)
    return tab.network_prompt


def answer(qtbot, tab, box: QMessageBox, name: str) -> None:
    button = next(b for b in box.buttons() if b.objectName() == name)
    with qtbot.waitSignal(tab.sig_finished, timeout=30_000):
        button.click()
    wait_idle(qtbot, tab)


def distinct_texts(path: Path) -> set[str]:
    import csv

    with path.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    return {r[c] for r in rows for c in ("expected", "output_a", "output_b") if r[c]}


def use_openai(config) -> None:
    """No base URL in the settings (and none in the environment): OpenAI's own endpoint."""
    config.replace(dataclasses.replace(config.config(), base_url=""))


def test_no_key_asks_for_one_and_sends_nothing(qtbot, tab, config, server, tmp_path) -> None:
    use_openai(config)  # only OpenAI's endpoint demands a key
    loaded(qtbot, tab, tmp_path)
    tab.mapping_panel.score_button.click()
    box = prompt(qtbot, tab)
    assert "no key" in box.text()
    assert "OPENAI_API_KEY" in box.informativeText()
    assert {b.objectName() for b in box.buttons()} == {"key", "without", "cancel"}
    answer(qtbot, tab, box, "without")
    # The other metric was scored; the network one was unticked, and nothing went out.
    assert [job.id for job in tab.result.jobs] == ["exact_match"]
    assert SEMANTIC not in tab.mapping_panel.mapping().metrics
    assert server.request_count == 0


def test_no_key_for_a_local_server_asks_about_the_cost_not_the_key(qtbot, tab, server,
                                                                   tmp_path) -> None:
    """As in the CLI and the Compare panel: a local server gets the placeholder key."""
    path = loaded(qtbot, tab, tmp_path)  # base_url: the loopback server; no key anywhere
    tab.mapping_panel.score_button.click()
    box = prompt(qtbot, tab)
    assert box.text().startswith(f"About to send {len(distinct_texts(path)):,} texts (~")
    assert server.base_url in box.text()
    assert {b.objectName() for b in box.buttons()} == {"send", "cancel"}
    assert server.request_count == 0
    answer(qtbot, tab, box, "send")
    assert server.request_count >= 1
    assert {r.authorization for r in server.requests} == {"Bearer not-needed"}
    scores = tab.result.scores[("output_a", SEMANTIC)]
    assert scores[0] == pytest.approx(1.0)  # "Paris" vs "Paris"


def test_cost_prompt_then_scores_and_the_second_run_is_free(qtbot, tab, server, tmp_path,
                                                            monkeypatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", ENV_KEY)
    path = loaded(qtbot, tab, tmp_path)
    texts = distinct_texts(path)
    tab.mapping_panel.score_button.click()
    box = prompt(qtbot, tab)
    # The prompt counts what will be sent: every distinct non-empty text once.
    assert box.text().startswith(f"About to send {len(texts):,} texts (~")
    assert server.base_url in box.text() and "text-embedding-3-small" in box.text()
    assert server.request_count == 0  # asking costs nothing
    answer(qtbot, tab, box, "send")
    assert server.request_count >= 1
    assert set(server.inputs_sent) == texts  # each distinct text once, none twice
    assert len(server.inputs_sent) == len(texts)
    scores = tab.result.scores[("output_a", SEMANTIC)]
    expected = ["Paris", "Canberra", "The Nile", "Pacific", "Vatican City", "Everest", "Venus",
                "Mars"]
    actual = ["Paris", "Sydney", "the nile", "Atlantic", "Vatican", "", "Venus", "Mars."]
    for row, (e, a) in enumerate(zip(expected, actual, strict=True)):
        if not a:
            assert np.isnan(scores[row])  # an empty output has no embedding to compare
            continue
        assert scores[row] == pytest.approx(cosine(vector_for(e), vector_for(a)), abs=1e-6)
    # Everything is cached now: the second run asks nothing and sends nothing.
    sent = server.request_count
    with qtbot.waitSignal(tab.sig_finished, timeout=30_000):
        tab.mapping_panel.score_button.click()
    wait_idle(qtbot, tab)
    assert tab.network_prompt is None
    assert server.request_count == sent
    assert tab.progress.label.text().endswith(f"All {len(texts)} texts were cached: nothing was sent.")
    np.testing.assert_array_equal(tab.result.scores[("output_a", SEMANTIC)], scores)


def test_declining_the_cost_sends_nothing(qtbot, tab, server, tmp_path, memory_keyring) -> None:
    memory_keyring.set_password(SERVICE, USERNAME, ENV_KEY)  # a key in the keyring this time
    loaded(qtbot, tab, tmp_path)
    tab.mapping_panel.score_button.click()
    box = prompt(qtbot, tab)
    assert {b.objectName() for b in box.buttons()} == {"send", "cancel"}
    answer(qtbot, tab, box, "cancel")
    assert server.request_count == 0
    assert tab.result is None
    assert tab.message.text() == "Nothing was scored and nothing was sent."
    assert tab.mapping_panel.score_button.isEnabled()


def test_network_runs_in_small_chunks(qtbot, tab, server, tmp_path, monkeypatch) -> None:
    """Cancel between chunks stops the spending: a network run's chunk is a few requests."""
    monkeypatch.setenv("OPENAI_API_KEY", ENV_KEY)
    monkeypatch.setattr(scoring_run, "NETWORK_CHUNK_ROWS", 3)
    loaded(qtbot, tab, tmp_path)
    chunks = []
    tab.mapping_panel.score_button.click()
    box = prompt(qtbot, tab)
    original = tab.run.on_item
    monkeypatch.setattr(tab.run, "on_item", lambda item: (chunks.append(item), original(item)))
    answer(qtbot, tab, box, "send")
    stops = [c.stop for c in chunks if type(c).__name__ == "Chunk"]
    assert stops == [3, 6, 8]
