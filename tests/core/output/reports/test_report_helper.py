"""core.output.reports.report_helper: `score`'s JUnit testcases and input hash worked out by a
forked helper process — the same bytes as in the run's own process (test_junit_same_bytes),
keys the run learns after the fork still masked, a helper that dies one sentence naming the
file, and the digest the file's own."""

from __future__ import annotations

import csv
import hashlib
import os
import re
import signal

import pytest

from matchlens.core.config import Config
from matchlens.core.datasets import table_from_columns
from matchlens.core.errors import OutputError
from matchlens.core.output.reports import failing_codes
from matchlens.core.output.reports.outputs import ReportOutputs, ReportPaths
from matchlens.core.scoring import plan
from matchlens.core.scoring.forked import can_fork
from matchlens.core.scoring.mapping import ColumnMapping
from matchlens.core.scoring.pipeline import score_stream
from matchlens.core.scoring.tally import Tally
from matchlens.core.text.redact import remember

pytestmark = pytest.mark.skipif(not can_fork(), reason="the report helper needs fork (Linux)")

LATE_KEY = "hunter-two-private-credential"  # no key shape: only remembering masks it


def _start(folder, columns, *, input_path=None, piece_rows=50):
    config = plan.shape_config(Config(), overrides=["levenshtein_similarity.threshold=0.7",
                                                    "exact_match.threshold=1"])
    jobs = plan.make_plan(config, "exact_match,levenshtein_similarity").jobs
    whole = table_from_columns(columns, name="data.csv")
    pieces = [whole.piece(i, i + piece_rows) for i in range(0, len(whole), piece_rows)]
    mapping = ColumnMapping("expected", ("actual",))
    tally = Tally(whole.label, mapping.variants, jobs, unit=whole.unit)
    paths = ReportPaths(folder / "r.html", folder / "s.md", folder / "j.xml")
    outputs = ReportOutputs(paths, mapping, jobs, source=whole.label, id_column="id",
                            input_path=input_path, helper=True)
    assert outputs.helper is not None and outputs.junit is None  # the helper does the JUnit
    return outputs, score_stream(pieces, mapping, jobs, tally), tally


def _columns(rows: int, text: str = "the answer", tag: str = "") -> dict[str, list]:
    return {"id": [f"q{i}{tag}" for i in range(rows)],
            "expected": [f"{text} {i}" for i in range(rows)],
            "actual": [f"{text} {i}" if i % 3 else f"{text} {i + 1}" for i in range(rows)]}


def test_a_key_the_run_learns_after_the_fork_is_masked_in_the_junit_file(tmp_path):
    columns = _columns(200, text=f"token {LATE_KEY}", tag=f" {LATE_KEY}")
    outputs, stream, tally = _start(tmp_path, columns)
    try:
        remember(LATE_KEY)  # as a key resolved once the run has started
        for piece, result in stream:
            outputs.feed(piece, result)
        outputs.finish(tally, input_path=None, options={})
    finally:
        outputs.close()
    written = (tmp_path / "j.xml").read_text(encoding="utf-8")
    assert 'name="q7 ' in written and "token " in written and LATE_KEY not in written


def test_a_helper_that_dies_is_one_sentence_naming_the_junit_file(tmp_path):
    outputs, stream, tally = _start(tmp_path, _columns(300))
    try:
        for k, (piece, result) in enumerate(stream):
            if k == 1:
                os.kill(outputs.helper.worker.pid, signal.SIGKILL)
            outputs.feed(piece, result)
        with pytest.raises(OutputError) as caught:
            outputs.finish(tally, input_path=None, options={})
    finally:
        outputs.close()
    said = str(caught.value)
    assert said.startswith(str(tmp_path / "j.xml")) and "not written" in said
    assert "\n" not in said and "Traceback" not in said
    assert (tmp_path / "r.html").exists() and (tmp_path / "s.md").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.html", "s.md"]  # no half file


def test_the_provenance_digest_is_the_input_files_sha256(tmp_path):
    data = tmp_path / "input.csv"
    data.write_bytes(os.urandom(3 << 20))  # hashed by the helper while the run scores
    outputs, stream, tally = _start(tmp_path, _columns(120), input_path=data)
    try:
        for piece, result in stream:
            outputs.feed(piece, result)
        report = outputs.finish(tally, input_path=data, options={})
    finally:
        outputs.close()
    assert report.provenance.inputs[0].sha256 == hashlib.sha256(data.read_bytes()).hexdigest()
    assert hashlib.sha256(data.read_bytes()).hexdigest() in (tmp_path / "r.html").read_text()


def _csv_run(folder, path, *, helper: bool) -> bytes:
    """A CSV file read in pieces as `score` reads it (delimited rows: the helper gets their
    ids joined in one string), reported with or without the helper."""
    from matchlens.core.datasets.readers import iter_tables

    config = plan.shape_config(Config(), overrides=["levenshtein_similarity.threshold=0.7",
                                                    "exact_match.threshold=1"])
    jobs = plan.make_plan(config, "exact_match,levenshtein_similarity").jobs
    pieces = list(iter_tables(path, chunk_rows=37))
    assert pieces[0].is_delimited
    mapping = ColumnMapping("expected", ("a", "b"))
    tally = Tally(pieces[0].label, mapping.variants, jobs, unit=pieces[0].unit)
    outputs = ReportOutputs(ReportPaths(junit=folder / "j.xml"), mapping, jobs,
                            source=pieces[0].label, id_column="id", helper=helper)
    assert (outputs.helper is not None) == helper
    try:
        for piece, result in score_stream(pieces, mapping, jobs, tally):
            outputs.feed(piece, result)
        outputs.finish(tally, input_path=None, options={})
    finally:
        outputs.close()
    return re.sub(rb'timestamp="[^"]*"', b"", (folder / "j.xml").read_bytes())


def test_a_csv_files_testcases_are_the_same_bytes_with_the_helper(tmp_path, monkeypatch):
    from tests.core.output.reports.test_junit_same_bytes import hostile_run

    monkeypatch.setattr(failing_codes, "JUNIT_DIFFS", 40)  # the cut inside a piece
    columns = hostile_run(11, 300)
    path = tmp_path / "hostile.csv"
    with path.open("w", newline="", encoding="utf-8", errors="replace") as handle:
        writer = csv.writer(handle)
        writer.writerow(list(columns))
        for row in zip(*columns.values(), strict=True):
            writer.writerow(["" if v is None else v.replace("\ud800", "?").replace("\0", "")
                             for v in row])
    (tmp_path / "own").mkdir()
    (tmp_path / "helper").mkdir()
    own = _csv_run(tmp_path / "own", path, helper=False)
    assert b'name="&lt;q' in own and b'name="row ' in own  # escaped ids, empty ids
    assert _csv_run(tmp_path / "helper", path, helper=True) == own
