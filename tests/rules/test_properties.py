"""Property-based tests of the scoring engine.

``valid_documents()`` builds match documents that respect every rule of VARIANTS.md for every
variant, layout and option set the engine supports; mutations of them, and arbitrary JSON,
must only ever give located problems (or a valid match), never an exception.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from anotador.commands.main import main
from anotador.rules import MESSAGES
from anotador.rules import VARIANTS
from anotador.rules import Match
from anotador.rules import Problem
from anotador.rules import Rules
from anotador.rules import SideInfo
from anotador.rules import game_result
from anotador.rules import make_rules
from anotador.rules import match_to_document
from anotador.rules import opening_minimum
from anotador.rules import read_hand
from anotador.rules import read_match
from anotador.rules import score_match
from anotador.rules import scored_match_to_json
from anotador.rules.text import is_text_character

SETTINGS = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

# Every variant with every layout it is played with, each tested on its own.
SETUPS = [(name, layout) for name, variant in VARIANTS.items() for layout in variant.layouts]
SETUP_IDS = [f"{name}-{layout}" for name, layout in SETUPS]
PER_SETUP = settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
SOFT_CHECKS = {"table_points_low_for_canastas"}


def free_text(max_size: int) -> st.SearchStrategy[str]:
    """Texts a person could type: no control characters but tabs and newlines."""
    return st.text(st.characters().filter(is_text_character), max_size=max_size)


def multiple_of_5(low: int, high: int) -> st.SearchStrategy[int]:
    return st.integers(low // 5, high // 5).map(lambda k: 5 * k)


def maybe(options: dict[str, Any], draw: st.DrawFn, key: str, values: st.SearchStrategy) -> None:
    """Set ``key`` in about half of the documents; the others rely on the default."""
    if draw(st.booleans()):
        options[key] = draw(values)


HOUSE_OPTIONS: dict[str, st.SearchStrategy[Any]] = {
    "red_threes_need_canasta": st.booleans(),
    "aces_canasta_bonus": st.booleans(),
    "aces_clean_value": multiple_of_5(0, 3000),
    "aces_dirty_value": multiple_of_5(0, 3000),
    "black_three_in_hand": st.booleans(),
    "wild_canasta": st.booleans(),
}
OPTION_VALUES: dict[str, dict[str, st.SearchStrategy[Any]]] = {
    "uruguaya": {
        "target": st.sampled_from([5000, 7500, 10000]),
        "decks": st.sampled_from([2, 3]),
        "canastas_to_close": st.integers(0, 2),
        "min150_from": st.sampled_from([7000, 7500]),
        **HOUSE_OPTIONS,
    },
    "classic": {
        "target": st.sampled_from([5000, 7500, 10000]),
        "decks": st.sampled_from([2, 3]),
        "canastas_to_close": st.integers(0, 2),
        "preset": st.sampled_from(["pagat", "rulebook-es"]),
        "negative_opening": st.sampled_from([15, 0]),
        "min150_from": st.sampled_from([None, 7000, 7500]),
        "concealed_later_with_partner_value": multiple_of_5(0, 1000),
        **HOUSE_OPTIONS,
    },
    "canastone": {
        "target": st.sampled_from([12000, 15000]),
        "decks": st.sampled_from([3, 2]),
        "negative_opening": st.sampled_from([50, 15, 0]),
        "five_canasta_bonuses": st.booleans(),
        "two_pure_to_close": st.booleans(),
        "wild_canastas_count_as_pure_impure": st.booleans(),
    },
    "real": {
        "target": st.sampled_from([1500, 3000, 5000]),
        "decks": st.just(2),
        "canasta_de_500": st.booleans(),
    },
    "mac": {
        "target": st.sampled_from([8500, 5000]),
        "decks": st.just(2),
        "three_in_hand_cost": st.sampled_from([100, 5]),
        "four_joker_wild_penalty": st.sampled_from([2000, 2500]),
        "garbage_value": st.sampled_from([3000, 2000]),
    },
    "burako": {
        "target": st.sampled_from([3000, 2000]),
        "decks": st.just(2),
        "muerto_bonus": st.sampled_from([100, 0]),
        "no_canasta_table_negative": st.booleans(),
    },
    "burraco": {
        "target": st.sampled_from([2005, 2000, 1005]),
        "decks": st.just(2),
        "semipulito": st.booleans(),
        "pulito_to_close": st.booleans(),
    },
}
TIES = st.sampled_from(["extra_hand", "shared"])


@st.composite
def match_settings(
    draw: st.DrawFn, setup: tuple[str, str] | None = None
) -> tuple[str, str, dict[str, Any]]:
    """A variant, a layout and some of its options (the rest left to the defaults)."""
    variant, layout = setup or draw(st.sampled_from(SETUPS))
    options: dict[str, Any] = {}
    for key, values in OPTION_VALUES[variant].items():
        maybe(options, draw, key, values)
    maybe(options, draw, "tie", TIES)
    return variant, layout, options


# --- One side's entry, per variant ---------------------------------------------------------


def small(draw: st.DrawFn, high: int) -> int:
    """A count from 0 to ``high``, zero about half of the time."""
    return draw(st.one_of(st.just(0), st.integers(0, high)))


def uruguaya_side(draw: st.DrawFn, rules: Rules, opened: bool, closer: bool) -> dict[str, Any]:
    options = rules.options
    wild_allowed = bool(options["wild_canasta"]) or options.get("preset") == "rulebook-es"
    side: dict[str, Any] = {"clean": 0, "dirty": 0, "wild_canastas": 0}
    if opened:
        side["clean"] = small(draw, 3)
        side["dirty"] = small(draw, 3)
        if wild_allowed:
            side["wild_canastas"] = small(draw, 1)
        if closer:
            held = side["clean"] + side["dirty"] + side["wild_canastas"]
            side["clean"] += max(0, (rules.canastas_to_close or 0) - held)
    if options["aces_canasta_bonus"]:
        side["aces_clean"] = draw(st.integers(0, side["clean"]))
        side["aces_dirty"] = draw(st.integers(0, side["dirty"]))
    if options["black_three_in_hand"]:
        individual_closer = closer and rules.layout.individual
        side["black_threes_in_hand"] = 0 if individual_closer else small(draw, 2)
    if options.get("preset") == "rulebook-es" and closer:
        side["four_black_threes_out"] = draw(st.booleans())
    side["red_threes"] = small(draw, 2 * rules.decks)
    return side


CONCEALED_KINDS = (
    "first_turn_alone",
    "first_turn_with_partner",
    "later_alone",
    "later_with_partner",
)
CANASTONE_KINDS = (
    "pure",
    "impure",
    "aces_pure",
    "aces_impure",
    "mixed_wild",
    "pinelle",
    "six_jokers",
)
# What three decks hold in one hand (C2): (mixed_wild, pinelle, six_jokers) and the aces.
WILD_SETS = [(0, 0, 0), (1, 0, 0), (2, 0, 0), (0, 1, 0), (1, 1, 0), (0, 0, 1), (0, 1, 1)]
ACES_SETS = [(0, 0), (1, 0), (0, 1), (0, 2), (1, 1)]


def canastone_side(draw: st.DrawFn, rules: Rules, opened: bool, closer: bool) -> dict[str, Any]:
    side = dict.fromkeys(CANASTONE_KINDS, 0)
    if opened:
        side["pure"] = small(draw, 5)
        side["impure"] = small(draw, 3)
    side["red_threes"] = small(draw, 2 * rules.decks)
    return side


def canastone_hand_limits(
    draw: st.DrawFn, rules: Rules, entries: list[dict[str, Any]], opened: list[bool], closer
) -> None:
    """Hand out the wild and aces canastas of one hand (C2), then make the closer legal (C1)."""
    holders = [index for index, is_open in enumerate(opened) if is_open]
    if holders:
        mixed, pinelle, six = draw(st.sampled_from(WILD_SETS))
        aces_pure, aces_impure = draw(st.sampled_from(ACES_SETS))
        for kind, count in (
            ("mixed_wild", mixed),
            ("pinelle", pinelle),
            ("six_jokers", six),
            ("aces_pure", aces_pure),
            ("aces_impure", aces_impure),
        ):
            for _ in range(count):
                entries[draw(st.sampled_from(holders))][kind] += 1
    if closer is not None:
        side = entries[closer]
        counted = rules.options["wild_canastas_count_as_pure_impure"]
        pure = side["pure"] + side["aces_pure"] + (side["pinelle"] if counted else 0)
        impure = side["impure"] + side["aces_impure"]
        if counted:
            impure += side["mixed_wild"] + side["six_jokers"]
        needed = 2 if rules.options["two_pure_to_close"] else 1
        side["pure"] += max(0, needed - pure)
        side["impure"] += max(0, 1 - impure)


def real_side(
    draw: st.DrawFn, rules: Rules, opened: bool, closer: bool, closed: bool
) -> dict[str, Any]:
    side: dict[str, Any] = {"limpia": 0, "sucia": 0, "de_mil": 0}
    if rules.options["canasta_de_500"]:
        side["de_500"] = 0
    if opened:
        side["limpia"] = small(draw, 3)
        side["sucia"] = small(draw, 3)
        side["de_mil"] = small(draw, 1)
        if "de_500" in side:
            side["de_500"] = small(draw, 1)
        if closer and not (side["limpia"] or side["de_mil"] or side.get("de_500")):
            side["limpia"] = 1
    states = ["taken", "not_taken", "taken_unused"] if closed else ["taken", "not_taken"]
    side["muerto"] = "taken" if closer else draw(st.sampled_from(states))
    return side


MAC_SINGLE_KINDS = ("aces", "sevens", "wild_twos", "wild_four_jokers", "wild_other")
MAC_SPECIAL_HANDS = (
    "pairs",
    "wild_pairs",
    "miami_pairs",
    "zip_code",
    "straight",
    "garbage",
    "blast_off",
    "triples",
    "quads",
    "dream_hand_plus_4",
    "dream_hand_plus_5",
)


def mac_side(draw: st.DrawFn, rules: Rules, opened: bool, closer: bool) -> dict[str, Any]:
    side: dict[str, Any] = {"natural": 0, "mixed": 0, **dict.fromkeys(MAC_SINGLE_KINDS, 0)}
    if opened:
        side["natural"] = small(draw, 3)
        side["mixed"] = small(draw, 3)
        if not closer:
            for flag in ("unfinished_aces", "unfinished_sevens", "unfinished_wild"):
                side[flag] = draw(st.booleans()) and draw(st.booleans())
            side["all_four_jokers"] = side["unfinished_wild"] and draw(st.booleans())
    side["red_threes"] = small(draw, 4)
    side["black_threes"] = small(draw, 4)
    side["players_with_3_aces"] = small(draw, rules.layout.players_per_side)
    side["players_with_3_sevens"] = small(draw, rules.layout.players_per_side)
    side["threes_in_hand"] = small(draw, 2)
    return side


def mac_hand_limits(
    draw: st.DrawFn, entries: list[dict[str, Any]], opened: list[bool], closer, end: str
) -> None:
    """One natural aces, one natural sevens and one wild-card canasta per hand (M3), none of a
    kind on a side with an unfinished meld of it; two canastas for the closer (M2); the last
    card a 3 on one side at a stock-out (M6); a special hand replaces its side's inputs (M4)."""
    holders = [index for index, is_open in enumerate(opened) if is_open]
    for kinds, flag in (
        (("aces",), "unfinished_aces"),
        (("sevens",), "unfinished_sevens"),
        (("wild_twos", "wild_four_jokers", "wild_other"), "unfinished_wild"),
    ):
        able = [index for index in holders if not entries[index].get(flag)]
        if able and draw(st.booleans()):
            entries[draw(st.sampled_from(able))][draw(st.sampled_from(kinds))] += 1
    if closer is not None:
        side = entries[closer]
        held = sum(side[kind] for kind in ("natural", "mixed", *MAC_SINGLE_KINDS))
        side["natural"] += max(0, 2 - held)
    cap_total(entries, "black_threes", 4)
    if end == "stock_out" and draw(st.booleans()):
        entries[draw(st.integers(0, len(entries) - 1))]["last_card_three"] = True
    if end == "special_hand":
        index = draw(st.integers(0, len(entries) - 1))
        entries[index] = {"special_hand": draw(st.sampled_from(MAC_SPECIAL_HANDS))}


def burako_side(draw: st.DrawFn, rules: Rules, opened: bool, closer: bool) -> dict[str, Any]:
    side: dict[str, Any] = {"pura": 0, "impura": 0}
    if opened:
        side["pura"] = small(draw, 3)
        side["impura"] = small(draw, 3)
        if closer and not (side["pura"] or side["impura"]):
            side[draw(st.sampled_from(["pura", "impura"]))] = 1
    side["muerto"] = "taken" if closer else draw(st.sampled_from(["taken", "not_taken"]))
    return side


def burraco_side(draw: st.DrawFn, rules: Rules, opened: bool, closer: bool) -> dict[str, Any]:
    options = rules.options
    kinds = ["pulito", "semipulito", "sporco"] if options["semipulito"] else ["pulito", "sporco"]
    side: dict[str, Any] = dict.fromkeys(kinds, 0)
    if opened:
        for kind in kinds:
            side[kind] = small(draw, 2)
        needed = ["pulito"] if options["pulito_to_close"] else kinds
        if closer and not any(side[kind] for kind in needed):
            side[draw(st.sampled_from(needed))] = 1
    side["pozzetto"] = "taken" if closer else draw(st.sampled_from(["taken", "not_taken"]))
    return side


SIDE_MAKERS = {
    "uruguaya": uruguaya_side,
    "classic": uruguaya_side,
    "canastone": canastone_side,
    "mac": mac_side,
    "burako": burako_side,
    "burraco": burraco_side,
}


def cap_total(entries: list[dict[str, Any]], key: str, maximum: int) -> None:
    """Lower the largest counts of ``key`` until the sides together hold at most ``maximum``."""
    while sum(entry.get(key, 0) for entry in entries) > maximum:
        largest = max(entries, key=lambda entry: entry.get(key, 0))
        largest[key] -= 1


@st.composite
def hands(draw: st.DrawFn, rules: Rules) -> dict[str, Any]:
    """One valid hand under ``rules``."""
    variant = rules.variant.name
    count = rules.layout.sides
    end = draw(st.sampled_from(rules.variant.end_reasons))
    closer = draw(st.integers(0, count - 1)) if end == "closed" else None
    opened = [index == closer or draw(st.booleans()) for index in range(count)]
    entries = []
    for index in range(count):
        is_closer = index == closer
        if variant in SIDE_MAKERS:
            entry = SIDE_MAKERS[variant](draw, rules, opened[index], is_closer)
        else:
            entry = real_side(draw, rules, opened[index], is_closer, end == "closed")
        entry["table_points"] = draw(multiple_of_5(15, 3000)) if opened[index] else 0
        individual_closer = is_closer and rules.layout.individual
        entry["hand_points"] = 0 if individual_closer else draw(multiple_of_5(0, 1500))
        if draw(st.booleans()):
            entry["adjustment"] = draw(multiple_of_5(-500, 500))
            if draw(st.booleans()):
                entry["adjustment_note"] = draw(free_text(max_size=20))
        entries.append(entry)
    if variant == "canastone":
        canastone_hand_limits(draw, rules, entries, opened, closer)
    if variant == "mac":
        mac_hand_limits(draw, entries, opened, closer, end)
    cap_total(entries, "red_threes", 2 * rules.decks)
    cap_total(entries, "black_threes_in_hand", 2 * rules.decks)
    # Omit some fields left at their default: every count defaults to 0 (the muerto to taken).
    for entry in entries:
        for key, value in list(entry.items()):
            if value in (0, "taken", False, "", None) and draw(st.booleans()):
                del entry[key]
    hand: dict[str, Any] = {"end": end}
    if closer is not None or draw(st.booleans()):
        hand["closer"] = closer
    rulebook = variant == "classic" and rules.options["preset"] == "rulebook-es"
    if variant in ("uruguaya", "classic") and not rulebook and draw(st.booleans()):
        hand["concealed"] = closer is not None and draw(st.booleans())
    if rulebook and closer is not None:
        hand["concealed_kind"] = draw(st.sampled_from([None, *CONCEALED_KINDS]))
    hand["sides"] = entries
    if draw(st.booleans()):
        hand["note"] = draw(free_text(max_size=20))
    return hand


def truncate_at_the_end(document: dict[str, Any], rules: Rules) -> None:
    """Drop the hands after the one that ended the game (they would break V8)."""
    inputs = [read_hand(rules, raw)[0] for raw in document["hands"]]
    if any(hand is None for hand in inputs):
        return  # leave it to the test to report the hand the engine rejects
    match = Match(
        rules=rules,
        sides=tuple(SideInfo(side["name"]) for side in document["sides"]),
        hands=tuple(inputs),  # type: ignore[arg-type]
        start_scores=tuple(document["start_scores"]),
    )
    ended = score_match(match).ended_at
    if ended is not None:
        del document["hands"][ended + 1 :]


@st.composite
def valid_documents(
    draw: st.DrawFn, setup: tuple[str, str] | None = None, max_hands: int = 6
) -> dict[str, Any]:
    """A valid match of ``setup`` (variant, layout), or of any of them."""
    variant, layout, options = draw(match_settings(setup))
    rules = make_rules(variant, layout, options)
    count = rules.layout.sides
    per_side = rules.layout.players_per_side
    names = ["Ana", "Beto", "Caro"]
    document: dict[str, Any] = {
        "format": "anotador-match/1",
        "variant": variant,
        "layout": layout,
        "options": options,
        "sides": [
            {"name": names[index], "players": [f"{names[index]} {n}" for n in range(per_side)]}
            for index in range(count)
        ],
        "start_scores": [draw(multiple_of_5(-2000, rules.target - 5)) for _ in range(count)],
        "hands": [draw(hands(rules)) for _ in range(draw(st.integers(0, max_hands)))],
    }
    if draw(st.booleans()):
        document["title"] = draw(free_text(max_size=30))
    if draw(st.booleans()):
        document["played_on"] = draw(st.dates().map(lambda day: day.isoformat()))
    if draw(st.booleans()):
        document["abandoned"] = draw(st.booleans())
    truncate_at_the_end(document, rules)
    return document


def read_valid(document: dict[str, Any]) -> Match:
    match, problems = read_match(document)
    errors = [p for p in problems if p.severity == "error"]
    assert errors == [], errors
    assert {p.code for p in problems} <= SOFT_CHECKS
    assert match is not None
    return match


# --- Properties of valid matches ------------------------------------------------------------


@pytest.mark.parametrize("setup", SETUPS, ids=SETUP_IDS)
@PER_SETUP
@given(data=st.data())
def test_valid_documents_read_and_score(setup: tuple[str, str], data: st.DataObject):
    document = data.draw(valid_documents(setup))
    match = read_valid(document)
    scored = score_match(match)

    assert len(scored.hands) == len(document["hands"])
    for hand in scored.hands:
        assert len(hand.sides) == len(document["sides"])
        for side in hand.sides:
            assert sum(side.breakdown.values()) == side.score
            assert side.score % 5 == 0
            assert all(isinstance(value, int) for value in side.breakdown.values())


@pytest.mark.parametrize("setup", SETUPS, ids=SETUP_IDS)
@PER_SETUP
@given(data=st.data())
def test_totals_are_start_plus_hand_scores(setup: tuple[str, str], data: st.DataObject):
    document = data.draw(valid_documents(setup))
    match = read_valid(document)
    rules = match.rules
    scored = score_match(match)

    running = list(document["start_scores"])
    won = None
    for index, hand in enumerate(scored.hands):
        for side_index, side in enumerate(hand.sides):
            running[side_index] += side.score
            assert side.total == running[side_index]
            assert side.opening_minimum == opening_minimum(rules, side.total)
        finished, _ = game_result(rules, running)
        at_once = rules.variant.wins_at_once
        won = None if at_once is None else at_once(rules, match.hands[index])
        finished = finished or won is not None
        # The game ends with the first hand that meets the end rule, and only then.
        assert finished == (scored.ended_at == index) or (
            scored.ended_at is not None and scored.ended_at < index
        )
    assert list(scored.totals) == running
    assert list(scored.opening_minimum) == [opening_minimum(rules, t) for t in running]
    top = max(running)
    if scored.finished and won is not None:
        assert scored.winner == won
        assert scored.ended_at == len(scored.hands) - 1
    elif scored.finished:
        assert top >= rules.target
        leaders = [index for index, total in enumerate(running) if total == top]
        assert scored.winner == (leaders[0] if len(leaders) == 1 else None)
        assert scored.ended_at == len(scored.hands) - 1
    else:
        assert scored.winner is None
        assert scored.ended_at is None
    ranked = sorted(running, reverse=True)
    assert scored.margin == ranked[0] - ranked[1]


@pytest.mark.parametrize("setup", SETUPS, ids=SETUP_IDS)
@PER_SETUP
@given(data=st.data())
def test_round_trip_through_the_match_file(setup: tuple[str, str], data: st.DataObject):
    document = data.draw(valid_documents(setup))
    match = read_valid(document)

    written = match_to_document(match)
    assert json.loads(json.dumps(written)) == written
    again = read_valid(written)

    assert again == match
    assert match_to_document(again) == written
    assert scored_match_to_json(score_match(again)) == scored_match_to_json(score_match(match))


@pytest.mark.parametrize("variant", list(VARIANTS))
@settings(max_examples=15, deadline=None)
@given(data=st.data())
def test_opening_minimum_never_decreases(variant: str, data: st.DataObject):
    layout = data.draw(st.sampled_from(list(VARIANTS[variant].layouts)))
    _, _, options = data.draw(match_settings((variant, layout)))
    rules = make_rules(variant, layout, options)

    minimums = [opening_minimum(rules, score) for score in range(-2000, 20001, 5)]

    if VARIANTS[variant].opening_brackets is None:
        assert set(minimums) == {None}
        return
    assert all(isinstance(minimum, int) and minimum >= 0 for minimum in minimums)
    assert all(low <= high for low, high in zip(minimums, minimums[1:], strict=False))


# --- Anything else only ever gives problems -------------------------------------------------

JSON_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**12), 10**12),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=12),
)
JSON_VALUES = st.recursive(
    JSON_SCALARS,
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=12,
)
DOCUMENT_KEYS = ["format", "variant", "layout", "options", "sides", "start_scores", "hands"]


def assert_only_problems(document: object) -> None:
    match, problems = read_match(document)
    assert isinstance(problems, list)
    for problem in problems:
        assert isinstance(problem, Problem)
        assert isinstance(problem.path, str)
        assert problem.code in MESSAGES
        assert isinstance(problem.message, str)
    errors = [p for p in problems if p.severity == "error"]
    if match is None:
        assert errors
    else:
        assert errors == []
        score_match(match)


@SETTINGS
@given(JSON_VALUES)
def test_random_json_values_give_problems(value: object):
    assert_only_problems(value)


@SETTINGS
@given(
    st.fixed_dictionaries(
        {},
        optional={
            "format": st.just("anotador-match/1") | JSON_VALUES,
            "variant": st.sampled_from([*VARIANTS, "bridge"]) | JSON_VALUES,
            "layout": st.sampled_from(["2p", "3p", "4p", "6p-3x2", "6p-2x3"]) | JSON_VALUES,
            "options": JSON_VALUES,
            "sides": JSON_VALUES,
            "start_scores": JSON_VALUES,
            "hands": st.lists(JSON_VALUES, max_size=3) | JSON_VALUES,
        },
    )
)
def test_random_documents_give_problems(document: dict[str, Any]):
    assert_only_problems(document)


def locations(value: object, path: tuple = ()) -> list[tuple]:
    """The path of every value inside a JSON document (the root is ``()``)."""
    found = [path]
    if isinstance(value, dict):
        for key, child in value.items():
            found += locations(child, (*path, key))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            found += locations(child, (*path, index))
    return found


def get(document: object, path: tuple) -> Any:
    for key in path:
        document = document[key]  # type: ignore[index]
    return document


OTHER_TYPES = st.sampled_from([None, True, False, 0, -5, 2.5, "", "x", [], {}, [1], {"a": 1}])
NUMBER_CHANGES = st.sampled_from(
    [10**12, -(10**12), 10**100, -1, -5, 1, 3, 7, 20_001, 20_005, 999_999, 1_000_005]
)


@st.composite
def mutated_documents(draw: st.DrawFn) -> dict[str, Any]:
    """A valid document with one thing broken (it may still be valid by chance)."""
    document = copy.deepcopy(draw(valid_documents(max_hands=3)))
    kind = draw(st.sampled_from(["delete", "retype", "unknown_key", "number"]))
    if kind == "number":
        numbers = [
            path for path in locations(document) if type(get(document, path)) is int and path
        ]
        if numbers:
            path = draw(st.sampled_from(numbers))
            base = get(document, path)
            change = draw(NUMBER_CHANGES)
            new = change if abs(change) >= 10**6 or draw(st.booleans()) else base + change
            get(document, path[:-1])[path[-1]] = new
            return document
        kind = "retype"
    if kind == "unknown_key":
        objects = [path for path in locations(document) if isinstance(get(document, path), dict)]
        path = draw(st.sampled_from(objects))
        get(document, path)[draw(st.sampled_from(["extra", "red_threes", "pure", "muerto"]))] = 1
        return document
    inner = [path for path in locations(document) if path]
    path = draw(st.sampled_from(inner))
    parent = get(document, path[:-1])
    if kind == "delete":
        del parent[path[-1]]
    else:
        parent[path[-1]] = draw(OTHER_TYPES)
    return document


@SETTINGS
@given(mutated_documents())
def test_mutated_documents_give_problems(document: dict[str, Any]):
    assert_only_problems(document)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_documents())
def test_cli_on_mutated_documents(document: dict[str, Any]):
    result = CliRunner().invoke(main, ["score", "-"], input=json.dumps(document))

    assert result.exit_code in (0, 2)
    assert "Traceback" not in result.stdout + result.stderr
    assert result.exception is None or isinstance(result.exception, SystemExit)
    if result.exit_code == 0:
        assert result.stderr == ""
        assert "totals" in json.loads(result.stdout)
    else:
        assert result.stdout == ""
        lines = result.stderr.splitlines()
        assert lines
        assert all(": " in line for line in lines)
