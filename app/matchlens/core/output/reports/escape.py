"""Text from data made safe for the HTML report (and its inline SVG): scrubbed of keys,
escaped, and invisible characters — control characters and lone surrogates — shown as
escapes (`\\x01`, `\\ud800`), so no element can come from data and the file is valid UTF-8."""

from __future__ import annotations

import html
import re

from matchlens.core.text.redact import scrub

_INVISIBLE = re.compile("[\x00-\x08\x0b-\x1f\x7f\ud800-\udfff]")


def _visible(match: re.Match) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def text(value: object) -> str:
    """Any value as HTML text or a quoted attribute value."""
    return html.escape(_INVISIBLE.sub(_visible, scrub(str(value))), quote=True)
