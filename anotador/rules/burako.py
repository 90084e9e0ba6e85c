"""Burako, the Río de la Plata tile game (VARIANTS.md §10): runs and sets, a muerto per side,
pura 200 and impura 100; a side without a canasta counts its table minus."""

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

TARGET = 3000  # option 2000 (or any)
LAYOUTS = muertos.layouts(TARGET)
# Tiles (§10.2): the 1s 15, the 2s 20, 3-7 5, 8-13 10, the comodines 50.
CARD_VALUES = {
    "tile_one": 15,
    "tile_two": 20,
    "tile_three_to_seven": 5,
    "tile_eight_to_thirteen": 10,
    "comodin": 50,
}
CANASTA_BONUS = {"pura": 200, "impura": 100}
CANASTA_POINTS = weighed(CANASTA_BONUS)
CLOSING = muertos.CLOSING
MUERTO_TAKEN = 100  # option `muerto_bonus`: 100 or 0
MUERTO_NOT_TAKEN = -muertos.UNTAKEN_PENALTY
# No "taken, not used": an indirect take the opponents closed on counts as taken (§10.4).
MUERTO_STATES = (muertos.TAKEN, muertos.NOT_TAKEN)
# K3: seven 3s of mixed colours = 35; six 3s and a 2 = 50.
CHEAPEST_CANASTAS = {"pura": 35, "impura": 50}

OPTIONS = (
    OptionSpec("muerto_bonus", "choice", MUERTO_TAKEN, (MUERTO_TAKEN, 0)),
    OptionSpec("no_canasta_table_negative", "bool", True),
)
SIDE_FIELDS = muertos.side_fields(
    (
        InputField("pura", "count", role=Role.CLEAN_CANASTAS),
        InputField("impura", "count", role=Role.DIRTY_CANASTAS),
    ),
    "muerto",
    MUERTO_STATES,
)
PARTS = ("canastas", "table", "closing", "muerto", "hand", "adjustment")
TYPICAL_LAYOUTS = {"4p": 6, "2p": 2}


def canastas(side: SideInput) -> int:
    return int(side["pura"] + side["impura"])


def table_sign(rules: Rules, side: SideInput) -> int:
    """§10.6: a side with no canasta counts its laid tiles against it (option off: plus)."""
    return -1 if canastas(side) == 0 and rules.options["no_canasta_table_negative"] else 1


def score_side(
    rules: Rules, side: SideInput, is_closer: bool, details: Mapping[str, Any]
) -> dict[str, int]:
    """The §10.10 formula, part by part."""
    taken = side["muerto"] == muertos.TAKEN
    muerto = int(rules.options["muerto_bonus"]) if taken else MUERTO_NOT_TAKEN
    sign = table_sign(rules, side)
    return muertos.score_parts(side, is_closer, CANASTA_POINTS, "muerto", muerto, sign)


def check_hand(rules: Rules, hand: HandInput) -> list[Problem]:
    """K1: going out needs the muerto taken and a canasta, pura or impura."""
    return muertos.check_closer(
        hand, "muerto", "closer_needs_muerto", tuple(CANASTA_BONUS), "closer_needs_canasta"
    )


def reference(rules: Rules) -> Reference:
    """The blank sheet's reference box."""
    closing = [("final_close", CLOSING)]
    if rules.options["muerto_bonus"]:
        closing.append(("muerto_taken", int(rules.options["muerto_bonus"])))
    closing.append(("muerto_not_taken", MUERTO_NOT_TAKEN))
    notes: list[tuple[str, Mapping[str, Any]]] = [("needs_any_canasta", {})]
    if rules.options["no_canasta_table_negative"]:
        notes.append(("no_canasta_table_minus", {}))
    return Reference(
        canastas=tuple(CANASTA_BONUS.items()),
        closing=tuple(closing),
        notes=tuple(notes),
        cards_title="tile_values",
    )


VARIANT = Variant(
    name="burako",
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
    pieces="tiles",
    family="burraco",
)
