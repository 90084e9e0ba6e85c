"""Modern American Canasta, Canasta League of America rules (VARIANTS.md §6): seven kinds of
canasta, threes of each colour, penalties for unfinished melds, and special hands that replace
a side's score (the two dream hands win the game at once)."""

from __future__ import annotations

from collections.abc import Mapping
from operator import itemgetter
from operator import mul
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

TARGET = 8500
LAYOUTS = {"4p": LayoutDefaults(target=TARGET, decks=2)}
# §6.2; threes are never card points (they are laid aside and scored by the threes table).
CARD_VALUES = {"joker": 50, "ace": 20, "two": 20, "eight_to_king": 10, "four_to_seven": 5}

CANASTA_BONUS = {
    "natural": 500,  # not aces, not sevens
    "mixed": 300,  # one or two wild cards (a mixed aces canasta too)
    "aces": 2500,  # natural aces
    "sevens": 2500,  # natural sevens
    "wild_twos": 3000,  # wild cards, all 2s
    "wild_four_jokers": 2500,  # wild cards holding the four jokers
    "wild_other": 2000,  # wild cards, any other mix
}
WILD_KINDS = ("wild_twos", "wild_four_jokers", "wild_other")
CHEAPEST_CANASTAS = {
    "natural": 35,
    "sevens": 35,
    "mixed": 50,
    "aces": 140,
    "wild_twos": 140,
    "wild_four_jokers": 260,
    "wild_other": 170,
}
CANASTA_ROLES = {
    "natural": Role.CLEAN_CANASTAS,
    "mixed": Role.DIRTY_CANASTAS,
    "aces": Role.CLEAN_CANASTAS,
    "sevens": Role.CLEAN_CANASTAS,
    "wild_twos": Role.OTHER_CANASTAS,
    "wild_four_jokers": Role.OTHER_CANASTAS,
    "wild_other": Role.OTHER_CANASTAS,
}
CANASTAS_TO_CLOSE = 2
CLOSING = 100
# Threes of each colour, by count (index): 1 -> 100, 2 -> 300, 3 -> 500, 4 -> 1000.
THREES = (0, 100, 300, 500, 1000)
MAX_THREES = 4  # of each colour, in two decks
UNFINISHED_ACES = 2500
UNFINISHED_SEVENS = 2500
UNFINISHED_WILD = 2000  # option `four_joker_wild_penalty`: 2500 when it holds all four jokers
THREE_ACES_OR_SEVENS = 1500  # each player who ends holding three or more
LAST_CARD_THREE = 5  # the 3 that was the stock's last card, whatever the option

SPECIAL_END = "special_hand"
SPECIAL_HANDS = {
    "pairs": 2500,
    "wild_pairs": 2000,  # aces, 7s and one wild pair
    "miami_pairs": 2500,  # both wild pairs
    "zip_code": 2500,
    "straight": 3000,
    "garbage": 3000,  # option `garbage_value`: 3000 or 2000
    "blast_off": 3000,
    "triples": 3500,
    "quads": 3500,
    "dream_hand_plus_4": 8500,
    "dream_hand_plus_5": 8500,
}
DREAM_HANDS = ("dream_hand_plus_4", "dream_hand_plus_5")  # they win the game at once

OPTIONS = (
    OptionSpec("three_in_hand_cost", "choice", 100, (100, 5)),
    OptionSpec("four_joker_wild_penalty", "choice", 2000, (2000, 2500)),
    OptionSpec("garbage_value", "choice", 3000, (3000, 2000)),
)
UNFINISHED = {"unfinished_aces": "aces", "unfinished_sevens": "sevens", "unfinished_wild": "wild"}
SIDE_FIELDS = (
    *(InputField(kind, "count", role=CANASTA_ROLES[kind]) for kind in CANASTA_BONUS),
    InputField("table_points", "points", role=Role.TABLE_POINTS),
    InputField("hand_points", "points", role=Role.HAND_POINTS),
    InputField("red_threes", "count", role=Role.RED_THREES),
    InputField("black_threes", "count", role=Role.BLACK_THREES),
    *(InputField(name, "flag", False, role=Role.PENALTY) for name in UNFINISHED),
    InputField("all_four_jokers", "flag", False, role=Role.PENALTY),
    InputField("players_with_3_aces", "count", role=Role.PENALTY),
    InputField("players_with_3_sevens", "count", role=Role.PENALTY),
    InputField("threes_in_hand", "count", role=Role.PENALTY),
    InputField("last_card_three", "flag", False, role=Role.PENALTY),
    InputField(
        "special_hand", "choice", None, tuple(SPECIAL_HANDS), nullable=True, role=Role.SPECIAL_HAND
    ),
    InputField("adjustment", "signed_points", role=Role.ADJUSTMENT),
    InputField("adjustment_note", "text", "", role=Role.ADJUSTMENT_NOTE),
)
# What a side with a special hand may still declare.
KEPT_WITH_SPECIAL_HAND = ("special_hand", "adjustment", "adjustment_note")
PARTS = (
    "special_hand",
    "canastas",
    "table",
    "red_threes",
    "black_threes",
    "closing",
    "hand",
    "threes_in_hand",
    "unfinished_melds",
    "aces_sevens_held",
    "adjustment",
)
TYPICAL_LAYOUTS = {"4p": 4}


def special_hands(options: Options) -> dict[str, int]:
    """What each special hand is worth under ``options``."""
    return {**SPECIAL_HANDS, "garbage": int(options["garbage_value"])}


CANASTA_COUNTS = itemgetter(*CANASTA_BONUS)
BONUSES = tuple(CANASTA_BONUS.values())
# The penalties' inputs (all four jokers count only with an unfinished wild meld).
PENALTY_FIELDS = [spec.name for spec in SIDE_FIELDS if spec.role is Role.PENALTY]
PENALTIES = tuple(name for name in PENALTY_FIELDS if name != "all_four_jokers")
# Everything a side's score reads, in one call: it runs for every side of every hand.
SCORED = ("special_hand", "table_points", "red_threes", "black_threes", "hand_points")
SCORED_INPUTS = itemgetter(*(*CANASTA_BONUS, *SCORED, *PENALTIES))
KINDS = len(CANASTA_BONUS)


def completed_canastas(side: SideInput) -> int:
    """C of §6.6: completed canastas of every kind."""
    return sum(CANASTA_COUNTS(side))


def unfinished_penalty(options: Options, side: SideInput) -> int:
    wild = 0
    if side["unfinished_wild"]:
        wild = UNFINISHED_WILD
        if side["all_four_jokers"]:
            wild = int(options["four_joker_wild_penalty"])
    aces = UNFINISHED_ACES if side["unfinished_aces"] else 0
    sevens = UNFINISHED_SEVENS if side["unfinished_sevens"] else 0
    return aces + sevens + wild


def score_side(
    rules: Rules, side: SideInput, is_closer: bool, details: Mapping[str, Any]
) -> dict[str, int]:
    """The §6.6 formula, part by part; a special hand replaces everything but the adjustment."""
    inputs = SCORED_INPUTS(side)
    (  # the canastas in CANASTA_BONUS's order, then the rest of SCORED_INPUTS
        natural,
        mixed,
        natural_aces,
        natural_sevens,
        wild_twos,
        wild_four_jokers,
        wild_other,
        special,
        table,
        red,
        black,
        held,
        aces,
        sevens,
        wild,
        held_aces,
        held_sevens,
        threes,
        last,
    ) = inputs
    if special is not None:
        return {"special_hand": special_hands(rules.options)[special]}
    # C of §6.6; the threes count minus without a canasta, nothing with one, plus with two.
    canastas = (
        natural + mixed + natural_aces + natural_sevens + wild_twos + wild_four_jokers + wild_other
    )
    if canastas:
        bonuses = sum(map(mul, inputs[:KINDS], BONUSES))
        sign = 1 if canastas > 1 else 0
    else:
        bonuses, sign, table = 0, -1, -table
    parts = {
        "canastas": bonuses,
        "table": table,
        "red_threes": sign * THREES[red],
        "black_threes": sign * THREES[black],
        "closing": CLOSING if is_closer else 0,
        "hand": -held,
    }
    if aces or sevens or wild or held_aces or held_sevens or threes or last:
        add_penalties(rules.options, side, parts)
    return parts


def add_penalties(options: Options, side: SideInput, parts: dict[str, int]) -> None:
    """The threes left in hand, the unfinished melds and the aces or sevens held (§6.2, §6.4)."""
    threes = int(options["three_in_hand_cost"]) * side["threes_in_hand"]
    threes += LAST_CARD_THREE if side["last_card_three"] else 0
    if threes:
        parts["threes_in_hand"] = -threes
    unfinished = unfinished_penalty(options, side)
    if unfinished:
        parts["unfinished_melds"] = -unfinished
    held = THREE_ACES_OR_SEVENS * (side["players_with_3_aces"] + side["players_with_3_sevens"])
    if held:
        parts["aces_sevens_held"] = -held


def check_hand(rules: Rules, hand: HandInput) -> list[Problem]:
    """M1-M4 and M6 (V6, the red threes, is the engine's shared check)."""
    return [
        *check_black_threes(hand),
        *check_closer(hand),
        *check_whole_hand(hand),
        *check_players(rules, hand),
        *check_special_hands(hand),
        *check_flags(hand),
    ]


def check_black_threes(hand: HandInput) -> list[Problem]:
    """M1 for the black threes: at most four, on a side and over the table."""
    params = {"maximum": MAX_THREES, "decks": 2}
    problems = [
        Problem(f"sides[{index}].black_threes", "too_many_black_threes", params)
        for index, side in enumerate(hand.sides)
        if side["black_threes"] > MAX_THREES
    ]
    found = sum(side["black_threes"] for side in hand.sides)
    if not problems and found > MAX_THREES:
        params = {"found": found, "maximum": MAX_THREES}
        problems.append(Problem("sides", "too_many_black_threes_laid", params))
    return problems


def check_closer(hand: HandInput) -> list[Problem]:
    """M2: going out needs two canastas and no unfinished aces, sevens or wild meld."""
    if hand.closer is None or hand.end != "closed":
        return []
    side = hand.sides[hand.closer]
    problems = []
    held = completed_canastas(side)
    if held < CANASTAS_TO_CLOSE:
        params = {"required": CANASTAS_TO_CLOSE, "held": held}
        problems.append(Problem("closer", "not_enough_canastas_to_close", params))
    for name in UNFINISHED:
        if side[name]:
            problems.append(Problem(f"sides[{hand.closer}].{name}", "closer_has_unfinished_meld"))
    return problems


def check_whole_hand(hand: HandInput) -> list[Problem]:
    """M3: two decks hold one natural aces, one natural sevens and one wild-card canasta; a
    side with an unfinished meld of a kind has no completed canasta of it."""
    problems = []
    for kinds, code in (
        (("aces",), "too_many_natural_aces"),
        (("sevens",), "too_many_natural_sevens"),
        (WILD_KINDS, "too_many_wild_card_canastas"),
    ):
        if sum(side[kind] for side in hand.sides for kind in kinds) > 1:
            problems.append(Problem("sides", code))
    for index, side in enumerate(hand.sides):
        for name, kind in UNFINISHED.items():
            kinds = WILD_KINDS if kind == "wild" else (kind,)
            if side[name] and any(side[k] for k in kinds):
                problems.append(Problem(f"sides[{index}].{name}", "unfinished_and_completed"))
    return problems


def check_players(rules: Rules, hand: HandInput) -> list[Problem]:
    """At most every player of the side holds three aces (or three sevens)."""
    most = rules.layout.players_per_side
    return [
        Problem(f"sides[{index}].{name}", "above_maximum", {"maximum": most})
        for index, side in enumerate(hand.sides)
        for name in ("players_with_3_aces", "players_with_3_sevens")
        if side[name] > most
    ]


def check_special_hands(hand: HandInput) -> list[Problem]:
    """M4: a special hand ends the hand (and only it does), on one side, which declares
    nothing else; nobody goes out (the engine's V2)."""
    holders = [i for i, side in enumerate(hand.sides) if side["special_hand"] is not None]
    problems = []
    if hand.end == SPECIAL_END and not holders:
        problems.append(Problem("end", "special_hand_missing"))
    if len(holders) > 1:
        problems.append(Problem("sides", "special_hand_one_side"))
    for index in holders:
        side = hand.sides[index]
        if hand.end != SPECIAL_END:
            problems.append(Problem(f"sides[{index}].special_hand", "special_hand_needs_end"))
        for spec in SIDE_FIELDS:
            if spec.name not in KEPT_WITH_SPECIAL_HAND and side[spec.name] != spec.default:
                path = f"sides[{index}].{spec.name}"
                problems.append(Problem(path, "special_hand_replaces_inputs"))
    return problems


def check_flags(hand: HandInput) -> list[Problem]:
    """M6: the stock's last card a 3 only when the stock ran out, on one side; all four
    jokers only in an unfinished wild-card meld."""
    problems = []
    last = [i for i, side in enumerate(hand.sides) if side["last_card_three"]]
    if hand.end != "stock_out":
        problems += [
            Problem(f"sides[{i}].last_card_three", "last_card_three_needs_stock_out") for i in last
        ]
    elif len(last) > 1:
        problems.append(Problem("sides", "last_card_three_one_side"))
    for index, side in enumerate(hand.sides):
        if side["all_four_jokers"] and not side["unfinished_wild"]:
            path = f"sides[{index}].all_four_jokers"
            problems.append(Problem(path, "all_four_jokers_needs_unfinished_wild"))
    return problems


def wins_at_once(rules: Rules, hand: HandInput) -> int | None:
    """The side that laid down a dream hand: the game ends and it wins (§6.4)."""
    if hand.end != SPECIAL_END:
        return None
    return next(
        (i for i, side in enumerate(hand.sides) if side["special_hand"] in DREAM_HANDS), None
    )


def reference(rules: Rules) -> Reference:
    """The blank sheet's reference box."""
    options = rules.options
    penalties = [
        ("unfinished_aces_or_sevens", -UNFINISHED_ACES),
        ("unfinished_wild", -UNFINISHED_WILD),
    ]
    if options["four_joker_wild_penalty"] != UNFINISHED_WILD:
        penalties.append(("unfinished_four_jokers", -int(options["four_joker_wild_penalty"])))
    penalties += [
        ("three_aces_or_sevens", -THREE_ACES_OR_SEVENS),
        ("three_in_hand", -int(options["three_in_hand_cost"])),
        ("last_card_three", -LAST_CARD_THREE),
    ]
    return Reference(
        canastas=tuple(CANASTA_BONUS.items()),
        closing=(("closing", CLOSING),),
        red_threes=THREES[1:],
        notes=(
            ("threes_by_canastas", {}),
            ("melded_minus_without_canasta", {}),
            ("canastas_to_close", {"count": CANASTAS_TO_CLOSE}),
        ),
        penalties=tuple(penalties),
        special_hands=tuple(special_hands(options).items()),
        threes_title="threes_each_colour",
    )


def opening_brackets(rules: Rules) -> tuple[tuple[float, int], ...]:
    """§6.5: 125 below 3000 (negative scores too), 155 below 5000, then 180."""
    return ((3000, 125), (5000, 155), (float("inf"), 180))


VARIANT = Variant(
    name="mac",
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
    fixed_decks=2,
    typical_layouts=TYPICAL_LAYOUTS,
    special_end=SPECIAL_END,
    special_hands=special_hands,
    wins_at_once=wins_at_once,
)
