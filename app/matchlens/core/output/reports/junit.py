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


_ATTR_ANY = re.compile('[&<>"\n\r\t\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]')


def attr_all(values: list[str]) -> list[str]:
    """`xml_attr` of each value: one search over them all first, as ids rarely need any."""
    if _ATTR_ANY.search("".join(values)) is None:
        return values
    return [xml_attr(value) for value in values]


def testcases(names: list[str], classname: str, *, escaped_names: bool = False,
              failures: dict[int, tuple[str, str]] | None = None,
              skipped: dict[int, str] | None = None) -> list[str]:
    """One `<testcase>` line per name: passed, or failed (message, body) / skipped (why) where
    `failures` / `skipped` hold its position. `escaped_names`: the names need no escaping
    (`row N`). Keys are masked by `JunitWriter.add_block`, a piece's testcases at once."""
    cls = xml_attr(classname)
    if not escaped_names:
        names = attr_all(names)
    out = [f'    <testcase name="{name}" classname="{cls}"/>\n' for name in names]
    for row, why in (skipped or {}).items():
        out[row] = (f'    <testcase name="{names[row]}" classname="{cls}"><skipped message='
                    f'"{xml_attr(why)}"/></testcase>\n')
    attrs: dict[str, str] = {}  # messages and bodies repeat: each escaped once
    texts: dict[str, str] = {}
    for row, (message, body) in (failures or {}).items():
        m = attrs.get(message) or attrs.setdefault(message, xml_attr(message))
        b = texts.get(body) or texts.setdefault(body, xml_text(body))
        out[row] = (f'    <testcase name="{names[row]}" classname="{cls}"><failure message='
                    f'"{m}" type="threshold">{b}</failure></testcase>\n')
    return out


def mask_known(text: str) -> str:
    """`text` with the keys this run knows (OPENAI_API_KEY, the resolved key) masked: a plain
    substring search, fast enough for every row of a 1M-row run, where `scrub`'s key-shape
    patterns cost more than the scoring."""
    for secret in known_secrets():
        if len(secret) >= 4 and secret in text:
            text = text.replace(secret, mask(secret) or HIDDEN)
    return text


class JunitWriter:
    """Testcases per variant, spooled to temporary files until `write`."""

    def __init__(self, variants: list[str], source: str) -> None:
        self.variants = list(variants)
        self.source = source
        self._spools: dict[str, IO[str]] = {
            v: tempfile.TemporaryFile("w+", encoding="utf-8")  # noqa: SIM115 - closed by write/close
            for v in self.variants}
        self.counts = {v: {"tests": 0, "failures": 0, "skipped": 0} for v in self.variants}

    def add_block(self, variant: str, cases: list[str], failures: int, skipped: int) -> None:
        """Testcases made by `testcases` (one piece's rows), the run's known keys masked in one
        go (the texts of diffs are scrubbed in full before: see collect._failure_body)."""
        c = self.counts[variant]
        c["tests"] += len(cases)
        c["failures"] += failures
        c["skipped"] += skipped
        self._spools[variant].write(mask_known("".join(cases)))

    def write(self, path: Path, timestamp: str,
              properties: dict[str, dict[str, str]] | None = None) -> None:
        """The XML file, replaced in one step (atomic), then the spools are closed;
        `properties` per variant go in the testsuite's `<properties>`."""
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
                    props = (properties or {}).get(variant)
                    if props:
                        out.write("    <properties>\n" + "".join(
                            f'      <property name="{xml_attr(k)}" value="{xml_attr(v)}"/>\n'
                            for k, v in props.items()) + "    </properties>\n")
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
