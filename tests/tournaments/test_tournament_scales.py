"""Victory points (TOURNAMENTS.md §2): every band edge of the FIBUR 20-0 tables, the other
scales, a club's bands and the default VP of a bye."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from tournament_cases import played
from tournament_cases import printed
from tournament_cases import tournament

from anotador.tournaments import NAMED_SCALES
from anotador.tournaments import Scale
from anotador.tournaments import victory_points

# The printed tables: (lowest difference, highest difference, winner's VP).
FIBUR_3 = [
    (0, 50, 10),
    (55, 150, 11),
    (155, 250, 12),
    (255, 350, 13),
    (355, 500, 14),
    (505, 650, 15),
    (655, 800, 16),
    (805, 1000, 17),
    (1005, 1250, 18),
    (1255, 1500, 19),
]
FIBUR_4 = [
    (0, 100, 10),
    (105, 300, 11),
    (305, 500, 12),
    (505, 700, 13),
    (705, 900, 14),
    (905, 1100, 15),
    (1105, 1300, 16),
    (1305, 1500, 17),
    (1505, 1700, 18),
    (1705, 2000, 19),
]


def edges(table: list[tuple[int, int, int]]) -> list[tuple[int, int, int]]:
    """(difference, winner's VP, loser's VP) at both ends of every printed band, just above
    each upper bound (not a multiple of 5: the next band) and above the last one (20-0)."""
    cases = []
    for low, high, vp in table:
        cases += [(low, vp, 20 - vp), (high, vp, 20 - vp), (high + 1, vp + 1, 19 - vp)]
        cases += [(high + 4, vp + 1, 19 - vp)]
    last = table[-1][1]
    return [*cases, (last + 5, 20, 0), (1_000_000, 20, 0)]


@pytest.mark.parametrize(("difference", "winner", "loser"), edges(FIBUR_3))
def test_fibur_3_bands(difference: int, winner: int, loser: int):
    scale = NAMED_SCALES["fibur-3"]
    assert victory_points(scale, 300 + difference, 300) == (winner, loser)
    assert victory_points(scale, -difference, 0) == (loser, winner)


@pytest.mark.parametrize(("difference", "winner", "loser"), edges(FIBUR_4))
def test_fibur_4_bands(difference: int, winner: int, loser: int):
    scale = NAMED_SCALES["fibur-4"]
    assert victory_points(scale, difference - 120, -120) == (winner, loser)
    assert victory_points(scale, 0, difference) == (loser, winner)


def test_the_spec_s_examples_of_edges():
    scale = NAMED_SCALES["fibur-3"]
    assert [victory_points(scale, d, 0) for d in (50, 52, 150, 151, 1500, 1501)] == [
        (10, 10),
        (11, 9),
        (11, 9),
        (12, 8),
        (19, 1),
        (20, 0),
    ]


@pytest.mark.parametrize(
    ("mp", "vp"), [((0, 0), (1, 1)), ((5, 0), (2, 0)), ((-5, 0), (0, 2)), ((-30, -30), (1, 1))]
)
def test_win_draw_loss(mp: tuple[int, int], vp: tuple[int, int]):
    assert victory_points(NAMED_SCALES["wdl"], *mp) == vp


def test_points_are_the_pairs_own_mp():
    assert victory_points(NAMED_SCALES["points"], 1340, -215) == (1340, -215)


FOOTBALL = Scale("club", "bands", ((0, 1, 1),), (3, 0))
TWO_HANDS = Scale("club", "bands", ((30, 10, 10), (100, 12, 8)), (15, 5))


@pytest.mark.parametrize(
    ("scale", "mp", "vp"),
    [
        (FOOTBALL, (100, 100), (1, 1)),
        (FOOTBALL, (101, 100), (3, 0)),
        (FOOTBALL, (100, 101), (0, 3)),
        (TWO_HANDS, (30, 0), (10, 10)),
        (TWO_HANDS, (31, 0), (12, 8)),
        (TWO_HANDS, (0, 100), (8, 12)),
        (TWO_HANDS, (101, 0), (15, 5)),
    ],
)
def test_a_club_s_bands(scale: Scale, mp: tuple[int, int], vp: tuple[int, int]):
    assert victory_points(scale, *mp) == vp


@pytest.mark.parametrize(
    ("scale", "bye"),
    [
        ("fibur-3", 12),
        ("fibur-4", 12),
        ("wdl", 2),
        ("points", 0),
        ({"bands": [[0, 1, 1]], "above": [3, 0]}, 1),
        ({"bands": [[30, 10, 10], [100, 12, 8]], "above": [15, 5]}, 12),
        ({"bands": [[30, 10, 10], [100, 12, 8]], "above": [16, 5]}, 10),
    ],
)
def test_the_default_vp_of_a_bye(scale: object, bye: int):
    document = tournament(3, played([("p1", "p2", 100, 100), "p3"]), scale=scale)
    assert printed("standings", document)["rounds"][0]["tables"][1] == {"bye": "p3", "vp": bye}


def test_a_bye_s_vp_written_in_the_file():
    document = tournament(3, played([("p1", "p2", 100, 100), "p3"]), bye_vp=-3)
    rows = {row["pair"]: row for row in printed("standings", document)["standings"]}
    assert (rows["p3"]["vp"], rows["p3"]["byes"], rows["p3"]["played"]) == (-3, 1, 0)
    assert (rows["p3"]["mp_for"], rows["p3"]["mp_against"]) == (0, 0)


MP = st.integers(-1_000_000, 1_000_000)


@given(st.sampled_from(["fibur-3", "fibur-4", "wdl"]), MP, MP)
def test_a_table_s_vp_add_up_to_the_scale_s_total(name: str, ns: int, ew: int):
    scale = NAMED_SCALES[name]
    first, second = victory_points(scale, ns, ew)
    assert first + second == (2 if name == "wdl" else 20)
    # More MP never earns fewer VP.
    assert first >= second if ns >= ew else first <= second
    assert victory_points(scale, ew, ns) == (second, first)


@given(st.sampled_from(["fibur-3", "fibur-4"]), MP, st.integers(0, 3000))
def test_a_larger_difference_never_earns_the_winner_less(name: str, base: int, more: int):
    scale = NAMED_SCALES[name]
    assert (
        victory_points(scale, base + more + 5, base)[0]
        >= victory_points(scale, base + more, base)[0]
    )
