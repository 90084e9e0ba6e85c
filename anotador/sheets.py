"""Printed score sheets (planillas) as PDF: a played match, or a blank sheet to fill by hand.

Jinja templates in ``templates/sheets/`` and ``static/css/sheet.css`` rendered by WeasyPrint,
which is imported only when a sheet is drawn. Every file comes from disk (a filesystem
``base_url`` and a fetcher that refuses anything else), so rendering never touches the network.
Figures come from the rules engine: scores from :func:`anotador.rules.score_match`, the blank
sheet's reference box from the variant's own ``reference``; words from :mod:`anotador.labels`
(their ``sheet`` forms), said in the sheet's language, not the request's.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import math
from collections.abc import Iterator
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from flask import Flask
from flask import current_app
from flask import has_app_context
from flask_babel import force_locale
from flask_babel import gettext
from markupsafe import Markup

from anotador import labels
from anotador import rules
from anotador.config import PROJECT_ROOT
from anotador.config import TRANSLATIONS
from anotador.rules.variants import unknown_variant_problem

LANGUAGES = ("es", "en", "it")
PAPERS = {"a4": "A4", "letter": "letter"}
BLANK_HANDS = 20
STYLESHEET = PROJECT_ROOT / "static" / "css" / "sheet.css"
SIDE_COLORS = ("#1d4e9e", "#c0392b", "#1e7b34")
SIDE_DASHES = ("", "7 3", "2 2.5")


# Rendering


@functools.cache
def _standalone_app() -> Flask:
    """Templates and catalogs without a database, for the command line."""
    from flask_babel import Babel

    app = Flask("anotador", template_folder=PROJECT_ROOT / "templates", static_folder=None)
    Babel(app, default_locale=LANGUAGES[0])
    return app


@contextlib.contextmanager
def _rendering(lang: str) -> Iterator[Flask]:
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}: use one of {', '.join(LANGUAGES)}")
    app_context = contextlib.nullcontext() if has_app_context() else _standalone_app().app_context()
    with app_context, force_locale(lang):
        yield current_app._get_current_object()  # type: ignore[attr-defined]


def local_fetcher() -> Any:
    """A WeasyPrint fetcher that opens files and data: URLs, and refuses any other scheme."""
    from weasyprint.urls import URLFetcher

    return URLFetcher(allowed_protocols=("file", "data"))


@functools.cache
def _stylesheet() -> Any:
    import weasyprint

    return weasyprint.CSS(filename=str(STYLESHEET), url_fetcher=local_fetcher())


def _pdf(app: Flask, template: str, context: dict[str, Any]) -> bytes:
    import weasyprint

    html = app.jinja_env.get_template(template).render(**context)
    document = weasyprint.HTML(
        string=html, base_url=PROJECT_ROOT.as_uri() + "/", url_fetcher=local_fetcher()
    )
    return document.write_pdf(stylesheets=[_stylesheet()])


def _page_setup(paper: str, sides: int) -> dict[str, str]:
    size = PAPERS.get(paper.lower())
    if size is None:
        raise ValueError(f"unknown paper {paper!r}: use A4 or letter")
    orientation = "landscape" if sides > 2 else "portrait"
    before, _, rest = gettext("Page {page} of {pages}").partition("{page}")
    middle, _, after = rest.partition("{pages}")
    content = f"{css_string(before)} counter(page) {css_string(middle)} counter(pages)"
    return {
        "paper": size.lower(),
        "page_size": Markup(f"{size} {orientation}"),
        "page_numbers": Markup(f"{content} {css_string(after)}"),
    }


def css_string(text: str) -> str:
    """``text`` as a CSS string literal that is also safe inside a <style> element."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("<", "\\3c ")
    return f'"{escaped}"'


def render_match_sheet(
    game: rules.Match, score: rules.MatchScore, *, paper: str = "A4", lang: str = "es"
) -> bytes:
    """The PDF score sheet of a scored match: one row per hand, the result and a chart."""
    with _rendering(lang) as app:
        context = match_context(game, score)
        context.update(_page_setup(paper, len(game.sides)))
        return _pdf(app, "sheets/match.html", context)


def render_blank_sheet(
    variant: str, layout: str, target: int | None = None, lang: str = "es", *, paper: str = "A4"
) -> bytes:
    """A one-page sheet to fill in by hand, with the variant's values in a reference box.

    ``rules.InvalidInput`` for an unknown variant, a layout it is not played with, or a
    target out of range; ``ValueError`` for an unknown language or paper.
    """
    if variant not in rules.VARIANTS:
        raise rules.InvalidInput([unknown_variant_problem(variant)])
    options = {} if target is None else {"target": target}
    match_rules = rules.make_rules(variant, layout, options)
    with _rendering(lang) as app:
        context = blank_context(match_rules)
        context.update(_page_setup(paper, match_rules.layout.sides))
        return _pdf(app, "sheets/blank.html", context)


# What the templates show


def number(value: int | None) -> str:
    """A part of a hand's score; zero and absent parts stay blank, as on a paper sheet."""
    return str(value) if value else ""


def describe_rules(match_rules: rules.Rules) -> dict[str, Any]:
    return {
        "variant": labels.printed("variant", match_rules.variant.name),
        "layout": labels.printed("layout", match_rules.layout.name),
        "target": match_rules.target,
        "decks": match_rules.decks,
        "canastas_to_close": match_rules.canastas_to_close,
        "has_minimum": match_rules.brackets is not None,
    }


def changed_options(match_rules: rules.Rules) -> list[str]:
    """ "name: value" for every setting but the target that differs from the defaults."""
    defaults = rules.variant_defaults(match_rules.variant.name, match_rules.layout.name)
    changed = []
    for name, value in match_rules.settings().items():
        if name == "target" or defaults.get(name) == value:
            continue
        if isinstance(value, bool):
            shown = gettext("yes") if value else gettext("no")
        elif value is None:
            shown = "–"
        else:
            shown = labels.printed("tie", value) if labels.word("tie", value) else str(value)
        kind = "setting" if labels.word("setting", name) else "option"
        changed.append(f"{labels.printed(kind, name)}: {shown}")
    return changed


def score_parts(match_rules: rules.Rules, score: rules.MatchScore | None = None) -> list[str]:
    """The parts a hand's score is made of: those the match used, else what a closing side
    with nothing declared gets from the engine (its always-present parts)."""
    found: dict[str, None] = {}
    for hand in score.hands if score else ():
        for side in hand.sides:
            found.update(dict.fromkeys(side.breakdown))
    if not found:
        empty = {spec.name: spec.default for spec in match_rules.variant.side_fields}
        found = dict.fromkeys(match_rules.variant.score_side(match_rules, empty, True, {}))
    order = list(match_rules.variant.parts)
    return sorted(found, key=lambda part: order.index(part) if part in order else len(order))


def closing_text(game: rules.Match, hand: rules.HandInput) -> str:
    """Who went out, and how when it was concealed (the flag's word, or the way chosen)."""
    if hand.closer is None:
        return gettext("stock ran out")
    variant = game.rules.variant
    kind = variant.concealed_kind(hand.details)
    name = game.sides[hand.closer].name
    if kind is None:
        return name
    flags = {spec.name for spec in variant.hand_fields if spec.kind == "flag"}
    return f"{name} ({labels.printed('field' if kind in flags else 'field_choice', kind)})"


def match_context(game: rules.Match, score: rules.MatchScore) -> dict[str, Any]:
    parts = score_parts(game.rules, score)
    free = gettext("free")
    rows = []
    for index, (hand, scored) in enumerate(zip(game.hands, score.hands, strict=True)):
        cells = [
            {
                "parts": [number(side.breakdown.get(part)) for part in parts],
                "score": side.score,
                "total": side.total,
                "minimum": free if side.opening_minimum is None else side.opening_minimum,
            }
            for side in scored.sides
        ]
        rows.append(
            {
                "number": index + 1,
                "sides": cells,
                "closed": closing_text(game, hand),
                "ended": index == score.ended_at,
            }
        )
    if score.finished and score.winner is not None:
        verdict = gettext("{side} wins by {margin} points").format(
            side=game.sides[score.winner].name, margin=score.margin
        )
    elif score.finished:
        verdict = gettext("Shared win")
    elif game.abandoned:
        verdict = gettext("Abandoned")
    else:
        verdict = gettext("In progress")
    series = [[start] for start in game.start_scores]
    for scored in score.hands:
        for side_index, side in enumerate(scored.sides):
            series[side_index].append(side.total)
    return {
        "lang": str(get_lang()),
        "title": game.title or gettext("Canasta match"),
        "played_on": game.played_on,
        "rules": describe_rules(game.rules),
        "options": changed_options(game.rules),
        "sides": [
            {"name": side.name, "players": ", ".join(side.players), "color": SIDE_COLORS[i]}
            for i, side in enumerate(game.sides)
        ],
        "parts": [labels.printed("part", part) for part in parts],
        "start": list(game.start_scores) if any(game.start_scores) else None,
        "rows": rows,
        "totals": list(score.totals),
        "winner": score.winner,
        "finished": score.finished,
        "verdict": verdict,
        "margin": score.margin,
        "minimums": [free if m is None else m for m in score.opening_minimum],
        "chart": progression_chart(series, game.rules.target),
    }


def get_lang() -> str:
    from flask_babel import get_locale

    return str(get_locale() or LANGUAGES[0])


def blank_context(match_rules: rules.Rules) -> dict[str, Any]:
    count = match_rules.layout.sides
    return {
        "lang": get_lang(),
        "rules": describe_rules(match_rules),
        "sides": [{"color": SIDE_COLORS[i]} for i in range(count)],
        "players": match_rules.layout.players_per_side,
        "parts": [labels.printed("part", p) for p in score_parts(match_rules)],
        "hands": range(1, BLANK_HANDS + 1),
        "reference": reference(match_rules),
    }


# The reference box: every figure read from the variant modules, never retyped.


def opening_table(match_rules: rules.Rules) -> list[tuple[str, int]] | None:
    """("range of cumulative scores", minimum) rows, equal neighbours merged."""
    if match_rules.brackets is None:
        return None
    bounds, minimums = match_rules.brackets
    ranges: list[list[Any]] = []
    lower: float | None = None
    for index, minimum in enumerate(minimums):
        upper = bounds[index] if index < len(bounds) else None
        if lower == float("inf"):
            break
        if upper == float("inf"):
            upper = None
        if ranges and ranges[-1][2] == minimum:
            ranges[-1][1] = upper
        else:
            ranges.append([lower, upper, minimum])
        lower = upper if upper is not None else float("inf")
    rows = []
    for low, high, minimum in ranges:
        if low is None and high is None:
            label = gettext("any score")
        elif low is None:
            label = f"< {int(high)}"
        elif high is None:
            label = f"≥ {int(low)}"
        else:
            label = f"{int(low)} – {int(high) - 5}"
        rows.append((label, minimum))
    return rows


def reference(match_rules: rules.Rules) -> dict[str, Any]:
    """The variant's reference box (:class:`anotador.rules.Reference`), in words."""
    variant = match_rules.variant
    box = variant.reference(match_rules)
    return {
        "opening": opening_table(match_rules),
        "cards": [
            (labels.printed("card", kind), value) for kind, value in variant.card_values.items()
        ],
        "canastas": [(labels.printed("field", kind), value) for kind, value in box.canastas],
        "closing": [(labels.printed("reference", key), value) for key, value in box.closing],
        "red_three_values": list(enumerate(box.red_threes, start=1)) or None,
        "notes": [labels.printed("reference", key).format(**params) for key, params in box.notes],
    }


# The progression chart


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
            f'<text x="{left - 3}" y="{y(value) + 3:.1f}" text-anchor="end">{value}</text>'
        )
    if target_shown:
        parts.append(
            f'<line x1="{left}" x2="{width - right}" y1="{y(target):.1f}" y2="{y(target):.1f}" '
            'stroke="#111" stroke-width="1.1" stroke-dasharray="5 3"/>'
            f'<text x="{width - right - 3}" y="{y(target) - 3:.1f}" text-anchor="end" '
            f'font-weight="bold">{target}</text>'
        )
    else:
        parts.append(
            f'<text x="{width - right - 3}" y="{top + 10}" text-anchor="end">↑ {target}</text>'
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


# Cache: a sheet depends only on its match's content, the paper, the language and these files


@functools.cache
def _fingerprint() -> str:
    digest = hashlib.sha256()
    files = [STYLESHEET, Path(__file__), Path(labels.__file__)]
    files += sorted(Path(rules.__file__).parent.glob("*.py"))
    files += sorted((PROJECT_ROOT / "templates" / "sheets").glob("*"))
    files += sorted(TRANSLATIONS.glob("*/LC_MESSAGES/*.mo"))
    for path in files:
        digest.update(str(path).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def sheet_key(document: object, *settings: str) -> str:
    """A key that changes whenever anything shown on the sheet could change."""
    content = json.dumps(document, sort_keys=True, ensure_ascii=False, default=str)
    digest = hashlib.sha256(_fingerprint().encode())
    digest.update("\0".join((content, *settings)).encode())
    return digest.hexdigest()
