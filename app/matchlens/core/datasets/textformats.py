"""The text formats: CSV, TSV, JSON Lines and JSON, registered in `formats`, and text whose
format nothing named (read as the decoded text says: an array is JSON, an object a line JSON
Lines, anything else delimited text, CSV or TSV by the delimiter found)."""

from __future__ import annotations

import re
from collections.abc import Iterator

from matchlens.core.datasets.delimited import (
    check_delimiter,
    iter_delimited,
    read_delimited,
    sniff_delimiter,
)
from matchlens.core.datasets.formats import Request, data_format
from matchlens.core.datasets.jsonfiles import (
    iter_jsonl,
    iter_jsonl_once,
    json_lines_in_disguise,
    read_jsonl,
    walk_array,
)
from matchlens.core.datasets.records import rows_in_object
from matchlens.core.datasets.source import Source, gc_paused, open_source, settle
from matchlens.core.datasets.table import Table

_WS = re.compile(r"[ \t\n\r]*")
_DELIMITED = ("csv", "tsv", "sniffed")


def read_text(request: Request, kind: str | None) -> Table:
    """The whole file as format `kind` ("csv", "tsv", "jsonl", "json"; None: as it reads)."""
    source = _open_text(request)
    kind = _text_kind(source, kind, request.delimiter)
    if kind in _DELIMITED:
        used = _delimiter(source, kind, request.delimiter)
        header, rows, lines = read_delimited(source, used)
        return _delimited_table(request, source, kind, used, header, rows, lines)
    if kind == "jsonl" and not source.head.lstrip().startswith("["):
        columns, rows, lines = read_jsonl(source)
        return Table(request.display, columns, rows, lines, "jsonl", None, source.encoding,
                     name=request.table_name)
    # a .json, or a .jsonl that holds an array (its lines could never be objects)
    return read_json(source, request.display, request.table_name, request.records)


def text_pieces(request: Request, chunk_rows: int, kind: str | None) -> Iterator[Table]:
    """The same as `read_text` in tables of about `chunk_rows` rows: delimited text and JSON
    Lines are never held whole; a JSON document is read whole, then handed out in pieces."""
    source = _open_text(request)
    kind = _text_kind(source, kind, request.delimiter)
    if kind in _DELIMITED:
        used = _delimiter(source, kind, request.delimiter)
        for header, rows, lines in iter_delimited(source, used, chunk_rows):
            yield _delimited_table(request, source, kind, used, header, rows, lines)
        return
    if kind == "jsonl" and not source.head.lstrip().startswith("["):
        pieces = iter_jsonl_once if request.growing else iter_jsonl
        for columns, rows, lines in pieces(source, chunk_rows):
            yield Table(request.display, columns, rows, lines, "jsonl", None, source.encoding,
                        name=request.table_name)
        return
    yield from in_pieces(read_json(source, request.display, request.table_name,
                                   request.records), chunk_rows)


def in_pieces(whole: Table, chunk_rows: int) -> Iterator[Table]:
    for start in range(0, len(whole), chunk_rows):
        yield whole.piece(start, start + chunk_rows)


def read_json(source: Source, display, name: str | None, records: str | None) -> Table:
    """A Table from a .json file: an array of objects; an object holding one (`records`
    says where, or the only candidate is used, or promptfoo's output is recognised); a .json
    holding JSON Lines is read as JSON Lines (kind "jsonl") since that is what such files are."""
    source.check_cancel()
    with source.open_text() as handle:
        text = handle.read()
    if text.startswith("\ufeff"):
        text = text[1:]
    pos = _WS.match(text).end()
    with gc_paused():
        if text[pos:pos + 1] != "[" or records not in (None, "$"):
            if records is None:
                lines_table = json_lines_in_disguise(source, text, pos)
                if lines_table is not None:
                    columns, rows, lines = lines_table
                    return Table(display, columns, rows, lines, "jsonl", None, source.encoding,
                                 name=name)
            return rows_in_object(source, text, pos, records, display, name)
        columns, rows, lines = walk_array(source, text, pos)
        settle(rows)
    return Table(display, columns, rows, lines, "json", None, source.encoding, name=name)


def _open_text(request: Request) -> Source:
    source = open_source(request.real, request.encoding, request.cancel, display=request.name)
    if request.delimiter is not None:
        check_delimiter(source, request.delimiter)
    return source


def _text_kind(source: Source, kind: str | None, delimiter: str | None) -> str:
    if kind is not None:
        return kind
    if delimiter is None:
        first = source.head.lstrip()[:1]
        if first == "[":
            return "json"
        if first == "{":
            return "jsonl"
    return "sniffed"  # delimited text: CSV or TSV by the delimiter found


def _delimiter(source: Source, kind: str, delimiter: str | None) -> str:
    return delimiter or sniff_delimiter(source.head, "\t" if kind == "tsv" else ",")


def _delimited_table(request: Request, source: Source, kind, used, header, rows,
                     lines) -> Table:
    if kind not in ("csv", "tsv"):
        kind = "tsv" if used == "\t" else "csv"
    return Table(request.display, header.names, rows, lines, kind, used, source.encoding,
                 notes=[f"{request.name}: {header.note}"] if header.note else [],
                 repeated=header.repeated, header_line=header.line, name=request.table_name)


@data_format(id="csv", label="CSV", order=10, suffixes=(".csv",),
             pieces=lambda request, rows: text_pieces(request, rows, "csv"))
def read_csv(request: Request) -> Table:
    return read_text(request, "csv")


@data_format(id="tsv", label="TSV", order=20, suffixes=(".tsv", ".tab"),
             pieces=lambda request, rows: text_pieces(request, rows, "tsv"))
def read_tsv(request: Request) -> Table:
    return read_text(request, "tsv")


@data_format(id="jsonl", label="JSON Lines", order=30, suffixes=(".jsonl", ".ndjson"),
             pieces=lambda request, rows: text_pieces(request, rows, "jsonl"))
def read_json_lines(request: Request) -> Table:
    return read_text(request, "jsonl")


@data_format(id="json", label="JSON", order=40, suffixes=(".json",), records=True,
             pieces=lambda request, rows: text_pieces(request, rows, "json"))
def read_json_file(request: Request) -> Table:
    return read_text(request, "json")
