"""Normalisation in the compare view: the panels show and edit the option, the highlight aligns
the normalised texts and draws what the normalisation removed as *ignored* on the user's text."""

from __future__ import annotations

from PySide6.QtWidgets import QComboBox

from matchlens.ui.compare.decorations import DiffDecorator
from tests.ui.conftest import set_pair, wait_done


def _ranges(editor, layer: str) -> list[tuple[int, int]]:
    return [(s.cursor.selectionStart(), s.cursor.selectionEnd()) for s in editor.layer(layer)]


def _squad(config, *metric_ids) -> None:
    for metric_id in metric_ids:
        config.set_option(metric_id, "normalise", "squad")


def test_removed_characters_are_drawn_as_ignored(qtbot, compare_tab, config) -> None:
    set_pair(qtbot, compare_tab, "The Eiffel Tower.", "eiffel tower")
    assert compare_tab.panels["exact_match"].result().score == 0.0
    _squad(config, "exact_match", "levenshtein_distance")
    wait_done(qtbot, compare_tab)
    # squad: "The " (article, then the space collapse drops) and "." are removed; "Eiffel
    # Tower" lower-cases to "eiffel tower", equal to the actual text
    assert compare_tab.panels["exact_match"].result().score == 1.0
    expected, actual = compare_tab.editor("expected"), compare_tab.editor("actual")
    assert _ranges(expected, "ignored") == [(0, 4), (16, 17)]
    assert _ranges(actual, "ignored") == []
    assert _ranges(expected, "diff") == [] and compare_tab.highlighted_edits() == 0
    fmt = expected.layer("ignored")[0].format
    assert fmt.fontStrikeOut()  # marked differently from an equal character
    # switching the highlight metric's normalisation off brings the edits back
    config.set_option("levenshtein_distance", "normalise", [])
    wait_done(qtbot, compare_tab)
    assert _ranges(expected, "ignored") == []
    assert compare_tab.highlighted_edits() == compare_tab.panels[
        "levenshtein_distance"].result().score > 0


def test_edits_of_normalised_texts_sit_on_the_original_characters(qtbot, compare_tab,
                                                                   config) -> None:
    _squad(config, "levenshtein_distance")
    set_pair(qtbot, compare_tab, "The cat sat.", "a dog sat")
    # squad: "cat sat" (from 4..10 of expected) vs "dog sat" (from 2..8 of actual):
    # c→d, a→o, t→g = 3 substitutions, at expected 4..7 and actual 2..5
    assert compare_tab.highlighted_edits() == 3
    assert compare_tab.panels["levenshtein_distance"].result().score == 3
    assert _ranges(compare_tab.editor("expected"), "diff") == [(4, 7)]
    assert _ranges(compare_tab.editor("actual"), "diff") == [(2, 5)]
    # ignored: "The " and "." on the left, "a " on the right
    assert _ranges(compare_tab.editor("expected"), "ignored") == [(0, 4), (11, 12)]
    assert _ranges(compare_tab.editor("actual"), "ignored") == [(0, 2)]


def test_panel_shows_and_sets_the_option(qtbot, compare_tab, config) -> None:
    token_f1 = compare_tab.panels["token_f1"].option_widgets["normalise"]
    assert isinstance(token_f1, QComboBox) and token_f1.currentText() == "squad"
    combo = compare_tab.panels["jaccard"].option_widgets["normalise"]
    assert combo.currentText() == "none"
    combo.setEditText('["lowercase", "strip_punctuation"]')
    combo.lineEdit().editingFinished.emit()
    assert config.settings("jaccard").options["normalise"] == ["lowercase", "strip_punctuation"]
    set_pair(qtbot, compare_tab, "Paris!", "paris")
    assert compare_tab.panels["jaccard"].result().score == 1.0  # {paris} vs {paris}
    # a bad value is one sentence and the widget goes back to the model's value
    messages = []
    compare_tab.panels["jaccard"].sig_status.connect(messages.append)
    combo.setEditText("extract_regex:[0-9]+")
    combo.lineEdit().editingFinished.emit()
    assert messages and "has no group" in messages[-1]
    assert combo.currentText() == '["lowercase", "strip_punctuation"]'


def test_ignored_layer_is_limited_to_the_visible_range(qtbot, compare_tab, config) -> None:
    _squad(config, "levenshtein_distance")
    text = "\n".join(f"line {i}, the end." for i in range(6_000))
    set_pair(qtbot, compare_tab, text, text)
    decorator: DiffDecorator = compare_tab.panes["expected"].decorator
    table = decorator.table
    # squad removes 3 runs a line: ",", "the " (the article becomes a stand-in space, which the
    # collapse keeps in place of the real one) and "."; each line break stays as the space
    # between lines: 6,000 lines -> 18,000 runs (the last line's "." too)
    assert len(table.exp_ignored) == 18_000
    shown = decorator.ignored_spans()
    # only those near the screen (a screen and ~2,000 characters either side) are drawn
    assert 0 < len(shown) < 2_000
    assert len(compare_tab.editor("expected").layer("ignored")) == len(shown)


def test_toolbar_box_normalises_every_text_metric_and_the_highlight(qtbot, compare_tab,
                                                                    config) -> None:
    box = compare_tab.normalise_box
    assert box.currentText() == "(differs per metric)"  # token_f1 squad, the rest none
    set_pair(qtbot, compare_tab, "The Eiffel Tower.", "eiffel tower")
    box.setEditText("squad")
    box.lineEdit().editingFinished.emit()
    wait_done(qtbot, compare_tab)
    assert {config.settings(m).options["normalise"] for m in
            ("exact_match", "contains", "levenshtein_distance", "wer", "bleu")} == {"squad"}
    assert compare_tab.panels["exact_match"].result().score == 1.0
    assert _ranges(compare_tab.editor("expected"), "ignored") == [(0, 4), (16, 17)]
    assert box.currentText() == "squad"
    config.undo_stack.undo()  # one step back: as typed again
    wait_done(qtbot, compare_tab)
    assert compare_tab.panels["exact_match"].result().score == 0.0
    assert _ranges(compare_tab.editor("expected"), "ignored") == []
    box.setEditText("bogus")
    box.lineEdit().editingFinished.emit()
    assert box.currentText() == "(differs per metric)"  # refused, back to the model's state


def test_ignored_runs_in_a_long_line_are_painted_by_the_editor(qtbot, compare_tab,
                                                               config) -> None:
    _squad(config, "levenshtein_distance")
    # one line of 30,000 characters (the editor paints spans of lines over 10,000 itself):
    # squad removes "The " at the start, each ", " -> ",", each "the " and each "."
    expected = "The end, the dog. " * 666 + "The cat, the dog. " * 1_000
    actual = expected.replace("end", "fin")  # real edits among the ignored runs
    set_pair(qtbot, compare_tab, expected, actual)
    editor = compare_tab.editor("expected")
    own = editor.self_painted_spans()
    diff = [(s.cursor.selectionStart(), s.cursor.selectionEnd())
            for s in editor.layer("diff")]
    ignored = _ranges(editor, "ignored")
    assert ignored and diff
    # Qt gets none of them (its cost grows with every span of a long line) ...
    assert not [s for s in editor.extraSelections() if s.format.fontStrikeOut()]
    # ... the editor paints each ignored run, less what a diff span covers, never overlapping
    covered = set()
    for start, end in own:
        chars = set(range(start, end))
        assert not chars & covered
        covered |= chars
    want = {i for s, e in ignored for i in range(s, e)} | {i for s, e in diff
                                                          for i in range(s, e)}
    assert covered == want
