"""The work the compare tab asks for, as plain functions: no Qt here.

The same `run_task` runs on the GUI thread for small texts and inside a lane process
(`lane_worker`) for long ones, so both paths give the same numbers by construction.
"""

from __future__ import annotations

import re
import time
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from matchlens.core.metrics.registry import get_metric
from matchlens.core.results import Label, Outcome

ALIGN_TASK = "__align__"

# Edit kinds as small integers, so span columns are numpy arrays (cheap to pickle and bisect).
KIND_INSERT, KIND_DELETE, KIND_SUBSTITUTE = 0, 1, 2
FLAG_CASE, FLAG_SPACE, FLAG_COUNTED = 1, 2, 4

_ASTRAL = re.compile("[\U00010000-\U0010ffff]")


@dataclass(frozen=True)
class SpanTable:
    """An alignment as columns: row i is span i; offsets are code points of the original texts."""

    kind: np.ndarray  # int8
    flags: np.ndarray  # int8 bit set of FLAG_*
    exp: np.ndarray  # int64 (n, 2): start, end on the expected side
    act: np.ndarray  # int64 (n, 2): start, end on the actual side
    units: np.ndarray  # int64: edits each span counts (chars, or tokens at word granularity)
    hunks: np.ndarray  # int64 (m, 6): exp_start, exp_end, act_start, act_end, first, last
    distance: int
    granularity: str
    exp_astral: np.ndarray  # code point offsets of characters outside the BMP (2 UTF-16 units)
    act_astral: np.ndarray
    # Line anchors for locked scrolling, built where the texts are (O(hunks) to ship). The
    # Alignment itself never travels: unpickling a million dataclass instances would hold the
    # GIL, and so the GUI thread, for seconds.
    anchors: Any = None
    # [start, end) runs of original characters a normalisation removed: drawn as *ignored*
    exp_ignored: np.ndarray = field(default_factory=lambda: np.zeros((0, 2), dtype=np.int64))
    act_ignored: np.ndarray = field(default_factory=lambda: np.zeros((0, 2), dtype=np.int64))

    @property
    def counted(self) -> int:
        """Edits in the counted spans: what levenshtein_distance reports."""
        return int(self.units[(self.flags & FLAG_COUNTED) != 0].sum())

    def __len__(self) -> int:
        return len(self.kind)


def astral_offsets(text: str) -> np.ndarray:
    """Where `text` has characters that Qt stores as two UTF-16 units."""
    if text.isascii():
        return np.zeros(0, dtype=np.int64)
    return np.fromiter((m.start() for m in _ASTRAL.finditer(text)), dtype=np.int64)


def span_table(alignment: Any, expected: str, actual: str) -> SpanTable:
    from matchlens.core.alignment import EditKind
    from matchlens.core.scroll_sync import line_anchors

    kinds = {EditKind.INSERT: KIND_INSERT, EditKind.DELETE: KIND_DELETE,
             EditKind.SUBSTITUTE: KIND_SUBSTITUTE}
    spans = alignment.spans
    n = len(spans)
    kind = np.fromiter((kinds[s.kind] for s in spans), dtype=np.int8, count=n)
    flags = np.fromiter(
        ((FLAG_CASE if s.case_only else 0) | (FLAG_SPACE if s.whitespace_only else 0)
         | (FLAG_COUNTED if s.counted else 0) for s in spans), dtype=np.int8, count=n)
    flat = np.fromiter((v for s in spans for v in (s.exp_start, s.exp_end, s.act_start, s.act_end)),
                       dtype=np.int64, count=4 * n).reshape(n, 4)
    units = np.fromiter((s.units for s in spans), dtype=np.int64, count=n)
    hunks = np.fromiter(
        (v for h in alignment.hunks
         for v in (h.exp_start, h.exp_end, h.act_start, h.act_end, h.first_span, h.last_span)),
        dtype=np.int64, count=6 * len(alignment.hunks)).reshape(len(alignment.hunks), 6)
    return SpanTable(kind, flags, flat[:, :2].copy(), flat[:, 2:].copy(), units, hunks,
                     int(alignment.distance), str(alignment.granularity),
                     astral_offsets(expected), astral_offsets(actual),
                     line_anchors(expected, actual, alignment))


def normalised_span_table(expected: str, actual: str, options: Mapping[str, Any]) -> SpanTable:
    """The alignment of the normalised texts, drawn on the originals: each span covers the
    characters its normalised characters came from, and what the normalisation removed is
    listed as ignored. Its edits are the ones the normalised metric counts. Locked scrolling
    gets no line anchors (a normalisation may remove line breaks) and follows proportionally."""
    from matchlens.core.alignment import align
    from matchlens.core.normalise import pipeline
    from matchlens.core.normalised_offsets import OffsetMap

    steps = pipeline(options["normalise"])
    e_map = OffsetMap(steps.mapped(expected), len(expected))
    a_map = OffsetMap(steps.mapped(actual), len(actual))
    e_text, a_text = steps.apply(expected), steps.apply(actual)
    alignment = align(e_text, a_text, case_sensitive=bool(options["case_sensitive"]),
                      granularity=str(options["granularity"]))
    table = span_table(alignment, e_text, a_text)
    exp = np.stack(e_map.spans(table.exp[:, 0], table.exp[:, 1]), axis=1).reshape(-1, 2)
    act = np.stack(a_map.spans(table.act[:, 0], table.act[:, 1]), axis=1).reshape(-1, 2)
    hunks = table.hunks.copy()
    if len(hunks):
        hunks[:, 0], hunks[:, 1] = e_map.spans(hunks[:, 0], hunks[:, 1])
        hunks[:, 2], hunks[:, 3] = a_map.spans(hunks[:, 2], hunks[:, 3])
    return replace(table, exp=exp, act=act, hunks=hunks, anchors=None,
                   exp_astral=astral_offsets(expected), act_astral=astral_offsets(actual),
                   exp_ignored=e_map.ignored, act_ignored=a_map.ignored)


def run_task(name: str, expected: str, actual: str, options: Mapping[str, Any]) -> Any:
    """One unit of work: the alignment (a SpanTable) or one metric (an Outcome)."""
    if name == ALIGN_TASK:
        from matchlens.core.alignment import align

        if options.get("normalise"):
            return normalised_span_table(expected, actual, options)
        alignment = align(expected, actual, case_sensitive=bool(options["case_sensitive"]),
                          granularity=str(options["granularity"]))
        return span_table(alignment, expected, actual)
    spec = get_metric(name)
    try:
        return spec.compute(expected, actual, spec.resolve_options(options))
    except Exception as err:  # a metric bug must show in its panel, not kill the worker
        return Outcome(None, f"{spec.label} failed: {type(err).__name__}: {err}", Label.ERROR)


def timed_task(name: str, expected: str, actual: str, options: Mapping[str, Any]
               ) -> tuple[Any, float]:
    start = time.perf_counter()
    result = run_task(name, expected, actual, options)
    return result, time.perf_counter() - start


def warm_up(names: list[str]) -> None:
    """First calls pay for regex compilation and lazy imports (~80 ms for BLEU): pay it early."""
    for name in names:
        if name == ALIGN_TASK:
            run_task(name, "warm up", "warm-up", {"case_sensitive": True, "granularity": "char"})
            continue
        run_task(name, "warm up the metric", "warm the metric up", {})
