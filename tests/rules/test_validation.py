"""Validation of match documents: every rule of VARIANTS.md (V1-V9, U1-U3, C1-C3, R1-R3, the
classic presets) and the shape rules of match-format.md, each with the exact path and code.

Every case lists the complete set of errors the document must produce. Errors make
``read_match`` return no match; warnings (V7, U2, C3, R3) never do.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from anotador.rules import MESSAGES
from anotador.rules import InvalidInput
from anotador.rules import Problem
from anotador.rules import make_rules
from anotador.rules import read_hand
from anotador.rules import read_match
from anotador.rules import score_document
from anotador.rules import validate_match

SIDES_PER_LAYOUT = {"2p": 2, "3p": 3, "4p": 2, "6p-3x2": 3, "6p-2x3": 2}

# A closed hand valid in each variant and layout: side 0 goes out, side 1 has melded.
VALID_SIDES = {
    "uruguaya": [{"clean": 2, "table_points": 400}, {"table_points": 100, "hand_points": 50}],
    "classic": [{"clean": 2, "table_points": 400}, {"table_points": 100, "hand_points": 50}],
    "canastone": [
        {"pure": 1, "impure": 1, "table_points": 400},
        {"table_points": 100, "hand_points": 50},
    ],
    "real": [{"limpia": 1, "table_points": 200}, {"table_points": 100, "hand_points": 50}],
}


def hand(sides: list[dict[str, Any]], end: str = "closed", closer: int | None = 0, **extra: Any):
    return {"end": end, "closer": closer, **extra, "sides": sides}


def match(
    variant: str = "uruguaya",
    layout: str = "4p",
    hands: list[dict[str, Any]] | None = None,
    options: dict[str, Any] | None = None,
    start_scores: list[int] | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """A match document; by default one valid closed hand of ``variant`` in 4p."""
    names = ["Ana", "Beto", "Caro"][: SIDES_PER_LAYOUT[layout]]
    document: dict[str, Any] = {"format": "anotador-match/1", "variant": variant, "layout": layout}
    if options is not None:
        document["options"] = options
    document["sides"] = [{"name": name} for name in names]
    if start_scores is not None:
        document["start_scores"] = start_scores
    document["hands"] = [hand(copy.deepcopy(VALID_SIDES[variant]))] if hands is None else hands
    document.update(extra)
    return document


def sides(*entries: dict[str, Any]) -> list[dict[str, Any]]:
    return list(entries)


def errors_of(problems: list[Problem]) -> set[tuple[str, str]]:
    return {(p.path, p.code) for p in problems if p.severity == "error"}


def warnings_of(problems: list[Problem]) -> set[tuple[str, str]]:
    return {(p.path, p.code) for p in problems if p.severity == "warning"}


def assert_well_formed(problems: list[Problem]) -> None:
    for problem in problems:
        assert isinstance(problem, Problem)
        assert problem.severity in ("error", "warning")
        assert problem.code in MESSAGES
        assert isinstance(problem.message, str)  # the template takes the params it is given


def assert_rejected(document: object, *expected: tuple[str, str]) -> list[Problem]:
    found, problems = read_match(document)
    assert_well_formed(problems)
    assert found is None
    assert errors_of(problems) == set(expected)
    assert validate_match(document) == problems
    assert score_document(document) == (None, problems)
    return problems


def assert_accepted(document: object, *warnings: tuple[str, str]) -> None:
    found, problems = read_match(document)
    assert_well_formed(problems)
    assert errors_of(problems) == set()
    assert found is not None
    assert warnings_of(problems) == set(warnings)
    assert set(found.warnings) == set(problems)


def test_the_base_documents_are_valid():
    for variant in VALID_SIDES:
        assert_accepted(match(variant))


# --- V1: counts are whole numbers >= 0, points are multiples of 5 -------------------------

V1_CASES = [
    ("count below zero", {"dirty": -1}, "dirty", "below_minimum"),
    ("red threes below zero", {"red_threes": -1}, "red_threes", "below_minimum"),
    ("table points below zero", {"table_points": -5}, "table_points", "below_minimum"),
    ("hand points below zero", {"hand_points": -5}, "hand_points", "below_minimum"),
    ("table points not multiple of 5", {"table_points": 102}, "table_points", "not_multiple_of_5"),
    ("hand points not multiple of 5", {"hand_points": 52}, "hand_points", "not_multiple_of_5"),
    ("adjustment not multiple of 5", {"adjustment": -7}, "adjustment", "not_multiple_of_5"),
]


@pytest.mark.parametrize(
    ("change", "field", "code"), [case[1:] for case in V1_CASES], ids=[c[0] for c in V1_CASES]
)
def test_v1_counts_and_points(change: dict[str, Any], field: str, code: str):
    document = match()
    document["hands"][0]["sides"][1].update(change)
    assert_rejected(document, (f"hands[0].sides[1].{field}", code))


# --- V2: closed <=> exactly one closer --------------------------------------------------


@pytest.mark.parametrize(
    ("changes", "expected"),
    [
        ({"closer": None}, ("hands[0].closer", "closer_required")),
        ({"end": "stock_out"}, ("hands[0].closer", "closer_not_allowed")),
        ({"closer": 2}, ("hands[0].closer", "closer_out_of_range")),
        ({"closer": -1}, ("hands[0].closer", "closer_out_of_range")),
        ({"closer": [0, 1]}, ("hands[0].closer", "wrong_type")),
        ({"end": "special_hand"}, ("hands[0].end", "not_in_choices")),
        ({"end": "out"}, ("hands[0].end", "not_in_choices")),
    ],
    ids=[
        "closed-without-closer",
        "stock-out-with-closer",
        "closer-out-of-range",
        "negative-closer",
        "two-closers",
        "mac-end-reason",
        "unknown-end",
    ],
)
def test_v2_closer(changes: dict[str, Any], expected: tuple[str, str]):
    document = match()
    document["hands"][0].update(changes)
    assert_rejected(document, expected)


def test_v2_closed_hand_without_closer_key():
    document = match()
    del document["hands"][0]["closer"]
    assert_rejected(document, ("hands[0].closer", "closer_required"))


def test_v2_end_is_required():
    document = match()
    del document["hands"][0]["end"]
    assert_rejected(document, ("hands[0].end", "required"))


def test_v2_stock_out_without_closer_is_valid():
    document = match(hands=[hand(VALID_SIDES["uruguaya"], end="stock_out", closer=None)])
    assert_accepted(document)


# --- V3: no canastas and no going out without melding; a meld is worth >= 15 -----------


@pytest.mark.parametrize("kind", ["clean", "dirty"])
def test_v3_side_that_never_melded_has_no_canastas(kind: str):
    document = match(hands=[hand(sides({"clean": 1, "table_points": 300}, {kind: 1}))])
    problems = assert_rejected(document, (f"hands[0].sides[1].{kind}", "not_opened_has_canastas"))
    assert ("hands[0].sides[1].table_points", "table_points_low_for_canastas") in warnings_of(
        problems
    )


@pytest.mark.parametrize(
    ("variant", "entry", "kind"),
    [
        ("canastone", {"pinelle": 1}, "pinelle"),
        ("canastone", {"six_jokers": 1}, "six_jokers"),
        ("real", {"de_mil": 1}, "de_mil"),
        ("real", {"sucia": 1}, "sucia"),
    ],
)
def test_v3_never_melded_in_other_variants(variant: str, entry: dict[str, Any], kind: str):
    document = match(variant, hands=[hand(sides(VALID_SIDES[variant][0], entry))])
    assert_rejected(document, (f"hands[0].sides[1].{kind}", "not_opened_has_canastas"))


def test_v3_side_that_never_melded_cannot_close():
    document = match(
        options={"canastas_to_close": 0},
        hands=[hand(sides({"hand_points": 20}, {"table_points": 100}))],
    )
    assert_rejected(document, ("hands[0].closer", "not_opened_cannot_close"))


@pytest.mark.parametrize("points", [5, 10])
def test_v3_a_meld_is_worth_at_least_15(points: int):
    document = match(
        hands=[hand(sides({"clean": 1, "table_points": 300}, {"table_points": points}))]
    )
    assert_rejected(document, ("hands[0].sides[1].table_points", "table_points_below_meld"))


def test_v3_fifteen_table_points_is_a_meld():
    document = match(hands=[hand(sides({"clean": 1, "table_points": 300}, {"table_points": 15}))])
    assert_accepted(document)


# --- V4: the closer holds the required canastas -----------------------------------------


@pytest.mark.parametrize(
    ("layout", "options", "closer_entry", "required", "held"),
    [
        ("4p", None, {"table_points": 100}, 1, 0),
        ("2p", None, {"clean": 1, "table_points": 300}, 2, 1),
        ("6p-3x2", None, {"dirty": 1, "table_points": 300}, 2, 1),
        ("6p-2x3", None, {"clean": 1, "table_points": 300}, 2, 1),
        ("4p", {"canastas_to_close": 3}, {"clean": 2, "table_points": 300}, 3, 2),
    ],
)
def test_v4_closer_needs_canastas(layout, options, closer_entry, required, held):
    others = [{"table_points": 100}] * (SIDES_PER_LAYOUT[layout] - 1)
    document = match(layout=layout, options=options, hands=[hand([closer_entry, *others])])
    problems = assert_rejected(document, ("hands[0].closer", "not_enough_canastas_to_close"))
    (problem,) = [p for p in problems if p.code == "not_enough_canastas_to_close"]
    assert problem.params == {"required": required, "held": held}


def test_v4_classic_uses_the_same_rule():
    document = match(
        "classic", layout="2p", hands=[hand(sides({"clean": 1, "table_points": 300}, {}))]
    )
    assert_rejected(document, ("hands[0].closer", "not_enough_canastas_to_close"))


def test_v4_wild_canasta_counts_for_closing():
    document = match(
        layout="2p",
        options={"wild_canasta": True},
        hands=[hand(sides({"clean": 1, "wild_canastas": 1, "table_points": 500}, {}))],
    )
    assert_accepted(document)


def test_v4_three_players_need_one_canasta_by_default():
    document = match(
        layout="3p",
        hands=[hand(sides({"clean": 1, "table_points": 300}, {}, {"table_points": 40}))],
    )
    assert_accepted(document)


# --- V5: an individual closer holds no cards --------------------------------------------


@pytest.mark.parametrize("layout", ["2p", "3p"])
def test_v5_individual_closer_holds_no_cards(layout: str):
    closer = {"clean": 2, "table_points": 400, "hand_points": 10}
    others = [{"table_points": 100}] * (SIDES_PER_LAYOUT[layout] - 1)
    document = match(layout=layout, hands=[hand([closer, *others])])
    assert_rejected(document, ("hands[0].sides[0].hand_points", "closer_holds_cards"))


@pytest.mark.parametrize("variant", ["canastone", "real"])
def test_v5_in_other_variants(variant: str):
    closer = {**VALID_SIDES[variant][0], "hand_points": 5}
    document = match(variant, layout="2p", hands=[hand(sides(closer, {}))])
    assert_rejected(document, ("hands[0].sides[0].hand_points", "closer_holds_cards"))


def test_v5_black_threes_in_hand_count_as_cards_held():
    document = match(
        layout="2p",
        options={"black_three_in_hand": True},
        hands=[hand(sides({"clean": 2, "table_points": 400, "black_threes_in_hand": 1}, {}))],
    )
    assert_rejected(document, ("hands[0].sides[0].black_threes_in_hand", "closer_holds_cards"))


@pytest.mark.parametrize("layout", ["4p", "6p-3x2", "6p-2x3"])
def test_v5_a_team_closer_may_have_partners_with_cards(layout: str):
    closer = {"clean": 2, "table_points": 400, "hand_points": 10}
    others = [{"table_points": 100}] * (SIDES_PER_LAYOUT[layout] - 1)
    assert_accepted(match(layout=layout, hands=[hand([closer, *others])]))


# --- V6: red threes within 2 x decks ----------------------------------------------------


@pytest.mark.parametrize(
    ("variant", "layout", "counts", "expected"),
    [
        ("uruguaya", "4p", [5, 0], ("hands[0].sides[0].red_threes", "too_many_red_threes")),
        ("uruguaya", "4p", [0, 5], ("hands[0].sides[1].red_threes", "too_many_red_threes")),
        ("uruguaya", "4p", [3, 2], ("hands[0].sides", "too_many_red_threes_total")),
        ("classic", "4p", [2, 3], ("hands[0].sides", "too_many_red_threes_total")),
        ("uruguaya", "6p-3x2", [7, 0, 0], ("hands[0].sides[0].red_threes", "too_many_red_threes")),
        ("uruguaya", "6p-3x2", [3, 2, 2], ("hands[0].sides", "too_many_red_threes_total")),
        ("canastone", "6p-3x2", [3, 2, 2], ("hands[0].sides", "too_many_red_threes_total")),
        ("canastone", "4p", [7, 0], ("hands[0].sides[0].red_threes", "too_many_red_threes")),
    ],
)
def test_v6_red_threes(variant, layout, counts, expected):
    entries = [copy.deepcopy(VALID_SIDES[variant][0])] + [{"table_points": 100} for _ in counts[1:]]
    for entry, count in zip(entries, counts, strict=True):
        entry["red_threes"] = count
    assert_rejected(match(variant, layout, hands=[hand(entries)]), expected)


@pytest.mark.parametrize(
    ("layout", "counts"),
    [("4p", [4, 0]), ("4p", [2, 2]), ("6p-3x2", [6, 0, 0]), ("6p-3x2", [2, 2, 2])],
)
def test_v6_red_threes_at_the_limit(layout: str, counts: list[int]):
    entries = [{"clean": 2, "table_points": 400}] + [{"table_points": 100} for _ in counts[1:]]
    for entry, count in zip(entries, counts, strict=True):
        entry["red_threes"] = count
    assert_accepted(match(layout=layout, hands=[hand(entries)]))


def test_v6_decks_option_sets_the_limit():
    entries = [{"clean": 1, "table_points": 300, "red_threes": 6}, {"table_points": 100}]
    assert_accepted(match(options={"decks": 3}, hands=[hand(entries)]))
    assert_rejected(
        match(hands=[hand(entries)]), ("hands[0].sides[0].red_threes", "too_many_red_threes")
    )


# --- V7 and the variants' soft checks: warnings only ------------------------------------


@pytest.mark.parametrize(
    ("variant", "options", "entry", "minimum"),
    [
        ("uruguaya", None, {"clean": 2, "table_points": 65}, 70),  # V7 / U2: 35 per clean
        ("uruguaya", None, {"clean": 1, "dirty": 1, "table_points": 80}, 85),  # 50 per dirty
        ("classic", None, {"dirty": 2, "table_points": 95}, 100),
        (  # U2 with aces: 140 each
            "uruguaya",
            {"aces_canasta_bonus": True},
            {"clean": 1, "aces_clean": 1, "table_points": 135},
            140,
        ),
        (
            "uruguaya",
            {"wild_canasta": True},
            {"clean": 1, "wild_canastas": 1, "table_points": 170},
            175,
        ),
        (  # C3
            "canastone",
            None,
            {"pure": 1, "impure": 1, "six_jokers": 1, "table_points": 400},
            405,
        ),
        ("canastone", None, {"pure": 1, "impure": 1, "mixed_wild": 1, "table_points": 250}, 255),
        (
            "canastone",
            None,
            {"pure": 1, "impure": 1, "aces_pure": 1, "pinelle": 1, "table_points": 360},
            365,
        ),
        ("real", None, {"limpia": 1, "sucia": 1, "table_points": 85}, 90),  # R3: 45 per run
        ("real", None, {"de_mil": 1, "table_points": 120}, 125),  # A to A: 125
    ],
)
def test_soft_checks_are_warnings(variant, options, entry, minimum):
    document = match(variant, options=options, hands=[hand(sides(entry, {"table_points": 100}))])
    found, problems = read_match(document)
    assert found is not None
    (problem,) = problems
    assert (problem.path, problem.code) == (
        "hands[0].sides[0].table_points",
        "table_points_low_for_canastas",
    )
    assert problem.severity == "warning"
    assert problem.params == {"minimum": minimum}
    scored, again = score_document(document)
    assert scored is not None
    assert again == problems
    assert scored.warnings == (problem,)


@pytest.mark.parametrize(
    ("variant", "entry"),
    [
        ("uruguaya", {"clean": 2, "table_points": 70}),
        ("canastone", {"pure": 1, "impure": 1, "six_jokers": 1, "table_points": 405}),
        ("real", {"limpia": 1, "sucia": 1, "table_points": 90}),
    ],
)
def test_soft_check_limit_itself_is_fine(variant: str, entry: dict[str, Any]):
    assert_accepted(match(variant, hands=[hand(sides(entry, {"table_points": 100}))]))


# --- V8: bounds, start scores, no hand after the end ------------------------------------


@pytest.mark.parametrize(
    ("field", "value", "code"),
    [
        ("table_points", 20_005, "above_maximum"),
        ("hand_points", 20_005, "above_maximum"),
        ("adjustment", 20_005, "above_maximum"),
        ("adjustment", -20_005, "below_minimum"),
    ],
)
def test_v8_point_bounds(field: str, value: int, code: str):
    document = match()
    document["hands"][0]["sides"][1][field] = value
    assert_rejected(document, (f"hands[0].sides[1].{field}", code))


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("table_points", 20_000),
        ("hand_points", 20_000),
        ("adjustment", 20_000),
        ("adjustment", -20_000),
    ],
)
def test_v8_point_bounds_are_inclusive(field: str, value: int):
    document = match(options={"target": 1_000_000})
    document["hands"][0]["sides"][1][field] = value
    assert_accepted(document)


@pytest.mark.parametrize(
    ("variant", "start_scores", "expected"),
    [
        ("uruguaya", [5000, 0], ("start_scores[0]", "start_score_not_below_target")),
        ("uruguaya", [0, 5005], ("start_scores[1]", "start_score_not_below_target")),
        ("canastone", [12000, 0], ("start_scores[0]", "start_score_not_below_target")),
        ("real", [0, 3000], ("start_scores[1]", "start_score_not_below_target")),
        ("uruguaya", [-1_000_005, 0], ("start_scores[0]", "below_minimum")),
        ("uruguaya", [1_000_005, 0], ("start_scores[0]", "above_maximum")),
        ("uruguaya", [12, 0], ("start_scores[0]", "not_multiple_of_5")),
        ("uruguaya", [0], ("start_scores", "wrong_count")),
        ("uruguaya", [0, 0, 0], ("start_scores", "wrong_count")),
        ("uruguaya", [0, "0"], ("start_scores[1]", "wrong_type")),
        ("uruguaya", [0, 10.0], ("start_scores[1]", "wrong_type")),
    ],
)
def test_v8_start_scores(variant: str, start_scores: list[Any], expected: tuple[str, str]):
    assert_rejected(match(variant, start_scores=start_scores), expected)


def test_v8_start_scores_may_be_negative_and_just_below_target():
    assert_accepted(match(start_scores=[-1_000_000, 4995]))


def test_v8_start_score_limit_follows_the_target_option():
    assert_accepted(match(options={"target": 7500}, start_scores=[5000, 0], hands=[]))
    assert_rejected(
        match(options={"target": 7500}, start_scores=[7500, 0], hands=[]),
        ("start_scores[0]", "start_score_not_below_target"),
    )


def _winning_hand() -> dict[str, Any]:
    return hand(sides({"clean": 1, "table_points": 300}, {"table_points": 100}))


def test_v8_no_hand_after_the_game_ended():
    document = match(
        start_scores=[4700, 0], hands=[_winning_hand(), _winning_hand(), _winning_hand()]
    )
    assert_rejected(document, ("hands[1]", "after_game_end"), ("hands[2]", "after_game_end"))


def test_v8_the_hand_that_ends_the_game_is_fine():
    assert_accepted(match(start_scores=[4700, 0], hands=[_winning_hand()]))


def test_v8_a_tie_at_the_top_plays_another_hand():
    tie = hand(sides({"clean": 1, "table_points": 300}, {"table_points": 400}), closer=0)
    # 4200 + 900 = 5100 and 4700 + 400 = 5100: tied above the target.
    document = match(start_scores=[4200, 4700], hands=[tie, _winning_hand()])
    assert_accepted(document)


def test_v8_a_shared_win_ends_the_game():
    tie = hand(sides({"clean": 1, "table_points": 300}, {"table_points": 400}), closer=0)
    document = match(
        options={"tie": "shared"}, start_scores=[4200, 4700], hands=[tie, _winning_hand()]
    )
    assert_rejected(document, ("hands[1]", "after_game_end"))


# --- V9: a field of a house option that is off ------------------------------------------


@pytest.mark.parametrize(
    ("variant", "entry", "field", "option"),
    [
        ("uruguaya", {"clean": 1, "aces_clean": 1}, "aces_clean", "aces_canasta_bonus"),
        ("uruguaya", {"dirty": 1, "aces_dirty": 1}, "aces_dirty", "aces_canasta_bonus"),
        ("uruguaya", {"wild_canastas": 1}, "wild_canastas", "wild_canasta"),
        ("uruguaya", {"black_threes_in_hand": 1}, "black_threes_in_hand", "black_three_in_hand"),
        ("classic", {"clean": 1, "aces_clean": 1}, "aces_clean", "aces_canasta_bonus"),
        ("classic", {"black_threes_in_hand": 2}, "black_threes_in_hand", "black_three_in_hand"),
        ("real", {"de_500": 1}, "de_500", "canasta_de_500"),
    ],
)
def test_v9_field_of_an_option_that_is_off(variant, entry, field, option):
    side = {"table_points": 300, **entry}
    document = match(variant, hands=[hand(sides(VALID_SIDES[variant][0], side))])
    problems = assert_rejected(document, (f"hands[0].sides[1].{field}", "option_off_field"))
    (problem,) = [p for p in problems if p.code == "option_off_field"]
    assert problem.params == {"option": option}


@pytest.mark.parametrize(
    ("variant", "field"),
    [
        ("uruguaya", "aces_clean"),
        ("uruguaya", "aces_dirty"),
        ("uruguaya", "wild_canastas"),
        ("uruguaya", "black_threes_in_hand"),
        ("real", "de_500"),
    ],
)
def test_v9_field_of_an_option_that_is_off_may_be_zero(variant: str, field: str):
    document = match(variant)
    document["hands"][0]["sides"][1][field] = 0
    assert_accepted(document)


def test_v9_pagat_wild_canastas_need_the_house_option():
    entry = {"clean": 1, "wild_canastas": 1, "table_points": 300}
    document = match("classic", hands=[hand(sides(entry, {"table_points": 100}))])
    assert_rejected(document, ("hands[0].sides[0].wild_canastas", "option_off_field"))
    for options in ({"wild_canasta": True}, {"preset": "rulebook-es"}):
        assert_accepted(
            match("classic", options=options, hands=[hand(sides(entry, {"table_points": 100}))])
        )


# --- U1-U3: uruguaya (and classic) ------------------------------------------------------


@pytest.mark.parametrize("variant", ["uruguaya", "classic"])
def test_u1_concealed_needs_a_closer(variant: str):
    entries = sides({"clean": 1, "table_points": 300}, {"table_points": 100})
    document = match(variant, hands=[hand(entries, end="stock_out", closer=None, concealed=True)])
    assert_rejected(document, ("hands[0].concealed", "concealed_needs_close"))


def test_u1_concealed_closer_needs_the_canastas():
    entries = sides({"table_points": 300}, {"table_points": 100})
    document = match(hands=[hand(entries, concealed=True)])
    assert_rejected(document, ("hands[0].closer", "not_enough_canastas_to_close"))


def test_u1_concealed_must_be_a_boolean():
    document = match(hands=[hand(VALID_SIDES["uruguaya"], concealed="yes")])
    assert_rejected(document, ("hands[0].concealed", "wrong_type"))


@pytest.mark.parametrize(
    ("entry", "expected"),
    [
        (
            {"clean": 1, "aces_clean": 2},
            ("hands[0].sides[0].aces_clean", "aces_clean_exceed_clean"),
        ),
        (
            {"clean": 1, "dirty": 0, "aces_dirty": 1},
            ("hands[0].sides[0].aces_dirty", "aces_dirty_exceed_dirty"),
        ),
    ],
)
def test_u3_aces_canastas_within_their_kind(entry: dict[str, Any], expected: tuple[str, str]):
    side = {"table_points": 600, **entry}
    document = match(
        options={"aces_canasta_bonus": True}, hands=[hand(sides(side, {"table_points": 100}))]
    )
    assert_rejected(document, expected)


@pytest.mark.parametrize(
    ("decks", "counts", "valid"),
    [(2, [2, 3], False), (2, [2, 2], True), (3, [3, 3], True), (3, [4, 3], False)],
)
def test_u3_black_threes_in_hand_within_the_decks(decks: int, counts: list[int], valid: bool):
    entries = sides(
        {"clean": 1, "table_points": 300, "black_threes_in_hand": counts[0]},
        {"table_points": 100, "black_threes_in_hand": counts[1]},
    )
    document = match(options={"black_three_in_hand": True, "decks": decks}, hands=[hand(entries)])
    if valid:
        assert_accepted(document)
    else:
        assert_rejected(document, ("hands[0].sides", "too_many_black_threes_total"))


# --- Classic presets ---------------------------------------------------------------------


def classic_hand(preset: str, **extra: Any) -> dict[str, Any]:
    return match(
        "classic",
        options={"preset": preset},
        hands=[hand(copy.deepcopy(VALID_SIDES["classic"]), **extra)],
    )


@pytest.mark.parametrize(
    ("preset", "extra", "expected"),
    [
        ("rulebook-es", {"concealed": True}, ("hands[0].concealed", "not_for_preset")),
        ("pagat", {"concealed_kind": "later_alone"}, ("hands[0].concealed_kind", "not_for_preset")),
        (
            "rulebook-es",
            {"concealed_kind": "de_mano"},
            ("hands[0].concealed_kind", "not_in_choices"),
        ),
        ("rulebook-es", {"concealed_kind": True}, ("hands[0].concealed_kind", "not_in_choices")),
    ],
)
def test_classic_concealed_fields_by_preset(preset: str, extra: dict[str, Any], expected):
    assert_rejected(classic_hand(preset, **extra), expected)


@pytest.mark.parametrize(
    "kind",
    ["first_turn_alone", "first_turn_with_partner", "later_alone", "later_with_partner", None],
)
def test_classic_rulebook_concealed_kinds(kind: str | None):
    found, problems = read_match(classic_hand("rulebook-es", concealed_kind=kind))
    assert found is not None
    assert problems == []


def test_classic_rulebook_concealed_kind_needs_a_closer():
    entries = copy.deepcopy(VALID_SIDES["classic"])
    document = match(
        "classic",
        options={"preset": "rulebook-es"},
        hands=[hand(entries, end="stock_out", closer=None, concealed_kind="later_alone")],
    )
    assert_rejected(document, ("hands[0].concealed_kind", "concealed_needs_close"))


def test_classic_four_black_threes_only_for_the_closer():
    document = classic_hand("rulebook-es")
    document["hands"][0]["sides"][1]["four_black_threes_out"] = True
    assert_rejected(document, ("hands[0].sides[1].four_black_threes_out", "only_for_closer"))


def test_classic_four_black_threes_not_on_stock_out():
    document = classic_hand("rulebook-es")
    document["hands"][0].update(end="stock_out", closer=None)
    document["hands"][0]["sides"][0]["four_black_threes_out"] = True
    assert_rejected(document, ("hands[0].sides[0].four_black_threes_out", "only_for_closer"))


def test_classic_four_black_threes_is_a_rulebook_field():
    document = classic_hand("pagat")
    document["hands"][0]["sides"][0]["four_black_threes_out"] = True
    assert_rejected(document, ("hands[0].sides[0].four_black_threes_out", "not_for_preset"))
    accepted = classic_hand("rulebook-es")
    accepted["hands"][0]["sides"][0]["four_black_threes_out"] = True
    assert_accepted(accepted)


# --- C1-C2: canastone -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "entry"),
    [
        (None, {"pure": 2}),
        (None, {"impure": 2}),
        (None, {"aces_pure": 1}),
        ({"two_pure_to_close": True}, {"pure": 1, "impure": 1}),
        ({"two_pure_to_close": True}, {"pure": 2}),
        ({"wild_canastas_count_as_pure_impure": False}, {"pinelle": 1, "impure": 1}),
        ({"wild_canastas_count_as_pure_impure": False}, {"pure": 1, "six_jokers": 1}),
    ],
)
def test_c1_closer_needs_pure_and_impure(options, entry):
    closer = {"table_points": 800, **entry}
    document = match(
        "canastone", options=options, hands=[hand(sides(closer, {"table_points": 100}))]
    )
    assert_rejected(document, ("hands[0].closer", "closer_needs_pure_and_impure"))


@pytest.mark.parametrize(
    ("options", "entry"),
    [
        (None, {"pure": 1, "impure": 1}),
        (None, {"aces_pure": 1, "aces_impure": 1}),
        (None, {"pinelle": 1, "mixed_wild": 1}),  # wild canastas count as pure / impure
        (None, {"pure": 1, "six_jokers": 1}),
        ({"two_pure_to_close": True}, {"pure": 1, "aces_pure": 1, "impure": 1}),
    ],
)
def test_c1_closer_with_pure_and_impure(options, entry):
    closer = {"table_points": 800, **entry}
    document = match(
        "canastone", options=options, hands=[hand(sides(closer, {"table_points": 100}))]
    )
    assert_accepted(document)


CLOSER_C2 = {"pure": 1, "impure": 1, "table_points": 2000}


@pytest.mark.parametrize(
    ("first", "second", "code"),
    [
        ({"six_jokers": 2}, {}, "too_many_six_jokers"),
        ({"six_jokers": 1}, {"mixed_wild": 1}, "mixed_wild_after_six_jokers"),
        ({"pinelle": 2}, {}, "too_many_pinelle"),
        ({"pinelle": 1}, {"pinelle": 1}, "too_many_pinelle"),
        ({"mixed_wild": 2}, {"mixed_wild": 1}, "too_many_wild_canastas"),
        ({"mixed_wild": 1, "pinelle": 1}, {"mixed_wild": 1}, "too_many_wild_canastas"),
        ({"aces_pure": 1}, {"aces_pure": 1}, "too_many_pure_aces"),
        ({"aces_pure": 1, "aces_impure": 1}, {"aces_impure": 1}, "too_many_aces_canastas"),
        ({}, {"aces_impure": 3}, "too_many_aces_canastas"),
    ],
)
def test_c2_what_three_decks_hold(first, second, code):
    entries = sides({**CLOSER_C2, **first}, {"table_points": 2000, **second})
    assert_rejected(match("canastone", hands=[hand(entries)]), ("hands[0].sides", code))


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ({"six_jokers": 1}, {"pinelle": 1}),
        ({"mixed_wild": 1}, {"mixed_wild": 1}),
        ({"mixed_wild": 1}, {"pinelle": 1}),
        ({"aces_pure": 1}, {"aces_impure": 1}),
        ({}, {"aces_impure": 2}),
    ],
)
def test_c2_limits_themselves_are_fine(first, second):
    entries = sides({**CLOSER_C2, **first}, {"table_points": 2000, **second})
    assert_accepted(match("canastone", hands=[hand(entries)]))


# --- R1-R2: real --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("entry", "expected"),
    [
        ({"limpia": 1, "muerto": "not_taken"}, ("hands[0].sides[0].muerto", "closer_needs_muerto")),
        (
            {"limpia": 1, "muerto": "taken_unused"},
            ("hands[0].sides[0].muerto", "closer_needs_muerto"),
        ),
        ({"sucia": 2}, ("hands[0].closer", "closer_needs_clean_canasta")),
        ({}, ("hands[0].closer", "closer_needs_clean_canasta")),
    ],
)
def test_r1_what_going_out_needs(entry: dict[str, Any], expected: tuple[str, str]):
    closer = {"table_points": 300, **entry}
    assert_rejected(match("real", hands=[hand(sides(closer, {"table_points": 100}))]), expected)


@pytest.mark.parametrize(
    ("options", "entry"),
    [(None, {"de_mil": 1}), (None, {"limpia": 1}), ({"canasta_de_500": True}, {"de_500": 1})],
)
def test_r1_any_clean_canasta_closes(options, entry):
    closer = {"table_points": 300, **entry}
    assert_accepted(
        match("real", options=options, hands=[hand(sides(closer, {"table_points": 100}))])
    )


def test_r2_taken_unused_only_when_the_hand_was_closed():
    entries = sides(
        {"limpia": 1, "table_points": 300}, {"table_points": 100, "muerto": "taken_unused"}
    )
    assert_accepted(match("real", hands=[hand(entries)]))
    document = match("real", hands=[hand(entries, end="stock_out", closer=None)])
    assert_rejected(document, ("hands[0].sides[1].muerto", "taken_unused_not_allowed"))


@pytest.mark.parametrize("value", ["lost", None, 1, True])
def test_r_muerto_is_one_of_three_states(value: object):
    entries = sides({"limpia": 1, "table_points": 300}, {"table_points": 100, "muerto": value})
    assert_rejected(
        match("real", hands=[hand(entries)]), ("hands[0].sides[1].muerto", "not_in_choices")
    )


# --- Unknown keys at every level ----------------------------------------------------------


def test_unknown_key_in_the_document():
    assert_rejected(match(colour="green"), ("colour", "unknown_key"))


def test_unknown_key_in_the_options():
    assert_rejected(match(options={"jokers": 4}), ("options.jokers", "unknown_key"))


def test_unknown_key_in_a_side():
    document = match()
    document["sides"][1]["age"] = 40
    assert_rejected(document, ("sides[1].age", "unknown_key"))


def test_unknown_key_in_a_hand():
    document = match()
    document["hands"][0]["winner"] = 0
    assert_rejected(document, ("hands[0].winner", "unknown_key"))


def test_unknown_key_in_a_side_entry():
    document = match()
    document["hands"][0]["sides"][1]["jokers"] = 2
    assert_rejected(document, ("hands[0].sides[1].jokers", "unknown_key"))


# --- A key of another variant ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("variant", "side", "key", "value"),
    [
        ("real", 0, "red_threes", 1),
        ("real", 1, "clean", 1),
        ("uruguaya", 1, "pure", 1),
        ("uruguaya", 1, "muerto", "taken"),
        ("uruguaya", 0, "four_black_threes_out", True),  # classic rulebook-es only
        ("canastone", 1, "clean", 1),
        ("canastone", 1, "wild_canastas", 0),
        ("classic", 1, "limpia", 1),
        ("classic", 1, "natural", 1),  # mac
    ],
)
def test_side_key_of_another_variant(variant: str, side: int, key: str, value: object):
    document = match(variant)
    document["hands"][0]["sides"][side][key] = value
    assert_rejected(document, (f"hands[0].sides[{side}].{key}", "unknown_key"))


@pytest.mark.parametrize(
    ("variant", "key", "value"),
    [
        ("canastone", "concealed", False),
        ("real", "concealed", True),
        ("uruguaya", "concealed_kind", "later_alone"),
    ],
)
def test_hand_key_of_another_variant(variant: str, key: str, value: object):
    document = match(variant)
    document["hands"][0][key] = value
    assert_rejected(document, (f"hands[0].{key}", "unknown_key"))


@pytest.mark.parametrize(
    ("variant", "key", "value"),
    [
        ("real", "canastas_to_close", 1),
        ("canastone", "canastas_to_close", 1),
        ("real", "red_threes_need_canasta", True),
        ("uruguaya", "preset", "pagat"),
        ("uruguaya", "negative_opening", 0),
        ("canastone", "min150_from", 7000),
        ("classic", "two_pure_to_close", True),
        ("uruguaya", "canasta_de_500", True),
        ("classic", "three_in_hand_cost", "cla"),  # mac
    ],
)
def test_option_of_another_variant(variant: str, key: str, value: object):
    assert_rejected(match(variant, options={key: value}), (f"options.{key}", "unknown_key"))


# --- Wrong types ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("clean", True),
        ("red_threes", False),
        ("table_points", 100.0),
        ("hand_points", "50"),
        ("adjustment", None),
        ("dirty", [1]),
        ("red_threes", {"n": 1}),
    ],
)
def test_side_entry_wrong_types(field: str, value: object):
    document = match()
    document["hands"][0]["sides"][1][field] = value
    assert_rejected(document, (f"hands[0].sides[1].{field}", "wrong_type"))


def test_closer_bool_is_not_an_index():
    document = match()
    document["hands"][0]["closer"] = False
    assert_rejected(document, ("hands[0].closer", "wrong_type"))


@pytest.mark.parametrize(
    ("variant", "option", "value", "code"),
    [
        ("uruguaya", "target", "5000", "wrong_type"),
        ("uruguaya", "target", 5000.0, "wrong_type"),
        ("uruguaya", "target", True, "wrong_type"),
        ("uruguaya", "canastas_to_close", 1.5, "wrong_type"),
        ("uruguaya", "canastas_to_close", -1, "below_minimum"),
        ("uruguaya", "decks", True, "not_in_choices"),
        ("uruguaya", "decks", 2.0, "not_in_choices"),
        ("uruguaya", "decks", 4, "not_in_choices"),
        ("uruguaya", "red_threes_need_canasta", 1, "wrong_type"),
        ("uruguaya", "red_threes_need_canasta", "true", "wrong_type"),
        ("uruguaya", "min150_from", 8000, "not_in_choices"),
        ("uruguaya", "min150_from", "7500", "not_in_choices"),
        ("uruguaya", "aces_clean_value", 1002, "not_multiple_of_5"),
        ("uruguaya", "tie", "coin", "not_in_choices"),
        ("classic", "preset", "hoyle", "not_in_choices"),
        ("classic", "negative_opening", 50, "not_in_choices"),
        ("classic", "negative_opening", False, "not_in_choices"),
        ("canastone", "negative_opening", 90, "not_in_choices"),
        ("canastone", "five_canasta_bonuses", None, "wrong_type"),
        ("real", "canasta_de_500", "no", "wrong_type"),
    ],
)
def test_option_wrong_values(variant: str, option: str, value: object, code: str):
    assert_rejected(match(variant, options={option: value}, hands=[]), (f"options.{option}", code))


@pytest.mark.parametrize(
    ("key", "value", "expected"),
    [
        ("options", [], ("options", "wrong_type")),
        ("sides", {"name": "A"}, ("sides", "wrong_type")),
        ("sides", [{"name": "A"}], ("sides", "wrong_count")),
        ("hands", {}, ("hands", "wrong_type")),
        ("hands", None, ("hands", "required")),
        ("start_scores", 0, ("start_scores", "wrong_type")),
        ("title", 5, ("title", "wrong_type")),
        ("notes", ["x"], ("notes", "wrong_type")),
        ("played_on", "2024-13-01", ("played_on", "invalid_date")),
        ("played_on", "20240101", ("played_on", "invalid_date")),
        ("abandoned", "no", ("abandoned", "wrong_type")),
        ("abandoned", 0, ("abandoned", "wrong_type")),
        ("format", "anotador-match/2", ("format", "not_in_choices")),
        ("layout", 4, ("layout", "wrong_type")),
        ("variant", "bridge", ("variant", "not_in_choices")),
        ("variant", 1, ("variant", "not_in_choices")),
    ],
)
def test_document_wrong_types(key: str, value: object, expected: tuple[str, str]):
    document = match()
    document[key] = value
    assert_rejected(document, expected)


@pytest.mark.parametrize(
    ("key", "code"),
    [("format", "required"), ("variant", "required"), ("sides", "required"), ("hands", "required")],
)
def test_document_required_keys(key: str, code: str):
    document = match()
    del document[key]
    assert_rejected(document, (key, code))


@pytest.mark.parametrize("value", [None, [], "match", 5, True])
def test_document_must_be_an_object(value: object):
    assert_rejected(value, ("$", "wrong_type"))


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        ({"hands": ["closed"]}, ("hands[0]", "wrong_type")),
        ({"hands": [{"end": "closed", "closer": 0}]}, ("hands[0].sides", "required")),
        (
            {"hands": [{"end": "closed", "closer": 0, "sides": [{}]}]},
            ("hands[0].sides", "wrong_count"),
        ),
        (
            {"hands": [{"end": "closed", "closer": 0, "sides": [[], {}]}]},
            ("hands[0].sides[0]", "wrong_type"),
        ),
        (
            {"hands": [{"end": "closed", "closer": 0, "sides": "none"}]},
            ("hands[0].sides", "wrong_type"),
        ),
        ({"sides": [{"name": "A"}, {"players": ["x"]}]}, ("sides[1].name", "required")),
        ({"sides": [{"name": "A"}, {"name": "  "}]}, ("sides[1].name", "empty_text")),
        ({"sides": [{"name": "A"}, "B"]}, ("sides[1]", "wrong_type")),
        (
            {"sides": [{"name": "A", "players": ["x", "y", "z"]}, {"name": "B"}]},
            ("sides[0].players", "above_maximum"),
        ),
        (
            {"sides": [{"name": "A", "players": "x"}, {"name": "B"}]},
            ("sides[0].players", "wrong_type"),
        ),
    ],
)
def test_nested_shapes(change: dict[str, Any], expected: tuple[str, str]):
    document = match()
    document.update(change)
    assert_rejected(document, expected)


# --- Settings not available ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("variant", "layout"),
    [
        ("real", "3p"),
        ("real", "6p-3x2"),
        ("real", "6p-2x3"),
        ("uruguaya", "5p"),
        ("canastone", "8p"),
    ],
)
def test_layout_not_available(variant: str, layout: str):
    document = match(variant, hands=[])
    document["layout"] = layout
    assert_rejected(document, ("layout", "layout_not_available"))


def test_real_is_always_two_decks():
    problems = assert_rejected(
        match("real", options={"decks": 3}), ("options.decks", "fixed_decks")
    )
    assert problems[0].params == {"decks": 2}
    assert_accepted(match("real", options={"decks": 2}))


def test_an_unknown_variant_lists_the_seven():
    document = match()
    document["variant"] = "bridge"
    problems = assert_rejected(document, ("variant", "not_in_choices"))
    assert problems[0].params == {
        "choices": "uruguaya, classic, canastone, real, mac, burako, burraco"
    }


def test_make_rules_raises_invalid_input():
    with pytest.raises(InvalidInput) as raised:
        make_rules("real", "4p", {"decks": 3})
    assert [(p.path, p.code) for p in raised.value.problems] == [("options.decks", "fixed_decks")]
    with pytest.raises(InvalidInput) as raised:
        make_rules("real", "3p")
    assert [(p.path, p.code) for p in raised.value.problems] == [("layout", "layout_not_available")]


# --- read_hand on its own -------------------------------------------------------------------------


def test_read_hand_paths_are_relative_to_the_hand():
    rules = make_rules("uruguaya", "4p")
    raw = hand(sides({"clean": 1, "table_points": 300}, {"table_points": 100, "red_threes": 5}))

    found, problems = read_hand(rules, raw)

    assert found is None
    assert errors_of(problems) == {("sides[1].red_threes", "too_many_red_threes")}
    found, problems = read_hand(rules, raw, "hands[7]")
    assert errors_of(problems) == {("hands[7].sides[1].red_threes", "too_many_red_threes")}


def test_read_hand_fills_in_defaults():
    rules = make_rules("real", "4p")
    found, problems = read_hand(rules, hand(sides({"limpia": 1, "table_points": 300}, {})))
    assert problems == []
    assert found is not None
    assert found.sides[1]["muerto"] == "taken"
    assert found.sides[1]["table_points"] == 0
    assert found.sides[1]["adjustment"] == 0


def test_errors_and_warnings_together():
    """A warning does not hide an error and an error does not drop the warnings."""
    entries = sides({"clean": 2, "table_points": 20}, {"table_points": 100, "red_threes": 5})
    found, problems = read_match(match(hands=[hand(entries)]))
    assert found is None
    assert errors_of(problems) == {("hands[0].sides[1].red_threes", "too_many_red_threes")}
    assert warnings_of(problems) == {
        ("hands[0].sides[0].table_points", "table_points_low_for_canastas")
    }


def test_problems_in_several_hands_are_all_reported():
    bad = hand(sides({"clean": 1, "table_points": 300}, {"table_points": 7}))
    document = match(hands=[bad, _winning_hand(), bad])
    assert_rejected(
        document,
        ("hands[0].sides[1].table_points", "not_multiple_of_5"),
        ("hands[2].sides[1].table_points", "not_multiple_of_5"),
    )


def test_an_unknown_key_does_not_hide_the_rules():
    document = match()
    document["hands"][0]["sides"][1].update(jokers=2, red_threes=5)
    assert_rejected(
        document,
        ("hands[0].sides[1].jokers", "unknown_key"),
        ("hands[0].sides[1].red_threes", "too_many_red_threes"),
    )


@pytest.mark.parametrize("text", ["Nos\x00otros", "tab\x07bell"])
def test_control_characters_in_texts_are_refused(text: str):
    document = match("uruguaya")
    document["sides"][0]["name"] = text
    document["notes"] = "line one\nline two\twith a tab"  # ordinary white space is fine
    assert_rejected(document, ("sides[0].name", "control_characters"))
