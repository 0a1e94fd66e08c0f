"""JUnit XML as CI systems read it (GitLab, Jenkins, GitHub test reporters), written while the
rows stream: one `testsuite` per variant, one `testcase` per row named by its id (else
`row N`), a `failure` whose message names each failing metric with score and threshold and
whose body is the readable diff, `skipped` for a row without a score.

A testsuite states its counts before its testcases, and a 1M-row run cannot hold its
testcases, so each variant's testcases go to a temporary file as they come; `write` then puts
the counts and the spooled testcases into the output, renamed into place at once
(core.atomic). XML 1.0 cannot hold control characters or lone surrogates: they are written as
visible escapes (`\\x01`, `\\ud800`).
"""

from __future__ import annotations

import re
import shutil
import tempfile
from pathlib import Path
from typing import IO

from matchlens.core.atomic import atomic_writer
from matchlens.core.text.redact import scrub

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


class JunitWriter:
    """Testcases per variant, spooled to temporary files until `write`."""

    def __init__(self, variants: list[str], source: str) -> None:
        self.variants = list(variants)
        self.source = source
        self._spools: dict[str, IO[str]] = {
            v: tempfile.TemporaryFile("w+", encoding="utf-8")  # noqa: SIM115 - closed by write/close
            for v in self.variants}
        self.counts = {v: {"tests": 0, "failures": 0, "skipped": 0} for v in self.variants}

    def passed(self, variant: str, name: str) -> None:
        self._case(variant, name, "/>\n")

    def skipped(self, variant: str, name: str, why: str) -> None:
        self.counts[variant]["skipped"] += 1
        self._case(variant, name, f'><skipped message="{xml_attr(scrub(why))}"/></testcase>\n')

    def failed(self, variant: str, name: str, message: str, body: str) -> None:
        self.counts[variant]["failures"] += 1
        self._case(variant, name,
                   f'><failure message="{xml_attr(scrub(message))}" type="threshold">'
                   f"{xml_text(scrub(body))}</failure></testcase>\n")

    def _case(self, variant: str, name: str, rest: str) -> None:
        self.counts[variant]["tests"] += 1
        self._spools[variant].write(
            f'    <testcase name="{xml_attr(scrub(name))}" '
            f'classname="{xml_attr(scrub(variant))}"{rest}')

    def write(self, path: Path, timestamp: str) -> None:
        """The XML file, replaced in one step (atomic), then the spools are closed."""
        try:
            with atomic_writer(path) as out:
                totals = {k: sum(c[k] for c in self.counts.values())
                          for k in ("tests", "failures", "skipped")}
                out.write('<?xml version="1.0" encoding="UTF-8"?>\n')
                out.write(f'<testsuites name="matchlens {xml_attr(scrub(self.source))}" '
                          f'tests="{totals["tests"]}" failures="{totals["failures"]}" '
                          f'errors="0" skipped="{totals["skipped"]}">\n')
                for variant in self.variants:
                    c = self.counts[variant]
                    out.write(f'  <testsuite name="{xml_attr(scrub(variant))}" '
                              f'tests="{c["tests"]}" failures="{c["failures"]}" errors="0" '
                              f'skipped="{c["skipped"]}" time="0" '
                              f'timestamp="{xml_attr(timestamp)}">\n')
                    spool = self._spools[variant]
                    spool.flush()
                    spool.seek(0)
                    shutil.copyfileobj(spool, out, 1 << 20)
                    out.write("  </testsuite>\n")
                out.write("</testsuites>\n")
        finally:
            self.close()

    def close(self) -> None:
        for spool in self._spools.values():
            spool.close()
