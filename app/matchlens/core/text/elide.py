"""Long names shortened in the middle, where both ends stay readable.

promptfoo's CSV names a column with a whole JSON object and prompt labels run to paragraphs;
such a name filled three legend lines in every histogram and pushed the plots beside it off
screen. Both ends of a name are what tells two apart (`output [gpt-4o] …prompt A` vs
`…prompt B`), so the middle goes; whoever shows the short name shows the full one on hover.
"""

from __future__ import annotations

import re

NAME_CHARS = 32  # a legend entry or a column name in a sentence


def elide_middle(text: str, limit: int = NAME_CHARS) -> str:
    """`text` on one line, at most `limit` characters: 'output [openai:gpt…prompt B]'."""
    flat = re.sub(r"\s+", " ", text).strip() if any(c.isspace() for c in text) else text
    if len(flat) <= limit:
        return flat
    keep = max(1, limit - 1)
    head = (keep + 1) // 2
    return f"{flat[:head]}…{flat[len(flat) - (keep - head):]}"
