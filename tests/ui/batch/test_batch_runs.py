"""The batch tab opens a run joined by id with another file's references and a baseline run
(`matchlens batch --id --references --baseline --baseline-actual`, ui/batch/run_joins.py), and
a bad join is one sentence naming the file, the dataset on screen kept."""

from __future__ import annotations

import gc
import json
import weakref

import pytest

from matchlens.cli.parser import parse_args
from matchlens.ui.batch.run_joins import Join, joins_from_args
from matchlens.ui.config_model import ConfigModel
from tests.ui.batch_support import load, make_tab, small_dataset

pytestmark = pytest.mark.qt_log_ignore("propagateSizeHints")


def write_jsonl(path, rows):
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def run_files(tmp_path):
    """today answers q1..q3 (q4 is not answered), the references know q1..q4, yesterday
    answered q2, q3 and q5 (q5: gone today). Orders differ on purpose."""
    today = write_jsonl(tmp_path / "today.jsonl", [
        {"id": "q3", "result": "Oslo"}, {"id": "q1", "result": "Paris"},
        {"id": "q2", "result": "Milan"}])
    refs = write_jsonl(tmp_path / "answers.jsonl", [
        {"id": "q1", "answer": "Paris"}, {"id": "q2", "answer": "Rome"},
        {"id": "q3", "answer": "Oslo"}, {"id": "q4", "answer": "Bern"}])
    base = write_jsonl(tmp_path / "yesterday.jsonl", [
        {"id": "q5", "result": "Lima"}, {"id": "q2", "result": "Rome"},
        {"id": "q3", "result": "Olso"}])
    return today, refs, base


def test_batch_takes_the_joins_of_score():
    args = parse_args(["batch", "today.jsonl", "--id", "id", "--actual", "$.result",
                       "--references", "answers.jsonl", "--expected", "$.answer",
                       "--baseline", "yesterday.jsonl", "--baseline-actual", "$.result"])
    got = joins_from_args(args)
    assert got["id_spec"] == "id"
    assert [(j.role, j.path.name, j.value_spec) for j in got["joins"]] == [
        ("reference", "answers.jsonl", "$.answer"), ("baseline", "yesterday.jsonl", "$.result")]
    assert joins_from_args(parse_args(["batch", "today.jsonl"])) == {}


def test_the_tab_opens_the_joined_scored_run(qtbot, tmp_path):
    today, refs, base = run_files(tmp_path)
    tab = make_tab(qtbot, ConfigModel())
    load(qtbot, tab, today, actuals=["$.result"], expected="$.answer", id_spec="id",
         joins=(Join("reference", refs, None, "$.answer"),
                Join("baseline", base, None, "$.result")))
    assert tab.message.property("error") is not True, tab.message.text()
    # the run's rows, then the reference no output answers (q4), then the baseline's q5
    assert tab.prepared.ids == ["q3", "q1", "q2", "q4", "q5"]
    # the references come from answers.jsonl only (as `score --references`): q5 has none
    assert tab.prepared.expected == ["Oslo", "Paris", "Rome", "Bern", None]
    assert tab.mapping.expected == "reference" and tab.mapping.id == "id"
    assert set(tab.mapping.actuals) == {"$.result", "baseline"}
    assert tab.prepared.actuals["baseline"] == ["Olso", None, "Rome", None, "Lima"]
    assert tab.prepared.actuals["$.result"] == ["Oslo", "Paris", "Milan", None, None]
    assert tab.result is not None and tab.result.rows == 5
    assert tab.joined is not None and tab.joined.baseline == "baseline"
    # one sentence on the join (today 3 ids, answers 4, yesterday 3; 5 in all), not a reason
    # per row a file lacks
    assert tab.message.text() == (
        "Joined by id (id): 5 rows; today.jsonl has 3, answers.jsonl (references) 4, "
        "yesterday.jsonl (baseline) 3. A row a file lacks has no value from it: no score "
        "there, and it is counted.")


def test_a_join_without_an_id_in_common_is_one_sentence_and_keeps_the_table(qtbot, tmp_path):
    today, refs, _ = run_files(tmp_path)
    tab = make_tab(qtbot, ConfigModel())
    load(qtbot, tab, today, actuals=["$.result"])
    other = write_jsonl(tmp_path / "other.jsonl", [{"id": "z9", "answer": "x"}])
    load(qtbot, tab, today, id_spec="id", joins=(Join("reference", other, None, "$.answer"),))
    text = tab.message.text()
    assert "none of the 3 ids of" in text and "other.jsonl" in text
    assert "Traceback" not in text and tab.table is not None and len(tab.table) == 3


def test_a_join_without_an_id_asks_for_one(qtbot, tmp_path):
    today, refs, _ = run_files(tmp_path)
    tab = make_tab(qtbot, ConfigModel())
    load(qtbot, tab, today, joins=(Join("reference", refs, None, "$.answer"),))
    assert "choose the id column" in tab.message.text()


def _accept(qtbot, tab, dialog, **choices):
    """Wait for the dialog's columns, choose, press OK, wait for the joined run's score."""
    qtbot.waitUntil(lambda: not dialog.is_reading(), timeout=20_000)
    for name, text in choices.items():
        getattr(dialog, name).setCurrentText(text)
    with qtbot.waitSignal(tab.sig_finished, timeout=30_000):
        dialog.buttons.button(dialog.buttons.StandardButton.Ok).click()
    qtbot.waitUntil(lambda: not tab.is_busy(), timeout=20_000)


def test_the_runs_menu_joins_references_a_baseline_and_another_run(qtbot, tmp_path):
    today, refs, base = run_files(tmp_path)
    tab = make_tab(qtbot, ConfigModel())
    load(qtbot, tab, today, actuals=["$.result"], expected="$.result")
    actions = tab.runs_actions
    assert actions.button.isEnabled()
    dialog = actions.open_dialog("reference", refs)
    # before the first join the dataset's id is asked too; the guesses are the id columns
    qtbot.waitUntil(lambda: not dialog.is_reading(), timeout=20_000)
    assert dialog.dataset_id.currentText() == "id" and dialog.id.currentText() == "id"
    _accept(qtbot, tab, dialog, value="$.answer")
    assert tab.prepared.ids == ["q3", "q1", "q2", "q4"]
    assert tab.prepared.expected == ["Oslo", "Paris", "Rome", "Bern"]

    dialog = actions.open_dialog("baseline", base)
    assert dialog.dataset_id is None  # joined already: the id column is known
    qtbot.waitUntil(lambda: not dialog.is_reading(), timeout=20_000)
    assert dialog.value.currentText() == "$.result"  # guessed: the run's own output SPEC
    _accept(qtbot, tab, dialog)
    assert tab.prepared.ids == ["q3", "q1", "q2", "q4", "q5"]
    assert tab.prepared.actuals["baseline"] == ["Olso", None, "Rome", None, "Lima"]

    tuesday = write_jsonl(tmp_path / "tuesday.jsonl", [
        {"qid": "q1", "text": "Paris!"}, {"qid": "q6", "text": "Quito"}])
    dialog = actions.open_dialog("run", tuesday)
    _accept(qtbot, tab, dialog, id="qid", value="text")
    assert tab.prepared.ids == ["q3", "q1", "q2", "q4", "q5", "q6"]
    assert tab.prepared.actuals["tuesday"] == [None, "Paris!", None, None, None, "Quito"]
    # this run's outputs first (the table opens on them), the other runs, the baseline last
    assert list(tab.result.variants) == ["$.result", "tuesday", "baseline"]
    assert tab.model.variant() == "$.result"
    # reading it again (another encoding) joins the same files again
    with qtbot.waitSignal(tab.sig_finished, timeout=30_000):
        tab.top.sig_encoding.emit("cp1252")
    qtbot.waitUntil(lambda: not tab.is_busy(), timeout=20_000)
    assert tab.prepared.ids == ["q3", "q1", "q2", "q4", "q5", "q6"]


def test_a_bad_join_from_the_menu_is_one_sentence_and_keeps_the_run(qtbot, tmp_path):
    today, refs, _ = run_files(tmp_path)
    tab = make_tab(qtbot, ConfigModel())
    load(qtbot, tab, today, actuals=["$.result"])
    dialog = tab.runs_actions.open_dialog("reference", refs)
    _accept(qtbot, tab, dialog, value="$.nothing")
    assert "$.nothing" in tab.message.text() and "answers.jsonl" in tab.message.text()
    assert tab.table is not None and len(tab.table) == 3 and tab.joined is None
    # the next join starts from the dataset on screen, not from the failed request
    dialog = tab.runs_actions.open_dialog("reference", refs)
    _accept(qtbot, tab, dialog, value="$.answer")
    assert tab.prepared.expected == ["Oslo", "Paris", "Rome", "Bern"]


def test_an_unreadable_file_is_a_sentence_in_the_dialog(qtbot, tmp_path):
    today, _, _ = run_files(tmp_path)
    tab = make_tab(qtbot, ConfigModel())
    load(qtbot, tab, today, actuals=["$.result"])
    broken = tmp_path / "broken.jsonl"
    broken.write_text('{"id": "q1"\n', encoding="utf-8")
    dialog = tab.runs_actions.open_dialog("run", broken)
    qtbot.waitUntil(lambda: not dialog.is_reading(), timeout=20_000)
    assert "broken.jsonl" in dialog.message.text()
    assert not dialog.buttons.button(dialog.buttons.StandardButton.Ok).isEnabled()
    dialog.reject()


def test_opening_another_file_lets_the_joined_rows_go_slice_by_slice(qtbot, tmp_path):
    """The joined table's rows are the opened file's column store and pyarrow arrays: opening
    another file lets them go (a few big buffers, freed once nothing holds them), and the
    lines too."""
    today, refs, base = run_files(tmp_path)
    tab = make_tab(qtbot, ConfigModel())
    load(qtbot, tab, today, actuals=["$.result"], id_spec="id",
         joins=(Join("reference", refs, None, "$.answer"),))
    own_rows, lines = tab.table.rows.base.rows, tab.table.lines
    assert len(own_rows) == 3 and len(lines) == 4  # q4: only the references have it
    load(qtbot, tab, small_dataset(tmp_path / "small.csv"))
    assert tab.joined is None and tab.message.property("error") is not True, tab.message.text()
    gone = [weakref.ref(own_rows), weakref.ref(lines)]  # a store and an array of line numbers
    del own_rows, lines
    qtbot.waitUntil(lambda: gc.collect() is not None and all(ref() is None for ref in gone),
                    timeout=10_000)
