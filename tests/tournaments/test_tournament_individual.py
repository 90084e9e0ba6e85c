"""Individual tournaments (TOURNAMENTS.md §6): the worked example of §6.7, the standings per
player, the ``individual-danese`` draw rule by rule (byes for one, two and three players,
withdrawals, late arrivals, the order of ``ns``/``ew``), a property test over whole nights,
the file written back, and both commands on individual files."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st
from test_tournament_standings import match
from tournament_cases import individual
from tournament_cases import partnered
from tournament_cases import printed
from tournament_cases import problems
from tournament_cases import read_individual
from tournament_cases import run

from anotador.commands.main import main
from anotador.tournaments import IndividualTournament
from anotador.tournaments import PartnershipTable
from anotador.tournaments import individual_standings
from anotador.tournaments import next_draw
from anotador.tournaments import next_individual_round
from anotador.tournaments import read_tournament_file
from anotador.tournaments import standings_document
from anotador.tournaments import tournament_to_document

# --- the worked example (§6.7) ------------------------------------------------------------

NINE = [f"P{k}" for k in range(1, 10)]
EXAMPLE_ROUND_1 = [("P1", "P2", "P3", "P4", 900, 1100), ("P5", "P6", "P7", "P8", 1400, 600), "P9"]


def worked_example(**changes: Any) -> dict[str, Any]:
    return individual(NINE, partnered(EXAMPLE_ROUND_1), rounds=3, **changes)


def pairing(document: dict[str, Any]) -> tuple[list[tuple[int, list[str], list[str]]], list[str]]:
    """(table, NS, EW) and byes, as ``anotador tournament pair`` prints them."""
    answer = printed("pair", document)
    tables = [(t["table"], t["ns"], t["ew"]) for t in answer["tables"] if "table" in t]
    byes = [t["bye"] for t in answer["tables"] if "bye" in t]
    assert answer["tables"] == [
        *({"table": t, "ns": ns, "ew": ew} for t, ns, ew in tables),
        *({"bye": player} for player in byes),
    ]
    return tables, byes


def test_the_worked_example_round_1_is_drawn_in_the_order_of_players():
    assert pairing(individual(NINE, rounds=3)) == (
        [(1, ["P1", "P2"], ["P3", "P4"]), (2, ["P5", "P6"], ["P7", "P8"])],
        ["P9"],
    )


def test_the_worked_example_standings():
    answer = printed("standings", worked_example())
    rows = [
        (r["rank"], r["player"], r["vp"], r["mp_for"], r["mp_against"], r["mp_diff"])
        for r in answer["standings"]
    ]
    assert rows == [
        (1, "P5", 16, 1400, 600, 800),
        (2, "P6", 16, 1400, 600, 800),
        (3, "P3", 12, 1100, 900, 200),
        (4, "P4", 12, 1100, 900, 200),
        (5, "P9", 12, 0, 0, 0),
        (6, "P1", 8, 900, 1100, -200),
        (7, "P2", 8, 900, 1100, -200),
        (8, "P7", 4, 600, 1400, -800),
        (9, "P8", 4, 600, 1400, -800),
    ]
    assert answer["standings"][0] == {
        "player": "P5",
        "rank": 1,
        "vp": 16,
        "mp_for": 1400,
        "mp_against": 600,
        "mp_diff": 800,
        "played": 1,
        "byes": 0,
        "withdrawn": False,
    }
    assert [(r["played"], r["byes"]) for r in answer["standings"] if r["player"] == "P9"] == [
        (0, 1)
    ]
    first, second, bye = answer["rounds"][0]["tables"]
    assert answer["rounds"][0]["round"] == 1
    assert first == {
        "table": 1,
        "ns": ["P1", "P2"],
        "ew": ["P3", "P4"],
        "mp": [900, 1100],
        "vp": [8, 12],
    }
    assert second == {
        "table": 2,
        "ns": ["P5", "P6"],
        "ew": ["P7", "P8"],
        "mp": [1400, 600],
        "vp": [16, 4],
    }
    assert bye == {"bye": "P9", "vp": 12}


def test_the_worked_example_round_2_draw():
    assert printed("pair", worked_example()) == {
        "round": 2,
        "tables": [
            {"table": 1, "ns": ["P5", "P3"], "ew": ["P6", "P4"]},
            {"table": 2, "ns": ["P9", "P1"], "ew": ["P2", "P7"]},
            {"bye": "P8"},
        ],
    }


def test_the_worked_example_from_a_file_through_the_installed_command(tmp_path: Path):
    path = tmp_path / "individuale.json"
    path.write_text(json.dumps(worked_example()), encoding="utf-8")
    result = CliRunner().invoke(main, ["tournament", "pair", str(path)])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["tables"][-1] == {"bye": "P8"}


# --- standings (§6.3) ---------------------------------------------------------------------

STANDINGS = [
    # (case, players, rounds, the order, vp of the first)
    (
        "both partners take their side's VP and MP",
        4,
        [[("P3", "P4", "P1", "P2", 1400, 600)]],
        ["P3", "P4", "P1", "P2"],
        16,
    ),
    (
        "no head-to-head: two tied players who met are ranked by MP difference",
        8,
        [
            [("P1", "P2", "P3", "P4", 900, 1100), ("P5", "P6", "P7", "P8", 1000, 1000)],
            [("P1", "P5", "P2", "P4", 1000, 500), ("P3", "P6", "P7", "P8", 1000, 1000)],
        ],
        # P5 24; P1 and P3 alone on 22: P3 beat P1 at their table (12 to 8), but P1's
        # difference is +300, P3's +200. Then P6 P7 P8 on 20, P4 18, P2 14.
        ["P5", "P1", "P3", "P6", "P7", "P8", "P4", "P2"],
        24,
    ),
    (
        "MP for breaks a tie on VP and difference, before the order of players",
        8,
        [[("P1", "P2", "P3", "P4", 500, 500), ("P5", "P6", "P7", "P8", 900, 900)]],
        ["P5", "P6", "P7", "P8", "P1", "P2", "P3", "P4"],
        10,
    ),
    (
        "a withdrawn player keeps the results and the place",
        4,
        [[("P4", "P3", "P1", "P2", 2000, 0)]],
        ["P3", "P4", "P1", "P2"],
        20,
    ),
]


@pytest.mark.parametrize(
    ("case", "players", "results", "order", "vp"), STANDINGS, ids=[c[0] for c in STANDINGS]
)
def test_standings(case, players, results, order, vp):
    document = individual(players, partnered(*results))
    if case.startswith("a withdrawn"):
        document["players"][3]["withdrawn"] = True
    rows = individual_standings(read_individual(document))
    assert [row.player for row in rows] == order
    assert [row.rank for row in rows] == list(range(1, players + 1))
    assert rows[0].vp == vp
    if case.startswith("a withdrawn"):
        assert [row.withdrawn for row in rows] == [False, True, False, False]


def test_a_table_scored_in_the_app_gives_both_partners_its_mp():
    entry = {"table": 1, "ns": ["P2", "P1"], "ew": ["P3", "P4"], "match": match("burraco", 3)}
    document = individual(4, [{"round": 1, "tables": [entry]}])
    rows = {row["player"]: row for row in printed("standings", document)["standings"]}
    assert [rows[p]["mp_for"] for p in ("P1", "P2", "P3", "P4")] == [2355, 2355, 240, 240]
    assert [rows[p]["vp"] for p in ("P1", "P2", "P3", "P4")] == [20, 20, 0, 0]


# --- the draw, rule by rule (§6.4) --------------------------------------------------------

ROUND_ONE = [
    # (players, withdrawn, tables, byes)
    (8, [], [(1, ["P1", "P2"], ["P3", "P4"]), (2, ["P5", "P6"], ["P7", "P8"])], []),
    (
        10,
        [],
        [(1, ["P1", "P2"], ["P3", "P4"]), (2, ["P5", "P6"], ["P7", "P8"])],
        ["P9", "P10"],
    ),
    (
        11,
        [],
        [(1, ["P1", "P2"], ["P3", "P4"]), (2, ["P5", "P6"], ["P7", "P8"])],
        ["P9", "P10", "P11"],
    ),
    (5, [], [(1, ["P1", "P2"], ["P3", "P4"])], ["P5"]),
    (6, ["P2"], [(1, ["P1", "P3"], ["P4", "P5"])], ["P6"]),
    (5, ["P5"], [(1, ["P1", "P2"], ["P3", "P4"])], []),
    (4, ["P1"], [], ["P2", "P3", "P4"]),
    (4, ["P1", "P2", "P3", "P4"], [], []),
]


@pytest.mark.parametrize(("players", "withdrawn", "tables", "byes"), ROUND_ONE)
def test_round_one_in_the_order_of_players(players, withdrawn, tables, byes):
    document = individual(players)
    for player in document["players"]:
        player["withdrawn"] = player["id"] in withdrawn
    assert pairing(document) == (tables, byes)


LATER_ROUNDS = [
    # (case, players, rounds of results, the draw's tables, byes)
    (
        "one bye: the lowest-placed without one",
        5,
        [[("P1", "P2", "P3", "P4", 1000, 500), "P5"]],
        # P1 14, P2 14, P5 12, P3 6, P4 6: P4 has the bye; P1 P2 were partners.
        [(1, ["P1", "P5"], ["P2", "P3"])],
        ["P4"],
    ),
    (
        "two byes: the two lowest-placed without one, listed in the order of players",
        6,
        [[("P1", "P2", "P3", "P4", 1000, 500), "P5", "P6"]],
        # P1 14, P2 14, P5 12, P6 12, P3 6, P4 6: byes P3 and P4.
        [(1, ["P1", "P5"], ["P2", "P6"])],
        ["P3", "P4"],
    ),
    (
        "three byes: the three lowest-placed without one",
        7,
        [[("P1", "P2", "P3", "P4", 500, 1000), "P5", "P6", "P7"]],
        # P3 14, P4 14, P5 12, P6 12, P7 12, P1 6, P2 6: without a bye P3 P4 P1 P2, so
        # P2, P1 and P4 (lowest-placed first), listed in the order of players.
        [(1, ["P3", "P5"], ["P6", "P7"])],
        ["P1", "P2", "P4"],
    ),
    (
        "more byes than players without one: the rest to the lowest-placed with one",
        7,
        [
            [("P1", "P2", "P3", "P4", 500, 1000), "P5", "P6", "P7"],
            [("P3", "P5", "P4", "P6", 1000, 500), "P1", "P2", "P7"],
        ],
        # P3 28, P5 26, P7 24, P4 20, P1 P2 P6 18: no bye yet only P4 and P3; the third to
        # P6, the lowest-placed with one. P1 and P2 partner again (round 1, not round 2).
        [(1, ["P5", "P7"], ["P1", "P2"])],
        ["P3", "P4", "P6"],
    ),
    (
        "both partnerships of the round just played at one table are split",
        8,
        [[("P1", "P2", "P3", "P4", 1000, 1000), ("P5", "P6", "P7", "P8", 100, 1000)]],
        # P7 17, P8 17, P1 P2 P3 P4 10, P5 P6 3.
        [(1, ["P7", "P1"], ["P8", "P2"]), (2, ["P3", "P5"], ["P4", "P6"])],
        [],
    ),
    (
        "only the third and the fourth were partners: split too",
        8,
        [[("P3", "P4", "P1", "P5", 1000, 1000), ("P2", "P6", "P7", "P8", 1000, 1000)]],
        # Everyone on 10, difference 0, 1000 for: the order of players.
        [(1, ["P1", "P3"], ["P2", "P4"]), (2, ["P5", "P7"], ["P6", "P8"])],
        [],
    ),
    (
        "partners a and b at both tables: split",
        8,
        [[("P1", "P3", "P2", "P4", 1000, 900), ("P5", "P7", "P6", "P8", 1000, 900)]],
        # P1 P3 P5 P7 on 11, P2 P4 P6 P8 on 9 (differences and MP tie).
        [(1, ["P1", "P5"], ["P3", "P7"]), (2, ["P2", "P6"], ["P4", "P8"])],
        [],
    ),
    (
        "neither partnership of the round before at a table: NS a b, EW c d",
        8,
        [[("P1", "P5", "P2", "P6", 1000, 900), ("P3", "P7", "P4", "P8", 1000, 900)]],
        # Order P1 P3 P5 P7 (11), P2 P4 P6 P8 (9): P1 P3 and P5 P7 were not partners.
        [(1, ["P1", "P3"], ["P5", "P7"]), (2, ["P2", "P4"], ["P6", "P8"])],
        [],
    ),
    (
        "partners two rounds back may partner again",
        4,
        [
            [("P1", "P2", "P3", "P4", 1000, 500)],
            [("P1", "P3", "P2", "P4", 1000, 1000)],
        ],
        # P1 24, P2 24, P3 16, P4 16: P1 P3 and P2 P4 were round 2's partners, not P1 P2.
        [(1, ["P1", "P2"], ["P3", "P4"])],
        [],
    ),
    (
        "a withdrawn player is not drawn, a late one is drawn with 0 VP",
        9,
        [[("P1", "P2", "P3", "P4", 1000, 500), ("P5", "P6", "P7", "P8", 1000, 500)]],
        # P2 withdrawn, P9 added late with nothing: P1 14, P5 14, P6 14, P3 6, P4 6, P7 6,
        # P8 6, P9 0; eight to draw, no bye.
        [(1, ["P1", "P5"], ["P6", "P3"]), (2, ["P4", "P7"], ["P8", "P9"])],
        [],
    ),
    (
        "fewer than four players left: each has a bye, no table",
        5,
        [[("P1", "P2", "P3", "P4", 1000, 500), "P5"]],
        [],
        ["P1", "P3", "P5"],
    ),
]


@pytest.mark.parametrize(
    ("case", "players", "results", "tables", "byes"), LATER_ROUNDS, ids=[c[0] for c in LATER_ROUNDS]
)
def test_later_rounds(case, players, results, tables, byes):
    document = individual(players, partnered(*results))
    if case.startswith("a withdrawn"):
        document["players"][1]["withdrawn"] = True
    if case.startswith("fewer than four"):
        for k in (1, 3):
            document["players"][k]["withdrawn"] = True
    assert pairing(document) == (tables, byes)


def test_the_api_and_the_command_draw_the_same():
    tournament = read_individual(worked_example())
    drawn = next_draw(tournament)
    assert drawn == next_individual_round(tournament)
    assert [(s.table, s.ns, s.ew) for s in drawn.tables] == [
        (1, ("P5", "P3"), ("P6", "P4")),
        (2, ("P9", "P1"), ("P2", "P7")),
    ]
    assert drawn.byes == ("P8",)
    assert drawn.round == 2


@pytest.mark.parametrize(
    ("changes", "expected"),
    [
        ({"rounds": 1}, [("$.results", "all_rounds_played")]),
        ({"system": "manual"}, [("$.system", "manual_pairing")]),
        (
            {"system": "manual", "rounds": 1},
            [("$.results", "all_rounds_played"), ("$.system", "manual_pairing")],
        ),
    ],
)
def test_no_next_round_to_draw(changes, expected):
    document = individual(NINE, partnered(EXAMPLE_ROUND_1), **changes)
    assert problems("pair", document) == expected
    assert run("standings", document).exit_code == 0


# --- every draw of whole nights -----------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(
    count=st.integers(4, 23),
    rounds=st.integers(1, 6),
    withdrawn=st.sets(st.integers(0, 22), max_size=3),
    late=st.integers(0, 3),
    seed=st.randoms(use_true_random=False),
)
def test_every_draw_seats_every_active_player_once_and_splits_the_last_partners(
    count, rounds, withdrawn, late, seed
):
    document = individual(count, rounds=rounds)
    byes_had = dict.fromkeys((p["id"] for p in document["players"]), 0)
    last_partners: set[frozenset[str]] = set()
    for number in range(1, rounds + 1):
        if number == 2:
            # Some leave after round 1, some arrive.
            for k in withdrawn & set(range(count)):
                document["players"][k]["withdrawn"] = True
            for k in range(late):
                document["players"].append({"id": f"L{k}", "name": f"Late {k}"})
                byes_had[f"L{k}"] = 0
        current = read_individual(document)
        active = [p.id for p in current.players if not p.withdrawn]
        drawn = next_individual_round(current)
        seated = [p for s in drawn.tables for side in (s.ns, s.ew) for p in side]
        assert sorted(seated + list(drawn.byes)) == sorted(active)
        # N mod 4 byes; with fewer than four, N.
        assert len(drawn.byes) == len(active) % 4
        assert [s.table for s in drawn.tables] == list(range(1, len(drawn.tables) + 1))
        new = {frozenset(side) for s in drawn.tables for side in (s.ns, s.ew)}
        assert not new & last_partners
        place = {row.player: k for k, row in enumerate(individual_standings(current))}
        assert all(place[s.ns[0]] < place[s.ns[1]] for s in drawn.tables)
        assert all(place[s.ew[0]] < place[s.ew[1]] for s in drawn.tables)
        # The byes to the fewest byes: no second bye before every player has had one.
        playing = [byes_had[p] for p in active if p not in drawn.byes]
        if drawn.byes and playing:
            assert max(byes_had[p] for p in drawn.byes) <= min(playing)
        for player in drawn.byes:
            byes_had[player] += 1
        last_partners = new
        entries: list[dict[str, Any]] = [
            {
                "table": s.table,
                "ns": list(s.ns),
                "ew": list(s.ew),
                "mp": [seed.randrange(0, 20) * 100, 900],
            }
            for s in drawn.tables
        ]
        entries += [{"bye": player} for player in drawn.byes]
        document = {
            **document,
            "results": [*document["results"], {"round": number, "tables": entries}],
        }
        assert next_individual_round(current) == drawn


# --- the file written back ----------------------------------------------------------------


def test_an_individual_file_reads_back_equal():
    document = worked_example(played_on="2026-12-03", bye_vp=10)
    document["players"][2].update(club="Circolo Est", withdrawn=True)
    document["results"].append(
        {
            "round": 2,
            "tables": [
                {"table": 1, "ns": ["P5", "P1"], "ew": ["P6", "P4"], "match": match("burraco", 3)},
                {"bye": "P8"},
            ],
        }
    )
    tournament = read_individual(document)
    written = tournament_to_document(tournament)
    assert written["kind"] == "individual"
    assert "pairs" not in written
    assert written["players"][2] == {
        "id": "P3",
        "name": "Player P3",
        "club": "Circolo Est",
        "withdrawn": True,
    }
    assert written["results"][0]["tables"][0] == {
        "table": 1,
        "ns": ["P1", "P2"],
        "ew": ["P3", "P4"],
        "mp": [900, 1100],
    }
    assert written["results"][1]["tables"][1] == {"bye": "P8"}
    again = read_tournament_file(json.loads(json.dumps(written)))
    assert again == tournament
    assert standings_document(again) == standings_document(tournament)
    table = again.results[1].entries[0]
    assert isinstance(table, PartnershipTable)
    assert table.match is not None
    assert table.mp == (2355, 240)


def test_a_file_without_kind_is_a_file_of_pairs_and_kind_pairs_too():
    from tournament_cases import tournament

    plain = tournament(4)
    assert printed("pair", plain) == printed("pair", {**plain, "kind": "pairs"})
    assert not isinstance(read_tournament_file(plain), IndividualTournament)
