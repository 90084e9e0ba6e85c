"""Drawing the next round (TOURNAMENTS.md §4): each system's schedule or draw, byes,
withdrawn pairs, and properties over whole simulated tournaments."""

from __future__ import annotations

import itertools
from collections import Counter
from typing import Any

import pytest
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st
from tournament_cases import played
from tournament_cases import printed
from tournament_cases import read
from tournament_cases import tournament

from anotador.tournaments import Draw
from anotador.tournaments import next_round
from anotador.tournaments import standings

Tables = list[tuple[str, str]]


def draw(document: dict[str, Any]) -> tuple[list[tuple[int, str, str]], list[str]]:
    """(table, NS, EW) and byes, as ``anotador tournament pair`` prints them."""
    answer = printed("pair", document)
    tables = [(t["table"], t["ns"], t["ew"]) for t in answer["tables"] if "table" in t]
    byes = [t["bye"] for t in answer["tables"] if "bye" in t]
    assert answer["tables"] == [
        *({"table": t, "ns": ns, "ew": ew} for t, ns, ew in tables),
        *({"bye": pair} for pair in byes),
    ]
    return tables, byes


def play(document: dict[str, Any], rounds: int) -> dict[str, Any]:
    """``rounds`` more rounds, each drawn by the command and written with NS winning by 100."""
    for _ in range(rounds):
        tables, byes = draw(document)
        entries: list[Any] = [(ns, ew, 600, 500) for _, ns, ew in tables] + byes
        numbers = [t for t, _, _ in tables]
        (written,) = played(entries)
        for entry, number in zip(written["tables"], numbers, strict=False):
            entry["table"] = number
        written["round"] = len(document["results"]) + 1
        document = {**document, "results": [*document["results"], written]}
    return document


# --- mitchell -------------------------------------------------------------------------------


def test_mitchell_the_spec_s_five_pairs():
    document = tournament(5, system="mitchell")
    assert draw(document) == ([(1, "p1", "p4"), (2, "p2", "p5")], ["p3"])
    document = play(document, 1)
    assert draw(document) == ([(2, "p2", "p4"), (3, "p3", "p5")], ["p1"])
    document = play(document, 1)
    assert draw(document) == ([(1, "p1", "p5"), (3, "p3", "p4")], ["p2"])


def test_mitchell_every_ew_pair_meets_every_ns_pair_once_in_t_rounds():
    document = tournament(8, system="mitchell", rounds=8)
    meetings = []
    for _ in range(4):
        tables, byes = draw(document)
        assert byes == []
        assert [ns for _, ns, _ in tables] == ["p1", "p2", "p3", "p4"]
        meetings += [(ns, ew) for _, ns, ew in tables]
        document = play(document, 1)
    assert sorted(meetings) == sorted(
        itertools.product(["p1", "p2", "p3", "p4"], ["p5", "p6", "p7", "p8"])
    )
    assert draw(document)[0] == [(1, "p1", "p5"), (2, "p2", "p6"), (3, "p3", "p7"), (4, "p4", "p8")]


def test_mitchell_a_withdrawn_pair_s_table_is_not_played():
    document = tournament(6, system="mitchell")
    document["pairs"][4]["withdrawn"] = True
    assert draw(document) == ([(1, "p1", "p4"), (3, "p3", "p6")], ["p2"])


# --- round-robin ----------------------------------------------------------------------------

SIX = [
    [(1, "p1", "p6"), (2, "p2", "p5"), (3, "p3", "p4")],
    [(1, "p1", "p5"), (2, "p4", "p6"), (3, "p2", "p3")],
    [(1, "p1", "p4"), (2, "p3", "p5"), (3, "p2", "p6")],
    [(1, "p1", "p3"), (2, "p2", "p4"), (3, "p5", "p6")],
    [(1, "p1", "p2"), (2, "p3", "p6"), (3, "p4", "p5")],
]


def test_round_robin_the_spec_s_six_pairs_and_a_second_leg():
    document = tournament(6, system="round-robin", rounds=7)
    for expected in [*SIX, SIX[0], SIX[1]]:
        assert draw(document) == (expected, [])
        document = play(document, 1)


@pytest.mark.parametrize("count", [2, 3, 4, 5, 7, 10, 11])
def test_round_robin_every_pair_meets_every_other_once(count: int):
    size = count + count % 2
    document = tournament(count, system="round-robin", rounds=size - 1)
    meetings: Counter[frozenset[str]] = Counter()
    byes: Counter[str] = Counter()
    for _ in range(size - 1):
        tables, round_byes = draw(document)
        meetings.update(frozenset((ns, ew)) for _, ns, ew in tables)
        byes.update(round_byes)
        document = play(document, 1)
    ids = [f"p{k}" for k in range(1, count + 1)]
    assert meetings == Counter(frozenset(pair) for pair in itertools.combinations(ids, 2))
    assert byes == (Counter(ids) if count % 2 else Counter())


def test_round_robin_five_pairs_round_1():
    assert draw(tournament(5, system="round-robin")) == ([(2, "p2", "p5"), (3, "p3", "p4")], ["p1"])


def test_round_robin_a_withdrawn_pair_s_opponent_has_the_bye():
    document = tournament(6, system="round-robin")
    document["pairs"][3]["withdrawn"] = True
    assert draw(document) == ([(1, "p1", "p6"), (2, "p2", "p5")], ["p3"])


# --- danese and danese-modificato ----------------------------------------------------------


def test_danese_pairs_the_standings_first_against_second():
    results = played([("p1", "p2", 100, 900), ("p3", "p4", 700, 300), "p5"])
    # p2 16, p3 14, p5 12 (bye), p4 6, p1 4: the bye to p1, the higher-placed NS.
    assert draw(tournament(5, results, system="danese")) == (
        [(1, "p2", "p3"), (2, "p5", "p4")],
        ["p1"],
    )


def test_danese_pairs_may_meet_again():
    results = played([("p1", "p2", 900, 100), ("p3", "p4", 900, 100)])
    assert draw(tournament(4, results)) == ([(1, "p1", "p3"), (2, "p2", "p4")], [])
    results = played([("p1", "p3", 900, 100), ("p2", "p4", 900, 100)])
    assert draw(tournament(4, results)) == ([(1, "p1", "p2"), (2, "p3", "p4")], [])


def test_danese_byes_go_round_before_any_second_one():
    document = tournament(3, rounds=7)
    byes = []
    for _ in range(6):
        byes += draw(document)[1]
        document = play(document, 1)
    assert sorted(byes[:3]) == ["p1", "p2", "p3"]
    assert sorted(byes[3:]) == ["p1", "p2", "p3"]


def test_danese_the_bye_goes_to_the_lowest_placed_among_the_fewest_byes():
    results = played([("p2", "p3", 900, 100), "p1"])
    # p2 19, p1 12 (bye), p3 1: p3 has had no bye, and is last.
    assert draw(tournament(3, results)) == ([(1, "p2", "p1")], ["p3"])
    results = played([("p2", "p3", 900, 100), "p1"], [("p1", "p2", 900, 100), "p3"])
    # p1 12+19, p2 19+1, p3 1+12: every pair has had one but p2.
    assert draw(tournament(3, results)) == ([(1, "p1", "p3")], ["p2"])


def test_danese_draws_only_the_pairs_not_withdrawn():
    document = tournament(5)
    document["pairs"][1]["withdrawn"] = True
    assert draw(document) == ([(1, "p1", "p3"), (2, "p4", "p5")], [])


def test_danese_modificato_the_spec_s_six_pairs():
    # By points: p1..p6 placed 1..6, and 5 and 6 met in round 1.
    results = played([("p1", "p3", 100, 90), ("p2", "p4", 95, 85), ("p5", "p6", 50, 40)])
    document = tournament(6, results, scale="points", system="danese-modificato")
    assert [row.pair for row in standings(read(document))] == ["p1", "p2", "p3", "p4", "p5", "p6"]
    assert draw(document) == ([(1, "p1", "p2"), (2, "p3", "p5"), (3, "p4", "p6")], [])
    assert draw({**document, "rounds": 2}) == (
        [(1, "p1", "p2"), (2, "p3", "p4"), (3, "p5", "p6")],
        [],
    )


def test_danese_modificato_looks_back_one_round_only():
    results = played(
        [("p1", "p2", 900, 100), ("p3", "p4", 900, 100)],
        [("p1", "p3", 500, 400), ("p2", "p4", 500, 400)],
    )
    # p1 19+11, p3 19+9, p2 1+11, p4 1+9: 1 may not meet 3 again, but may meet 2.
    document = tournament(4, results, system="danese-modificato")
    assert draw(document) == ([(1, "p1", "p2"), (2, "p3", "p4")], [])


def test_danese_modificato_with_two_pairs_meets_again():
    results = played([("p1", "p2", 900, 100)])
    assert draw(tournament(2, results, system="danese-modificato")) == ([(1, "p1", "p2")], [])


def test_danese_modificato_a_bye_or_an_absence_restricts_nothing():
    results = played([("p1", "p2", 900, 100), "p3"])
    # p1 19, p3 12, p2 1, p4 absent 0.
    document = tournament(4, results, system="danese-modificato")
    assert draw(document) == ([(1, "p1", "p3"), (2, "p2", "p4")], [])


# --- manual, and every pair seated once ----------------------------------------------------


def test_manual_draws_nothing_but_its_results_count():
    results = played([("p2", "p1", 900, 100)])
    document = tournament(2, results, system="manual")
    assert printed("standings", document)["standings"][0]["pair"] == "p2"


SYSTEMS = ["mitchell", "danese", "danese-modificato", "round-robin"]


def seated_once(tournament_draw: Draw, active: set[str]) -> None:
    seated = [p for seat in tournament_draw.tables for p in (seat.ns, seat.ew)]
    everyone = seated + list(tournament_draw.byes)
    assert sorted(everyone) == sorted(active)
    numbers = [seat.table for seat in tournament_draw.tables]
    assert numbers == sorted(set(numbers))


@settings(max_examples=40, deadline=None)
@given(
    system=st.sampled_from(SYSTEMS),
    count=st.integers(2, 13),
    withdrawn=st.sets(st.integers(0, 12), max_size=3),
    rounds=st.integers(1, 7),
    seed=st.randoms(use_true_random=False),
)
def test_every_active_pair_is_seated_once_or_has_the_bye(
    system: str, count: int, withdrawn: set[int], rounds: int, seed: Any
):
    document = tournament(count, system=system, rounds=rounds)
    for k in withdrawn & set(range(count)):
        document["pairs"][k]["withdrawn"] = True
    active = {p["id"] for p in document["pairs"] if not p.get("withdrawn")}
    for number in range(1, rounds + 1):
        current = read(document)
        assert sorted(row.pair for row in standings(current)) == sorted(current.pair_ids())
        drawn = next_round(current)
        assert drawn.round == number
        seated_once(drawn, active)
        if system in ("danese", "danese-modificato"):
            assert len(drawn.byes) == len(active) % 2
        if system == "danese-modificato" and number > 1 and number < rounds and len(active) > 3:
            last = {frozenset((t.ns, t.ew)) for t in current.results[-1].tables}
            assert not any(frozenset((s.ns, s.ew)) in last for s in drawn.tables)
        entries = [
            {
                "table": s.table,
                "ns": s.ns,
                "ew": s.ew,
                "mp": [seed.randrange(-50, 3000, 5), seed.randrange(0, 3000, 5)],
            }
            for s in drawn.tables
        ] + [{"bye": pair} for pair in drawn.byes]
        document = {
            **document,
            "results": [*document["results"], {"round": number, "tables": entries}],
        }
