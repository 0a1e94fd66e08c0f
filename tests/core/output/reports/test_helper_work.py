"""core.output.reports.helper_work: the helper works on a thread niced to NIGHT_NICE (idle time
only), and its main thread takes over when the run waits (a night thread that never runs still
gives the run its file, also when pieces pile up); the JUnit file is put in place only once the
run commits (its own table written), and a run that ends before leaves no file and no
temporary; a piece's ids travel joined and come back the same."""

from __future__ import annotations

import hashlib
import os
import re
import signal
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from matchlens.core.output.reports import helper_work
from matchlens.core.output.reports.helper_work import NIGHT_NICE, JoinedIds, NightWork, joined_ids
from matchlens.core.output.reports.junit import joined_names, name_column, plain_names, string_array
from matchlens.core.scoring.forked import can_fork
from tests.core.output.reports.test_report_helper import _columns, _start


def _temporaries(folder) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.startswith(".j.xml."))


def _fed_and_written(folder, rows: int):
    """A run's reports fed every piece and told so; returned once the helper has written the
    JUnit file's temporary (it says so before waiting for the commit)."""
    outputs, stream, tally = _start(folder, _columns(rows))
    for piece, result in stream:
        outputs.feed(piece, result)
    outputs.pieces_done()
    assert outputs.helper.digest() is None  # no input file named; the reply comes first
    deadline = time.monotonic() + 60
    while not _temporaries(folder) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert _temporaries(folder), "the helper never wrote the JUnit file's temporary"
    return outputs, tally


def test_ids_joined_come_back_the_same():
    for ids in ([], [""], ["a", "", "b"], ["x" * 5, "<q>", "é\u2028"]):
        joined = joined_ids(iter(ids), len(ids))
        assert isinstance(joined, JoinedIds) and joined.split() == ids
    assert joined_ids(iter(["a\0b", "c"]), 2) is None  # a NUL in an id: the list is sent
    assert joined_ids(iter(["a\ud800", "c"]), 2) is None  # a lone surrogate: no UTF-8


@given(st.lists(st.text(st.characters(blacklist_categories=("Cs",),
                                      blacklist_characters="\0")), max_size=30))
@settings(max_examples=300, deadline=None)
def test_the_helpers_column_of_names_is_the_lists(ids):
    """What the helper makes of the joined bytes (no Python work a row) is the ids; the
    testcase names escaped from it are those escaped from the list the run would pass."""
    joined = joined_ids(iter(ids), len(ids))
    names = joined_names(joined.data, joined.count)
    if "" in ids:
        assert names is None  # named `row N`: the list's way
    else:
        assert names.to_pylist() == ids
        assert name_column(names, 7, len(ids)).to_pylist() == \
            name_column(list(ids), 7, len(ids)).to_pylist()


@pytest.mark.skipif(not can_fork(), reason="the report helper needs fork (Linux)")
def test_the_junit_file_is_put_in_place_only_when_the_run_commits(tmp_path):
    outputs, tally = _fed_and_written(tmp_path, 400)
    try:
        time.sleep(0.2)  # a helper that renamed without the commit would have by now
        assert not (tmp_path / "j.xml").exists()
        outputs.finish(tally, input_path=None, options={})
    finally:
        outputs.close()
    written = (tmp_path / "j.xml").read_text(encoding="utf-8")
    assert len(re.findall("<testcase ", written)) == 400
    assert _temporaries(tmp_path) == []


@pytest.mark.skipif(not can_fork(), reason="the report helper needs fork (Linux)")
def test_a_run_that_ends_before_it_commits_leaves_no_junit_file_nor_temporary(tmp_path):
    outputs, _tally = _fed_and_written(tmp_path, 400)
    outputs.close()  # as when writing the scored table failed, or Ctrl+C
    assert not (tmp_path / "j.xml").exists()
    assert _temporaries(tmp_path) == []


_NEEDS = set('&<>"\n\r\t\ufffe\uffff') | {chr(c) for c in range(0x20)}


@given(st.lists(st.text(st.characters(blacklist_categories=("Cs",))), max_size=30),
       st.integers(0, 3))
@settings(max_examples=400, deadline=None)
def test_names_are_plain_exactly_when_none_needs_escaping(ids, skip):
    """The byte table's answer (the regex asked only after a 0xEF byte) is the characters'."""
    names = string_array(ids).slice(min(skip, len(ids)))  # a slice: offsets not from zero
    assert plain_names(names) == (not any(set(i) & _NEEDS for i in ids[skip:]))


def _nice_of_threads(pid: int) -> list[int]:
    """The niceness of each thread of process `pid` (/proc: field 19 of its tasks' stat)."""
    out = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        with open(task / "stat") as handle:
            fields = handle.read().rsplit(")", 1)[1].split()
        out.append(int(fields[16]))
    return sorted(out)


@pytest.mark.skipif(not can_fork(), reason="the report helper needs fork (Linux)")
def test_the_helper_works_on_a_thread_niced_to_idle_time(tmp_path):
    outputs, stream, tally = _start(tmp_path, _columns(200))
    try:
        pid, own = outputs.helper.worker.pid, os.getpriority(os.PRIO_PROCESS, 0)
        deadline = time.monotonic() + 30
        while NIGHT_NICE not in _nice_of_threads(pid) and time.monotonic() < deadline:
            time.sleep(0.01)  # the night thread lowers its own priority when it starts
        nices = _nice_of_threads(pid)
        assert nices.count(NIGHT_NICE) == 1 and own in nices  # the main thread keeps the run's
        for piece, result in stream:
            outputs.feed(piece, result)
        outputs.finish(tally, input_path=None, options={})
    finally:
        outputs.close()
    assert len(re.findall("<testcase ", (tmp_path / "j.xml").read_text("utf-8"))) == 200


def _starved(monkeypatch) -> None:
    """A night thread that never gets the CPU (a machine kept busy by other work)."""
    monkeypatch.setattr(NightWork, "run", lambda self: None)  # forked with the helper


@pytest.mark.skipif(not can_fork(), reason="the report helper needs fork (Linux)")
@pytest.mark.parametrize("pending", [None, 4096])
def test_a_night_thread_that_never_runs_still_gives_the_run_its_file(
        tmp_path, monkeypatch, pending):
    """Once the run asks for the files the helper's main thread works at the run's priority;
    with MAX_PENDING small the pieces pile up at once and it works while the run scores."""
    _starved(monkeypatch)
    if pending is not None:
        monkeypatch.setattr(helper_work, "MAX_PENDING", pending)
        from matchlens.core.output.reports import report_helper
        monkeypatch.setattr(report_helper, "MAX_PENDING", pending)
    data = tmp_path / "data.csv"
    data.write_text("x\n")
    outputs, stream, tally = _start(tmp_path, _columns(400), input_path=data)

    def stuck(*_args) -> None:
        raise TimeoutError("the run waited for a helper that waited for its night thread")

    previous = signal.signal(signal.SIGALRM, stuck)
    signal.alarm(60)  # a failure, not a hang
    try:
        for piece, result in stream:
            outputs.feed(piece, result)
        data_ = outputs.finish(tally, input_path=data, options={})
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
        outputs.close()
    written = (tmp_path / "j.xml").read_text(encoding="utf-8")
    assert len(re.findall("<testcase ", written)) == 400
    assert data_.provenance.inputs[0].sha256 == _sha(data)


def _sha(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.skipif(not can_fork(), reason="the report helper needs fork (Linux)")
def test_a_helper_killed_while_it_writes_leaves_no_temporary(tmp_path, monkeypatch):
    """The run fails (its table) while the helper still writes a large JUnit file: the helper
    outlives the grace and is killed; its half-written temporary is removed."""
    from matchlens.core.output.reports import junit

    copy = junit.copy_spool

    def slow_copy(spool, out) -> None:  # forked with the helper: a file that takes long
        copy(spool, out)
        time.sleep(5)

    monkeypatch.setattr(junit, "copy_spool", slow_copy)
    outputs, _tally = _fed_and_written(tmp_path, 400)
    outputs.close()
    assert not (tmp_path / "j.xml").exists()
    assert _temporaries(tmp_path) == []
