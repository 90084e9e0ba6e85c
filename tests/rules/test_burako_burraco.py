"""Burako (VARIANTS.md §10) and Burraco (§11): one case per rule and option, through the API
and the command line."""

from __future__ import annotations

from typing import Any

import pytest
from variant_cases import document
from variant_cases import hand
from variant_cases import hand_scores
from variant_cases import rejected
from variant_cases import scored
from variant_cases import warned

from anotador.rules import FAMILIES
from anotador.rules import card_points
from anotador.rules import make_rules
from anotador.rules import opening_minimum

# --- burako ---------------------------------------------------------------------------------


def burako(*hands: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    return document("burako", *hands, **kwargs)


def test_burako_hand_formula():
    closer = {"pura": 2, "impura": 1, "table_points": 430, "hand_points": 25}
    other = {"impura": 1, "table_points": 210, "hand_points": 60, "muerto": "not_taken"}
    # 400 + 100 + 430 + close 100 + muerto 100 - 25; 100 + 210 - 100 - 60.
    assert hand_scores(burako(hand(closer, other))) == [1105, 150]


@pytest.mark.parametrize(
    ("options", "taken", "not_taken"), [({}, 100, -100), ({"muerto_bonus": 0}, 0, -100)]
)
def test_burako_muerto(options: dict[str, Any], taken: int, not_taken: int):
    closer = {"pura": 1, "table_points": 100}
    other = {"impura": 1, "table_points": 100, "muerto": "not_taken"}
    sides = scored(burako(hand(closer, other), options=options)).hands[0].sides
    assert (sides[0].breakdown["muerto"], sides[1].breakdown["muerto"]) == (taken, not_taken)


@pytest.mark.parametrize(
    ("options", "end", "table"),
    [
        ({}, "closed", -120),
        ({}, "stock_out", -120),
        ({"no_canasta_table_negative": False}, "closed", 120),
    ],
)
def test_burako_side_without_a_canasta(options: dict[str, Any], end: str, table: int):
    closer = {"pura": 1, "table_points": 100}
    other = {"table_points": 120, "hand_points": 35}
    parts = scored(burako(hand(closer, other, end=end), options=options)).hands[0].sides[1]
    assert parts.breakdown["table"] == table
    assert parts.breakdown["hand"] == -35
    assert parts.breakdown["muerto"] == 100


def test_burako_stock_out_pays_nobody_for_closing():
    sides = scored(
        burako(hand({"pura": 1, "table_points": 100}, {"table_points": 50}, end="stock_out"))
    ).hands[0]
    assert [side.breakdown["closing"] for side in sides.sides] == [0, 0]


@pytest.mark.parametrize(
    ("doc", "path", "code"),
    [
        (burako(hand({"table_points": 100}, {})), "hands[0].closer", "closer_needs_canasta"),
        (burako(hand({"pura": 1, "table_points": 100, "muerto": "not_taken"}, {})),
         "hands[0].sides[0].muerto", "closer_needs_muerto"),
        (burako(hand({"pura": 1, "table_points": 100}, {"muerto": "taken_unused"})),
         "hands[0].sides[1].muerto", "not_in_choices"),
        (burako(hand({"pura": 1, "table_points": 100}, {"red_threes": 1})),
         "hands[0].sides[1].red_threes", "unknown_key"),
        (burako(hand({"pura": 1, "table_points": 100}, {"limpia": 1})),
         "hands[0].sides[1].limpia", "unknown_key"),
        (burako(hand({"pura": 1, "table_points": 100, "hand_points": 10}, {}), layout="2p"),
         "hands[0].sides[0].hand_points", "closer_holds_cards"),
        (burako(hand({"pura": 1, "table_points": 10}, {})), "hands[0].sides[0].table_points",
         "table_points_below_meld"),
        (burako(hand({"pura": 1, "table_points": 100}, {"impura": 1})),
         "hands[0].sides[1].impura", "not_opened_has_canastas"),
        (burako(hand({"pura": 1, "table_points": 100}, {}), layout="3p"), "layout",
         "layout_not_available"),
        (burako(options={"muerto_bonus": 50}), "options.muerto_bonus", "not_in_choices"),
        (burako(options={"decks": 3}), "options.decks", "fixed_decks"),
    ],
)  # fmt: skip
def test_burako_validation(doc: dict[str, Any], path: str, code: str):
    rejected(doc, path, code)


def test_burako_team_closer_keeps_the_partner_cards():
    closer = {"impura": 1, "table_points": 100, "hand_points": 40}
    assert hand_scores(burako(hand(closer, {})))[0] == 100 + 100 + 100 + 100 - 40


def test_burako_k3_soft_check():
    side = {"pura": 1, "impura": 1, "table_points": 80}
    warned(burako(hand(side, {})), "hands[0].sides[0].table_points",
           "table_points_low_for_canastas")  # fmt: skip


def test_burako_target_and_end():
    rules = make_rules("burako")
    assert rules.target == 3000
    assert opening_minimum(rules, 2500) is None
    closer = {"pura": 1, "table_points": 100}
    both = burako(hand(closer, {"pura": 2, "table_points": 300}), start=[2900, 2800])
    score = scored(both)
    assert score.totals == (3400, 3600)
    assert (score.finished, score.winner) == (True, 1)
    assert scored(burako(hand(closer, {}), options={"target": 2000}, start=[1600, 0])).finished


def test_burako_tiles():
    assert card_points("burako", {"tile_one": 2, "tile_two": 1, "comodin": 1}) == 100
    assert card_points("burako", {"tile_three_to_seven": 3, "tile_eight_to_thirteen": 2}) == 35


# --- burraco --------------------------------------------------------------------------------


def burraco(*hands: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    return document("burraco", *hands, **kwargs)


def test_burraco_hand_formula():
    closer = {"pulito": 1, "semipulito": 1, "sporco": 1, "table_points": 400, "hand_points": 15}
    other = {"sporco": 1, "table_points": 150, "hand_points": 70, "pozzetto": "not_taken"}
    # 200 + 150 + 100 + 400 + 100 - 15; 100 + 150 - 100 - 70.
    assert hand_scores(burraco(hand(closer, other))) == [935, 80]


def test_burraco_melded_cards_always_count_plus():
    parts = scored(burraco(hand({"sporco": 1, "table_points": 100}, {"table_points": 90})))
    assert parts.hands[0].sides[1].breakdown["table"] == 90


@pytest.mark.parametrize("end", ["closed", "stock_out"])
def test_burraco_pozzetto_not_taken_costs_100(end: str):
    doc = burraco(
        hand({"sporco": 1, "table_points": 100}, {"pozzetto": "not_taken"}, end=end),
    )
    sides = scored(doc).hands[0].sides
    assert [side.breakdown["pozzetto"] for side in sides] == [0, -100]
    assert sides[0].breakdown["closing"] == (100 if end == "closed" else 0)


def test_burraco_semipulito_option():
    off = burraco(
        hand({"pulito": 1, "semipulito": 1, "table_points": 200}, {}),
        options={"semipulito": False},
    )
    rejected(off, "hands[0].sides[0].semipulito", "option_off_field")
    on = burraco(hand({"semipulito": 1, "table_points": 100}, {}))
    assert scored(on).hands[0].sides[0].breakdown["canastas"] == 150


@pytest.mark.parametrize(("options", "ok"), [({}, True), ({"pulito_to_close": True}, False)])
def test_burraco_pulito_to_close(options: dict[str, Any], ok: bool):
    doc = burraco(hand({"sporco": 1, "table_points": 100}, {}), options=options)
    if ok:
        assert hand_scores(doc)[0] == 300
    else:
        rejected(doc, "hands[0].closer", "closer_needs_pulito")
    with_pulito = burraco(hand({"pulito": 1, "table_points": 100}, {}), options=options)
    assert hand_scores(with_pulito)[0] == 400


@pytest.mark.parametrize(
    ("doc", "path", "code"),
    [
        (burraco(hand({"table_points": 100}, {})), "hands[0].closer", "closer_needs_burraco"),
        (burraco(hand({"pulito": 1, "table_points": 100, "pozzetto": "not_taken"}, {})),
         "hands[0].sides[0].pozzetto", "closer_needs_pozzetto"),
        (burraco(hand({"pulito": 1, "table_points": 100}, {"muerto": "taken"})),
         "hands[0].sides[1].muerto", "unknown_key"),
        (burraco(hand({"pulito": 1, "table_points": 100, "hand_points": 5}, {}), layout="2p"),
         "hands[0].sides[0].hand_points", "closer_holds_cards"),
        (burraco(hand({"pulito": 1, "table_points": 100}, {"sporco": 1})),
         "hands[0].sides[1].sporco", "not_opened_has_canastas"),
        (burraco(hand({"pulito": 1, "table_points": 100}, {}), layout="6p-3x2"), "layout",
         "layout_not_available"),
        (burraco(options={"semipulito": "yes"}), "options.semipulito", "wrong_type"),
    ],
)  # fmt: skip
def test_burraco_validation(doc: dict[str, Any], path: str, code: str):
    rejected(doc, path, code)


def test_burraco_i3_soft_check():
    side = {"pulito": 1, "semipulito": 1, "sporco": 1, "table_points": 135}
    warned(burraco(hand(side, {})), "hands[0].sides[0].table_points",
           "table_points_low_for_canastas")  # fmt: skip
    ok = {"pulito": 1, "semipulito": 1, "sporco": 1, "table_points": 140}
    assert scored(burraco(hand(ok, {}))).warnings == ()


def test_burraco_target_2005():
    rules = make_rules("burraco", "2p")
    assert rules.target == 2005
    assert opening_minimum(rules, 0) is None
    closer = {"pulito": 1, "table_points": 100}  # +400
    assert not scored(burraco(hand(closer, {}), start=[1600, 0])).finished
    assert scored(burraco(hand(closer, {}), start=[1605, 0])).winner == 0


def test_burraco_cards():
    assert card_points("burraco", {"jolly": 1, "pinella": 1, "ace": 1}) == 65
    assert card_points("burraco", {"eight_to_king": 2, "three_to_seven": 3}) == 35


def test_the_two_cousins_are_one_family_and_every_other_variant_is_canasta():
    """VARIANTS.md: five canasta variants and two close cousins (§10–§11), grouped so a filter
    can take a whole game (the ratings' Ranking)."""
    assert FAMILIES == {
        "canasta": ("uruguaya", "classic", "canastone", "real", "mac"),
        "burraco": ("burako", "burraco"),
    }
