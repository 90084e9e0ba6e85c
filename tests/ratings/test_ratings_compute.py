"""The pure ratings computation against openskill's own results (RATINGS.md §2–4, §6)."""

from __future__ import annotations

import datetime

import pytest
from openskill.models import PlackettLuce

from anotador.ratings import compute
from anotador.ratings.compute import Event

DAY = datetime.date(2026, 5, 1)


def openskill_after(teams: list[list[str]], ranks: list[int]) -> dict[str, tuple[float, float]]:
    """openskill's own answer for one event from fresh players."""
    model = PlackettLuce()
    rated = model.rate([[model.rating() for _ in team] for team in teams], ranks=ranks)
    return {
        player: (new.mu, new.sigma)
        for team, news in zip(teams, rated, strict=True)
        for player, new in zip(team, news, strict=True)
    }


# layout, sides, totals, winner, the ranks openskill is given (None: not an event)
CASES = [
    ("2p", [["ana"], ["beto"]], [5100, 3200], 0, [0, 1]),
    ("2p shared win", [["ana"], ["beto"]], [5000, 5000], None, [0, 0]),
    ("3p", [["ana"], ["beto"], ["caro"]], [1500, 5200, 3000], 1, [2, 0, 1]),
    ("3p tie below", [["ana"], ["beto"], ["caro"]], [1500, 5200, 1500], 1, [1, 0, 1]),
    ("4p", [["ana", "caro"], ["beto", "dani"]], [3000, 5050], 1, [1, 0]),
    (
        "6p-3x2",
        [["ana", "dani"], ["beto", "eli"], ["caro", "fede"]],
        [5300, 2000, 4100],
        0,
        [0, 2, 1],
    ),
    ("6p-2x3", [["ana", "caro", "eli"], ["beto", "dani", "fede"]], [2500, 6000], 1, [1, 0]),
    ("dream hand", [["ana"], ["beto"]], [8000, 8800], 0, [0, 1]),
    ("dream hand, 3 sides", [["ana"], ["beto"], ["caro"]], [800, 900, 700], 2, [2, 1, 0]),
    ("side without players", [["ana"], [], ["caro"]], [100, 900, 700], 1, None),
]


@pytest.mark.parametrize(("layout", "sides", "totals", "winner", "expected"), CASES)
def test_one_event_is_openskills_own(layout, sides, totals, winner, expected):
    event = Event(1, DAY, tuple(tuple(s) for s in sides), tuple(totals), winner)
    standings, steps = compute.replay([event])
    if expected is None:  # the playerless side drops out, the others keep their order
        present = [(s, t) for s, t in zip(sides, totals, strict=True) if s]
        teams = [s for s, _ in present]
        ours = [t for _, t in present]
        expected = [sum(1 for other in ours if other > t) for t in ours]
    else:
        teams = sides
        assert compute.ranks(totals, winner) == expected
    want = openskill_after(teams, expected)
    assert {p: (s.mu, s.sigma) for p, s in standings.items()} == want
    assert all(s.matches == 1 for s in standings.values())
    assert len(steps) == len(want)


def test_the_contracts_example():
    standings, _ = compute.replay([Event(1, DAY, (("Ana",), ("Beto",)), (5000, 100), 0)])
    assert standings["Ana"].mu == 27.635389493140497
    assert standings["Beto"].mu == 22.364610506859503
    assert standings["Ana"].sigma == standings["Beto"].sigma == 8.06590141354368


@pytest.mark.parametrize(
    "sides",
    [
        (("ana",), ("ana",)),  # one player in two seats
        (("ana", "beto"), ("caro", "ana")),
        (("ana",), ()),  # one side with players
    ],
)
def test_matches_that_are_no_event(sides):
    standings, steps = compute.replay([Event(1, DAY, sides, (100, 200), None)])
    assert standings == {}
    assert steps == []


def test_events_go_by_date_then_id_and_chain():
    late = Event(1, DAY, (("ana",), ("beto",)), (100, 900), 1)
    early = Event(2, DAY - datetime.timedelta(days=3), (("ana",), ("caro",)), (900, 100), 0)
    same_day_later_id = Event(3, DAY, (("caro",), ("beto",)), (500, 500), None)
    standings, steps = compute.from_scratch([same_day_later_id, late, early])
    model = PlackettLuce()
    ana, beto, caro = model.rating(), model.rating(), model.rating()
    [[ana], [caro]] = model.rate([[ana], [caro]], ranks=[0, 1])
    [[ana], [beto]] = model.rate([[ana], [beto]], ranks=[1, 0])
    [[caro], [beto]] = model.rate([[caro], [beto]], ranks=[0, 0])
    assert [s.match_id for s in steps] == [2, 2, 1, 1, 3, 3]
    for name, rating in {"ana": ana, "beto": beto, "caro": caro}.items():
        assert (standings[name].mu, standings[name].sigma) == (rating.mu, rating.sigma)
    assert standings["beto"].matches == 2
    # Each step starts where the player's step before ended.
    beto_steps = [s for s in steps if s.player == "beto"]
    assert beto_steps[1].before == beto_steps[0].after


def test_places_of_a_step():
    event = Event(1, DAY, (("a",), ("b",), ("c",)), (500, 900, 900), None)
    _, steps = compute.replay([event])
    places = {s.player: (s.place, s.shared, s.sides) for s in steps}
    assert places == {"a": (3, False, 3), "b": (1, True, 3), "c": (1, True, 3)}


def test_shown_number_and_provisional():
    assert compute.Standing().shown == 0
    assert compute.shown(27.635389493140497, 8.06590141354368) == 344
    assert compute.shown(10.0, 5.0) == -500
    assert compute.shown(0.004995, 0.0) == 0  # never "-0" either way
    assert compute.shown(-0.004995, 0.0) == 0
    assert compute.shown(0.005, 0.0) == 1
    assert compute.shown(-0.005, 0.0) == -1
    assert compute.Standing(matches=4).provisional
    assert not compute.Standing(matches=5).provisional


def test_the_change_of_a_step_is_in_shown_points():
    _, steps = compute.replay([Event(1, DAY, (("a",), ("b",)), (5, 1), 0)])
    first = steps[0]
    assert first.change == first.after.shown - 0 == 344


def test_chances_are_openskills_prediction():
    strong, weak = compute.Standing(30.0, 4.0, 9), compute.Standing(20.0, 6.0, 9)
    model = PlackettLuce()
    want = model.predict_win(
        [[model.rating(30.0, 4.0), model.rating(20.0, 6.0)], [model.rating(20.0, 6.0)] * 2]
    )
    assert compute.chances([[strong, weak], [weak, weak]]) == want
    assert compute.chances([[strong], []]) == []
    three = compute.chances([[strong], [], [weak]])
    assert three[1] == 0.0
    assert three[0] > three[2]
    assert sum(three) == pytest.approx(1.0)
