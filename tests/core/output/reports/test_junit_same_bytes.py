"""core.output.reports.junit and junit_feed: the XML a run writes is byte for byte the XML the
writer made before it was tuned for 1M-row runs (the files in `junit_golden/`, written by
commit 611794f from these same inputs; only the timestamp differs from run to run).

The inputs are hostile on purpose: ids and texts with markup, quotes, line breaks, control
characters, lone surrogates and a key; missing references and outputs (skipped rows); two
variants; scores of many distinct values over three thresholded metrics; pieces of a few rows
(messages shared across pieces); the readable-diff cut crossed mid-piece; and a run joined
with a baseline (regressed rows). Regenerate the files only for a change of the format meant
to be seen: `python tests/core/output/reports/test_junit_same_bytes.py`.
"""

from __future__ import annotations

import random
import re
import sys
from pathlib import Path

import pytest

from matchlens.core.output.reports import failing_codes, junit_feed
from tests.core.output.reports.runs import run_joined_reports, run_reports
from tests.core.output.reports.test_html_report import HOSTILE
from tests.core.output.reports.test_junit import parse_valid

GOLDEN = Path(__file__).with_name("junit_golden")
KEY = "sk-golden-abcdefghijklmnop9876"
_STAMP = re.compile(rb'timestamp="[^"]*"')
WORDS = "alpha beta gamma delta epsilon zeta eta theta iota kappa".split()


def _text(rng: random.Random) -> str | None:
    roll = rng.random()
    if roll < 0.05:
        return None
    words = rng.choices(WORDS, k=rng.randint(0, 9))
    if roll < 0.35:
        words.insert(rng.randint(0, len(words)), rng.choice(HOSTILE))
    if roll < 0.4:
        words.append(KEY)
    return " ".join(words)


def _mutated(rng: random.Random, text: str | None) -> str | None:
    roll = rng.random()
    if text is None or roll < 0.05:
        return None if roll < 0.03 else "x"
    if roll < 0.3:
        return text
    if roll < 0.6:
        chars = list(text) or ["a"]
        for _ in range(rng.randint(1, 4)):
            chars[rng.randrange(len(chars))] = rng.choice("abc <&\"\x01")
        return "".join(chars)
    return _text(rng)


def hostile_run(seed: int, rows: int) -> dict[str, list]:
    """A run's columns: id, expected and two outputs (`a`, `b`), hostile and reproducible."""
    rng = random.Random(seed)
    expected = [_text(rng) for _ in range(rows)]
    ids = [rng.choice([None, "", f"q{i}", f"<q{i}>", f'q"{i}\n\t', f"q{i}\x02\ud800",
                       f"q{i} {KEY}", f"q{i}&amp;"]) for i in range(rows)]
    return {"id": ids, "expected": expected, "a": [_mutated(rng, e) for e in expected],
            "b": [_mutated(rng, e) for e in expected]}


def _plain_run(folder: Path, helper: bool = False) -> bytes:
    run_reports(folder, hostile_run(3, 400), actual=("a", "b"), id_column="id", piece_rows=37,
                overrides=("levenshtein_similarity.threshold=0.7", "exact_match.threshold=1",
                           "levenshtein_distance.threshold=4"),
                html=False, markdown=False, helper=helper)
    return (folder / "j.xml").read_bytes()


def _helper_run(folder: Path) -> bytes:
    """The same run with the testcases written by the forked report helper (`score`'s way)."""
    return _plain_run(folder, helper=True)


def _joined_run(folder: Path) -> bytes:
    today = hostile_run(5, 150)
    before = {k: list(v) for k, v in today.items()}
    before["actual"] = list(before.pop("a"))
    today["actual"] = [e if k % 3 else "changed" for k, e in enumerate(today.pop("b"))]
    del today["a"], before["b"]
    for columns in (today, before):  # a join needs an id a row, each its own
        columns["id"] = [f"r{k}" if (i or "").strip() == "" else f"{i}#{k}"
                         for k, i in enumerate(columns["id"])]
    run_joined_reports(folder, today, before, html=False, markdown=False)
    return (folder / "j.xml").read_bytes()


CASES = {"plain.xml": _plain_run, "joined.xml": _joined_run}
RUNS = {**CASES, "plain.xml by the helper": _helper_run}


def _written(name: str, folder: Path, monkeypatch: pytest.MonkeyPatch) -> bytes:
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    monkeypatch.setattr(failing_codes, "JUNIT_DIFFS", 60)  # the cut falls inside a piece
    return _STAMP.sub(b'timestamp="T"', RUNS[name](folder))


# (diffs worked out a piece, bytes held at most): as shipped; a few diffs a piece, so pieces
# wait in memory for theirs (and the pieces after them); and the memory bound reached (a
# piece of 37 rows holds ~650 bytes of names and codes: two or three held)
SPREADS = [(junit_feed.DIFFS_PER_PIECE, junit_feed.HELD_BYTES), (3, 10**8), (3, 1500)]


@pytest.mark.parametrize("spread", SPREADS)
@pytest.mark.parametrize("name", sorted(RUNS))
def test_the_xml_is_what_it_was(name, spread, tmp_path, monkeypatch):
    monkeypatch.setattr(junit_feed, "DIFFS_PER_PIECE", spread[0])
    monkeypatch.setattr(junit_feed, "HELD_BYTES", spread[1])
    written = _written(name, tmp_path, monkeypatch)
    assert KEY.encode() not in written
    parse_valid(tmp_path / "j.xml")
    assert written == (GOLDEN / name.split()[0]).read_bytes()


if __name__ == "__main__":  # regenerate the files (a format change meant to be seen)
    import tempfile

    sys.path.insert(0, str(Path(__file__).resolve().parents[4]))
    GOLDEN.mkdir(exist_ok=True)
    for case in CASES:
        with tempfile.TemporaryDirectory() as tmp, pytest.MonkeyPatch.context() as patch:
            (GOLDEN / case).write_bytes(_written(case, Path(tmp), patch))
            print(case, (GOLDEN / case).stat().st_size, "bytes")
