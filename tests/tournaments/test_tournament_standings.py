"""Standings (TOURNAMENTS.md §3) and the MP of a table given as a match document (§1.3), by
``anotador tournament standings``."""

from __future__ import annotations

from typing import Any

import pytest
from tournament_cases import played
from tournament_cases import printed
from tournament_cases import problems
from tournament_cases import read
from tournament_cases import tournament

from anotador.rules import read_match
from anotador.tournaments import finished_mp
from anotador.tournaments import tournament_to_document

# --- tie-breaks ----------------------------------------------------------------------------


def order(document: dict[str, Any]) -> list[str]:
    rows = printed("standings", document)["standings"]
    assert [row["rank"] for row in rows] == list(range(1, len(rows) + 1))
    return [row["pair"] for row in rows]


ABCD = ["A", "B", "C", "D"]
BACD = ["B", "A", "C", "D"]


@pytest.mark.parametrize(
    ("ids", "scale", "rounds", "expected"),
    [
        # Three on 2 VP: no head-to-head (A beat B), MP difference: B +900, A +100, C -900.
        (ABCD, "wdl", [[("A", "B", 500, 400), ("C", "D", 300, 200)], [("B", "C", 1000, 0)]], BACD),
        # A and B on 3 met in a draw: equal meetings, so MP difference (B +900, A +100).
        (
            ABCD,
            "wdl",
            [[("A", "B", 500, 500), ("C", "D", 100, 0)], [("A", "D", 100, 0), ("B", "C", 900, 0)]],
            BACD,
        ),
        # A and B on 2 never met: MP difference; so do C and D on 0.
        (ABCD, "wdl", [[("A", "C", 100, 0), ("B", "D", 500, 0)]], ["B", "A", "C", "D"]),
        # Their meetings summed (A 400, B 250) put A first, although B won the last one and
        # has the better difference (B +500, A +150); D 0 before C -500.
        (
            ABCD,
            "points",
            [[("A", "B", 300, 100)], [("B", "A", 150, 100)], [("B", "C", 150, -500)]],
            ["A", "B", "D", "C"],
        ),
        # Equal VP and difference: more MP first (A 500, B 200; C 400, D 100).
        (BACD, "wdl", [[("A", "C", 500, 400), ("B", "D", 200, 100)]], ABCD),
        # Equal in everything: the order of pairs.
        (BACD, "wdl", [[("A", "C", 100, 0), ("B", "D", 100, 0)]], BACD),
        (BACD, "wdl", [], BACD),
    ],
)
def test_tie_breaks(ids: list[str], scale: str, rounds: list[list[Any]], expected: list[str]):
    assert order(tournament(ids, played(*rounds), scale=scale)) == expected


def test_a_withdrawn_pair_keeps_its_results_and_place():
    document = tournament(["A", "B", "C"], played([("A", "B", 900, 100), "C"]))
    document["pairs"][0]["withdrawn"] = True
    rows = printed("standings", document)["standings"]
    assert [(row["pair"], row["vp"]) for row in rows] == [("A", 16), ("C", 12), ("B", 4)]


def test_a_pair_that_joined_late_has_zeros_before():
    document = tournament(["A", "B", "C"], played([("A", "B", 900, 100)]))
    rows = {row["pair"]: row for row in printed("standings", document)["standings"]}
    assert rows["C"] == {
        "pair": "C",
        "rank": 3,
        "vp": 0,
        "mp_for": 0,
        "mp_against": 0,
        "mp_diff": 0,
        "played": 0,
        "byes": 0,
        "withdrawn": False,
    }


# --- MP from a match document ---------------------------------------------------------------

# A burraco hand: NS 785, EW 80 (2,355 to 240 after three: the game ends at 2,005).
BURRACO_HAND = {
    "end": "closed",
    "closer": 0,
    "sides": [
        {"pulito": 1, "sporco": 1, "table_points": 400, "hand_points": 15},
        {"sporco": 1, "table_points": 150, "hand_points": 70, "pozzetto": "not_taken"},
    ],
}
# An uruguaya hand: NS 2,260, EW 755 (the game ends at 5,000, in the third).
URUGUAYA_HAND = {
    "end": "closed",
    "closer": 0,
    "sides": [
        {"clean": 2, "dirty": 1, "table_points": 760, "red_threes": 1},
        {"dirty": 1, "table_points": 340, "hand_points": 85, "red_threes": 2},
    ],
}


def match(variant: str, count: int, **changes: Any) -> dict[str, Any]:
    hand = BURRACO_HAND if variant == "burraco" else URUGUAYA_HAND
    document = {
        "format": "anotador-match/1",
        "variant": variant,
        "sides": [{"name": "North-South"}, {"name": "East-West"}],
        "hands": [hand] * count,
    }
    return {**document, **changes}


def with_match(document: dict[str, Any], **tournament_changes: Any) -> dict[str, Any]:
    entry = {"table": 1, "ns": "p1", "ew": "p2", "match": document}
    return tournament(2, [{"round": 1, "tables": [entry]}], **tournament_changes)


def table_mp(document: dict[str, Any]) -> list[int]:
    return printed("standings", document)["rounds"][0]["tables"][0]["mp"]


@pytest.mark.parametrize(
    ("document", "changes", "mp"),
    [
        (match("burraco", 3), {}, [2355, 240]),
        (match("burraco", 3), {"hands_per_round": 2}, [1570, 160]),
        (match("burraco", 2, abandoned=True), {}, [1570, 160]),
        (match("burraco", 0, abandoned=True, start_scores=[50, 20]), {}, [50, 20]),
        (match("burraco", 3, start_scores=[100, -100]), {}, [2455, 140]),
        (match("burraco", 3), {"hands_per_round": None}, [2355, 240]),
        # The tournament's target ends the game after two hands: fewer hands than the round's.
        (match("burraco", 2), {"options": {"target": 1500}}, [1570, 160]),
        # A document with its own options is read as written.
        (match("burraco", 3, options={}), {"options": {"target": 1500}}, [2355, 240]),
        (match("uruguaya", 3), {"variant": "uruguaya", "hands_per_round": None}, [6780, 2265]),
        (match("uruguaya", 2), {"variant": "uruguaya", "hands_per_round": 2}, [4520, 1510]),
        (
            match("uruguaya", 1, layout="4p"),
            {"variant": "uruguaya", "hands_per_round": 1},
            [2260, 755],
        ),
    ],
)
def test_the_mp_of_a_match_document(
    document: dict[str, Any], changes: dict[str, Any], mp: list[int]
):
    assert table_mp(with_match(document, **changes)) == mp


@pytest.mark.parametrize(
    ("document", "changes", "expected"),
    [
        (match("burraco", 2), {}, ("hands", "match_incomplete")),
        (match("burraco", 2), {"hands_per_round": None}, ("hands", "match_incomplete")),
        (match("uruguaya", 1), {}, ("variant", "match_mismatch")),
        (match("burraco", 1, layout="2p"), {}, ("layout", "match_mismatch")),
        (match("burraco", 3), {"options": {"target": 1500}}, ("hands[2]", "match_refused")),
        (
            match("burraco", 1, hands=[{**BURRACO_HAND, "closer": 5}]),
            {},
            ("hands[0].closer", "match_refused"),
        ),
        (match("burraco", 1, sides=[]), {}, ("sides", "match_refused")),
        (match("burraco", 1, format="x"), {}, ("format", "match_refused")),
    ],
)
def test_a_match_document_s_problems(
    document: dict[str, Any], changes: dict[str, Any], expected: tuple[str, str]
):
    path, code = expected
    assert problems("standings", with_match(document, **changes)) == [
        (f"$.results[0].tables[0].match.{path}", code)
    ]


def test_a_match_that_is_not_an_object_is_refused():
    assert problems("standings", with_match([])) == [
        ("$.results[0].tables[0].match", "match_refused")
    ]


def test_a_tournament_written_back_reads_the_same():
    document = with_match(
        match("burraco", 3, start_scores=[100, 0]), scale={"bands": [[0, 1, 1]], "above": [3, 0]}
    )
    document["results"].append({"round": 2, "tables": [{"bye": "p2"}]})
    document["pairs"][1].update(club="Circolo", withdrawn=True)
    first = read(document)
    written = tournament_to_document(first)
    again = read(written)

    assert again == first
    assert again.results[0].entries[0].match == first.results[0].entries[0].match
    assert written["scale"] == {"bands": [[0, 1, 1]], "above": [3, 0]}
    assert written["bye_vp"] == 1
    assert tournament_to_document(read(tournament(2)))["scale"] == "fibur-3"


def test_a_table_s_mp_while_it_is_played():
    """What a live view asks of a table's match: its MP once finished, None before."""
    game, _ = read_match(match("burraco", 2))
    assert game is not None
    assert finished_mp(game, 3) is None
    assert finished_mp(game, 2) == (1570, 160)
    assert finished_mp(game, None) is None
