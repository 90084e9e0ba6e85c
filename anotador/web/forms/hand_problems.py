"""Every problem of a typed hand at once, each next to its field, and the summary's links.

The engine reads a hand in two steps: a value it cannot read (table points 33, a count past
its bound) stops it before the hand's rules are checked (nine red threes). To report both at
once, the hand is read again with the nearest readable value in place of each refused one;
what that finds is reported, never scored. A value the form itself could not read ("abc") is
left out of the hand, so what the engine then says about that side would mislead: it is kept
back until the value is fixed (the live preview says it then).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from anotador import rules
from anotador import services
from anotador.rules.variant import MAX_COUNT
from anotador.rules.variant import MAX_POINTS
from anotador.web import inputs
from anotador.web.forms.hand import HandForm
from anotador.web.forms.hand import field_name

#: Readings of one hand at most: each may replace the values the one before refused.
READINGS = 3
_SIDE_FIELD = re.compile(r"s([0-9]{1,2})_.+", re.ASCII)


def every_problem(
    form: HandForm, scored: services.matches.Scored, number: int | None
) -> tuple[rules.MatchScore | None, list[rules.Problem]]:
    """The score of the typed hand (None when it has an error) and all its problems."""
    try:
        hand = form.to_hand()
    except inputs.BadInput:
        return None, []  # no closer the form knows: its own message says so
    score, problems = services.hands.preview_hand(scored.match, hand, number)
    found = list(problems)
    if score is None:
        for _reading in range(READINGS - 1):
            if not stand_ins(form, hand, problems):
                break
            again, problems = services.hands.preview_hand(scored.match, hand, number)
            found += [problem for problem in problems if problem not in found]
            if again is not None:
                break
    unread = unread_sides(form)
    try:
        closer = inputs.integer(form.closer.data, 0, len(form.side_names) - 1)
    except inputs.BadInput:
        closer = None  # nobody, or a special hand
    return score, [
        problem
        for problem in found
        if side_of(field_name(problem.path)) not in unread
        and not (field_name(problem.path) == "closer" and closer in unread)
    ]


def stand_ins(form: HandForm, hand: dict[str, Any], problems: Sequence[rules.Problem]) -> bool:
    """Replace in ``hand`` each number the engine refused by the nearest it reads; False when
    there was none to replace."""
    kinds = {spec.name: spec.kind for spec in form.game_rules.side_fields()}
    changed = False
    for problem in problems:
        found = rules.side_field(problem.path)
        if problem.severity != "error" or found is None or found[0] >= len(hand["sides"]):
            continue
        side, name = hand["sides"][found[0]], found[1]
        value, kind = side.get(name), kinds.get(name)
        if not isinstance(value, int) or kind not in ("count", "points", "signed_points"):
            continue
        nearest = nearest_readable(value, kind)
        if nearest != value:
            side[name], changed = nearest, True
    return changed


def nearest_readable(value: int, kind: str) -> int:
    """The value of a field of ``kind`` nearest ``value`` that the engine reads (V1, V8)."""
    if kind == "count":
        return min(max(value, 0), MAX_COUNT)
    low = 0 if kind == "points" else -MAX_POINTS
    return min(max(5 * round(value / 5), low), MAX_POINTS)


def side_of(name: str) -> int | None:
    """The side a field belongs to (``s1_table_points`` -> 1), None for the hand's fields."""
    found = _SIDE_FIELD.fullmatch(name)
    return None if found is None else inputs.integer(found[1], 0, 99)


def unread_sides(form: HandForm) -> set[int]:
    """The sides with a value the form could not read (something typed, no number read)."""
    unread = set()
    for field in form:
        side = side_of(field.name)
        typed = field.raw_data and str(field.raw_data[0]).strip()
        if side is not None and typed and field.data is None:
            unread.add(side)
    return unread


def problem_links(form: HandForm) -> list[tuple[str, str, str]]:
    """The fields with an error, in the form's order: (its name, the id of its input, what
    the summary calls it: "side · label")."""
    links = []
    for field in form:
        if not field.errors or field.type in ("HiddenField", "CSRFTokenField"):
            continue
        target = f"{field.id}-0" if field.type == "RadioField" else field.id
        side = side_of(field.name)
        label = str(field.label.text)
        named = label if side is None else f"{form.side_names[side]} · {label}"
        links.append((field.name, target, named))
    return links
