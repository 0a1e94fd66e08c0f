"""File names that are not UTF-8 (issue 28 item 13): a Linux name is bytes, and `\\xff.csv` is a
name a UTF-8 locale cannot decode (Python keeps the byte as a lone surrogate). Every command
that writes a file, given such a name as its input or its output, writes it, or says one
sentence; never exit 70. Real processes, in a UTF-8 locale and in the C locale."""

from __future__ import annotations

import os
import tomllib
from pathlib import Path

import pytest

from tests.cli.conftest import run_process

LOCALES = ("C.UTF-8", "C")
COLUMNS = ("--expected", "expected", "--actual", "actual")


def _name(folder: Path, raw: bytes) -> Path:
    """The path a program receives for the file name `raw` (bytes), as Python sees it."""
    return folder / os.fsdecode(raw)


def _data(folder: Path, raw: bytes = b"\xfa.csv") -> Path:
    path = _name(folder, raw)
    path.write_text('expected,actual,label\nParis,Paris,pass\nLyon,Nice,fail\n'
                    '"{""x"": 1}","{""x"": 2}",fail\n', encoding="utf-8")
    return path


def _run(locale: str, *args, cwd: Path):
    return run_process(*args, cwd=cwd, env={"LC_ALL": locale, "LANG": locale})


@pytest.mark.parametrize("locale", LOCALES)
def test_score_with_a_non_utf8_input_writes_the_table_its_sidecar_and_reports(tmp_path, locale):
    data = _data(tmp_path)
    run = _run(locale, "score", data, *COLUMNS, "-o", "out.csv", "--html", "r.html",
               "--markdown", "r.md", "--junit", "r.xml", cwd=tmp_path)
    assert run.code == 0, run.err
    sidecar = tomllib.loads((tmp_path / "out.csv.matchlens.toml").read_text(encoding="utf-8"))
    # the byte 0xFA shown as `\xfa`, as `ls -b` shows it: TOML holds only Unicode text
    assert sidecar["matchlens"]["input"].endswith("\\xfa.csv")
    for report in ("r.html", "r.md", "r.xml"):
        assert (tmp_path / report).stat().st_size > 0


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("suffix", [b".csv", b".jsonl"])
def test_score_to_a_non_utf8_output_name(tmp_path, locale, suffix):
    data = _data(tmp_path)
    out = b"\xff" + suffix
    run = _run(locale, "score", data, *COLUMNS, "-o", _name(tmp_path, out), "--html",
               _name(tmp_path, b"\xfe.html"), cwd=tmp_path)
    assert run.code == 0, run.err
    names = set(os.listdir(os.fsencode(tmp_path)))
    assert {out, out + b".matchlens.toml", b"\xfe.html"} <= names


@pytest.mark.parametrize("locale", LOCALES)
def test_calibrate_and_fields_with_non_utf8_names(tmp_path, locale):
    data = _data(tmp_path)
    run = _run(locale, "calibrate", data, *COLUMNS, "--label", "label", "-o",
               _name(tmp_path, b"\xfc.toml"), cwd=tmp_path)
    assert run.code == 0, run.err
    assert tomllib.loads(_name(tmp_path, b"\xfc.toml").read_text(encoding="utf-8"))
    run = _run(locale, "fields", data, *COLUMNS, "--quiet", "-o",
               _name(tmp_path, b"\xfb.csv"), cwd=tmp_path)
    assert run.code == 0, run.err
    assert _name(tmp_path, b"\xfb.csv").read_text(encoding="utf-8").startswith("path")


@pytest.mark.parametrize("locale", LOCALES)
def test_labels_of_a_non_utf8_dataset_are_read_by_calibrate(tmp_path, locale):
    data = _data(tmp_path)
    labels = _name(tmp_path, b"\xf9.labels.csv")
    labels.write_text("row,label\n1,pass\n2,fail\n", encoding="utf-8")
    run = _run(locale, "calibrate", data, *COLUMNS, "--labels", labels, cwd=tmp_path)
    assert run.code == 0, run.err
    assert "2 labelled" in run.out + run.err
