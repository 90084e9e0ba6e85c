"""Each term of the hand formulas of VARIANTS.md (§2.10, §3, §4.11, §5.6) and the end of the
game (§1.4), one table row per rule, with the expected figures worked out by hand."""

from __future__ import annotations

from typing import Any

import pytest

from anotador.rules import make_rules
from anotador.rules import read_hand
from anotador.rules import read_match
from anotador.rules import score_hand
from anotador.rules import score_match


def scores(
    variant: str,
    entries: list[dict[str, Any]],
    closer: int | None = 0,
    layout: str = "4p",
    options: dict[str, Any] | None = None,
    **extra: Any,
) -> list[int]:
    """Each side's score for one hand (which must be valid)."""
    rules = make_rules(variant, layout, options)
    end = "closed" if closer is not None else "stock_out"
    hand, problems = read_hand(rules, {"end": end, "closer": closer, **extra, "sides": entries})
    assert [p for p in problems if p.severity == "error"] == []
    assert hand is not None
    breakdowns = score_hand(rules, hand)
    for breakdown in breakdowns:
        assert all(value % 5 == 0 for value in breakdown.values())
    return [sum(breakdown.values()) for breakdown in breakdowns]


CLOSER = {"clean": 2, "table_points": 400}  # 1000 + 400 + 100 for going out = 1500

# --- uruguaya (and classic under pagat) ----------------------------------------------------


@pytest.mark.parametrize("variant", ["uruguaya", "classic"])
@pytest.mark.parametrize(
    ("decks", "count", "value"),
    [
        (2, 1, 100),
        (2, 2, 200),
        (2, 3, 300),
        (2, 4, 800),
        (3, 1, 100),
        (3, 2, 200),
        (3, 3, 300),
        (3, 4, 400),
        (3, 5, 1000),
        (3, 6, 1200),
    ],
)
def test_red_threes_by_count(variant: str, decks: int, count: int, value: int):
    options = {"decks": decks}
    opened = {"table_points": 100, "red_threes": count}
    assert scores(variant, [CLOSER, opened], options=options) == [1500, 100 + value]
    never_melded = {"hand_points": 30, "red_threes": count}
    assert scores(variant, [CLOSER, never_melded], options=options) == [1500, -value - 30]


@pytest.mark.parametrize(
    ("entry", "options", "expected"),
    [
        ({"table_points": 100, "red_threes": 2}, {}, 300),  # melded: plus
        ({"table_points": 100, "red_threes": 2}, {"red_threes_need_canasta": True}, -100),
        (
            {"dirty": 1, "table_points": 100, "red_threes": 2},
            {"red_threes_need_canasta": True},
            600,
        ),
        (
            {"wild_canastas": 1, "table_points": 140, "red_threes": 1},
            {"red_threes_need_canasta": True, "wild_canasta": True},
            2000 + 140 + 100,  # a wild canasta counts as a completed canasta (§2.9)
        ),
        ({"red_threes": 1}, {"red_threes_need_canasta": True}, -100),
    ],
)
def test_red_threes_need_canasta(entry: dict[str, Any], options: dict[str, Any], expected: int):
    assert scores("uruguaya", [CLOSER, entry], options=options)[1] == expected


@pytest.mark.parametrize(
    ("variant", "options", "extra", "closing"),
    [
        ("uruguaya", {}, {}, 100),
        ("uruguaya", {}, {"concealed": False}, 100),
        ("uruguaya", {}, {"concealed": True}, 200),  # 200 in total, not 100 + 200
        ("classic", {}, {"concealed": True}, 200),
        ("classic", {"preset": "rulebook-es"}, {"concealed_kind": None}, 100),
        ("classic", {"preset": "rulebook-es"}, {"concealed_kind": "first_turn_alone"}, 1100),
        ("classic", {"preset": "rulebook-es"}, {"concealed_kind": "first_turn_with_partner"}, 600),
        ("classic", {"preset": "rulebook-es"}, {"concealed_kind": "later_alone"}, 600),
        ("classic", {"preset": "rulebook-es"}, {"concealed_kind": "later_with_partner"}, 400),
        (
            "classic",
            {"preset": "rulebook-es", "concealed_later_with_partner_value": 250},
            {"concealed_kind": "later_with_partner"},
            350,
        ),
    ],
)
def test_closing_bonus(variant: str, options: dict, extra: dict, closing: int):
    entries = [{"clean": 1, "table_points": 200, "hand_points": 40}, {"table_points": 50}]
    closer_score, other = scores(variant, entries, options=options, **extra)
    assert closer_score == 500 + 200 + closing - 40
    assert other == 50


def test_nobody_closes_when_the_stock_runs_out():
    entries = [{"clean": 1, "table_points": 200}, {"dirty": 1, "table_points": 150}]
    assert scores("uruguaya", entries, closer=None) == [700, 450]


@pytest.mark.parametrize(
    ("entry", "options", "expected"),
    [
        ({"clean": 2, "dirty": 1}, {}, 1300),
        ({"clean": 2, "aces_clean": 1}, {"aces_canasta_bonus": True}, 1000 + 500),
        ({"dirty": 2, "aces_dirty": 1}, {"aces_canasta_bonus": True}, 500 + 300),
        (
            {"clean": 1, "dirty": 1, "aces_clean": 1, "aces_dirty": 1},
            {"aces_canasta_bonus": True, "aces_clean_value": 1500, "aces_dirty_value": 750},
            1500 + 750,
        ),
        ({"clean": 1, "wild_canastas": 2}, {"wild_canasta": True}, 500 + 4000),
    ],
)
def test_canasta_bonuses(entry: dict[str, Any], options: dict[str, Any], expected: int):
    side = {"table_points": 1000, **entry}
    assert scores("uruguaya", [CLOSER, side], options=options)[1] == expected + 1000


def test_black_threes_in_hand_cost_100_each():
    options = {"black_three_in_hand": True}
    side = {"table_points": 100, "hand_points": 35, "black_threes_in_hand": 2}
    assert scores("uruguaya", [CLOSER, side], options=options)[1] == 100 - 35 - 200


@pytest.mark.parametrize("adjustment", [-500, -5, 5, 20_000])
def test_adjustment_is_added(adjustment: int):
    side = {"table_points": 100, "adjustment": adjustment}
    assert scores("uruguaya", [CLOSER, side])[1] == 100 + adjustment


# --- classic, rulebook-es premiums ------------------------------------------------------------


@pytest.mark.parametrize(
    ("entry", "options", "premium"),
    [
        ({"clean": 2, "dirty": 2}, {}, 0),
        ({"clean": 3, "dirty": 2}, {}, 500),  # canastrón
        ({"clean": 3, "dirty": 3}, {}, 500),
        ({"clean": 4, "dirty": 3}, {}, 2500),  # canasta de canastas stacks with the canastrón
        ({"clean": 5, "dirty": 3}, {}, 2500),
        ({"clean": 4, "wild_canastas": 1}, {}, 500 + 2000),  # the wild canasta counts too
        ({"clean": 3, "dirty": 2}, {"preset": "pagat"}, 0),
        ({"clean": 4, "dirty": 3}, {"preset": "pagat"}, 0),
    ],
)
def test_rulebook_many_canastas(entry: dict[str, Any], options: dict[str, Any], premium: int):
    options = {"preset": "rulebook-es", **options}
    side = {"table_points": 2000, **entry}
    canastas = 500 * side.get("clean", 0) + 300 * side.get("dirty", 0)
    expected = canastas + 2000 + premium
    assert scores("classic", [CLOSER, side], options=options)[1] == expected


def test_rulebook_four_black_threes_net_500():
    options = {"preset": "rulebook-es"}
    closer = {"clean": 1, "table_points": 200, "four_black_threes_out": True}
    assert scores("classic", [closer, {"table_points": 50}], options=options) == [
        500 + 200 + 480 + 100,
        50,
    ]


def test_rulebook_three_decks_red_threes():
    options = {"preset": "rulebook-es"}
    entries = [CLOSER, {"table_points": 100, "red_threes": 5}, {"red_threes": 1}]
    assert scores("classic", entries, layout="6p-3x2", options=options) == [
        1500,
        1100,
        -100,
    ]


# --- canastone --------------------------------------------------------------------------------

CANASTONE_CLOSER = {"pure": 1, "impure": 1, "table_points": 300}  # 800 + 300 + 300 = 1400


@pytest.mark.parametrize(
    ("entry", "red"),
    [
        ({"pure": 1, "impure": 1}, 200),  # pure and impure: plus
        ({"pure": 2}, 0),  # pure only: nothing
        ({"aces_pure": 1}, 0),
        ({"impure": 2}, -200),  # impure only: minus
        ({"aces_impure": 1}, -200),
        ({}, -400),  # no canasta: minus twice
    ],
)
def test_canastone_red_three_sign(entry: dict[str, Any], red: int):
    side = {"table_points": 1000, "red_threes": 2, **entry}
    bonuses = {"pure": 500, "impure": 300, "aces_pure": 1000, "aces_impure": 500}
    canastas = sum(bonuses[kind] * count for kind, count in entry.items())
    assert scores("canastone", [CANASTONE_CLOSER, side])[1] == canastas + 1000 + red


def test_canastone_red_threes_of_a_side_that_never_melded():
    side = {"red_threes": 1, "hand_points": 30}
    assert scores("canastone", [CANASTONE_CLOSER, side])[1] == -200 - 60


@pytest.mark.parametrize(
    ("count", "value"), [(1, 100), (2, 200), (3, 300), (4, 800), (5, 1000), (6, 1200)]
)
def test_canastone_red_three_values(count: int, value: int):
    side = {"pure": 1, "impure": 1, "table_points": 100, "red_threes": count}
    assert scores("canastone", [CANASTONE_CLOSER, side])[1] == 800 + 100 + value


@pytest.mark.parametrize(
    ("kind", "bonus"),
    [
        ("pure", 500),
        ("impure", 300),
        ("aces_pure", 1000),
        ("aces_impure", 500),
        ("mixed_wild", 2000),
        ("pinelle", 3000),
        ("six_jokers", 5000),
    ],
)
def test_canastone_canasta_bonuses(kind: str, bonus: int):
    side = {"table_points": 500, kind: 1}
    assert scores("canastone", [CANASTONE_CLOSER, side])[1] == bonus + 500


@pytest.mark.parametrize(
    ("entry", "options", "bonus"),
    [
        ({"pure": 1, "impure": 4}, {}, 1000),
        ({"pure": 4, "impure": 1}, {}, 1000),
        ({"pure": 5, "impure": 1}, {}, 2000),  # only the higher bonus
        ({"pure": 3, "aces_pure": 1, "pinelle": 1, "impure": 1}, {}, 2000),
        ({"pure": 5}, {}, 0),  # no impure canasta
        ({"impure": 5}, {}, 0),  # no pure canasta
        ({"pure": 2, "impure": 2}, {}, 0),  # four canastas
        ({"pure": 5, "impure": 1}, {"five_canasta_bonuses": False}, 0),
        (
            {"pure": 4, "pinelle": 1, "impure": 1},
            {"wild_canastas_count_as_pure_impure": False},
            1000,  # the pinelle canasta no longer counts as pure
        ),
    ],
)
def test_canastone_five_canastas(entry: dict[str, Any], options: dict[str, Any], bonus: int):
    side = {"table_points": 3000, **entry}
    values = {"pure": 500, "impure": 300, "aces_pure": 1000, "pinelle": 3000}
    canastas = sum(values[kind] * count for kind, count in entry.items())
    assert scores("canastone", [CANASTONE_CLOSER, side], options=options)[1] == (
        canastas + 3000 + bonus
    )


@pytest.mark.parametrize(
    ("entry", "closer", "expected"),
    [
        ({"table_points": 100, "hand_points": 60}, 0, 40),  # melded: hand once
        ({"hand_points": 60}, 0, -120),  # never melded: hand doubled
        ({"hand_points": 60}, None, -120),  # also when the stock runs out
    ],
)
def test_canastone_hand_points(entry: dict[str, Any], closer: int | None, expected: int):
    first = CANASTONE_CLOSER
    assert scores("canastone", [first, entry], closer=closer)[1] == expected


def test_canastone_closing_is_300():
    assert scores("canastone", [CANASTONE_CLOSER, {"table_points": 50}]) == [1400, 50]
    assert scores("canastone", [CANASTONE_CLOSER, {"table_points": 50}], closer=None) == [1100, 50]


# --- real ---------------------------------------------------------------------------------------

REAL_CLOSER = {"limpia": 1, "table_points": 300}  # 200 + 300 + 100 = 600


@pytest.mark.parametrize(
    ("entry", "options", "expected"),
    [
        ({"limpia": 2}, {}, 400),
        ({"sucia": 3}, {}, 300),
        ({"de_mil": 1}, {}, 1000),
        ({"de_500": 1}, {"canasta_de_500": True}, 500),
        ({"limpia": 1, "muerto": "not_taken"}, {}, 100),
        ({"limpia": 1, "muerto": "taken_unused"}, {}, 100),
        ({"limpia": 1, "muerto": "taken"}, {}, 200),
    ],
)
def test_real_side_scores(entry: dict[str, Any], options: dict[str, Any], expected: int):
    side = {"table_points": 500, "hand_points": 45, **entry}
    assert scores("real", [REAL_CLOSER, side], options=options)[1] == expected + 500 - 45


def test_real_closing_and_stock_out():
    assert scores("real", [REAL_CLOSER, {"table_points": 50}]) == [600, 50]
    entries = [REAL_CLOSER, {"table_points": 50, "muerto": "not_taken"}]
    assert scores("real", entries, closer=None) == [500, -50]


def test_real_de_500_closes():
    closer = {"de_500": 1, "table_points": 300}
    assert scores("real", [closer, {}], options={"canasta_de_500": True}) == [900, 0]


# --- End of the game (§1.4) -------------------------------------------------------------------


def one_hand_match(variant: str, layout: str, start: list[int], entries, options=None) -> dict:
    document = {
        "format": "anotador-match/1",
        "variant": variant,
        "layout": layout,
        "options": options or {},
        "sides": [{"name": name} for name in "ABC"[: len(start)]],
        "start_scores": start,
        "hands": [{"end": "closed", "closer": 0, "sides": entries}],
    }
    return document


def result(document: dict) -> tuple[list[int], bool, int | None]:
    match, problems = read_match(document)
    assert match is not None, problems
    scored = score_match(match)
    return list(scored.totals), scored.finished, scored.winner


def test_three_sides_cross_and_the_highest_wins():
    entries = [
        {"clean": 2, "table_points": 100},  # 1000 + 100 + 100 = 1200
        {"clean": 1, "table_points": 2000},  # 2500
        {"dirty": 1, "table_points": 1000},  # 1300
    ]
    document = one_hand_match("uruguaya", "6p-3x2", [6400, 5100, 6300], entries)
    assert result(document) == ([7600, 7600, 7600], False, None)  # three-way tie: play on
    document["start_scores"] = [6400, 5105, 6300]
    assert result(document) == ([7600, 7605, 7600], True, 1)


@pytest.mark.parametrize(
    ("variant", "start", "entries", "totals"),
    [
        ("uruguaya", [3500, 0], [CLOSER, {}], [5000, 0]),
        ("canastone", [10600, 0], [CANASTONE_CLOSER, {}], [12000, 0]),
        ("real", [2400, 0], [REAL_CLOSER, {}], [3000, 0]),
    ],
)
def test_reaching_the_target_exactly_ends_the_game(variant, start, entries, totals):
    assert result(one_hand_match(variant, "4p", start, entries)) == (totals, True, 0)
    start = [start[0] - 5, 0]
    totals = [totals[0] - 5, 0]
    assert result(one_hand_match(variant, "4p", start, entries)) == (totals, False, None)


@pytest.mark.parametrize(("tie", "finished"), [("extra_hand", False), ("shared", True)])
def test_tie_at_the_top(tie: str, finished: bool):
    entries = [CLOSER, {"table_points": 300}]  # 1500 and 300
    document = one_hand_match("uruguaya", "4p", [3700, 4900], entries, {"tie": tie})
    assert result(document) == ([5200, 5200], finished, None)


def test_an_extra_hand_breaks_the_tie():
    tied = {"end": "closed", "closer": 0, "sides": [CLOSER, {"table_points": 300}]}
    breaker = {"end": "stock_out", "sides": [{"table_points": 20}, {"table_points": 15}]}
    document = one_hand_match("uruguaya", "4p", [3700, 4900], [CLOSER, {"table_points": 300}])
    document["hands"] = [tied, breaker]
    assert result(document) == ([5220, 5215], True, 0)
