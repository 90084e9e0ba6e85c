"""Every problem of an invalid individual tournament file (TOURNAMENTS.md §6.6): its code and
path, printed by both commands with exit status 1, never a traceback; and a file of one kind
never read as the other."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st
from test_tournament_individual import worked_example
from test_tournament_robustness import JSON
from test_tournament_robustness import places
from test_tournament_robustness import put
from test_tournament_standings import match
from tournament_cases import individual
from tournament_cases import partnered
from tournament_cases import problems
from tournament_cases import run
from tournament_cases import tournament

from anotador.rules.text import TextRefused
from anotador.rules.text import read_text
from anotador.tournaments import INDIVIDUAL_SYSTEMS
from anotador.tournaments import SYSTEMS
from anotador.tournaments import TournamentProblems
from anotador.tournaments import check_tournament
from anotador.tournaments import check_tournament_file
from anotador.tournaments import read_tournament
from anotador.tournaments.limits import NAME_LENGTH
from anotador.tournaments.limits import read_name

T = "$.results[0].tables"


def without(key: str, **changes: Any) -> dict[str, Any]:
    document = individual(**changes)
    del document[key]
    return document


def with_player(k: int, **entry: Any) -> dict[str, Any]:
    """An individual file whose player k is ``entry``."""
    document = individual()
    document["players"][k] = entry
    return document


def seats(*entries: Any) -> dict[str, Any]:
    """An individual file of 8 players whose first round is ``entries``."""
    return individual(8, [{"round": 1, "tables": list(entries)}])


def at(ns: Any, ew: Any, number: int = 1, **entry: Any) -> dict[str, Any]:
    return {"table": number, "ns": ns, "ew": ew, **({"mp": [900, 400]} | entry)}


SET_UP = [
    # kind
    (individual(kind="teams"), [("$.kind", "kind")]),
    (individual(kind=2), [("$.kind", "kind")]),
    (individual(kind=None), [("$.kind", "kind")]),
    (individual(kind="Individual"), [("$.kind", "kind")]),
    # With no kind known: neither pairs nor players looked at, results not checked, the
    # system any of the eight.
    (individual(kind="teams", pairs=3, players=[], results={}), [("$.kind", "kind")]),
    (without("players", kind="teams"), [("$.kind", "kind")]),
    (individual(kind="teams", system="swiss"), [("$.kind", "kind")]),
    (individual(kind="teams", system="x"), [("$.kind", "kind"), ("$.system", "system")]),
    # missing
    (without("players"), [("$.players", "missing")]),
    (with_player(2, name="Carla"), [("$.players[2].id", "missing")]),
    (with_player(2, id="P3"), [("$.players[2].name", "missing")]),
    (with_player(2), [("$.players[2].id", "missing"), ("$.players[2].name", "missing")]),
    # unknown_key
    (individual(pairs=[]), [("$.pairs", "unknown_key")]),
    (tournament(players=[]), [("$.players", "unknown_key")]),
    (with_player(0, id="P1", name="Ada", age=3), [("$.players[0].age", "unknown_key")]),
    (with_player(0, id="P1", name="Ada", players=[]), [("$.players[0].players", "unknown_key")]),
    # type
    (individual(players={"P1": "Ada"}), [("$.players", "type")]),
    (individual(None), [("$.players", "type")]),
    (tournament(pairs=None), [("$.pairs", "type")]),
    (individual(players="P1 P2 P3 P4"), [("$.players", "type")]),
    (with_player(1, id=2, name="Bea"), [("$.players[1].id", "type")]),
    (with_player(1, id="P2", name=["Bea"]), [("$.players[1].name", "type")]),
    (with_player(1, id="P2", name="Bea", club=3), [("$.players[1].club", "type")]),
    (with_player(1, id="P2", name="Bea", withdrawn="yes"), [("$.players[1].withdrawn", "type")]),
    (individual([*individual()["players"], "P9"]), [("$.players[8]", "type")]),
    # value
    (individual(2001), [("$.players", "value")]),
    (with_player(1, id="", name="Bea"), [("$.players[1].id", "value")]),
    (with_player(1, id="P2", name=""), [("$.players[1].name", "value")]),
    (with_player(1, id="P2", name="  "), [("$.players[1].name", "value")]),
    (with_player(1, id="P2", name="B\x00a"), [("$.players[1].name", "value")]),
    # too_few_players (withdrawn players count)
    (individual(3), [("$.players", "too_few_players")]),
    (individual([]), [("$.players", "too_few_players")]),
    (individual([{"id": f"P{k}", "name": "x", "withdrawn": k > 1} for k in range(1, 5)]), []),
    # duplicate_player (ids compared exactly)
    (individual(["P1", "P2", "P3", "P1"]), [("$.players[3].id", "duplicate_player")]),
    (individual(["P1", "P2", "P3", "p1"]), []),
    # system
    *[(individual(system=name), [("$.system", "system")]) for name in SYSTEMS if name != "manual"],
    (individual(system="individual"), [("$.system", "system")]),
    (tournament(system="individual-danese"), [("$.system", "system")]),
    (individual(system="manual"), []),
]  # fmt: skip

RESULT_PROBLEMS = [
    # ns and ew: two player ids
    (seats(at("P1 P2", ["P3", "P4"])), [(f"{T}[0].ns", "type")]),
    (seats(at(["P1", "P2"], {"P3": "P4"})), [(f"{T}[0].ew", "type")]),
    (seats(at(["P1", 2], ["P3", "P4"])), [(f"{T}[0].ns[1]", "type")]),
    (seats(at(["P1", "P2", "P5"], ["P3", "P4"])), [(f"{T}[0].ns", "value")]),
    (seats(at(["P1", "P2"], ["P3"])), [(f"{T}[0].ew", "value")]),
    (seats(at(["P1", "P2"], [])), [(f"{T}[0].ew", "value")]),
    (seats({"bye": ["P1"]}), [(f"{T}[0].bye", "type")]),
    # unknown_player
    (seats(at(["P1", "P9"], ["P3", "P4"])), [(f"{T}[0].ns[1]", "unknown_player")]),
    (seats(at(["P1", "P2"], ["p3", "P4"])), [(f"{T}[0].ew[0]", "unknown_player")]),
    (seats({"bye": "P9"}), [(f"{T}[0].bye", "unknown_player")]),
    # seated_twice, at the later seat
    (seats(at(["P1", "P1"], ["P3", "P4"])), [(f"{T}[0].ns[1]", "seated_twice")]),
    (seats(at(["P1", "P2"], ["P3", "P1"])), [(f"{T}[0].ew[1]", "seated_twice")]),
    (seats(at(["P1", "P2"], ["P3", "P4"]), at(["P5", "P4"], ["P7", "P8"], 2)),
     [(f"{T}[1].ns[1]", "seated_twice")]),
    (seats(at(["P1", "P2"], ["P3", "P4"]), {"bye": "P2"}), [(f"{T}[1].bye", "seated_twice")]),
    (seats({"bye": "P2"}, at(["P1", "P2"], ["P3", "P4"])), [(f"{T}[1].ns[1]", "seated_twice")]),
    (seats({"bye": "P2"}, {"bye": "P2"}), [(f"{T}[1].bye", "seated_twice")]),
    # The same player in another round is no problem.
    (individual(8, partnered([("P1", "P2", "P3", "P4", 1, 2)], [("P1", "P2", "P3", "P4", 1, 2)])),
     []),
    # The rules of §1.2 and §1.3, unchanged.
    (seats(at(["P1", "P2"], ["P3", "P4"]), at(["P5", "P6"], ["P7", "P8"], 1)),
     [(f"{T}[1].table", "duplicate_table")]),
    (seats(at(["P1", "P2"], ["P3", "P4"], mp=[1, 2, 3])), [(f"{T}[0].mp", "bad_mp")]),
    (seats(at(["P1", "P2"], ["P3", "P4"], match={})), [(f"{T}[0]", "table_entry")]),
    (seats({"table": 1, "ns": ["P1", "P2"], "ew": ["P3", "P4"]}), [(f"{T}[0]", "table_entry")]),
    (seats({"table": 1, "ns": ["P1", "P2"], "mp": [1, 2]}), [(f"{T}[0].ew", "missing")]),
    (seats({"table": 1, "ns": ["P1", "P2"], "ew": ["P3", "P4"], "match": match("burraco", 2)}),
     [(f"{T}[0].match.hands", "match_incomplete")]),
    (seats({"table": 1, "ns": ["P1", "P2"], "ew": ["P3", "P4"],
            "match": match("uruguaya", 3)}),
     [(f"{T}[0].match.variant", "match_mismatch")]),
    (individual(8, partnered([], []), rounds=1), [("$.results[1]", "too_many_rounds")]),
    (individual(8, [{"round": 2, "tables": []}]), [("$.results[0].round", "round_order")]),
]  # fmt: skip


@pytest.mark.parametrize(("document", "expected"), SET_UP + RESULT_PROBLEMS)
def test_each_problem_is_found_where_it_is(document: Any, expected: list[tuple[str, str]]):
    if not expected:
        assert run("standings", document).exit_code == 0
        return
    assert sorted(problems("standings", document)) == sorted(expected)
    assert sorted(problems("pair", document)) == sorted(expected)


def test_every_problem_found_is_listed_and_said():
    document = individual(["P1", "P2", "P3", "P1"], name="", system="danese", pairs=[])
    _, found = check_tournament_file(document)
    assert [(p.path, p.code) for p in found] == [
        ("$.name", "value"),
        ("$.system", "system"),
        ("$.pairs", "unknown_key"),
        ("$.players[3].id", "duplicate_player"),
    ]
    assert found[1].message == f"Must be one of: {', '.join(INDIVIDUAL_SYSTEMS)}."
    assert found[3].message == "The player “P1” is already in the tournament."


@pytest.mark.parametrize(
    ("document", "message"),
    [
        (individual(kind="teams"), "Must be one of: pairs, individual."),
        (individual(3), "An individual tournament needs at least four players."),
        (seats({"bye": "P9"}), "No player of the tournament is called “P9”."),
        (seats({"bye": "P2"}, {"bye": "P2"}), "The player “P2” is already seated in this round."),
    ],
)
def test_the_new_problems_say_players(document: dict[str, Any], message: str):
    _, found = check_tournament_file(document)
    assert [p.message for p in found] == [message]
    assert found[0].to_json()["message"] == message


def test_a_kind_problem_checks_the_system_against_all_eight_names():
    _, found = check_tournament_file(individual(kind="teams", system="x"))
    choices = found[1].params["choices"]
    assert choices.split(", ") == [*SYSTEMS, "individual-danese"]


def test_the_readers_of_pairs_refuse_an_individual_file():
    found, refused = check_tournament(worked_example())
    assert found is None
    assert [(p.path, p.code, p.message) for p in refused] == [
        ("$.kind", "kind", "Must be one of: pairs.")
    ]
    with pytest.raises(TournamentProblems):
        read_tournament(worked_example())


EXAMPLE = worked_example()
PLACES = places(EXAMPLE)[1:]


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(PLACES), JSON | st.sampled_from(["P1", "P9", ["P1", "P2"]]),
       st.sampled_from(["standings", "pair"]))  # fmt: skip
def test_any_value_anywhere_in_an_individual_file_gets_an_answer(path, value, command):
    result = run(command, put(EXAMPLE, path, value))

    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code in (0, 1)
    assert "Traceback" not in result.output


def refusal_or_name(read: Callable[[], str]) -> str:
    try:
        return read()
    except TextRefused as refused:
        return f"refused: {refused.code}"


@settings(max_examples=300, deadline=None)
@given(
    st.text(st.characters(max_codepoint=0x7F), max_size=70)
    | st.text(max_size=8)
    | st.sampled_from(["", " ", "Ada", " Ada", "Ada  Bea", "x" * 60, "x" * 61, "A\tB"]),
    st.booleans(),
)
def test_a_name_in_plain_ascii_is_read_as_every_other(value: str, required: bool):
    # read_name's shortcut for printable ASCII (a file of 2,000 players reads thousands of
    # names) gives what the whole rule gives.
    assert refusal_or_name(lambda: read_name(value, required=required)) == refusal_or_name(
        lambda: read_text(value, maximum=NAME_LENGTH, required=required, visible=True)
    )
