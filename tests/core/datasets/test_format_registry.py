"""core.datasets.formats: one registry that `--format`, the Open dialog, the drop target and
the sniffing all read; the tables they had before it are what it gives."""

from __future__ import annotations

import pytest

from matchlens.cli.parser import build_parser
from matchlens.core.datasets.formats import (
    FORMATS,
    by_magic,
    by_suffix,
    format_ids,
    is_dataset_name,
)
from matchlens.core.datasets.readers import OPEN_FILTER

IDS = ("csv", "tsv", "jsonl", "json", "parquet", "xlsx", "xls", "ods")
KIND_BY_SUFFIX = {".csv": "csv", ".tsv": "tsv", ".tab": "tsv", ".jsonl": "jsonl",
                  ".ndjson": "jsonl", ".json": "json", ".parquet": "parquet",
                  ".pq": "parquet", ".xlsx": "xlsx", ".xlsm": "xlsx", ".xls": "xls",
                  ".ods": "ods"}


@pytest.mark.parametrize("fmt", list(FORMATS.values()), ids=list(FORMATS))
def test_every_format_has_what_the_front_ends_read(fmt):
    assert fmt.id and fmt.label and fmt.suffixes and callable(fmt.read)
    assert all(s.startswith(".") and s == s.lower() for s in fmt.suffixes)


def test_the_registry_gives_the_tables_the_front_ends_had():
    assert format_ids() == IDS
    assert {s: by_suffix(f"data{s.upper()}").id for s in KIND_BY_SUFFIX} == KIND_BY_SUFFIX
    assert by_suffix("data.txt") is None
    assert OPEN_FILTER == ("Datasets (*.csv *.tsv *.tab *.jsonl *.ndjson *.json *.parquet *.pq "
                           "*.xlsx *.xlsm *.xls *.ods);;All files (*)")
    assert is_dataset_name("a.NDJSON") and is_dataset_name("notes.txt")
    assert not is_dataset_name("a.png")


def test_first_bytes_name_the_binary_formats():
    assert by_magic(b"PAR1\x15\x04").id == "parquet"
    assert by_magic(b"PK\x03\x04\x14\x00").id == "xlsx"  # a ZIP: calamine tells xlsx from ods
    assert by_magic(b"\xd0\xcf\x11\xe0\xa1\xb1").id == "xls"
    assert by_magic(b"a,b\n1,2") is None


def test_the_cli_offers_every_registered_format(capsys):
    parser = build_parser()
    for fmt in IDS:
        assert parser.parse_args(["score", "data", "--format", fmt]).format == fmt
    with pytest.raises(SystemExit):
        parser.parse_args(["score", "data", "--format", "xml"])
    assert "choose from csv, tsv, jsonl, json, parquet, xlsx, xls, ods" in \
        capsys.readouterr().err.replace("'", "")
