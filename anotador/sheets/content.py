"""What a sheet shows: its rules, hands, totals and the blank sheet's reference box, as plain
values for the templates in ``templates/sheets/``, worded in the sheet's language."""

from __future__ import annotations

from typing import Any

from flask_babel import gettext

from anotador import rules
from anotador.sheets.chart import SIDE_COLORS
from anotador.sheets.chart import progression_chart
from anotador.words import i18n
from anotador.words import labels

#: The languages a sheet can be printed in (the first is the default).
LANGUAGES = ("es", "en", "it")
#: Rows of a blank sheet.
BLANK_HANDS = 20


def number(value: int | None) -> str:
    """A part of a hand's score; zero and absent parts stay blank, as on a paper sheet."""
    return i18n.points(value) if value else ""


def translated_count(kind: str, key: str, decks: int) -> str:
    return labels.printed(kind, key) % {"decks": decks}


def describe_rules(match_rules: rules.Rules) -> dict[str, Any]:
    return {
        "variant": labels.printed("variant", match_rules.variant.name),
        "layout": labels.printed("layout", match_rules.layout.name),
        "target": match_rules.target,
        "decks": match_rules.decks,
        # "2 mazos", or for tiles "2 juegos de fichas" (the catalogs' words per Variant.pieces).
        "material": translated_count("pieces", match_rules.variant.pieces, match_rules.decks),
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
    variant = game.rules.variant
    special = variant.special_hand(hand)
    if special is not None:
        return f"{game.sides[special[0]].name} ({labels.printed('field_choice', special[1])})"
    if hand.closer is None:
        return gettext("stock ran out")
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
            side=game.sides[score.winner].name, margin=i18n.points(score.margin)
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
        "parts": [labels.printed_part(game.rules.variant.name, part) for part in parts],
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
        "parts": [
            labels.printed_part(match_rules.variant.name, p) for p in score_parts(match_rules)
        ],
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
            label = f"< {i18n.points(high)}"
        elif high is None:
            label = f"≥ {i18n.points(low)}"
        else:
            label = f"{i18n.points(low)} – {i18n.points(high - 5)}"
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
        "canastas_title": labels.printed_part(variant.name, "canastas"),
        "closing": [(labels.printed("reference", key), value) for key, value in box.closing],
        "red_three_values": list(enumerate(box.red_threes, start=1)) or None,
        "threes_title": None
        if box.threes_title is None
        else labels.printed("reference", box.threes_title),
        "cards_title": None
        if box.cards_title is None
        else labels.printed("reference", box.cards_title),
        "penalties": [(labels.printed("reference", key), value) for key, value in box.penalties],
        "special_hands": [
            (labels.printed("field_choice", kind), value) for kind, value in box.special_hands
        ],
        "notes": [labels.printed("reference", key).format(**params) for key, params in box.notes],
    }
