"""JUnit XML as CI systems read it (GitLab, Jenkins, GitHub test reporters), written while the
rows stream: one `testsuite` per variant, one `testcase` per row named by its id (else
`row N`), a `failure` whose message names each failing metric with score and threshold and
whose body is the readable diff, `skipped` for a row without a score.

A testsuite states its counts before its testcases, and a 1M-row run cannot hold its
testcases, so each variant's testcases go to a temporary file as they come; `write` then puts
the counts and the spooled testcases into the output, renamed into place at once
(core.atomic). XML 1.0 cannot hold control characters or lone surrogates: they are written as
visible escapes (`\\x01`, `\\ud800`).

A 1M-row run has a million testcases: they are made column by column (`name_column` escapes
the ids with pyarrow, `joined_testcases` joins each name with its row's ending — passed,
failed with a message and body, skipped — into one UTF-8 buffer a piece), never a Python
string a row; junit_feed decides which ending each row gets.
"""

from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path
from typing import IO

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from matchlens.core.atomic import atomic_writer
from matchlens.core.text.redact import HIDDEN, known_secrets, mask, scrub

_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
_ESCAPES = {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"}
_TEXT = re.compile('[&<>"]')
_ATTR = re.compile('[&<>"\n\r\t]')
_ATTR_ESCAPES = {**_ESCAPES, "\n": "&#10;", "\r": "&#13;", "\t": "&#9;"}


def _visible(match: re.Match) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def xml_text(text: str) -> str:
    """Text content: escaped, and every character XML 1.0 forbids made visible."""
    return _TEXT.sub(lambda m: _ESCAPES[m.group()], _NOT_XML.sub(_visible, text))


def xml_attr(text: str) -> str:
    """An attribute value (inside double quotes); line breaks kept as character references."""
    return _ATTR.sub(lambda m: _ATTR_ESCAPES[m.group()], _NOT_XML.sub(_visible, text))


# _NOT_XML in RE2 (pyarrow) over UTF-8, which cannot hold a lone surrogate
_FORBIDDEN_RE2 = r"[\x00-\x08\x0b\x0c\x0e-\x1f\x{fffe}\x{ffff}]"
_OPEN = '    <testcase name="'
_ANY_RE2 = _FORBIDDEN_RE2[:-1] + '&<>"\\n\\r\\t]'  # what needs escaping or is forbidden
# The UTF-8 bytes that may begin what _ANY_RE2 finds: a control character, &<>", and 0xEF,
# the lead byte of U+FFFE and U+FFFF (and of other characters: then the regex decides).
_MAYBE_ANY = np.zeros(256, dtype=bool)
_MAYBE_ANY[:0x20] = True
_MAYBE_ANY[[ord(c) for c in '&<>"'] + [0xEF]] = True


def plain_names(names: pa.Array) -> bool:
    """Whether no name of a string column needs escaping nor holds a forbidden character:
    its bytes looked up in a table (a regex over 50,000 names costs ten times more), the
    regex asked only when a byte may begin such a character."""
    kind = np.dtype(np.int64 if pa.types.is_large_string(names.type) else np.int32)
    offsets = np.frombuffer(names.buffers()[1], dtype=kind, count=len(names) + 1,
                            offset=names.offset * kind.itemsize)
    data = names.buffers()[2]
    if data is None or not len(names):
        return True
    raw = np.frombuffer(data, dtype=np.uint8)[int(offsets[0]):int(offsets[-1])]
    if not _MAYBE_ANY[raw].any():
        return True
    return not pc.any(pc.match_substring_regex(names, _ANY_RE2)).as_py()


def passed_tail(cls: str) -> str:
    """What follows a passing testcase's name (`cls`: the escaped classname)."""
    return f'" classname="{cls}"/>\n'


def failure_tail(cls: str, message: str, body: str) -> str:
    """What follows a failing testcase's name: `message` escaped for an attribute (xml_attr),
    `body` for text (xml_text)."""
    return (f'" classname="{cls}"><failure message="{message}" type="threshold">{body}'
            '</failure></testcase>\n')


def skipped_tail(cls: str, why: str) -> str:
    """What follows a skipped testcase's name (`why` escaped for an attribute)."""
    return f'" classname="{cls}"><skipped message="{why}"/></testcase>\n'


def string_array(values: list[str]) -> pa.Array:
    """A large_string array of Python strings, made from their UTF-8 bytes: `pa.array` on a
    list (or a scalar from a str) makes pyarrow import pandas, a second of a run's start-up.
    UnicodeEncodeError for a lone surrogate (UTF-8 cannot hold one)."""
    data = "".join(values).encode("utf-8")
    n = len(values)
    lengths = np.fromiter(map(len, values), dtype=np.int64, count=n)
    if len(data) != int(lengths.sum()):  # not all ASCII: each string's bytes
        lengths = np.fromiter((len(v.encode("utf-8")) for v in values), dtype=np.int64, count=n)
    offsets = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(lengths, out=offsets[1:])
    return pa.LargeStringArray.from_buffers(n, pa.py_buffer(offsets), pa.py_buffer(data))


def row_names(start: int, n: int) -> pa.Array:
    """`row N` for the rows start+1 … start+n (nothing to escape)."""
    numbers = np.arange(start + 1, start + n + 1, dtype=np.int64)
    text = pa.Int64Array.from_buffers(pa.int64(), n, [None, pa.py_buffer(numbers)]).cast(
        pa.large_string())
    row, empty = string_array(["row ", ""])
    return pc.binary_join_element_wise(row, text, empty)


def joined_names(data: bytes, count: int) -> pa.Array | None:
    """`count` ids from their UTF-8 bytes with a NUL between them (report_helper's JoinedIds)
    as a string column, made with numpy: the NULs dropped, the offsets where they were. None
    when an id is empty (its name is `row N`: name_column's list does that)."""
    raw = np.frombuffer(data, dtype=np.uint8)
    cuts = np.flatnonzero(raw == 0)
    if len(cuts) != max(count - 1, 0):
        raise ValueError(f"{count} ids joined, {len(cuts) + 1} found")
    offsets = np.zeros(count + 1, dtype=np.int64)
    if count:
        offsets[1:-1] = cuts - np.arange(count - 1)
        offsets[-1] = len(raw) - (count - 1)
    if count and (np.diff(offsets) == 0).any():
        return None
    text = raw[raw != 0] if len(cuts) else raw
    return pa.LargeStringArray.from_buffers(count, pa.py_buffer(offsets),
                                            pa.py_buffer(np.ascontiguousarray(text)))


def name_column(ids: list | pa.Array | None, start: int, n: int) -> pa.Array:
    """The escaped testcase names of a piece: each row's id, `row N` where it has none (None
    or empty; an array given holds none: joined_names). The escaping runs on the whole column
    (pyarrow); a column holding a character XML 1.0 forbids (a control character, a lone
    surrogate: not even UTF-8) is made visible row by row (xml_attr), as ids rarely hold one."""
    if ids is None:
        return row_names(start, n)
    if isinstance(ids, pa.Array):
        names: pa.Array | None = ids
        if plain_names(names):
            return names
        ids = names.to_pylist()
    values = ids
    if None in ids or "" in ids:  # `row N` has nothing to escape: put in before
        values = [v if v not in (None, "") else f"row {start + k + 1}" for k, v in enumerate(ids)]
    try:
        names = string_array(values)
    except (UnicodeEncodeError, TypeError):
        names = None
    if names is not None and plain_names(names):
        return names  # the common case: one scan says no name needs escaping
    if names is None or pc.any(pc.match_substring_regex(names, _FORBIDDEN_RE2)).as_py():
        return string_array([xml_attr(v) if v not in (None, "") else f"row {start + k + 1}"
                             for k, v in enumerate(ids)])
    for char in '&<>"\n\r\t':  # & first: the others' escapes hold one
        names = pc.replace_substring(names, char, _ATTR_ESCAPES[char])
    return names


def joined_testcases(names: pa.Array, tails: list[str] | pa.Array, codes: np.ndarray
                     ) -> pa.Buffer:
    """The UTF-8 bytes of a piece's `<testcase>` lines: each row's name (escaped: name_column)
    followed by `tails[codes[row]]` (passed_tail, failure_tail, skipped_tail; a list or a
    large_string column), joined column by column (pyarrow), one buffer for the piece."""
    n = len(codes)
    if n == 0:
        return pa.py_buffer(b"")
    picks = pa.Int32Array.from_buffers(pa.int32(), n, [
        None, pa.py_buffer(np.ascontiguousarray(codes, dtype=np.int32))])
    ends = pc.take(tails if isinstance(tails, pa.Array) else string_array(tails), picks)
    opening, nothing = string_array([_OPEN, ""])
    lines = pc.binary_join_element_wise(opening, names, ends, nothing)
    offsets = np.frombuffer(lines.buffers()[1], dtype=np.int64,
                            count=len(lines) + 1, offset=lines.offset * 8)
    return lines.buffers()[2][int(offsets[0]):int(offsets[-1])]


def mask_known(data: bytes | pa.Buffer) -> bytes | pa.Buffer:
    """UTF-8 `data` with the keys this run knows (OPENAI_API_KEY, the resolved key) masked: a
    plain substring search over a piece's bytes, fast enough for every row of a 1M-row run,
    where `scrub`'s key-shape patterns cost more than the scoring."""
    secrets = [secret for secret in known_secrets() if len(secret) >= 4]
    if not secrets:
        return data
    out = bytes(data)
    for secret in secrets:
        key = secret.encode("utf-8", "surrogatepass")
        if key in out:
            out = out.replace(key, (mask(secret) or HIDDEN).encode())
    return out


class JunitWriter:
    """Testcases per variant, spooled to temporary files (UTF-8) until `write`."""

    def __init__(self, variants: list[str], source: str) -> None:
        self.variants = list(variants)
        self.source = source
        self._spools: dict[str, IO[bytes]] = {
            v: tempfile.TemporaryFile("w+b")  # noqa: SIM115 - closed by write/close
            for v in self.variants}
        self.counts = {v: {"tests": 0, "failures": 0, "skipped": 0} for v in self.variants}

    def add_block(self, variant: str, lines: bytes | pa.Buffer, tests: int, failures: int,
                  skipped: int) -> None:
        """One piece's testcases (joined_testcases: `tests` of them), the run's known keys masked
        in one go (the texts of diffs are scrubbed in full before: see junit_feed)."""
        c = self.counts[variant]
        c["tests"] += tests
        c["failures"] += failures
        c["skipped"] += skipped
        self._spools[variant].write(mask_known(lines))

    def write(self, path: Path, timestamp: str,
              properties: dict[str, dict[str, str]] | None = None) -> None:
        """The XML file, replaced in one step (atomic), then the spools are closed;
        `properties` per variant go in the testsuite's `<properties>`. The spooled testcases
        are copied by the kernel (sendfile), not through Python."""
        try:
            with atomic_writer(path, mode="wb") as out:
                totals = {k: sum(c[k] for c in self.counts.values())
                          for k in ("tests", "failures", "skipped")}
                head = ['<?xml version="1.0" encoding="UTF-8"?>\n',
                        f'<testsuites name="matchlens {xml_attr(scrub(self.source))}" '
                        f'tests="{totals["tests"]}" failures="{totals["failures"]}" '
                        f'errors="0" skipped="{totals["skipped"]}">\n']
                for variant in self.variants:
                    c = self.counts[variant]
                    head.append(f'  <testsuite name="{xml_attr(scrub(variant))}" '
                                f'tests="{c["tests"]}" failures="{c["failures"]}" errors="0" '
                                f'skipped="{c["skipped"]}" time="0" '
                                f'timestamp="{xml_attr(timestamp)}">\n')
                    props = (properties or {}).get(variant)
                    if props:
                        head.append("    <properties>\n" + "".join(
                            f'      <property name="{xml_attr(k)}" value="{xml_attr(v)}"/>\n'
                            for k, v in props.items()) + "    </properties>\n")
                    out.write("".join(head).encode())
                    head = ["  </testsuite>\n"]
                    copy_spool(self._spools[variant], out)
                out.write(("".join(head) + "</testsuites>\n").encode())
        finally:
            self.close()

    def close(self) -> None:
        for spool in self._spools.values():
            spool.close()


def copy_spool(spool: IO[bytes], out: IO[bytes]) -> None:
    """All of `spool` appended to `out`: by the kernel where it can (sendfile), else in 1 MB
    blocks."""
    spool.flush()
    size = spool.seek(0, os.SEEK_END)
    out.flush()
    sent = 0
    try:
        while sent < size:
            done = os.sendfile(out.fileno(), spool.fileno(), sent, size - sent)
            if done == 0:
                break
            sent += done
    except OSError:
        pass
    if sent < size:
        spool.seek(sent)
        while block := spool.read(1 << 20):
            out.write(block)
    else:
        out.seek(0, os.SEEK_END)  # the buffered file learns where the kernel wrote to
