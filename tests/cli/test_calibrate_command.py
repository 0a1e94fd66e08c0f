"""`matchlens calibrate` against a confusion table worked out by hand, and its config round trip."""

from __future__ import annotations

import tomllib

import numpy as np
import pytest

from matchlens.core.labels.location import away_path
from matchlens.core.labels.sidecar import sidecar_path
from matchlens.core.labels.store import FAIL, PASS, Labels
from tests.cli.conftest import assert_one_line_error, read_csv_file
from tests.read_only import read_only

# Ten rows. exact_match is 1 on rows 1-4 and 9 (actual == expected), 0 elsewhere.
# The human labels: pass on 1, 2, 3, 5, 9; fail on 4, 6, 7, 8; none on 10.
ROWS = [("r1", "a", "a", "pass"), ("r2", "b", "b", "pass"), ("r3", "c", "c", "pass"),
        ("r4", "d", "d", "fail"), ("r5", "e", "x", "pass"), ("r6", "f", "y", "fail"),
        ("r7", "g", "z", "fail"), ("r8", "h", "w", "fail"), ("r9", "i", "i", "pass"),
        ("r10", "j", "q", "")]


@pytest.fixture
def data(tmp_path):
    path = tmp_path / "judged.csv"
    path.write_text("id,expected,actual,human\n" + "".join(",".join(r) + "\n" for r in ROWS),
                    encoding="utf-8")
    return path


def _table(out: str) -> dict[str, list[str]]:
    """metric -> its cells, from the printed table (columns split on 2+ spaces)."""
    import re

    lines = out.splitlines()
    header = re.split(r"\s{2,}", lines[1].strip())
    rows = {}
    for line in lines[2:]:
        cells = re.split(r"\s{2,}", line.strip())
        if len(cells) == len(header):
            rows[cells[0]] = cells
    return {"header": header, **rows}


def test_calibrate_against_a_hand_computed_confusion_table(cli, data):
    run = cli("calibrate", data, "--expected", "expected", "--actual", "actual",
              "--label", "human", "--metric", "exact_match,levenshtein_distance")
    assert run.code == 0, run.err
    # 9 labelled rows (row 10 has none): P = 5 (r1 r2 r3 r5 r9), N = 4 (r4 r6 r7 r8).
    assert run.out.splitlines()[0].endswith(
        "judged.csv: 10 rows, 9 labelled (5 pass, 4 fail), 1 without a label")
    table = _table(run.out)
    assert table["header"] == ["metric", "rows", "best threshold", "precision", "recall", "F1",
                               "pass there", "F1 pass-all", "ROC AUC", "current",
                               "agreement now"]
    # exact_match ≥ 1 passes r1 r2 r3 r4 r9: TP 4 (r1 r2 r3 r9), FP 1 (r4), FN 1 (r5), TN 3.
    #   precision 4/5, recall 4/5, F1 2·4/(2·4+1+1) = 0.8; 5 of 9 rows pass.
    # ≥ 0 passes all 9: F1 2·5/(2·5+4) = 10/14 = 0.714, the "pass every row" baseline.
    # ROC: (0,0) → (FPR 1/4, TPR 4/5) → (1,1): 0.25·0.8/2 + 0.75·1.8/2 = 0.1 + 0.675 = 0.775.
    # The current threshold (default 0.5) gives the same counts as ≥ 1, so Cohen's kappa is
    #   2(TP·TN − FN·FP) / ((TP+FP)(FP+TN) + (TP+FN)(FN+TN)) = 2(12 − 1) / (5·4 + 5·4) = 0.55.
    assert table["exact_match"] == ["exact_match", "9", "≥ 1", "0.800", "0.800", "0.800",
                                    "5/9", "0.714", "0.775", "≥ 0.50", "κ 0.55 (n = 9)"]
    # levenshtein_distance is 0 on the same five rows and 1 on the others (one character
    # replaced): the same table with ≤ 0; it has no threshold, so no agreement yet.
    assert table["levenshtein_distance"] == [
        "levenshtein_distance", "9", "≤ 0", "0.800", "0.800", "0.800", "5/9", "0.714",
        "0.775", "no threshold", "κ – (no threshold)"]
    assert "exact_match: Best F1 0.800 at ≥ 1: 5 of 9 labelled rows pass there" in run.out
    assert "Only 9 rows have both a score and a label" in run.out


def test_the_written_thresholds_are_what_score_reads(cli, data, tmp_path):
    out = tmp_path / "thresholds.toml"
    run = cli("calibrate", data, "--expected", "expected", "--actual", "actual",
              "--label", "human", "--metric", "exact_match", "--metric", "levenshtein_distance",
              "-o", out)
    assert run.code == 0, run.err
    assert f"Wrote {out}: exact_match ≥ 1; levenshtein_distance ≤ 0." in run.err
    written = tomllib.loads(out.read_text(encoding="utf-8"))["metrics"]
    assert written["exact_match"]["threshold"] == 1
    assert written["levenshtein_distance"]["threshold"] == 0
    scored = tmp_path / "scored.csv"
    run = cli("score", data, "--expected", "expected", "--actual", "actual", "--config", out,
              "--metrics", "exact_match,levenshtein_distance", "-o", scored)
    assert run.code == 0, run.err
    header, rows = read_csv_file(scored)
    for column in ("exact_match_pass", "levenshtein_distance_pass"):
        passing = [row[0] for row in rows if row[header.index(column)] == "true"]
        assert passing == ["r1", "r2", "r3", "r4", "r9"]  # the 5 rows calibrate said pass


def test_a_metric_that_does_not_separate_the_labels_keeps_its_threshold(cli, data, tmp_path):
    # contains ("x" in "x"?) equals exact_match here; jaccard too. Relabel so that no
    # threshold beats passing everything: every exact match is a fail, every miss a pass.
    flipped = data.read_text(encoding="utf-8").replace(",pass\n", ",tmp\n") \
        .replace(",fail\n", ",pass\n").replace(",tmp\n", ",fail\n")
    data.write_text(flipped, encoding="utf-8")
    out = tmp_path / "t.toml"
    run = cli("calibrate", data, "--expected", "expected", "--actual", "actual",
              "--label", "human", "--metric", "exact_match", "-o", out)
    assert run.code == 0, run.err
    assert "No useful threshold" in run.out
    assert "exact_match kept at ≥ 0.50 (no useful threshold)" in run.err
    assert tomllib.loads(out.read_text(encoding="utf-8"))["metrics"]["exact_match"][
        "threshold"] == 0.5


def test_labels_from_the_windows_sidecar_override_the_column(cli, data):
    # The window's labels model writes the sidecar: r4 relabelled pass, r10 labelled fail.
    ids = [r[0] for r in ROWS]
    base = np.array([{"pass": 1, "fail": 0}.get(r[3], -1) for r in ROWS], np.int8)
    labels, _ = Labels.open(data, 10, ["actual"], base=base, ids=ids)
    labels.set(3, "actual", PASS)
    labels.set(9, "actual", FAIL)
    sidecar = data.with_name("judged.csv.labels.csv")
    run = cli("calibrate", data, "--expected", "expected", "--actual", "actual",
              "--label", "human", "--labels", sidecar, "--metric", "exact_match")
    assert run.code == 0, run.err
    # P = 6 (r1 r2 r3 r4 r5 r9), N = 4 (r6 r7 r8 r10). At ≥ 1: TP 5, FP 0, FN 1 (r5), TN 4.
    # F1 = 10/11 = 0.909; precision 1; recall 5/6 = 0.833;
    # kappa = 2(5·4 − 1·0) / ((5+0)(0+4) + (5+1)(1+4)) = 40/50 = 0.80.
    # ROC: (0,0) → (0, 5/6) → (1,1): AUC = 1·(5/6 + 1)/2 = 0.917.
    assert _table(run.out)["exact_match"] == [
        "exact_match", "10", "≥ 1", "1.000", "0.833", "0.909", "5/10", "0.750", "0.917",
        "≥ 0.50", "κ 0.80 (n = 10)"]
    # Without --label only the sidecar's two lines are labels: r4 pass (TP), r10 fail (TN).
    run = cli("calibrate", data, "--expected", "expected", "--actual", "actual",
              "--labels", sidecar, "--metric", "exact_match")
    assert "10 rows, 2 labelled (1 pass, 1 fail), 8 without a label" in run.out


def test_bad_usage_is_one_sentence(cli, data, tmp_path):
    run = cli("calibrate", data, "--expected", "expected", "--actual", "actual")
    assert_one_line_error(run, "--label COLUMN", "--labels FILE")
    run = cli("calibrate", data, "--expected", "expected", "--actual", "actual",
              "--label", "verdict")
    assert_one_line_error(run, "judged.csv", "verdict")
    stray = tmp_path / "other.labels.csv"
    stray.write_text("row,id,variant,label\n1,r1,output_z,pass\n", encoding="utf-8")
    run = cli("calibrate", data, "--expected", "expected", "--actual", "actual",
              "--labels", stray)
    assert_one_line_error(run, "other.labels.csv", "matches a row and an --actual column",
                          "output_z")


def test_labels_the_window_kept_away_from_a_read_only_folder_are_found(cli, data, tmp_path):
    """The window keeps the labels of a file in a read-only folder in the user's data folder;
    calibrate names them (and counts them when given, with the numbers worked out above)."""
    shipped = tmp_path / "shipped"
    shipped.mkdir()
    data = data.rename(shipped / data.name)
    ids = [r[0] for r in ROWS]
    base = np.array([{"pass": 1, "fail": 0}.get(r[3], -1) for r in ROWS], np.int8)
    with read_only(shipped):
        labels, _ = Labels.open(data, 10, ["actual"], base=base, ids=ids)
        labels.set(3, "actual", PASS)
        labels.set(9, "actual", FAIL)
        away = away_path(data)
        assert away.exists() and not sidecar_path(data).exists()
        run = cli("calibrate", data, "--expected", "expected", "--actual", "actual")
        assert_one_line_error(run, "--label COLUMN", f"--labels {away}")
        run = cli("calibrate", data, "--expected", "expected", "--actual", "actual",
                  "--label", "human", "--metric", "exact_match")
        assert f"note: the window saved labels of {data} in {away}; add --labels {away}" in run.out
        assert _table(run.out)["exact_match"][5] == "0.800"  # the column alone, as asked
        run = cli("calibrate", data, "--expected", "expected", "--actual", "actual",
                  "--label", "human", "--labels", away, "--metric", "exact_match")
        assert run.code == 0, run.err
        assert "note: the window saved" not in run.out
        # The same two changes as the test above: F1 0.909 at ≥ 1, kappa 0.80.
        assert _table(run.out)["exact_match"][5] == "0.909"
        assert _table(run.out)["exact_match"][-1] == "κ 0.80 (n = 10)"
