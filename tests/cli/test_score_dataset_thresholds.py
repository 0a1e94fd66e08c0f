"""`score` and `calibrate` on a dataset without --config read the thresholds the window saved
for it, and say so in their first summary line; --config always wins."""

from __future__ import annotations

from matchlens.core.dataset_thresholds import beside_path
from tests.cli.conftest import read_csv_file

# exact_match is 1 on r1 and r2 only; levenshtein_similarity of "abcd" vs "abcx" is 0.75.
ROWS = "id,expected,actual,human\nr1,a,a,pass\nr2,b,b,pass\nr3,abcd,abcx,fail\n"


def _data(tmp_path):
    data = tmp_path / "qa.csv"
    data.write_text(ROWS, encoding="utf-8")
    return data


def _verdicts(path) -> list[str]:
    header, rows = read_csv_file(path)
    return [row[header.index("levenshtein_similarity_pass")] for row in rows]


def test_score_reads_the_dataset_thresholds_and_says_so(cli, tmp_path):
    data = _data(tmp_path)
    args = ("score", data, "--expected", "expected", "--actual", "actual",
            "--metrics", "levenshtein_similarity")
    run = cli(*args, "-o", tmp_path / "before.csv")
    assert run.code == 0, run.err
    assert not run.err.startswith("thresholds:")
    # the registry's default threshold 0.7: r3 (0.75) passes
    assert _verdicts(tmp_path / "before.csv") == ["true", "true", "true"]
    saved = beside_path(data)
    saved.write_text("[metrics.levenshtein_similarity]\nthreshold = 0.8\n", encoding="utf-8")
    run = cli(*args, "-o", tmp_path / "after.csv")
    assert run.code == 0, run.err
    assert run.err.splitlines()[0].startswith(f"thresholds: {saved}")
    assert _verdicts(tmp_path / "after.csv") == ["true", "true", "false"]  # 0.75 < 0.8
    given = tmp_path / "given.toml"
    given.write_text("[metrics.levenshtein_similarity]\nthreshold = 0.5\n", encoding="utf-8")
    run = cli(*args, "-o", tmp_path / "given.csv", "--config", given)
    assert run.code == 0, run.err
    assert "thresholds:" not in run.err
    assert _verdicts(tmp_path / "given.csv") == ["true", "true", "true"]  # --config wins


def test_calibrate_reads_the_same_file(cli, tmp_path):
    data = _data(tmp_path)
    saved = beside_path(data)
    saved.write_text("[metrics.levenshtein_similarity]\nthreshold = 0.8\n", encoding="utf-8")
    run = cli("calibrate", data, "--expected", "expected", "--actual", "actual",
              "--label", "human", "--metric", "levenshtein_similarity")
    assert run.code == 0, run.err
    lines = run.out.splitlines()
    assert lines[0].startswith(f"thresholds: {saved}")
    assert "0.8" in next(line for line in lines if line.strip().startswith("levenshtein"))
