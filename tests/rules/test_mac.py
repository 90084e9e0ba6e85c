"""Modern American Canasta (VARIANTS.md §6): one case per rule and option, through the API
and the command line (the worked examples E13 and E14 are in test_examples.py)."""

from __future__ import annotations

from typing import Any

import pytest
from variant_cases import document
from variant_cases import hand
from variant_cases import hand_scores
from variant_cases import rejected
from variant_cases import scored
from variant_cases import warned

from anotador.rules import make_rules
from anotador.rules import opening_minimum

TWO = {"natural": 2, "table_points": 300}  # a closer that may go out (two canastas)
QUIET = {"table_points": 60}  # melded, no canasta


def mac(*hands: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    return document("mac", *hands, **kwargs)


@pytest.mark.parametrize(
    ("kind", "bonus"),
    [
        ("natural", 500),
        ("mixed", 300),
        ("aces", 2500),
        ("sevens", 2500),
        ("wild_twos", 3000),
        ("wild_four_jokers", 2500),
        ("wild_other", 2000),
    ],
)
def test_each_kind_of_canasta(kind: str, bonus: int):
    side = {"natural": 1, "table_points": 500}
    side[kind] = side.get(kind, 0) + 1
    expected = 500 + bonus + 500 + 100  # one natural canasta, this one, the table, going out
    assert hand_scores(mac(hand(side, QUIET)))[0] == expected


@pytest.mark.parametrize(
    ("canastas", "threes", "points"),
    [
        (0, 1, -100),
        (0, 2, -300),
        (0, 3, -500),
        (0, 4, -1000),
        (1, 4, 0),
        (2, 1, 100),
        (2, 2, 300),
        (2, 3, 500),
        (3, 4, 1000),
    ],
)
@pytest.mark.parametrize("colour", ["red_threes", "black_threes"])
def test_threes_of_each_colour_by_canastas(colour: str, canastas: int, threes: int, points: int):
    side = {"mixed": canastas, colour: threes, "table_points": 200}
    score = scored(mac(hand(TWO, side)))
    parts = score.hands[0].sides[1].breakdown
    assert parts[colour] == points


def test_both_colours_count_apart():
    side = {"natural": 2, "red_threes": 2, "black_threes": 3, "table_points": 300}
    parts = scored(mac(hand(side, QUIET))).hands[0].sides[0].breakdown
    assert (parts["red_threes"], parts["black_threes"]) == (300, 500)


@pytest.mark.parametrize(("canastas", "sign"), [(0, -1), (1, 1), (2, 1)])
def test_melded_cards_count_minus_without_a_canasta(canastas: int, sign: int):
    side = {"mixed": canastas, "table_points": 180, "hand_points": 40}
    parts = scored(mac(hand(TWO, side))).hands[0].sides[1].breakdown
    assert parts["table"] == sign * 180
    assert parts["hand"] == -40


def test_going_out_is_100_and_needs_two_canastas():
    assert scored(mac(hand(TWO, QUIET))).hands[0].sides[0].breakdown["closing"] == 100
    rejected(mac(hand({"natural": 1, "table_points": 100}, QUIET)), "hands[0].closer",
             "not_enough_canastas_to_close")  # fmt: skip
    assert (
        scored(mac(hand(TWO, QUIET, end="stock_out"))).hands[0].sides[0].breakdown["closing"] == 0
    )


@pytest.mark.parametrize(
    ("flags", "options", "penalty"),
    [
        ({"unfinished_aces": True}, {}, -2500),
        ({"unfinished_sevens": True}, {}, -2500),
        ({"unfinished_wild": True}, {}, -2000),
        ({"unfinished_wild": True, "all_four_jokers": True}, {}, -2000),
        ({"unfinished_wild": True, "all_four_jokers": True}, {"four_joker_wild_penalty": 2500},
         -2500),
        ({"unfinished_wild": True}, {"four_joker_wild_penalty": 2500}, -2000),
        ({"unfinished_aces": True, "unfinished_sevens": True, "unfinished_wild": True}, {},
         -7000),
    ],
)  # fmt: skip
def test_unfinished_melds(flags: dict[str, bool], options: dict[str, Any], penalty: int):
    side = {"table_points": 200, **flags}
    parts = scored(mac(hand(TWO, side), options=options)).hands[0].sides[1].breakdown
    assert parts["unfinished_melds"] == penalty


@pytest.mark.parametrize(
    ("aces", "sevens", "penalty"), [(1, 0, -1500), (0, 1, -1500), (2, 0, -3000), (2, 2, -6000)]
)
def test_players_left_with_three_aces_or_sevens(aces: int, sevens: int, penalty: int):
    side = {"table_points": 60, "players_with_3_aces": aces, "players_with_3_sevens": sevens}
    parts = scored(mac(hand(TWO, side))).hands[0].sides[1].breakdown
    assert parts["aces_sevens_held"] == penalty


def test_at_most_both_players_hold_three_aces():
    doc = mac(hand(TWO, {"players_with_3_aces": 3}))
    rejected(doc, "hands[0].sides[1].players_with_3_aces", "above_maximum")


@pytest.mark.parametrize(("options", "cost"), [({}, -200), ({"three_in_hand_cost": 5}, -10)])
def test_threes_left_in_hand(options: dict[str, Any], cost: int):
    side = {"table_points": 60, "hand_points": 30, "threes_in_hand": 2}
    parts = scored(mac(hand(TWO, side), options=options)).hands[0].sides[1].breakdown
    assert parts["threes_in_hand"] == cost
    assert parts["hand"] == -30  # the threes are not in the hand's points


@pytest.mark.parametrize("options", [{}, {"three_in_hand_cost": 5}])
def test_the_stock_last_card_three_costs_five(options: dict[str, Any]):
    side = {"table_points": 60, "last_card_three": True}
    doc = mac(hand(TWO, side, end="stock_out"), options=options)
    assert scored(doc).hands[0].sides[1].breakdown["threes_in_hand"] == -5


def test_the_last_card_three_only_at_a_stock_out_and_on_one_side():
    three = {"table_points": 60, "last_card_three": True}
    rejected(mac(hand(TWO, three)), "hands[0].sides[1].last_card_three",
             "last_card_three_needs_stock_out")  # fmt: skip
    doc = mac(hand({**TWO, "last_card_three": True}, three, end="stock_out"))
    rejected(doc, "hands[0].sides", "last_card_three_one_side")


def test_all_four_jokers_only_with_an_unfinished_wild_meld():
    doc = mac(hand(TWO, {"table_points": 60, "all_four_jokers": True}))
    rejected(doc, "hands[0].sides[1].all_four_jokers", "all_four_jokers_needs_unfinished_wild")


@pytest.mark.parametrize(
    ("special", "options", "value"),
    [
        ("pairs", {}, 2500),
        ("wild_pairs", {}, 2000),
        ("miami_pairs", {}, 2500),
        ("zip_code", {}, 2500),
        ("straight", {}, 3000),
        ("garbage", {}, 3000),
        ("garbage", {"garbage_value": 2000}, 2000),
        ("blast_off", {}, 3000),
        ("triples", {}, 3500),
        ("quads", {}, 3500),
    ],
)
def test_special_hands_replace_the_side_score(special: str, options: dict[str, Any], value: int):
    other = {"natural": 2, "table_points": 300, "hand_points": 45, "red_threes": 1}
    doc = mac(
        hand({"special_hand": special, "adjustment": -20}, other, end="special_hand"),
        options=options,
    )
    score = scored(doc)
    first, second = score.hands[0].sides
    assert first.breakdown == {"special_hand": value, "adjustment": -20}
    # The other side scores normally, without going out.
    assert second.score == 1000 + 300 + 100 - 45
    assert not score.finished


@pytest.mark.parametrize("dream", ["dream_hand_plus_4", "dream_hand_plus_5"])
def test_a_dream_hand_wins_the_game_at_once(dream: str):
    doc = mac(hand({"special_hand": dream}, TWO, end="special_hand"), start=[-4000, 8000])
    score = scored(doc)
    assert score.hands[0].sides[0].score == 8500
    assert score.totals == (4500, 9300)  # B is higher, past the target, and still loses
    assert (score.finished, score.winner, score.ended_at) == (True, 0, 0)
    later = mac(
        hand({"special_hand": dream}, TWO, end="special_hand"), hand(TWO, QUIET), start=[0, 0]
    )
    rejected(later, "hands[1]", "after_game_end")


@pytest.mark.parametrize(
    ("sides", "end", "closer", "path", "code"),
    [
        ([{"special_hand": "pairs"}, QUIET], "closed", 0, "hands[0].sides[0].special_hand",
         "special_hand_needs_end"),
        ([{"special_hand": "pairs"}, QUIET], "stock_out", None, "hands[0].sides[0].special_hand",
         "special_hand_needs_end"),
        ([QUIET, QUIET], "special_hand", None, "hands[0].end", "special_hand_missing"),
        ([{"special_hand": "pairs"}, {"special_hand": "quads"}], "special_hand", None,
         "hands[0].sides", "special_hand_one_side"),
        ([{"special_hand": "pairs", "table_points": 50}, QUIET], "special_hand", None,
         "hands[0].sides[0].table_points", "special_hand_replaces_inputs"),
        ([{"special_hand": "pairs", "red_threes": 1}, QUIET], "special_hand", None,
         "hands[0].sides[0].red_threes", "special_hand_replaces_inputs"),
        ([{"special_hand": "pairs", "threes_in_hand": 1}, QUIET], "special_hand", None,
         "hands[0].sides[0].threes_in_hand", "special_hand_replaces_inputs"),
        ([{"special_hand": "pairs"}, QUIET], "special_hand", 0, "hands[0].closer",
         "closer_not_for_end"),
        ([{"special_hand": "royal"}, QUIET], "special_hand", None,
         "hands[0].sides[0].special_hand", "not_in_choices"),
    ],
)  # fmt: skip
def test_m4_special_hand_rules(
    sides: list[dict[str, Any]], end: str, closer: int | None, path: str, code: str
):
    doc = mac({"end": end, "closer": closer, "sides": sides})
    rejected(doc, path, code)


@pytest.mark.parametrize(
    ("sides", "path", "code"),
    [
        ([{**TWO, "red_threes": 5}, QUIET], "hands[0].sides[0].red_threes", "too_many_red_threes"),
        ([{**TWO, "red_threes": 3}, {**QUIET, "red_threes": 2}], "hands[0].sides",
         "too_many_red_threes_total"),
        ([{**TWO, "black_threes": 5}, QUIET], "hands[0].sides[0].black_threes",
         "too_many_black_threes"),
        ([{**TWO, "black_threes": 2}, {**QUIET, "black_threes": 3}], "hands[0].sides",
         "too_many_black_threes_laid"),
        ([{**TWO, "unfinished_aces": True}, QUIET], "hands[0].sides[0].unfinished_aces",
         "closer_has_unfinished_meld"),
        ([{**TWO, "unfinished_wild": True}, QUIET], "hands[0].sides[0].unfinished_wild",
         "closer_has_unfinished_meld"),
        ([{**TWO, "aces": 1}, {"aces": 1, "table_points": 200}], "hands[0].sides",
         "too_many_natural_aces"),
        ([{**TWO, "sevens": 1}, {"sevens": 1, "table_points": 200}], "hands[0].sides",
         "too_many_natural_sevens"),
        ([{**TWO, "wild_twos": 1}, {"wild_other": 1, "table_points": 200}], "hands[0].sides",
         "too_many_wild_card_canastas"),
        ([TWO, {"aces": 1, "unfinished_aces": True, "table_points": 200}],
         "hands[0].sides[1].unfinished_aces", "unfinished_and_completed"),
        ([TWO, {"wild_other": 1, "unfinished_wild": True, "table_points": 300}],
         "hands[0].sides[1].unfinished_wild", "unfinished_and_completed"),
        ([TWO, {"natural": 1}], "hands[0].sides[1].natural", "not_opened_has_canastas"),
        ([TWO, {"clean": 1, "table_points": 100}], "hands[0].sides[1].clean", "unknown_key"),
    ],
)  # fmt: skip
def test_validation(sides: list[dict[str, Any]], path: str, code: str):
    rejected(mac(hand(*sides)), path, code)


def test_m5_soft_check_on_table_points():
    side = {"aces": 1, "sevens": 1, "natural": 1, "table_points": 200}
    warned(mac(hand(side, QUIET)), "hands[0].sides[0].table_points",
           "table_points_low_for_canastas")  # fmt: skip
    assert hand_scores(mac(hand(side, QUIET)))[0] == 2500 + 2500 + 500 + 200 + 100


@pytest.mark.parametrize(
    ("changes", "path", "code"),
    [
        ({"layout": "2p"}, "layout", "layout_not_available"),
        ({"options": {"decks": 3}}, "options.decks", "fixed_decks"),
        ({"options": {"canastas_to_close": 1}}, "options.canastas_to_close", "unknown_key"),
        ({"options": {"three_in_hand_cost": 50}}, "options.three_in_hand_cost", "not_in_choices"),
        ({"options": {"garbage_value": 2500}}, "options.garbage_value", "not_in_choices"),
        ({"options": {"four_joker_wild_penalty": 3000}}, "options.four_joker_wild_penalty",
         "not_in_choices"),
    ],
)  # fmt: skip
def test_settings(changes: dict[str, Any], path: str, code: str):
    rejected({**mac(), **changes}, path, code)


@pytest.mark.parametrize(
    ("total", "minimum"),
    [(-500, 125), (0, 125), (2995, 125), (3000, 155), (4995, 155), (5000, 180), (9000, 180)],
)
def test_opening_minimum(total: int, minimum: int):
    assert opening_minimum(make_rules("mac"), total) == minimum


def test_the_game_is_played_to_8500():
    assert make_rules("mac").target == 8500
    # Going out with two natural canastas and 300 on the table: +1400.
    assert scored(mac(hand(TWO, QUIET), start=[7095, 0])).finished is False
    assert scored(mac(hand(TWO, QUIET), start=[7100, 0])).winner == 0
