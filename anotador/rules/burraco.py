"""Burraco italiano, FIBUR rules (VARIANTS.md §11): burrachi pulito, semipulito and sporco,
a pozzetto per side, melded cards always plus."""

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

TARGET = 2005  # home play (§11.6); tournaments convert deals into victory points instead
LAYOUTS = muertos.layouts(TARGET)
# Card values (§11.2): jolly 30, pinella 20, A 15, K-8 10, 7-3 5.
CARD_VALUES = {
    "jolly": 30,
    "pinella": 20,
    "ace": 15,
    "eight_to_king": 10,
    "three_to_seven": 5,
}
CANASTA_BONUS = {"pulito": 200, "semipulito": 150, "sporco": 100}
CANASTA_POINTS = weighed(CANASTA_BONUS)
CLOSING = muertos.CLOSING
POZZETTO_NOT_TAKEN = -muertos.UNTAKEN_PENALTY  # also when the stock ran out (§11.9.3)
POZZETTO_STATES = (muertos.TAKEN, muertos.NOT_TAKEN)
# I3: seven 3-7s = 35; a semipulito holds at least seven naturals and a matta (35 + 20),
# a sporco six naturals and a pinella (30 + 20).
CHEAPEST_CANASTAS = {"pulito": 35, "semipulito": 55, "sporco": 50}

OPTIONS = (
    OptionSpec("semipulito", "bool", True),
    OptionSpec("pulito_to_close", "bool", False),
)
SIDE_FIELDS = muertos.side_fields(
    (
        InputField("pulito", "count", role=Role.CLEAN_CANASTAS),
        InputField("semipulito", "count", enabled_by="semipulito", role=Role.OTHER_CANASTAS),
        InputField("sporco", "count", role=Role.DIRTY_CANASTAS),
    ),
    "pozzetto",
    POZZETTO_STATES,
)
PARTS = ("canastas", "table", "closing", "pozzetto", "hand", "adjustment")
TYPICAL_LAYOUTS = {"4p": 6, "2p": 3}


def score_side(
    rules: Rules, side: SideInput, is_closer: bool, details: Mapping[str, Any]
) -> dict[str, int]:
    """The §11.7 formula, part by part."""
    pozzetto = 0 if side["pozzetto"] == muertos.TAKEN else POZZETTO_NOT_TAKEN
    return muertos.score_parts(side, is_closer, CANASTA_POINTS, "pozzetto", pozzetto)


def check_hand(rules: Rules, hand: HandInput) -> list[Problem]:
    """I1: going out needs the pozzetto taken and a burraco (a pulito with the option)."""
    if rules.options["pulito_to_close"]:
        return muertos.check_closer(
            hand, "pozzetto", "closer_needs_pozzetto", ("pulito",), "closer_needs_pulito"
        )
    return muertos.check_closer(
        hand, "pozzetto", "closer_needs_pozzetto", tuple(CANASTA_BONUS), "closer_needs_burraco"
    )


def reference(rules: Rules) -> Reference:
    """The blank sheet's reference box: the burrachi this match's options allow."""
    allowed = {spec.name for spec in rules.side_fields()}
    needs = "needs_pulito" if rules.options["pulito_to_close"] else "needs_burraco"
    return Reference(
        canastas=tuple((kind, bonus) for kind, bonus in CANASTA_BONUS.items() if kind in allowed),
        closing=(("chiusura", CLOSING), ("pozzetto_not_taken", POZZETTO_NOT_TAKEN)),
        notes=((needs, {}), ("melded_always_plus", {})),
    )


VARIANT = Variant(
    name="burraco",
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
    family="burraco",
)
