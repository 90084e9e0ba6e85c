"""Small line charts drawn by the server as inline SVG: no script, no CDN, a few KB.

Colours come from CSS custom properties with fallbacks, so the charts follow the page's
light or dark theme; every chart has a text title for screen readers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from flask_babel import gettext as _
from markupsafe import Markup
from markupsafe import escape

from anotador import rules
from anotador.statistics import summaries as stats
from anotador.words.i18n import points

WIDTH, HEIGHT = 360, 200
LEFT, RIGHT, TOP, BOTTOM = 46, 10, 12, 24
# Distinguishable in both themes and for the common colour-vision deficiencies.
MAX_POINTS = 300
COLOURS = ("#0b72d9", "#e66100", "#1a9850", "#9b59b6")


@dataclass(frozen=True)
class Series:
    label: str
    values: Sequence[float]


def nice_step(span: float) -> float:
    """A round tick step (1, 2 or 5 times a power of ten) giving about four ticks."""
    raw = max(span, 1) / 4
    power = 10 ** (len(str(int(raw))) - 1)
    for factor in (1, 2, 5, 10):
        if raw <= factor * power:
            return factor * power
    return 10 * power  # pragma: no cover - the loop always returns


def line_chart(
    title: str, series: Sequence[Series], lines: Sequence[tuple[str, float]] = ()
) -> Markup:
    """Lines over equally spaced points (0, 1, 2 ...) with labelled horizontal rules."""
    values = [v for s in series for v in s.values] + [value for _, value in lines] + [0]
    low, high = min(values), max(values)
    step = nice_step(high - low)
    low, high = step * (low // step), step * -(-high // step)
    if high == low:
        high = low + step
    count = max((len(s.values) for s in series), default=1)
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(index: float) -> float:
        return LEFT + (plot_w * index / (count - 1) if count > 1 else plot_w / 2)

    def y(value: float) -> float:
        return TOP + plot_h * (high - value) / (high - low)

    parts = [
        f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-label="{escape(title)}" xmlns="http://www.w3.org/2000/svg">',
        f"<title>{escape(title)}</title>",
        '<g class="chart-grid" stroke="currentColor" stroke-opacity="0.15" font-size="11" '
        'fill="currentColor">',
    ]
    tick = low
    while tick <= high + step / 2:
        parts.append(
            f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y(tick):.1f}" y2="{y(tick):.1f}"/>'
            f'<text x="{LEFT - 4}" y="{y(tick) + 4:.1f}" text-anchor="end" stroke="none" '
            f'fill-opacity="0.8">{format_tick(tick)}</text>'
        )
        tick += step
    parts.append("</g>")
    for label, value in lines:
        parts.append(
            f'<g class="chart-rule"><line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y(value):.1f}" '
            f'y2="{y(value):.1f}" stroke="currentColor" stroke-width="1.5" '
            f'stroke-dasharray="6 4"/><text x="{WIDTH - RIGHT}" y="{y(value) - 4:.1f}" '
            f'text-anchor="end" font-size="11" fill="currentColor">{escape(label)}</text></g>'
        )
    for index, line in enumerate(series):
        colour = COLOURS[index % len(COLOURS)]
        points = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(line.values))
        parts.append(
            f'<polyline fill="none" stroke="{colour}" stroke-width="2.5" '
            f'stroke-linejoin="round" points="{points}"><title>{escape(line.label)}</title>'
            "</polyline>"
        )
        if line.values:
            last = len(line.values) - 1
            parts.append(
                f'<circle cx="{x(last):.1f}" cy="{y(line.values[-1]):.1f}" r="3.5" '
                f'fill="{colour}"/>'
            )
    parts.append("</svg>")
    return Markup("".join(parts))


def format_tick(value: float) -> str:
    return points(value)


def legend(series: Sequence[Series]) -> Markup:
    items = "".join(
        # A drawn key: its colour is an attribute (the Content-Security-Policy allows no
        # style attribute).
        '<li><svg class="chart-key" viewBox="0 0 16 5" aria-hidden="true" focusable="false">'
        f'<rect width="16" height="5" rx="2" fill="{COLOURS[i % len(COLOURS)]}"/></svg>'
        f"{escape(s.label)}</li>"
        for i, s in enumerate(series)
    )
    return Markup(f'<ul class="chart-legend">{items}</ul>')


def match_progression_svg(game: rules.Match, score: rules.MatchScore) -> Markup:
    """Each side's cumulative score hand by hand (from its start score), with the target."""
    series = [
        Series(
            side.name,
            [game.start_scores[index], *(hand.sides[index].total for hand in score.hands)],
        )
        for index, side in enumerate(game.sides)
    ]
    target = game.rules.target
    title = _(
        "Score after each hand; the dashed line is the target (%(target)s).",
        target=points(target),
    )
    chart = line_chart(title, series, [(_("Target"), target)])
    return Markup('<figure class="chart-figure">') + chart + legend(series) + Markup("</figure>")


def results_svg(results: Sequence[stats.ResultPoint]) -> Markup:
    """Wins minus losses over finished matches, oldest first; empty without any."""
    if not results:
        return Markup("")
    balances = [0, *(point.balance for point in results)]
    if len(balances) > MAX_POINTS:  # a few hundred points draw the same line, lighter
        step = len(balances) / MAX_POINTS
        balances = [balances[int(i * step)] for i in range(MAX_POINTS)] + [balances[-1]]
    series = [Series(_("Wins minus losses"), balances)]
    title = _(
        "Wins minus losses after each finished match, from %(first)s to %(last)s.",
        first=results[0].played_on.strftime("%d/%m/%Y"),
        last=results[-1].played_on.strftime("%d/%m/%Y"),
    )
    return Markup('<figure class="chart-figure">') + line_chart(title, series) + Markup("</figure>")
