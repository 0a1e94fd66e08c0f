"""The compare view's model, no Qt: alignment and next/previous difference, readable chunks, span tables, scroll sync, one pair compared (the window, `matchlens diff`, `matchlens.compare`)."""
