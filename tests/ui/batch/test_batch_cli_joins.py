"""`matchlens batch` takes `score`'s reading options for the files it joins
(`--references-records/-sheet/-format/-encoding`, `--baseline-...`; spec/cli.md: "batch takes
the same reading options as score"): the real parser and what the window gives the batch tab,
the join done by the tab's own join path off the GUI thread (run_joins.read_joined); the real
entry point in a process of its own: test_batch_runs_command.py."""

from __future__ import annotations

import json

import pytest

from matchlens.cli.parser import parse_args
from matchlens.ui.app import reading_options
from matchlens.ui.batch.run_joins import joins_from_args
from matchlens.ui.config_model import ConfigModel
from tests.ui.batch.test_batch_runs import write_jsonl
from tests.ui.batch_support import make_tab

pytestmark = pytest.mark.qt_log_ignore("propagateSizeHints")


def _files(tmp_path):
    """today answers q1..q3; the references (q1..q4) sit inside a JSON object at
    $.data.items; yesterday's run (q2, q3, q5) is JSON lines under a .txt name."""
    today = write_jsonl(tmp_path / "today.jsonl", [
        {"id": "q3", "result": "Oslo"}, {"id": "q1", "result": "Paris"},
        {"id": "q2", "result": "Milan"}])
    refs = tmp_path / "answers.json"
    refs.write_text(json.dumps({"meta": {"n": 4}, "data": {"items": [
        {"id": "q1", "answer": "Paris"}, {"id": "q2", "answer": "Rome"},
        {"id": "q3", "answer": "Oslo"}, {"id": "q4", "answer": "Bern"}]}}), encoding="utf-8")
    base = tmp_path / "yesterday.txt"
    write_jsonl(base, [{"id": "q5", "result": "Lima"}, {"id": "q2", "result": "Rome"},
                       {"id": "q3", "result": "Olso"}])
    return today, refs, base


def _argv(today, refs, base, records="$.data.items"):
    return ["batch", str(today), "--id", "id", "--actual", "$.result",
            "--references", str(refs), "--references-records", records,
            "--expected", "answer", "--baseline", str(base), "--baseline-format", "jsonl",
            "--baseline-actual", "$.result"]


def _opened(qtbot, argv):
    """The batch tab given what `matchlens batch` gives it (ui/app.build_window: the parsed
    reading options and joins, through the window's load_dataset into BatchTab.load). Not the
    whole window here: it imports semantic_similarity, which stays registered for the rest of
    the test process (the process test below runs the command whole)."""
    args = parse_args(argv)
    tab = make_tab(qtbot, ConfigModel())
    tab.load(args.data, expected=args.expected, actuals=args.actual, label=args.label,
             encoding=args.encoding, **reading_options(args), **joins_from_args(args))
    qtbot.waitUntil(lambda: tab.result is not None or tab.message.property("error") is True,
                    timeout=60_000)
    qtbot.waitUntil(lambda: not tab.is_busy(), timeout=60_000)
    return tab


def test_batch_reads_each_joined_file_by_its_own_options(qtbot, tmp_path):
    tab = _opened(qtbot, _argv(*_files(tmp_path)))
    assert tab.message.property("error") is not True, tab.message.text()
    # as `score --references --baseline` joins them: the run's rows in its order, the
    # reference no output answers (q4), then the baseline's q5 (gone today)
    assert tab.prepared.ids == ["q3", "q1", "q2", "q4", "q5"]
    assert tab.prepared.expected == ["Oslo", "Paris", "Rome", "Bern", None]
    assert tab.prepared.actuals["baseline"] == ["Olso", None, "Rome", None, "Lima"]
    assert tab.joined is not None and tab.joined.baseline == "baseline"


def test_a_wrong_records_path_names_the_references_option(qtbot, tmp_path):
    tab = _opened(qtbot, _argv(*_files(tmp_path), records="$.nowhere"))
    text = tab.message.text()
    assert tab.message.property("error") is True
    assert "answers.json" in text and "--references-records" in text, text
    assert "Traceback" not in text and "\n" not in text
