"""Every problem of an invalid tournament file (TOURNAMENTS.md §5.1): its code and JSON path,
printed by both commands with exit status 1, never a traceback."""

from __future__ import annotations

import json
from typing import Any

import pytest
from tournament_cases import played
from tournament_cases import problems
from tournament_cases import run
from tournament_cases import tournament

from anotador.tournaments import MESSAGES
from anotador.tournaments import TournamentProblems
from anotador.tournaments import check_tournament
from anotador.tournaments import parse_tournament

RESULTS = played([("p1", "p2", 900, 400), ("p3", "p4", 100, 100)])


def table(**entry: Any) -> dict[str, Any]:
    """A tournament whose first round is one table (the rest of the pairs absent)."""
    return tournament(results=[{"round": 1, "tables": [entry]}])


def without(key: str) -> dict[str, Any]:
    document = tournament()
    del document[key]
    return document


SET_UP = [
    (b"{", [("$", "not_json")]),
    (b'{"name": "\xff"}', [("$", "not_json")]),
    ("[1, 2]", [("$", "type")]),
    (tournament(rounds="3"), [("$.rounds", "type")]),
    (tournament(rounds=0), [("$.rounds", "value")]),
    (tournament(rounds=101), [("$.rounds", "value")]),
    (tournament(rounds=True), [("$.rounds", "type")]),
    (without("rounds"), [("$.rounds", "missing")]),
    (without("hands_per_round"), [("$.hands_per_round", "missing")]),
    (without("results"), [("$.results", "missing")]),
    (tournament(hands_per_round=0), [("$.hands_per_round", "value")]),
    (tournament(hands_per_round=2.0), [("$.hands_per_round", "type")]),
    (tournament(extra=1), [("$.extra", "unknown_key")]),
    (tournament(name=" "), [("$.name", "value")]),
    (tournament(name=7), [("$.name", "type")]),
    (tournament(played_on="2026-02-30"), [("$.played_on", "value")]),
    (tournament(played_on="20260203"), [("$.played_on", "value")]),
    (tournament(format="anotador-tournament/2"), [("$.format", "format")]),
    (tournament(variant="bridge"), [("$.variant", "variant")]),
    (tournament(layout="2p"), [("$.layout", "layout")]),
    (tournament(options={"target": "x"}), [("$.options.target", "options")]),
    (tournament(options=[]), [("$.options", "options")]),
    (tournament(scale="fibur-2"), [("$.scale", "scale")]),
    (tournament(scale={"bands": [[0, 2, 1]], "above": [3, 0]}), [("$.scale.bands[0]", "scale")]),
    (tournament(scale={"bands": [[-1, 1, 1]], "above": [3, 0]}), [("$.scale.bands[0]", "scale")]),
    (tournament(scale={"bands": [[0, 1, 1]], "above": [0, 3]}), [("$.scale.above", "scale")]),
    (tournament(scale={"bands": [[0, 1, 1, 1]], "above": [3, 0]}), [("$.scale.bands[0]", "scale")]),
    (tournament(scale={"bands": [], "above": [3, 0]}), [("$.scale.bands", "scale")]),
    (tournament(scale={"above": [3, 0]}), [("$.scale.bands", "scale")]),
    (
        tournament(scale={"bands": [[0, 1, 1]], "above": [3, 0], "x": 1}),
        [("$.scale.x", "unknown_key")],
    ),
    (
        tournament(scale={"bands": [[10, 5, 5], [10, 6, 4]], "above": [7, 3]}),
        [("$.scale.bands[1]", "scale_not_increasing")],
    ),
    (
        tournament(scale={"bands": [[10, 5, 5], [20, 4, 4]], "above": [7, 3]}),
        [("$.scale.bands[1]", "scale_not_increasing")],
    ),
    (
        tournament(scale={"bands": [[10, 5, 5], [20, 7, 3]], "above": [6, 4]}),
        [("$.scale.above", "scale_not_increasing")],
    ),
    (tournament(system="suizo"), [("$.system", "system")]),
    (tournament(bye_vp=1_000_001), [("$.bye_vp", "value")]),
    (tournament(pairs=["p1"]), [("$.pairs", "too_few_pairs")]),
    (tournament(pairs=[]), [("$.pairs", "too_few_pairs")]),
    (tournament(pairs=["p1", "p2", "p1"]), [("$.pairs[2].id", "duplicate_pair")]),
    (tournament(pairs=["p1", "P1"]), []),
    (tournament(pairs=["p1", ""]), [("$.pairs[1].id", "value")]),
    (tournament(pairs=["p1", " p1", " "]), []),
    (tournament(pairs={"p1": 1}), [("$.pairs", "type")]),
    (
        tournament(pairs=[{"id": "a", "players": ["x"]}, {"players": ["x", "y"], "age": 3}]),
        [
            ("$.pairs[0].players", "value"),
            ("$.pairs[1].age", "unknown_key"),
            ("$.pairs[1].id", "missing"),
        ],
    ),
    (
        tournament(pairs=[{"id": "a", "players": ["x", ""]}, {"id": "b", "players": ["x", 3]}]),
        [("$.pairs[0].players[1]", "value"), ("$.pairs[1].players[1]", "type")],
    ),
    (
        tournament(pairs=[{"id": "a", "players": ["x", "y"], "withdrawn": 1}, {"id": "b"}]),
        [("$.pairs[0].withdrawn", "type"), ("$.pairs[1].players", "missing")],
    ),
]

RESULT_PROBLEMS = [
    (tournament(results={}), [("$.results", "type")]),
    (
        tournament(rounds=1, results=RESULTS * 2),
        [("$.results[1]", "too_many_rounds"), ("$.results[1].round", "round_order")],
    ),
    (tournament(results=[{"round": 2, "tables": []}]), [("$.results[0].round", "round_order")]),
    (tournament(results=[{"round": 1}]), [("$.results[0].tables", "missing")]),
    (
        tournament(results=[{"round": 1, "tables": [], "date": 1}]),
        [("$.results[0].date", "unknown_key")],
    ),
    (table(table=1, ns="p1", ew="p9", mp=[1, 2]), [("$.results[0].tables[0].ew", "unknown_pair")]),
    (table(table=1, ns="p1", ew="p1", mp=[1, 2]), [("$.results[0].tables[0].ew", "seated_twice")]),
    (table(table=1, ns="p1", ew=2, mp=[1, 2]), [("$.results[0].tables[0].ew", "type")]),
    (table(table=0, ns="p1", ew="p2", mp=[1, 2]), [("$.results[0].tables[0].table", "value")]),
    (table(table=1001, ns="p1", ew="p2", mp=[1, 2]), [("$.results[0].tables[0].table", "value")]),
    (table(ns="p1", ew="p2", mp=[1, 2]), [("$.results[0].tables[0].table", "missing")]),
    (table(table=1, ns="p1", ew="p2"), [("$.results[0].tables[0]", "table_entry")]),
    (
        table(table=1, ns="p1", ew="p2", mp=[1, 2], match={}),
        [("$.results[0].tables[0]", "table_entry")],
    ),
    (table(table=1, ns="p1", ew="p2", mp=[1, 2, 3]), [("$.results[0].tables[0].mp", "bad_mp")]),
    (table(table=1, ns="p1", ew="p2", mp=[1, 2.5]), [("$.results[0].tables[0].mp", "bad_mp")]),
    (
        table(table=1, ns="p1", ew="p2", mp=[1_000_001, 0]),
        [("$.results[0].tables[0].mp", "bad_mp")],
    ),
    (table(table=1, ns="p1", ew="p2", mp="1-2"), [("$.results[0].tables[0].mp", "bad_mp")]),
    (table(table=1, ns="p1", ew="p2", mp=[-1_000_000, 1_000_000]), []),
    (table(bye="p9"), [("$.results[0].tables[0].bye", "unknown_pair")]),
    (table(bye="p1", table=1), [("$.results[0].tables[0].table", "unknown_key")]),
    (
        played([("p1", "p2", 1, 2), ("p3", "p1", 3, 4), "p2"]),
        [
            ("$.results[0].tables[1].ew", "seated_twice"),
            ("$.results[0].tables[2].bye", "seated_twice"),
        ],
    ),
    (
        [
            {
                "round": 1,
                "tables": [
                    {"table": 2, "ns": "p1", "ew": "p2", "mp": [1, 2]},
                    {"table": 2, "ns": "p3", "ew": "p4", "mp": [1, 2]},
                ],
            }
        ],
        [("$.results[0].tables[1].table", "duplicate_table")],
    ),
    (tournament(results=[{"round": 1, "tables": ["p1"]}]), [("$.results[0].tables[0]", "type")]),
]


@pytest.mark.parametrize(("document", "expected"), SET_UP + RESULT_PROBLEMS)
def test_each_problem_is_found_where_it_is(document: Any, expected: list[tuple[str, str]]):
    if isinstance(document, list):
        document = tournament(results=document)
    if not expected:
        assert run("standings", document).exit_code == 0
        return
    assert sorted(problems("standings", document)) == sorted(expected)
    assert sorted(problems("pair", document)) == sorted(expected)


def test_every_problem_found_is_listed():
    document = tournament(name="", rounds=0, system="x", extra=True)
    document["pairs"][1]["id"] = "p1"

    assert problems("standings", document) == [
        ("$.extra", "unknown_key"),
        ("$.name", "value"),
        ("$.system", "system"),
        ("$.rounds", "value"),
        ("$.pairs[1].id", "duplicate_pair"),
    ]


def test_every_code_has_a_message():
    found, refused = check_tournament(tournament(variant=None, scale=3, layout=None))
    assert found is None
    assert {p.code for p in refused} == {"variant", "scale", "layout"}
    assert all(p.message == MESSAGES[p.code].format(**p.params) for p in refused)


def test_the_api_raises_what_the_command_prints():
    with pytest.raises(TournamentProblems) as raised:
        parse_tournament(json.dumps(tournament(rounds=0)).encode())
    assert [(p.path, p.code) for p in raised.value.problems] == [("$.rounds", "value")]
    assert "$.rounds" in str(raised.value)


def test_a_file_that_nests_too_deep_is_not_json():
    assert problems("pair", "[" * 100_000 + "]" * 100_000) == [("$", "not_json")]
