"""Canastone, Italian three-pack canasta (VARIANTS.md §4)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from anotador.rules import uruguaya
from anotador.rules.problems import Problem
from anotador.rules.variant import HandInput
from anotador.rules.variant import InputField
from anotador.rules.variant import LayoutDefaults
from anotador.rules.variant import Options
from anotador.rules.variant import OptionSpec
from anotador.rules.variant import Reference
from anotador.rules.variant import Role
from anotador.rules.variant import Rules
from anotador.rules.variant import SideInput
from anotador.rules.variant import Variant

TARGET = 12000
LAYOUTS = {name: LayoutDefaults(target=TARGET, decks=3) for name in uruguaya.LAYOUTS}
CARD_VALUES = uruguaya.CARD_VALUES  # mattone 50, pinella 20, A 20, 8-K 10, 4-7 5, stop 5

# Each canasta earns exactly one bonus (§4.3).
CANASTA_BONUS = {
    "pure": 500,
    "impure": 300,
    "aces_pure": 1000,
    "aces_impure": 500,
    "mixed_wild": 2000,  # jokers and pinelle together
    "pinelle": 3000,  # seven twos
    "six_jokers": 5000,  # all six jokers and a pinella
}
# How each kind counts in the pure/impure tests; the wild kinds only while the option is on.
PURE_KINDS = ("pure", "aces_pure")
IMPURE_KINDS = ("impure", "aces_impure")
WILD_PURE_KINDS = ("pinelle",)
WILD_IMPURE_KINDS = ("mixed_wild", "six_jokers")
CHEAPEST_CANASTAS = {
    "pure": 35,
    "impure": 50,
    "aces_pure": 140,
    "aces_impure": 140,
    "pinelle": 140,
    "mixed_wild": 170,
    "six_jokers": 320,
}

FIVE_CANASTAS = 1000  # five canastas with at least one pure and one impure
FIVE_PURE = 2000  # five pure and at least one impure; only the higher bonus applies
CLOSING = 300
RED_THREES = (0, 100, 200, 300, 800, 1000, 1200)
# Penalties offered as adjustment presets (§4.9); the app never derives them itself.
IRREGULARITY_PENALTIES = {
    "stock_out_of_turn_repairable": -100,
    "stock_out_of_turn": -200,
    "too_many_cards_drawn": -50,
    "pile_taken_without_right": -200,
    "meld_in_opponent_turn": -100,
    "meld_in_partner_turn": -200,
    "red_three_in_hand": -500,
}

OPTIONS = (
    OptionSpec("negative_opening", "choice", 50, (50, 15, 0)),
    OptionSpec("five_canasta_bonuses", "bool", True),
    OptionSpec("two_pure_to_close", "bool", False),
    OptionSpec("wild_canastas_count_as_pure_impure", "bool", True),
)

# What each kind of canasta counts as in the statistics.
CANASTA_ROLES = {
    "pure": Role.CLEAN_CANASTAS,
    "impure": Role.DIRTY_CANASTAS,
    "aces_pure": Role.CLEAN_CANASTAS,
    "aces_impure": Role.DIRTY_CANASTAS,
    "mixed_wild": Role.OTHER_CANASTAS,
    "pinelle": Role.OTHER_CANASTAS,
    "six_jokers": Role.OTHER_CANASTAS,
}
SIDE_FIELDS = (
    *(InputField(kind, "count", role=CANASTA_ROLES[kind]) for kind in CANASTA_BONUS),
    InputField("table_points", "points", role=Role.TABLE_POINTS),
    InputField("hand_points", "points", role=Role.HAND_POINTS),
    InputField("red_threes", "count", role=Role.RED_THREES),
    InputField("adjustment", "signed_points", role=Role.ADJUSTMENT),
    InputField("adjustment_note", "text", "", role=Role.ADJUSTMENT_NOTE),
)
PARTS = ("canastas", "many_canastas", "table", "red_threes", "closing", "hand", "adjustment")
TYPICAL_LAYOUTS = {"4p": 6}


def pure_and_impure(options: Options, side: SideInput) -> tuple[int, int]:
    """P and I of §4.11: how many canastas count as pure and as impure."""
    pure = sum(side[kind] for kind in PURE_KINDS)
    impure = sum(side[kind] for kind in IMPURE_KINDS)
    if options["wild_canastas_count_as_pure_impure"]:
        pure += sum(side[kind] for kind in WILD_PURE_KINDS)
        impure += sum(side[kind] for kind in WILD_IMPURE_KINDS)
    return pure, impure


def many_canastas_bonus(canastas: int, pure: int, impure: int) -> int:
    if canastas < 5 or impure < 1:
        return 0
    if pure >= 5:
        return FIVE_PURE
    return FIVE_CANASTAS if pure >= 1 else 0


def red_threes_sign(canastas: int, pure: int, impure: int) -> int:
    """§4.6. A side whose only canastas count as neither pure nor impure (the option off)
    is read like "impure only": minus once (an app choice; the source does not say)."""
    if canastas == 0:
        return -2
    if pure and impure:
        return 1
    return 0 if pure else -1


def score_side(
    rules: Rules, side: SideInput, is_closer: bool, details: Mapping[str, Any]
) -> dict[str, int]:
    """The §4.11 formula, part by part."""
    options = rules.options
    canastas = sum(side[kind] for kind in CANASTA_BONUS)
    pure, impure = pure_and_impure(options, side)
    hand_factor = 1 if side["table_points"] > 0 else 2
    parts = {
        "canastas": sum(bonus * side[kind] for kind, bonus in CANASTA_BONUS.items()),
        "table": side["table_points"],
        "red_threes": red_threes_sign(canastas, pure, impure) * RED_THREES[side["red_threes"]],
        "closing": CLOSING if is_closer else 0,
        "hand": -hand_factor * side["hand_points"],
    }
    if options["five_canasta_bonuses"]:
        many = many_canastas_bonus(canastas, pure, impure)
        if many:
            parts["many_canastas"] = many
    return parts


def check_hand(rules: Rules, hand: HandInput) -> list[Problem]:
    """C1 (closing needs pure and impure) and C2 (what three decks can hold)."""
    problems: list[Problem] = []
    if hand.closer is not None:
        pure, impure = pure_and_impure(rules.options, hand.sides[hand.closer])
        pure_needed = 2 if rules.options["two_pure_to_close"] else 1
        if pure < pure_needed or impure < 1:
            params = {"pure": pure_needed, "impure": 1}
            problems.append(Problem("closer", "closer_needs_pure_and_impure", params))
    total = {kind: sum(side[kind] for side in hand.sides) for kind in CANASTA_BONUS}
    limits = (
        (total["six_jokers"] > 1, "too_many_six_jokers"),
        (total["six_jokers"] == 1 and total["mixed_wild"] > 0, "mixed_wild_after_six_jokers"),
        (total["pinelle"] > 1, "too_many_pinelle"),
        (
            total["mixed_wild"] + total["pinelle"] + total["six_jokers"] > 2,
            "too_many_wild_canastas",
        ),
        (total["aces_pure"] > 1, "too_many_pure_aces"),
        (total["aces_pure"] + total["aces_impure"] > 2, "too_many_aces_canastas"),
    )
    problems.extend(Problem("sides", code) for broken, code in limits if broken)
    return problems


def reference(rules: Rules) -> Reference:
    """The blank sheet's reference box."""
    return Reference(
        canastas=tuple(CANASTA_BONUS.items()),
        closing=(
            ("closing", CLOSING),
            ("five_canastas", FIVE_CANASTAS),
            ("five_pure", FIVE_PURE),
        ),
        red_threes=RED_THREES[1:],
        notes=(("red_threes_by_canastas", {}), ("hand_doubles_unopened", {})),
    )


def opening_brackets(rules: Rules) -> tuple[tuple[float, int], ...]:
    """§4.8; the 200 row exists only in games played beyond 12 000 (the 15 000 target)."""
    above_12000 = 200 if rules.target > TARGET else 180
    return (
        (0, rules.options["negative_opening"]),
        (3000, 50),
        (5000, 90),
        (7000, 120),
        (10000, 160),
        (12000, 180),
        (float("inf"), above_12000),
    )


VARIANT = Variant(
    name="canastone",
    layouts=LAYOUTS,
    options=OPTIONS,
    side_fields=SIDE_FIELDS,
    hand_fields=(),
    canasta_fields=tuple(CANASTA_BONUS),
    card_values=CARD_VALUES,
    score_side=score_side,
    check_hand=check_hand,
    cheapest_canastas=CHEAPEST_CANASTAS,
    opening_brackets=opening_brackets,
    parts=PARTS,
    reference=reference,
    typical_layouts=TYPICAL_LAYOUTS,
    adjustment_presets=IRREGULARITY_PENALTIES,
)
