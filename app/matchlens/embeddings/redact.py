"""The masking function, where the embeddings code and the window have always imported it.

It lives in `matchlens.core.text.redact` (the sidecar writer in core masks with it too, and core may
not import this package); `scrub`, `mask`, `remember` and `forget_all` are the same objects.
"""

from matchlens.core.text.redact import (  # noqa: F401 (re-exported: the stable import path)
    ENV_KEY,
    HIDDEN,
    PIECE,
    forget_all,
    known_secrets,
    mask,
    remember,
    scrub,
)

__all__ = ["mask", "scrub", "remember", "forget_all", "known_secrets"]
