"""The hostile corpus, round 2 (issue 11): faults that used to be tracebacks, hangs or silently
wrong output. Each case runs `matchlens score` on real files and asserts the exit code, the one
sentence, no traceback, the input left byte-identical, only the expected files created, and no
piece of a key in any stream or file.
"""

from __future__ import annotations

import codecs
import json
import os

import pytest

from tests.cli.conftest import Run, run_in_process, run_process, sha256
from tests.cli.test_hostile_inputs import (
    COLUMNS,
    DIR,
    GOOD,
    SECRET,
    Case,
    check_case,
    csv_data,
    json_cells,
)
from tests.embeddings.leaks import leaked

LINK = "link:"  # a file entry "link:TARGET" is a symbolic link to TARGET
MAX_LINE = 1000  # crash.MAX_LINE: no stderr line is longer
DEEP_TOML = b"a = " + b"[" * 100_000 + b"]" * 100_000 + b"\n"
BOM_UTF16LE = codecs.BOM_UTF8 + "expected,actual\nZoë,Zoe\n".encode("utf-16-le")
PATH_5000 = "$.out" + ".a" * 5000
LONE = b'{"expected": "a\\ud800b", "actual": "a\\ud800b"}\n'


def scored_cells(*pairs: tuple[str, str]):
    def check(run: Run) -> None:
        header, rows = run.table()
        at_e, at_a = header.index("expected"), header.index("actual")
        assert [(r[at_e], r[at_a]) for r in rows] == list(pairs)
    return check


CASES = [
    # --- config files ------------------------------------------------------------------------
    Case(**csv_data("--config", "x.toml", id="config_with_utf8_bom", code=0,
                    files={"data.csv": GOOD,
                           "x.toml": codecs.BOM_UTF8 + b"[metrics.jaccard]\nthreshold = 0.5\n"})),
    Case(**csv_data("--config", "x.toml", id="config_nested_100000_deep", code=2,
                    files={"data.csv": GOOD, "x.toml": DEEP_TOML},
                    needles=("nested too deeply",), names="x.toml")),
    Case(**csv_data("--config", "/dev/zero", id="config_dev_zero", code=2,
                    needles=("larger than 4 MB",), names="/dev/zero")),
    Case(**csv_data("--config", "x.toml", id="config_five_mb_of_comments", code=2,
                    files={"data.csv": GOOD, "x.toml": b"# pad\n" * 900_000},
                    needles=("larger than",), names="x.toml")),
    Case(**csv_data("--config", "x.toml", id="config_threshold_out_of_range", code=2,
                    files={"data.csv": GOOD, "x.toml": b"[metrics.jaccard]\nthreshold = -5\n"},
                    needles=("jaccard.threshold", "between 0 and 1", "-5"), names="x.toml")),
    Case(**csv_data("--config", "loop.toml", id="config_symlink_loop", code=2,
                    files={"data.csv": GOOD, "loop.toml": LINK + "loop2.toml",
                           "loop2.toml": LINK + "loop.toml"},
                    needles=("symbolic links",), names="loop.toml")),
    # --- thresholds and options out of range -------------------------------------------------
    Case(**csv_data("--set", "jaccard.threshold=-5", id="similarity_threshold_minus_5", code=2,
                    needles=("between 0 and 1", "-5"), names=None)),
    Case(**csv_data("--set", "exact_match.threshold=1.5", id="similarity_threshold_1_5",
                    code=2, needles=("between 0 and 1", "1.5"), names=None)),
    Case(**csv_data("--set", "levenshtein_distance.threshold=-1", id="distance_threshold_minus_1",
                    code=2, needles=("0 or more", "-1"), names=None)),
    Case(**csv_data("--set", "json_distance.numeric_tolerance=-1", id="tolerance_minus_1",
                    code=2, needles=("numeric_tolerance", "0 or more"), names=None)),
    Case(**csv_data("--set", "semantic_similarity.threshold=-2", id="cosine_threshold_minus_2",
                    code=2, needles=("between -1 and 1",), names=None)),
    Case(**csv_data("--set", "exact_match.case_sensitive=" + "x" * 100_000, id="set_100kb_value",
                    code=2, needles=("true or false", "characters)"), names=None)),
    Case(**csv_data("--set", "x" * 100_000, id="set_100kb_without_equals", code=2,
                    needles=("ID.OPTION=VALUE",), names=None)),
    # --- the data file -----------------------------------------------------------------------
    Case("data_symlink_loop", {"a.csv": LINK + "b.csv", "b.csv": LINK + "a.csv"},
         ("a.csv", *COLUMNS), 2, ("symbolic link loop",)),
    Case("data_dangling_symlink", {"a.csv": LINK + "gone.csv"}, ("a.csv", *COLUMNS), 2,
         ("'gone.csv'", "does not exist")),
    Case(**csv_data(data=BOM_UTF16LE, id="utf8_bom_then_utf16le", code=2, line=1,
                    needles=("UTF-8 byte-order mark", "UTF-16-LE", "--encoding utf-16-le"))),
    Case(**csv_data("--encoding", "utf-16-le", data=BOM_UTF16LE,
                    id="utf8_bom_then_utf16le_as_suggested", code=0,
                    check=scored_cells(("Zoë", "Zoe")))),
    Case("jsonpath_5000_segments", {"data.csv": json_cells(("Paris", {"answer": "Paris"}))},
         ("data.csv", "--expected", "ref", "--actual", PATH_5000), 2,
         ("matches nothing",), column="out"),
    Case("jsonpath_5000_segments_no_column", {"data.csv": GOOD},
         ("data.csv", "--expected", "expected", "--actual", "$" + ".a" * 5000), 2,
         ("no column 'a'",)),
    Case("jsonl_1e400", {"data.jsonl": b'{"expected": 1e400, "actual": "1e400"}\n'},
         ("data.jsonl", *COLUMNS), 0, check=scored_cells(("1e400", "1e400"))),
    Case("json_array_minus_1e999",
         {"data.json": b'[{"expected": -1e999, "actual": "x"}, {"expected": 2.5, "actual": "y"}]'},
         ("data.json", *COLUMNS), 0, check=scored_cells(("-1e999", "x"), ("2.5", "y"))),
    Case("lone_surrogate_to_stdout", {"data.jsonl": LONE}, ("data.jsonl", *COLUMNS), 0,
         ("U+FFFD", "2 lone"), check=scored_cells(("a\ufffdb", "a\ufffdb"))),
    Case("lone_surrogate_to_csv", {"data.jsonl": LONE},
         ("data.jsonl", *COLUMNS, "-o", "out.csv"), 0, ("U+FFFD",),
         outputs=("out.csv", "out.csv.matchlens.toml")),
    Case("lone_surrogate_to_jsonl", {"data.jsonl": LONE},
         ("data.jsonl", *COLUMNS, "-o", "out.jsonl"), 0,
         outputs=("out.jsonl", "out.jsonl.matchlens.toml")),
    Case(**csv_data("-o", "\udcff\udcfe.csv", id="output_name_not_utf8", code=0,
                    outputs=("\udcff\udcfe.csv", "\udcff\udcfe.csv.matchlens.toml"))),
    Case("data_name_not_utf8", {"\udcffdata.csv": GOOD}, ("\udcffdata.csv", *COLUMNS), 0,
         check=scored_cells(("Paris", "Paris"), ("Rome", "Roma"))),
    # --- endpoints and keys ------------------------------------------------------------------
    Case(**csv_data("--metrics", "semantic_similarity", "--base-url", "ftp://x",
                    id="base_url_not_http", code=2, needles=("'ftp://x'",), names=None)),
    Case(**csv_data("--metrics", "semantic_similarity", "--set",
                    f"semantic_similarity.base_url=http://u:{SECRET}@127.0.0.1:9/v1?api-key="
                    f"{SECRET}", "-o", "out.csv", id="credentials_in_a_set_url", code=0,
                    needles=("cannot reach http://127.0.0.1:9/v1",),
                    outputs=("out.csv", "out.csv.matchlens.toml"))),
    Case("key_in_the_data_file_name", {f"{SECRET}.csv": GOOD},
         (f"{SECRET}.csv", *COLUMNS, "-o", "out.csv"), 0,
         outputs=("out.csv", "out.csv.matchlens.toml")),
    Case(**csv_data("--metrics", "semantic_similarity", "--config", "evil.toml",
                    id="config_endpoint_with_a_key_in_the_environment", code=2,
                    files={"data.csv": GOOD,
                           "evil.toml": b'[openai]\nbase_url = "http://127.0.0.1:9/v1"\n'},
                    needles=("nothing was sent", "--base-url"), names="evil.toml")),
]

assert len({case.id for case in CASES}) == len(CASES)


def make_files(folder, files: dict[str, object]) -> None:
    for name, data in files.items():
        path = folder / name
        if data is DIR:
            path.mkdir()
        elif isinstance(data, str) and data.startswith(LINK):
            path.symlink_to(data.removeprefix(LINK))
        else:
            path.write_bytes(data)  # type: ignore[arg-type]


def snapshot_links(folder) -> dict[str, str]:
    """snapshot() without following links (a loop has no content to hash)."""
    out = {}
    for path in sorted(folder.iterdir()):
        if path.is_symlink():
            out[path.name] = "link:" + os.readlink(path)
        elif path.is_dir():
            out[path.name] = "dir"
        else:
            out[path.name] = sha256(path)
    return out


def check(case: Case, run: Run, folder, before) -> None:
    check_case(case, run, before, snapshot_links(folder))
    assert all(len(line) <= MAX_LINE for line in run.err_lines), [len(x) for x in run.err_lines]
    assert not leaked(run.out[:1_000_000] + run.err, SECRET)
    for path in folder.iterdir():
        if path.is_file() and not path.is_symlink():
            assert not leaked(path.read_bytes(), SECRET), path


PARAMS = [pytest.param(case, id=case.id) for case in CASES]
IN_A_PROCESS = {"config_nested_100000_deep", "config_dev_zero", "set_100kb_value",
                "data_symlink_loop", "jsonpath_5000_segments", "lone_surrogate_to_stdout",
                "output_name_not_utf8", "data_name_not_utf8", "jsonl_1e400",
                "credentials_in_a_set_url"}


@pytest.mark.parametrize("case", PARAMS)
def test_fault_in_process(case, tmp_path, capsys, monkeypatch):
    make_files(tmp_path, case.files)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    before = snapshot_links(tmp_path)
    check(case, run_in_process(capsys, "score", *case.args), tmp_path, before)


@pytest.mark.parametrize("case", [p for p in PARAMS if p.id in IN_A_PROCESS])
def test_fault_as_a_process(case, tmp_path):
    make_files(tmp_path, case.files)
    before = snapshot_links(tmp_path)
    run = run_process("score", *case.args, cwd=tmp_path, env={"OPENAI_API_KEY": SECRET})
    check(case, run, tmp_path, before)


def test_output_files_keep_numbers_and_surrogates_as_written(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "data.jsonl").write_bytes(b'{"expected": 1e400, "actual": "a\\ud800b"}\n')
    run = run_in_process(capsys, "score", "data.jsonl", *COLUMNS, "-o", "out.jsonl")
    assert run.code == 0, run.err
    text = (tmp_path / "out.jsonl").read_text(encoding="utf-8")
    assert text.startswith('{"expected": 1e400, "actual": "a\\ud800b", ')
    assert json.loads(text)["actual"] == "a\ud800b"  # valid JSON, the same string
    run = run_in_process(capsys, "score", "data.jsonl", *COLUMNS, "-o", "out.csv")
    assert (tmp_path / "out.csv").read_text(encoding="utf-8").splitlines()[1].startswith(
        "1e400,a\ufffdb,")
