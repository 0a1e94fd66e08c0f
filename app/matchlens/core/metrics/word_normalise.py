"""The squad preset on a big batch chunk through its words: the chunk's word table (shared
with the word metrics), squad applied to each DISTINCT word (also shared: token_f1 scores
those very tokens), and the normalised texts joined back by a compiled loop. squad(text) is
" ".join of its tokens, and its tokens are those of its whitespace words normalised one by
one (word_table says why; the tests check it), so the texts are the very ones
`Pipeline.apply` gives, for a third of the work on a chunk of generated answers.

normalising.normalised_pair uses it for big chunks only (numba's import)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from matchlens.core.metrics.word_table import metric_tokens


def normalised_by_word(expected: Sequence[str], actual: Sequence[str], preset: str
                       ) -> tuple[list[str], list[str]]:
    """Both columns through the preset (one of normalising.WORD_PRESETS)."""
    from matchlens.core.metrics.word_kernel import join_tokens

    tokens = metric_tokens(expected, actual, preset)
    vocabulary = tokens.vocabulary
    every = "".join(vocabulary)
    # ASCII tokens (isascii() is O(1)): one byte per character, and an ASCII decode (a copy)
    encoding, dtype = ("ascii", np.uint8) if every.isascii() else ("utf-32-le", np.uint32)
    pool = np.frombuffer(every.encode(encoding, "surrogatepass"), dtype=dtype)
    pool_ends = np.cumsum(np.fromiter(map(len, vocabulary), dtype=np.int64,
                                      count=len(vocabulary)))
    chars, ends = join_tokens(tokens.ids, tokens.ends, pool, pool_ends)
    joined = chars.tobytes().decode(encoding, "surrogatepass")
    starts = np.empty_like(ends)
    starts[:1] = 0
    starts[1:] = ends[:-1]
    texts = list(map(joined.__getitem__, map(slice, starts.tolist(), ends.tolist())))
    return texts[:len(expected)], texts[len(expected):]
