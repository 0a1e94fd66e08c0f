"""`matchlens.score(..., id=, references=, baseline=, baseline_actual=)`: the same rows and
values as `matchlens score -o out.jsonl` with the same flags, from paths or DataFrames."""

from __future__ import annotations

import json

import pandas as pd
import pytest

import matchlens
from matchlens.core.errors import ConfigError
from matchlens.main import main
from tests.api.helpers import frame_rows

RUN = [{"id": 3, "result": "Paris"}, {"id": 1, "result": "Berlin"},
       {"id": 5, "result": "extra"}, {"id": 2, "result": "Lisbon, Portugal"}]
REFS = [{"id": 1, "answer": "Berlin"}, {"id": 2, "answer": "Lisbon"},
        {"id": 3, "answer": "Paris"}, {"id": 4, "answer": "Rome"}]
BASE = [{"id": 2, "result": "Lisbon"}, {"id": 1, "result": "Bern"},
        {"id": 3, "result": "Paris"}, {"id": 6, "result": "gone one"}]
METRICS = ["exact_match", "levenshtein_distance", "jaccard"]


def _write(path, rows):
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


@pytest.fixture
def paths(tmp_path):
    return (_write(tmp_path / "today.jsonl", RUN), _write(tmp_path / "refs.jsonl", REFS),
            _write(tmp_path / "yesterday.jsonl", BASE))


def _cli_records(paths, tmp_path, capsys):
    today, refs, base = paths
    out = tmp_path / "out.jsonl"
    code = main(["score", str(today), "--id", "id", "--actual", "result", "--references",
                 str(refs), "--expected", "answer", "--baseline", str(base),
                 "--baseline-actual", "result", "--metrics", ",".join(METRICS), "-o", str(out),
                 "--quiet"])
    capsys.readouterr()
    assert code == 0
    return [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]


def _normal(rows):
    """The id as text (a JSON number in the file, text where another file gave it)."""
    return [{**row, "id": str(row["id"])} for row in rows]


def test_paths_equal_the_command(paths, tmp_path, capsys):
    today, refs, base = paths
    frame = matchlens.score(today, expected="answer", actual="result", metrics=METRICS,
                            id="id", references=refs, baseline=base, baseline_actual="result")
    records = _cli_records(paths, tmp_path, capsys)
    # every column the command writes, in its order (a JSON line omits the run's absent keys)
    assert set(records[0]) <= set(frame.columns)
    assert _normal(frame_rows(frame)) == _normal(
        [{c: rec.get(c) for c in frame.columns} for rec in records])
    summary = frame.attrs["matchlens"]["baseline"]["result"]
    assert summary["regressed_rows"] == 1  # id 2: "Lisbon" passed, "Lisbon, Portugal" fails
    assert summary["metrics"]["exact_match"]["gone"] == 1  # id 6


def test_frames_equal_paths(paths):
    today, refs, base = paths
    from_paths = matchlens.score(today, expected="answer", actual="result", metrics=METRICS,
                                 id="id", references=refs, baseline=base,
                                 baseline_actual="result")
    from_frames = matchlens.score(pd.DataFrame(RUN), expected="answer", actual="result",
                                  metrics=METRICS, id="id", references=pd.DataFrame(REFS),
                                  baseline=pd.DataFrame(BASE), baseline_actual="result")
    assert _normal(frame_rows(from_frames)) == _normal(frame_rows(from_paths))


def test_a_frame_baseline_needs_its_output_column(paths):
    today, refs, _ = paths
    with pytest.raises(ConfigError, match="baseline_actual="):
        matchlens.score(today, expected="answer", actual="result", id="id",
                        references=refs, baseline=pd.DataFrame(BASE))
