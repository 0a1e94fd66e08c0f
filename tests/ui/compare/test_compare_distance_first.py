"""The Levenshtein distance panel on long reordered texts (ui.compare.text_scoring): the exact
distance first, the script's counts when they come, saying meanwhile that they are coming."""

from __future__ import annotations

from rapidfuzz.distance import Levenshtein

from matchlens.core.diff.pair import first_task
from matchlens.core.diff.span_table import ALIGN_TASK
from matchlens.core.text.casefold import fold_case
from matchlens.ui.compare import text_scoring as text_scoring_module
from tests.core.diff.test_proven_distance import reordered
from tests.ui.conftest import set_pair, wait_done

PANEL = "levenshtein_distance"
FIRST = first_task(PANEL)


def _record(tab) -> list[tuple[str, str, str]]:
    """(task, the panel's score, its explanation) after each answer the tab has shown."""
    panel = tab.panels[PANEL]
    events: list[tuple[str, str, str]] = []
    # connected after the tab's own slot: called once the tab has shown the answer
    tab.scheduler.sig_result.connect(lambda name, _payload: events.append(
        (name, panel.score_label.text(), panel.explanation.text())))
    return events


def test_the_distance_shows_before_the_script_on_a_reordered_pair(qtbot, compare_tab,
                                                                    monkeypatch):
    # the pair (2 x 6,756 characters, 24 paragraphs shuffled) counts as long here
    monkeypatch.setattr(text_scoring_module, "LONG_CHARS", 5_000)
    e, a = reordered(1)
    exact = Levenshtein.distance(e, a)
    events = _record(compare_tab)
    set_pair(qtbot, compare_tab, e, a)
    names = [name for name, _score, _text in events]
    assert FIRST in names and ALIGN_TASK in names and PANEL in names
    # the first answer, before the script the highlight and the counts wait for
    assert names.index(FIRST) < names.index(ALIGN_TASK) < names.index(PANEL)
    _name, score, text = events[names.index(FIRST)]
    assert score == str(exact)  # the exact distance, as rapidfuzz counts it
    assert "still counting substitutions, insertions and deletions" in text
    # then the counts: the same distance, split by kind
    _name, score, text = events[names.index(PANEL)]
    assert score == str(exact)
    assert text.startswith(f"{exact} edits: ") and "still counting" not in text
    assert compare_tab.panels[PANEL].explanation.text() == text
    assert compare_tab.highlighted_edits() == exact


def test_short_texts_and_quick_keystrokes_ask_for_no_first_answer(qtbot, compare_tab,
                                                                  monkeypatch):
    monkeypatch.setattr(text_scoring_module, "FIRST_ANSWER_WORTH_S", 3600.0)  # every answer quick
    e, a = reordered(2)
    events = _record(compare_tab)
    set_pair(qtbot, compare_tab, e, a)  # 13.5k characters: below LONG_CHARS
    assert FIRST not in [name for name, *_ in events]
    monkeypatch.setattr(text_scoring_module, "LONG_CHARS", 5_000)
    compare_tab.editor("actual").insertPlainText("x")  # a keystroke after a quick answer
    wait_done(qtbot, compare_tab)
    assert FIRST not in [name for name, *_ in events]
    compare_tab.editor("actual").insertPlainText(a[:3_000])  # a paste: a new text
    wait_done(qtbot, compare_tab)
    assert FIRST in [name for name, *_ in events]


def test_an_option_change_asks_for_the_first_answer_too(qtbot, compare_tab, monkeypatch):
    monkeypatch.setattr(text_scoring_module, "LONG_CHARS", 5_000)
    e, a = reordered(3)
    set_pair(qtbot, compare_tab, e, a.upper())
    events = _record(compare_tab)
    compare_tab.config.set_option(PANEL, "case_sensitive", False)
    wait_done(qtbot, compare_tab)
    names = [name for name, *_ in events]
    assert names.index(FIRST) < names.index(PANEL)
    folded = Levenshtein.distance(fold_case(e), fold_case(a.upper()))
    assert events[names.index(FIRST)][1] == str(folded)
    assert "ignoring case" in events[names.index(FIRST)][2]
    assert compare_tab.panels[PANEL].result().score == folded
