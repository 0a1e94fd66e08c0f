"""A metric's score distribution as inline SVG: one histogram per variant overlaid, the
threshold as a dashed line. Built from the run's `Tally` (distinct scores and their counts), so
a 1M-row run draws the same few hundred bytes as a 10-row one."""

from __future__ import annotations

import numpy as np

from matchlens.core.output.reports.escape import text as escape
from matchlens.core.scoring.tally import ValueCounts

WIDTH, HEIGHT, PAD, BINS = 600, 150, 24, 30
# Colour-blind-safe (Okabe-Ito), the same order as the variants
COLOURS = ("#0072b2", "#e69f00", "#009e73", "#cc79a7", "#56b4e9", "#d55e00", "#f0e442")


def edges_for(values: list[np.ndarray], integer: bool) -> np.ndarray | None:
    """Bin edges shared by the variants: one bin per integer when they are few, else BINS."""
    present = [v for v in values if v.size]
    if not present:
        return None
    low = min(float(v[0]) for v in present)
    high = max(float(v[-1]) for v in present)
    if integer and high - low <= BINS:
        return np.arange(low - 0.5, high + 1.5)
    if high == low:
        return np.array([low - 0.5, high + 0.5])
    return np.linspace(low, high, BINS + 1)


def distribution_svg(metric: str, per_variant: dict[str, ValueCounts], threshold: float | None,
                     integer: bool) -> str:
    """The SVG element (a string); a sentence instead when no row has a score."""
    items = {v: counts.items() for v, counts in per_variant.items()}
    edges = edges_for([values for values, _ in items.values()], integer)
    if edges is None:
        return '<p class="muted">No row has a score.</p>'
    hists = {v: np.histogram(values, bins=edges, weights=counts)[0]
             for v, (values, counts) in items.items()}
    top = max(float(h.max()) for h in hists.values()) or 1.0
    low, high = float(edges[0]), float(edges[-1])
    if threshold is not None:
        low, high = min(low, threshold), max(high, threshold)
    span = (high - low) or 1.0
    inner_w, inner_h = WIDTH - 2 * PAD, HEIGHT - 2 * PAD

    def x(value: float) -> float:
        return PAD + (value - low) / span * inner_w

    parts = [f'<svg class="dist" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
             f'aria-label="{escape(metric)} score distribution" '
             f'xmlns="http://www.w3.org/2000/svg">']
    for i, (variant, hist) in enumerate(hists.items()):
        colour = COLOURS[i % len(COLOURS)]
        bars = []
        for k, count in enumerate(hist.tolist()):
            if not count:
                continue
            h = count / top * inner_h
            x0, x1 = x(float(edges[k])), x(float(edges[k + 1]))
            bars.append(f'<rect x="{x0:.1f}" y="{PAD + inner_h - h:.1f}" '
                        f'width="{max(x1 - x0 - 1, 1):.1f}" height="{h:.1f}">'
                        f"<title>{escape(variant)}: {int(count):,}</title></rect>")
        parts.append(f'<g fill="{colour}" fill-opacity="0.55">{"".join(bars)}</g>')
    parts.append(f'<line class="axis" x1="{PAD}" y1="{PAD + inner_h}" x2="{WIDTH - PAD}" '
                 f'y2="{PAD + inner_h}"/>')
    parts.append(f'<text class="tick" x="{PAD}" y="{HEIGHT - 6}">{low:g}</text>')
    parts.append(f'<text class="tick" x="{WIDTH - PAD}" y="{HEIGHT - 6}" '
                 f'text-anchor="end">{high:g}</text>')
    if threshold is not None:
        tx = x(threshold)
        parts.append(f'<line class="threshold" x1="{tx:.1f}" y1="{PAD - 6}" x2="{tx:.1f}" '
                     f'y2="{PAD + inner_h}"/>')
        parts.append(f'<text class="tick" x="{tx:.1f}" y="{PAD - 9}" '
                     f'text-anchor="middle">threshold {threshold:g}</text>')
    parts.append("</svg>")
    return "".join(parts)
