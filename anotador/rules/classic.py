"""Classic Canasta (VARIANTS.md §3): the uruguaya engine with presets `pagat` and `rulebook-es`.

`pagat` (Hoyle, pagat.com) differs from uruguaya 4p only by having no 150 step. `rulebook-es`
(the Spanish "Reglamentos: Juegos de Naipes") adds the premiums below.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from anotador.rules import uruguaya
from anotador.rules.problems import Problem
from anotador.rules.variant import HandInput
from anotador.rules.variant import InputField
from anotador.rules.variant import Options
from anotador.rules.variant import OptionSpec
from anotador.rules.variant import Role
from anotador.rules.variant import Rules
from anotador.rules.variant import SideInput
from anotador.rules.variant import Variant

PAGAT = "pagat"
RULEBOOK_ES = "rulebook-es"

CANASTRON = 500  # five completed canastas
CANASTA_DE_CANASTAS = 2000  # seven completed canastas; stacks with the canastrón (unconfirmed)
FOUR_BLACK_THREES_OUT = 480  # the group of four black threes nets 500 instead of 4 x 5
CONCEALED_KINDS = (
    "first_turn_alone",
    "first_turn_with_partner",
    "later_alone",
    "later_with_partner",
)
# Premiums paid on top of the 100 for going out; the fourth one is the option below.
CONCEALED_PREMIUMS = {"first_turn_alone": 1000, "first_turn_with_partner": 500, "later_alone": 500}

OPTIONS = (
    OptionSpec("preset", "choice", PAGAT, (PAGAT, RULEBOOK_ES)),
    OptionSpec("negative_opening", "choice", 15, (15, 0)),
    OptionSpec("min150_from", "choice", None, (None, 7000, 7500)),
    OptionSpec("concealed_later_with_partner_value", "points", 300),
    *uruguaya.HOUSE_OPTIONS,
)


def is_rulebook(options: Options) -> bool:
    return bool(options["preset"] == RULEBOOK_ES)


def wild_canastas_allowed(options: Options) -> bool:
    """The rulebook always allows them; under pagat only the house option does."""
    return is_rulebook(options) or bool(options["wild_canasta"])


SIDE_FIELDS = tuple(
    InputField(
        "wild_canastas",
        "count",
        enabled_by="wild_canasta",
        enabled=wild_canastas_allowed,
        role=Role.OTHER_CANASTAS,
    )
    if spec.name == "wild_canastas"
    else spec
    for spec in uruguaya.SIDE_FIELDS
) + (InputField("four_black_threes_out", "flag", False, enabled=is_rulebook, role=Role.PREMIUM),)

HAND_FIELDS = (
    InputField(
        "concealed",
        "flag",
        False,
        enabled=lambda options: not is_rulebook(options),
        role=Role.CONCEALED,
    ),
    InputField(
        "concealed_kind",
        "choice",
        None,
        CONCEALED_KINDS,
        enabled=is_rulebook,
        nullable=True,
        role=Role.CONCEALED,
    ),
)
PARTS = (
    "canastas",
    "many_canastas",
    "table",
    "red_threes",
    "four_black_threes",
    "closing",
    "hand",
    "black_threes_in_hand",
    "adjustment",
)
TYPICAL_LAYOUTS = {"4p": 10, "2p": 3}


def concealed_premium(options: Options, kind: str | None) -> int:
    if kind is None:
        return 0
    if kind == "later_with_partner":
        return int(options["concealed_later_with_partner_value"])
    return CONCEALED_PREMIUMS[kind]


def concealed_premiums(options: Options) -> dict[str, int]:
    """What each way of going out concealed adds to the 100 for going out (rulebook-es)."""
    return {kind: concealed_premium(options, kind) for kind in CONCEALED_KINDS}


def score_side(
    rules: Rules, side: SideInput, is_closer: bool, details: Mapping[str, Any]
) -> dict[str, int]:
    """§2.10, and under `rulebook-es` the premiums of §3."""
    parts = uruguaya.score_side(rules, side, is_closer, details)
    options = rules.options
    if not is_rulebook(options):
        return parts
    if is_closer:
        parts["closing"] += concealed_premium(options, details.get("concealed_kind"))
    canastas = uruguaya.completed_canastas(side)
    many = (CANASTRON if canastas >= 5 else 0) + (CANASTA_DE_CANASTAS if canastas >= 7 else 0)
    if many:
        parts["many_canastas"] = many
    if side["four_black_threes_out"]:
        parts["four_black_threes"] = FOUR_BLACK_THREES_OUT
    return parts


def check_hand(rules: Rules, hand: HandInput) -> list[Problem]:
    problems = uruguaya.check_hand(rules, hand)
    if hand.details.get("concealed_kind") is not None and hand.closer is None:
        problems.append(Problem("concealed_kind", "concealed_needs_close"))
    for index, side in enumerate(hand.sides):
        if side["four_black_threes_out"] and index != hand.closer:
            problems.append(Problem(f"sides[{index}].four_black_threes_out", "only_for_closer"))
    return problems


def opening_brackets(rules: Rules) -> tuple[tuple[float, int], ...]:
    """§3: 15 (or 0) below zero, then 50, 90 and 120; a 150 step only when chosen."""
    options = rules.options
    step150 = options["min150_from"] if options["min150_from"] is not None else float("inf")
    return (
        (0, options["negative_opening"]),
        (1500, 50),
        (3000, 90),
        (step150, 120),
        (float("inf"), 150),
    )


VARIANT = Variant(
    name="classic",
    layouts=uruguaya.LAYOUTS,
    options=OPTIONS,
    side_fields=SIDE_FIELDS,
    hand_fields=HAND_FIELDS,
    canasta_fields=uruguaya.CANASTA_FIELDS,
    card_values=uruguaya.CARD_VALUES,
    score_side=score_side,
    check_hand=check_hand,
    cheapest_canastas=uruguaya.CHEAPEST_CANASTAS,
    opening_brackets=opening_brackets,
    parts=PARTS,
    reference=uruguaya.reference,
    typical_layouts=TYPICAL_LAYOUTS,
    concealed_premiums=concealed_premiums,
)
