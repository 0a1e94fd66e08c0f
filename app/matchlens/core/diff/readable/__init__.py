"""Readable diffs: chunks a person reads (whole words, typos, whitespace) over the exact Levenshtein edit script, with a compiled path for long texts."""
