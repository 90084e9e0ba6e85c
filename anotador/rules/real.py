"""Canasta Real (Buraco): runs only, muertos, no red threes (VARIANTS.md §5)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from anotador.rules import muertos
from anotador.rules.problems import Problem
from anotador.rules.variant import HandInput
from anotador.rules.variant import InputField
from anotador.rules.variant import OptionSpec
from anotador.rules.variant import Reference
from anotador.rules.variant import Role
from anotador.rules.variant import Rules
from anotador.rules.variant import SideInput
from anotador.rules.variant import Variant
from anotador.rules.variant import weighed

LAYOUTS = muertos.layouts(3000)
CARD_VALUES = {"ace": 15, "two": 10, "three_to_seven": 5, "eight_to_king": 10, "joker": 20}

CANASTA_BONUS = {
    "limpia": 200,
    "sucia": 100,
    "de_mil": 1000,  # ace to ace, no wild card, instead of 200
    "de_500": 500,  # option `canasta_de_500`: a clean ace-to-king run
}
CANASTA_POINTS = weighed(CANASTA_BONUS)
CLEAN_KINDS = ("limpia", "de_mil", "de_500")  # what a side needs to go out
CLOSING = muertos.CLOSING
MUERTO_PENALTY = muertos.UNTAKEN_PENALTY
MUERTO_STATES = ("taken", "not_taken", "taken_unused")
UNTAKEN = ("not_taken", "taken_unused")  # an unused muerto counts as not taken
CHEAPEST_CANASTAS = {"limpia": 45, "sucia": 45, "de_mil": 125, "de_500": 110}

OPTIONS = (OptionSpec("canasta_de_500", "bool", False),)
SIDE_FIELDS = muertos.side_fields(
    (
        InputField("limpia", "count", role=Role.CLEAN_CANASTAS),
        InputField("sucia", "count", role=Role.DIRTY_CANASTAS),
        InputField("de_mil", "count", role=Role.CLEAN_CANASTAS),
        InputField("de_500", "count", enabled_by="canasta_de_500", role=Role.CLEAN_CANASTAS),
    ),
    "muerto",
    MUERTO_STATES,
)
PARTS = ("canastas", "table", "closing", "muerto", "hand", "adjustment")
TYPICAL_LAYOUTS = {"4p": 5}


def score_side(
    rules: Rules, side: SideInput, is_closer: bool, details: Mapping[str, Any]
) -> dict[str, int]:
    """The §5.6 formula, part by part."""
    muerto = -MUERTO_PENALTY if side["muerto"] in UNTAKEN else 0
    return muertos.score_parts(side, is_closer, CANASTA_POINTS, "muerto", muerto)


def reference(rules: Rules) -> Reference:
    """The blank sheet's reference box: the canastas this match's options allow."""
    allowed = {spec.name for spec in rules.side_fields()}
    return Reference(
        canastas=tuple((kind, bonus) for kind, bonus in CANASTA_BONUS.items() if kind in allowed),
        closing=(("final_close", CLOSING), ("muerto_not_taken", -MUERTO_PENALTY)),
        notes=(("needs_clean_canasta", {}),),
    )


def check_hand(rules: Rules, hand: HandInput) -> list[Problem]:
    """R1 (what going out needs) and R2 (when a muerto counts as taken but unused)."""
    problems = muertos.check_closer(
        hand, "muerto", "closer_needs_muerto", CLEAN_KINDS, "closer_needs_clean_canasta"
    )
    for index, side in enumerate(hand.sides):
        # A closer with an unused muerto is already reported by R1 above.
        if side["muerto"] == "taken_unused" and hand.end != "closed":
            problems.append(Problem(f"sides[{index}].muerto", "taken_unused_not_allowed"))
    return problems


VARIANT = Variant(
    name="real",
    layouts=LAYOUTS,
    options=OPTIONS,
    side_fields=SIDE_FIELDS,
    hand_fields=(),
    canasta_fields=tuple(CANASTA_BONUS),
    card_values=CARD_VALUES,
    score_side=score_side,
    check_hand=check_hand,
    cheapest_canastas=CHEAPEST_CANASTAS,
    opening_brackets=None,
    parts=PARTS,
    reference=reference,
    fixed_decks=2,
    typical_layouts=TYPICAL_LAYOUTS,
)
