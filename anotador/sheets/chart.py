"""The score progression chart of a printed sheet (SVG drawn into the PDF)."""

from __future__ import annotations

import math
from collections.abc import Sequence

from markupsafe import Markup

from anotador.words import i18n

#: Each side's colour and line pattern (told apart in black and white too).
SIDE_COLORS = ("#1d4e9e", "#c0392b", "#1e7b34")
SIDE_DASHES = ("", "7 3", "2 2.5")


def nice_step(span: float, lines: int = 4) -> int:
    """A round gridline step (1, 2 or 5 times a power of ten) giving about ``lines`` lines."""
    rough = max(span / lines, 5)
    power = 10 ** math.floor(math.log10(rough))
    return int(next(f * power for f in (1, 2, 5, 10) if f * power >= rough))


def progression_chart(
    series: Sequence[Sequence[int]], target: int, width: int = 460, height: int = 170
) -> Markup:
    """An SVG line chart: each side's running total after every hand, the target dashed.

    A target far above every total (a match played "to a million") is left off the scale
    and named in the corner, so the lines do not flatten against the floor.
    """
    left, right, top, bottom = 44, 10, 10, 20
    points = max(len(line) for line in series)
    low = min(0, *(min(line) for line in series))
    highest = max(max(line) for line in series)
    target_shown = target <= 2 * max(highest, 1000)
    high = max(target, highest) if target_shown else highest
    step = nice_step((high - low) or 1)
    low, high = step * math.floor(low / step), step * math.ceil(high / step) or step
    span = high - low

    def x(index: int) -> float:
        return left + (width - left - right) * index / max(points - 1, 1)

    def y(value: int) -> float:
        return top + (height - top - bottom) * (high - value) / span

    inner_width, inner_height = width - left - right, height - top - bottom
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="DejaVu Sans" font-size="8">',
        f'<rect x="{left}" y="{top}" width="{inner_width}" height="{inner_height}" '
        'fill="#fafafa" stroke="#999" stroke-width="0.6"/>',
    ]
    for value in range(low, high + 1, step):
        parts.append(
            f'<line x1="{left}" x2="{width - right}" y1="{y(value):.1f}" y2="{y(value):.1f}" '
            f'stroke="{"#666" if value == 0 else "#ddd"}" stroke-width="0.6"/>'
            f'<text x="{left - 3}" y="{y(value) + 3:.1f}" text-anchor="end">'
            f"{i18n.points(value)}</text>"
        )
    if target_shown:
        parts.append(
            f'<line x1="{left}" x2="{width - right}" y1="{y(target):.1f}" y2="{y(target):.1f}" '
            'stroke="#111" stroke-width="1.1" stroke-dasharray="5 3"/>'
            f'<text x="{width - right - 3}" y="{y(target) - 3:.1f}" text-anchor="end" '
            f'font-weight="bold">{i18n.points(target)}</text>'
        )
    else:
        parts.append(
            f'<text x="{width - right - 3}" y="{top + 10}" text-anchor="end">'
            f"↑ {i18n.points(target)}</text>"
        )
    every = max(1, math.ceil((points - 1) / 12))
    for index in range(0, points, every):
        parts.append(
            f'<text x="{x(index):.1f}" y="{height - 6}" text-anchor="middle">{index}</text>'
        )
    for side, line in enumerate(series):
        coordinates = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(line))
        parts.append(
            f'<polyline points="{coordinates}" fill="none" stroke="{SIDE_COLORS[side]}" '
            f'stroke-width="1.8" stroke-dasharray="{SIDE_DASHES[side] or "none"}" '
            'stroke-linejoin="round"/>'
        )
    parts.append("</svg>")
    return Markup("".join(parts))
