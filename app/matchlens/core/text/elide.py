"""Long texts shortened for a place with little room: the one `elide`.

By default the middle goes, where both ends stay readable: promptfoo's CSV names a column with a
whole JSON object and prompt labels run to paragraphs; such a name filled three legend lines in
every histogram and pushed the plots beside it off screen. Both ends of a name are what tells two
apart (`output [gpt-4o] …prompt A` vs `…prompt B`); whoever shows the short name shows the full
one on hover. The other places that shorten text ask for it with options:

* a line on standard error (`cli.crash.say`) keeps its whitespace and says how much was left
  out (`whitespace="keep", count=True`): the reader of a log cannot hover;
* a table cell (`ui.batch.table_model`) keeps its start (`at="end"`) and shows line breaks and
  tabs as symbols (`whitespace="symbols"`), reading only the first `limit + 1` characters of a
  cell that may hold megabytes.
"""

from __future__ import annotations

import re

NAME_CHARS = 32  # a legend entry or a column name in a sentence

_WHITESPACE = ("collapse", "keep", "symbols")


def elide(text: str | None, limit: int = NAME_CHARS, *, at: str = "middle",
          whitespace: str = "collapse", count: bool = False) -> str:
    """`text` on one line, shortened to about `limit` characters where `at` says.

    `at="middle"`: at most `limit` characters, 'output [openai:gpt…prompt B]'; with `count`
    the cut says how many characters it left out (then `limit` must leave room for that).
    `at="end"`: the first `limit` characters and '…'. `whitespace`: "collapse" (runs of it
    become one space, the ends stripped), "keep", or "symbols" (⏎ for a line break, ⇥ for a
    tab). None is the empty text.
    """
    if text is None:
        return ""
    if whitespace not in _WHITESPACE:
        raise ValueError(f"whitespace must be one of {', '.join(_WHITESPACE)}, not {whitespace!r}")
    if at == "end":
        short = _shown(text[:limit + 1], whitespace)
        return short[:limit] + "…" if len(short) > limit or len(text) > limit + 1 else short
    if at != "middle":
        raise ValueError(f"at must be 'middle' or 'end', not {at!r}")
    flat = _shown(text, whitespace)
    if len(flat) <= limit:
        return flat
    if count:
        keep = limit // 2 - 20
        return f"{flat[:keep]}… ({len(flat) - 2 * keep:,} characters left out) …{flat[-keep:]}"
    keep = max(1, limit - 1)
    head = (keep + 1) // 2
    return f"{flat[:head]}…{flat[len(flat) - (keep - head):]}"


def _shown(text: str, whitespace: str) -> str:
    if whitespace == "keep":
        return text
    if whitespace == "symbols":
        return text.replace("\r\n", "⏎").replace("\n", "⏎").replace("\t", "⇥")
    return re.sub(r"\s+", " ", text).strip() if any(c.isspace() for c in text) else text
