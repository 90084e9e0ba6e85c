"""Card values (§2.2, §4.2, §5.2), layout defaults (§2.1, §3, §4.1, §5) and the opening
minimum tables (§2.7, §3, §4.8, §5.5) of VARIANTS.md."""

from __future__ import annotations

from typing import Any

import pytest

from anotador.rules import InvalidInput
from anotador.rules import card_kinds
from anotador.rules import card_points
from anotador.rules import describe_variants
from anotador.rules import make_rules
from anotador.rules import opening_minimum
from anotador.rules import variant_defaults

# --- Card values -------------------------------------------------------------------------------

CLASSIC_VALUES = {
    "joker": 50,
    "two": 20,
    "ace": 20,
    "eight_to_king": 10,
    "four_to_seven": 5,
    "black_three": 5,
}


@pytest.mark.parametrize(
    ("variant", "values"),
    [
        ("uruguaya", CLASSIC_VALUES),
        ("classic", CLASSIC_VALUES),
        ("canastone", CLASSIC_VALUES),  # mattone 50, pinella 20, A 20, 8-K 10, 4-7 5, stop 5
        ("real", {"ace": 15, "two": 10, "three_to_seven": 5, "eight_to_king": 10, "joker": 20}),
    ],
)
def test_card_kinds(variant: str, values: dict[str, int]):
    assert card_kinds(variant) == values


@pytest.mark.parametrize(
    ("variant", "counts", "points"),
    [
        ("uruguaya", {"joker": 2, "ace": 3, "eight_to_king": 4}, 200),
        ("uruguaya", {"two": 1, "four_to_seven": 3, "black_three": 1}, 40),
        ("classic", {"black_three": 4}, 20),
        ("canastone", {"joker": 6, "two": 1}, 320),  # the six-jokers canasta's cards
        ("canastone", {"two": 7}, 140),  # pinelle
        ("real", {"ace": 1}, 15),
        ("real", {"ace": 2, "two": 1, "three_to_seven": 3, "eight_to_king": 2}, 75),
        ("real", {"three_to_seven": 7}, 35),
        ("uruguaya", {}, 0),
        ("real", {"ace": 0, "two": 0}, 0),
    ],
)
def test_card_points(variant: str, counts: dict[str, int], points: int):
    assert card_points(variant, counts) == points


@pytest.mark.parametrize(
    ("variant", "counts", "expected"),
    [
        ("uruguaya", {"queen": 1}, [("queen", "unknown_card_kind")]),
        ("uruguaya", {"red_three": 1}, [("red_three", "unknown_card_kind")]),
        ("real", {"black_three": 1}, [("black_three", "unknown_card_kind")]),
        ("real", {"four_to_seven": 1}, [("four_to_seven", "unknown_card_kind")]),
        ("uruguaya", {"ace": -1}, [("ace", "below_minimum")]),
        ("real", {"ace": 1.0}, [("ace", "wrong_type")]),
        ("real", {"ace": True}, [("ace", "wrong_type")]),
        ("uruguaya", {"joker": "2"}, [("joker", "wrong_type")]),
        (
            "uruguaya",
            {"joker": -2, "ace": 3, "queen": 1},
            [("joker", "below_minimum"), ("queen", "unknown_card_kind")],
        ),
    ],
)
def test_card_points_rejects_bad_counts(
    variant: str, counts: dict[str, Any], expected: list[tuple[str, str]]
):
    with pytest.raises(InvalidInput) as raised:
        card_points(variant, counts)
    assert [(p.path, p.code) for p in raised.value.problems] == expected
    assert all(p.severity == "error" for p in raised.value.problems)


# --- Defaults per layout -------------------------------------------------------------------------

URUGUAYA_LAYOUTS = {  # §2.1 (and §3: classic uses the same defaults)
    "2p": (5000, 2, 2),
    "3p": (7500, 2, 1),
    "4p": (5000, 2, 1),
    "6p-3x2": (7500, 3, 2),
    "6p-2x3": (10000, 3, 2),
}


@pytest.mark.parametrize("variant", ["uruguaya", "classic"])
@pytest.mark.parametrize(("layout", "defaults"), URUGUAYA_LAYOUTS.items())
def test_uruguaya_and_classic_layout_defaults(variant: str, layout: str, defaults: tuple):
    target, decks, to_close = defaults
    settings = variant_defaults(variant, layout)
    assert (settings["target"], settings["decks"], settings["canastas_to_close"]) == defaults
    rules = make_rules(variant, layout)
    assert (rules.target, rules.decks, rules.canastas_to_close) == (target, decks, to_close)


@pytest.mark.parametrize("layout", ["2p", "3p", "4p", "6p-3x2", "6p-2x3"])
def test_canastone_layout_defaults(layout: str):
    settings = variant_defaults("canastone", layout)
    assert (settings["target"], settings["decks"]) == (12000, 3)
    assert "canastas_to_close" not in settings


@pytest.mark.parametrize("layout", ["2p", "4p"])
def test_real_layout_defaults(layout: str):
    settings = variant_defaults("real", layout)
    assert (settings["target"], settings["decks"]) == (3000, 2)
    assert "canastas_to_close" not in settings


def test_real_layouts():
    assert set(next(v for v in describe_variants() if v["name"] == "real")["layouts"]) == {
        "2p",
        "4p",
    }
    with pytest.raises(InvalidInput):
        variant_defaults("real", "3p")


@pytest.mark.parametrize(
    ("variant", "options"),
    [
        (
            "uruguaya",
            {
                "red_threes_need_canasta": False,
                "min150_from": 7000,
                "aces_canasta_bonus": False,
                "aces_clean_value": 1000,
                "aces_dirty_value": 500,
                "black_three_in_hand": False,
                "wild_canasta": False,
            },
        ),
        (
            "classic",
            {
                "preset": "pagat",
                "negative_opening": 15,
                "min150_from": None,
                "concealed_later_with_partner_value": 300,
                "red_threes_need_canasta": False,
                "aces_canasta_bonus": False,
                "aces_clean_value": 1000,
                "aces_dirty_value": 500,
                "black_three_in_hand": False,
                "wild_canasta": False,
            },
        ),
        (
            "canastone",
            {
                "negative_opening": 50,
                "five_canasta_bonuses": True,
                "two_pure_to_close": False,
                "wild_canastas_count_as_pure_impure": True,
            },
        ),
        ("real", {"canasta_de_500": False}),
    ],
)
def test_option_defaults(variant: str, options: dict[str, Any]):
    settings = variant_defaults(variant, "4p")
    assert settings["tie"] == "extra_hand"
    common = {"target", "decks", "canastas_to_close", "tie"}
    assert {key: value for key, value in settings.items() if key not in common} == options


def test_describe_variants_lists_the_scored_variants():
    described = {variant["name"]: variant for variant in describe_variants()}
    assert set(described) == {
        "uruguaya",
        "classic",
        "canastone",
        "real",
        "mac",
        "burako",
        "burraco",
    }
    assert {name: v["opening_minimum"] for name, v in described.items()} == {
        "uruguaya": True,
        "classic": True,
        "canastone": True,
        "real": False,
        "mac": True,
        "burako": False,
        "burraco": False,
    }
    assert "red_threes" not in described["real"]["side_fields"]
    assert described["uruguaya"]["layouts"]["6p-2x3"]["target"] == 10000


# --- Opening minimum ------------------------------------------------------------------------------

URUGUAYA_MINIMUMS = [
    (-100_000, 15),
    (-5, 15),
    (0, 50),
    (1495, 50),
    (1500, 90),
    (2995, 90),
    (3000, 120),
    (6995, 120),
    (7000, 150),
    (100_000, 150),
]
URUGUAYA_7500 = [(6995, 120), (7000, 120), (7495, 120), (7500, 150)]
CLASSIC_MINIMUMS = [
    (-5, 15),
    (0, 50),
    (1495, 50),
    (1500, 90),
    (2995, 90),
    (3000, 120),
    (7000, 120),
    (7500, 120),
    (20_000, 120),
]
CANASTONE_MINIMUMS = [
    (-5, 50),
    (0, 50),
    (2995, 50),
    (3000, 90),
    (4995, 90),
    (5000, 120),
    (6995, 120),
    (7000, 160),
    (9995, 160),
    (10000, 180),
    (11995, 180),
    (12000, 180),
    (14995, 180),
    (20_000, 180),
]
CANASTONE_15000 = [(11995, 180), (12000, 200), (14995, 200), (15000, 200), (20_000, 200)]


def minimum_cases(variant: str, layout: str, options: dict[str, Any], table: list) -> list:
    return [
        pytest.param(variant, layout, options, s, m, id=f"{variant}-{options}-{s}")
        for s, m in table
    ]


@pytest.mark.parametrize(
    ("variant", "layout", "options", "score", "minimum"),
    [
        *minimum_cases("uruguaya", "4p", {}, URUGUAYA_MINIMUMS),
        *minimum_cases("uruguaya", "6p-2x3", {}, URUGUAYA_MINIMUMS),
        *minimum_cases("uruguaya", "4p", {"min150_from": 7500}, URUGUAYA_7500),
        *minimum_cases("classic", "4p", {}, CLASSIC_MINIMUMS),
        *minimum_cases("classic", "4p", {"preset": "rulebook-es"}, CLASSIC_MINIMUMS),
        *minimum_cases("classic", "4p", {"negative_opening": 0}, [(-5, 0), (-3000, 0), (0, 50)]),
        *minimum_cases("classic", "4p", {"min150_from": 7000}, [(6995, 120), (7000, 150)]),
        *minimum_cases("classic", "6p-2x3", {"min150_from": 7500}, URUGUAYA_7500),
        *minimum_cases("canastone", "4p", {}, CANASTONE_MINIMUMS),
        *minimum_cases("canastone", "4p", {"target": 15000}, CANASTONE_15000),
        *minimum_cases("canastone", "4p", {"negative_opening": 15}, [(-5, 15), (0, 50)]),
        *minimum_cases("canastone", "6p-3x2", {"negative_opening": 0}, [(-5, 0), (0, 50)]),
        *minimum_cases("real", "4p", {}, [(-5, None), (0, None), (1500, None), (2995, None)]),
        *minimum_cases("real", "2p", {"target": 5000}, [(3000, None), (7000, None)]),
    ],
)
def test_opening_minimum(variant: str, layout: str, options: dict, score: int, minimum):
    assert opening_minimum(make_rules(variant, layout, options), score) == minimum
