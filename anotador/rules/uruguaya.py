"""Canasta uruguaya / rioplatense (VARIANTS.md §2): Classic scoring, the 150 step, six players."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

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

LAYOUTS = {
    "2p": LayoutDefaults(target=5000, decks=2, canastas_to_close=2),
    "3p": LayoutDefaults(target=7500, decks=2, canastas_to_close=1),
    "4p": LayoutDefaults(target=5000, decks=2, canastas_to_close=1),
    "6p-3x2": LayoutDefaults(target=7500, decks=3, canastas_to_close=2),
    "6p-2x3": LayoutDefaults(target=10000, decks=3, canastas_to_close=2),
}

# Added on the table, subtracted in hand (§2.2). Red threes have no card value.
CARD_VALUES = {
    "joker": 50,
    "two": 20,
    "ace": 20,
    "eight_to_king": 10,
    "four_to_seven": 5,
    "black_three": 5,
}

CLEAN_CANASTA = 500
DIRTY_CANASTA = 300
WILD_CANASTA = 2000  # house option `wild_canasta` (§2.9)
CLOSING = 100
CONCEALED_CLOSING = 200  # "cerrar en mano": 200 in total, not 100 + 200
BLACK_THREE_IN_HAND = 100  # house option `black_three_in_hand`
# Red-three bonus by count, per number of decks (§2.4); index = number of threes.
RED_THREES = {2: (0, 100, 200, 300, 800), 3: (0, 100, 200, 300, 400, 1000, 1200)}
# U2, the soft check: the cheapest card content of each declared canasta. A clean canasta is
# seven 4-7s (35), a dirty one six 4-7s and a 2 (50); aces and wild canastas are seven cards
# worth 20 (140), and aces canastas are also counted in `clean`/`dirty`, hence 140 - 35 and
# 140 - 50 for them.
CHEAPEST_CANASTAS = {
    "clean": 35,
    "dirty": 50,
    "aces_clean": 105,
    "aces_dirty": 90,
    "wild_canastas": 140,
}

HOUSE_OPTIONS = (
    OptionSpec("red_threes_need_canasta", "bool", False),
    OptionSpec("aces_canasta_bonus", "bool", False),
    OptionSpec("aces_clean_value", "points", 1000),
    OptionSpec("aces_dirty_value", "points", 500),
    OptionSpec("black_three_in_hand", "bool", False),
    OptionSpec("wild_canasta", "bool", False),
)
OPTIONS = (
    HOUSE_OPTIONS[0],
    OptionSpec("min150_from", "choice", 7000, (7000, 7500)),
    *HOUSE_OPTIONS[1:],
)

SIDE_FIELDS = (
    InputField("clean", "count", role=Role.CLEAN_CANASTAS),
    InputField("dirty", "count", role=Role.DIRTY_CANASTAS),
    InputField("table_points", "points", role=Role.TABLE_POINTS),
    InputField("hand_points", "points", role=Role.HAND_POINTS),
    InputField("red_threes", "count", role=Role.RED_THREES),
    InputField("aces_clean", "count", enabled_by="aces_canasta_bonus", role=Role.INCLUDED_CANASTAS),
    InputField("aces_dirty", "count", enabled_by="aces_canasta_bonus", role=Role.INCLUDED_CANASTAS),
    InputField("wild_canastas", "count", enabled_by="wild_canasta", role=Role.OTHER_CANASTAS),
    InputField(
        "black_threes_in_hand",
        "count",
        enabled_by="black_three_in_hand",
        role=Role.CARDS_IN_HAND,
        card="black_three",
    ),
    InputField("adjustment", "signed_points", role=Role.ADJUSTMENT),
    InputField("adjustment_note", "text", "", role=Role.ADJUSTMENT_NOTE),
)
HAND_FIELDS = (InputField("concealed", "flag", False, role=Role.CONCEALED),)
CANASTA_FIELDS = ("clean", "dirty", "wild_canastas")
# The parts of a side's score, in the order a sheet's columns show them.
PARTS = ("canastas", "table", "red_threes", "closing", "hand", "black_threes_in_hand", "adjustment")
# How often tables play each layout, for demo data (weighed against the other variants').
TYPICAL_LAYOUTS = {"4p": 60, "2p": 8, "3p": 5, "6p-3x2": 3}


def completed_canastas(side: SideInput) -> int:
    """Canastas of every kind; a wild canasta counts wherever a number of canastas matters."""
    return int(side["clean"] + side["dirty"] + side["wild_canastas"])


def canasta_bonus(options: Options, side: SideInput) -> int:
    aces_clean, aces_dirty = side["aces_clean"], side["aces_dirty"]
    return int(
        CLEAN_CANASTA * (side["clean"] - aces_clean)
        + DIRTY_CANASTA * (side["dirty"] - aces_dirty)
        + options["aces_clean_value"] * aces_clean
        + options["aces_dirty_value"] * aces_dirty
        + WILD_CANASTA * side["wild_canastas"]
    )


def red_threes_positive(options: Options, side: SideInput) -> bool:
    """Plus if the side melded (or, with the house option, completed a canasta), else minus."""
    if options["red_threes_need_canasta"]:
        return completed_canastas(side) > 0
    return bool(side["table_points"] > 0)


def score_side(
    rules: Rules, side: SideInput, is_closer: bool, details: Mapping[str, Any]
) -> dict[str, int]:
    """The §2.10 formula, part by part."""
    options = rules.options
    red = RED_THREES[rules.decks][side["red_threes"]]
    closing = 0
    if is_closer:
        closing = CONCEALED_CLOSING if details.get("concealed") else CLOSING
    parts = {
        "canastas": canasta_bonus(options, side),
        "table": side["table_points"],
        "red_threes": red if red_threes_positive(options, side) else -red,
        "closing": closing,
        "hand": -side["hand_points"],
    }
    if side["black_threes_in_hand"]:
        parts["black_threes_in_hand"] = -BLACK_THREE_IN_HAND * side["black_threes_in_hand"]
    return parts


def check_hand(rules: Rules, hand: HandInput) -> list[Problem]:
    """V4, U1 and U3, shared with `classic`."""
    problems: list[Problem] = []
    closer = hand.closer
    if closer is not None:
        held = completed_canastas(hand.sides[closer])
        if held < (rules.canastas_to_close or 0):
            params = {"required": rules.canastas_to_close, "held": held}
            problems.append(Problem("closer", "not_enough_canastas_to_close", params))
        if rules.layout.individual and hand.sides[closer]["black_threes_in_hand"]:
            path = f"sides[{closer}].black_threes_in_hand"
            problems.append(Problem(path, "closer_holds_cards"))
    if hand.details.get("concealed") and closer is None:
        problems.append(Problem("concealed", "concealed_needs_close"))
    for index, side in enumerate(hand.sides):
        for aces, kind in (("aces_clean", "clean"), ("aces_dirty", "dirty")):
            if side[aces] > side[kind]:
                params = {"aces": side[aces], "canastas": side[kind]}
                code = f"{aces}_exceed_{kind}"
                problems.append(Problem(f"sides[{index}].{aces}", code, params))
    black_threes = sum(side["black_threes_in_hand"] for side in hand.sides)
    if black_threes > 2 * rules.decks:
        params = {"found": black_threes, "maximum": 2 * rules.decks}
        problems.append(Problem("sides", "too_many_black_threes_total", params))
    return problems


def reference(rules: Rules) -> Reference:
    """The blank sheet's reference box (shared with `classic`)."""
    return Reference(
        canastas=(("clean", CLEAN_CANASTA), ("dirty", DIRTY_CANASTA)),
        closing=(("closing", CLOSING), ("concealed_closing", CONCEALED_CLOSING)),
        red_threes=RED_THREES[rules.decks][1:],
        notes=(
            ("red_threes_minus_unmelded", {}),
            ("canastas_to_close", {"count": rules.canastas_to_close}),
        ),
    )


def opening_brackets(rules: Rules) -> tuple[tuple[float, int], ...]:
    """§2.7: below each bound, the minimum on its right."""
    return (
        (0, 15),
        (1500, 50),
        (3000, 90),
        (rules.options["min150_from"], 120),
        (float("inf"), 150),
    )


VARIANT = Variant(
    name="uruguaya",
    layouts=LAYOUTS,
    options=OPTIONS,
    side_fields=SIDE_FIELDS,
    hand_fields=HAND_FIELDS,
    canasta_fields=CANASTA_FIELDS,
    card_values=CARD_VALUES,
    score_side=score_side,
    check_hand=check_hand,
    cheapest_canastas=CHEAPEST_CANASTAS,
    opening_brackets=opening_brackets,
    parts=PARTS,
    reference=reference,
    typical_layouts=TYPICAL_LAYOUTS,
)
