"""Statistics over a small history whose figures were worked out by hand."""

import datetime
from typing import Any

import pytest
from flask import Flask
from hypothesis import given
from hypothesis import strategies as st
from stored import OWNER
from stored import create_stored_match
from stored import match_document

from anotador import services
from anotador.services.scope import EVERYTHING
from anotador.services.scope import Scope
from anotador.statistics import reads as statistics_reads
from anotador.statistics import summaries as stats
from anotador.storage.models import name_key

AB, CD, AC, BD = ["Ana", "Beto"], ["Carla", "Dani"], ["Ana", "Carla"], ["Beto", "Dani"]


def side(**fields: int) -> dict[str, int]:
    return {"table_points": 0, "hand_points": 0, **fields}


def document(variant: str, day: str, sides: list[list[str]], hands: list[Any], **extra: Any):
    return match_document(
        variant,
        options={"target": 1000},
        sides=[{"name": " y ".join(players), "players": players} for players in sides],
        hands=hands,
        played_on=day,
        **extra,
    )


# Each hand's score, by the §2.10 formula:
# m1 h1: A 500+200+100(red)+100(close) = 900; B 300+150-50 = 400
# m1 h2: A 50-100 = -50; B 500+300+300+200(red 2)+100 = 1400 -> 850 / 1800, B wins
# m2 h1: A+C 1000+300+200(concealed) = 1500; B+D never melded: -100(red) -80 = -180; A+C win
# m3 (classic) h1: A+B 500+300+400+100 = 1300; C+D 100-30 = 70; A+B win
# m4 h1 (stock out, abandoned): A+B 100-20 = 80; C+D 60-10 = 50
HISTORY = [
    document("uruguaya", "2024-01-10", [AB, CD], [
        {"end": "closed", "closer": 0, "sides": [
            side(clean=1, table_points=200, red_threes=1),
            side(dirty=1, table_points=150, hand_points=50)]},
        {"end": "closed", "closer": 1, "sides": [
            side(table_points=50, hand_points=100),
            side(clean=1, dirty=1, table_points=300, red_threes=2)]},
    ]),
    document("uruguaya", "2024-02-01", [AC, BD], [
        {"end": "closed", "closer": 0, "concealed": True, "sides": [
            side(clean=2, table_points=300), side(hand_points=80, red_threes=1)]},
    ]),
    document("classic", "2024-03-01", [AB, CD], [
        {"end": "closed", "closer": 0, "sides": [
            side(clean=1, dirty=1, table_points=400), side(table_points=100, hand_points=30)]},
    ]),
    document("uruguaya", "2024-03-05", [AB, CD], [
        {"end": "stock_out", "closer": None, "sides": [
            side(table_points=100, hand_points=20), side(table_points=60, hand_points=10)]},
    ], abandoned=True),
]  # fmt: skip


@pytest.fixture
def ids(app: Flask) -> dict[str, int]:
    """The history above, stored; the players' ids by first name."""
    with app.app_context():
        for match_file in HISTORY:
            create_stored_match(app, match_file)
        return {
            name: services.queries.find_player(EVERYTHING, name).id
            for name in ("Ana", "Beto", "Carla", "Dani")
        }


def load(app: Flask, *players: int, **filters: Any) -> list[stats.MatchSummary]:
    with app.app_context():
        return statistics_reads.summaries(
            EVERYTHING, players, services.queries.Filters(**filters), all_players=True
        )


def test_engine_agrees_with_the_hand_worked_scores(app: Flask, ids: dict[str, int]):
    summaries = load(app, ids["Ana"])
    # Each side's hand scores were 900 and -50 against 400 and 1400, then one hand each.
    figures = [
        [(f.hands, f.points, f.best_score, f.best_number) for f in (s.figures for s in m.sides)]
        for m in summaries
    ]
    assert figures == [
        [(2, 850, 900, 1), (2, 1800, 1400, 2)],
        [(1, 1500, 1500, 1), (1, -180, -180, 1)],
        [(1, 1300, 1300, 1), (1, 70, 70, 1)],
        [(1, 80, 80, 1), (1, 50, 50, 1)],
    ]
    assert [(m.finished, m.winner) for m in summaries] == [
        (True, 1),
        (True, 0),
        (True, 0),
        (False, None),
    ]


def test_player_record(app: Flask, ids: dict[str, int]):
    ana = frozenset([ids["Ana"]])
    figures = stats.team_stats(load(app, ids["Ana"]), ana)
    overall = figures.overall
    assert (overall.matches, overall.finished, overall.wins) == (4, 3, 2)
    assert overall.win_rate == pytest.approx(2 / 3)
    assert (overall.hands, overall.points) == (5, 3730)
    assert overall.points_per_hand == 746
    assert overall.closed_rate == pytest.approx(3 / 5)
    assert (overall.clean, overall.dirty, overall.red_threes) == (4, 1, 1)
    assert overall.clean_per_hand == pytest.approx(0.8)
    assert overall.best_hand == stats.BestHand(1500, overall.best_hand.match_id, 1)
    assert overall.longest_streak == 2
    by_variant = {v: (r.matches, r.finished, r.wins) for v, r in figures.by_variant.items()}
    assert by_variant == {"classic": (1, 1, 1), "uruguaya": (3, 2, 1)}
    assert [(p.player_id, p.matches, p.wins) for p in figures.partners] == [
        (ids["Beto"], 3, 1),
        (ids["Carla"], 1, 1),
    ]
    assert [(r.won, r.balance) for r in figures.results] == [(False, -1), (True, 0), (True, 1)]


def test_a_match_without_hands_is_not_a_match_played(app: Flask, ids: dict[str, int]):
    """Issue 25: a rematch nobody scored yet (or a match opened and left) counts nowhere."""
    for players in ([AB, CD], [AC, BD]):
        create_stored_match(app, document("uruguaya", "2024-04-01", players, []))
    ana, beto = frozenset([ids["Ana"]]), frozenset([ids["Beto"]])
    assert stats.team_stats(load(app, ids["Ana"]), ana).overall.matches == 4
    assert stats.record(load(app, ids["Ana"], ids["Beto"]), ana | beto).matches == 3
    with app.app_context():
        # The account's own statement (one player, no filter) too.
        owner = Scope(services.accounts.find_account(OWNER).id)
        mine = statistics_reads.summaries(owner, [ids["Ana"]])
        rows, _after = services.queries.player_registry(owner)
    assert stats.record(mine, ana).matches == 4
    assert {row.name: row.matches for row in rows} == {"Ana": 4, "Beto": 4, "Carla": 4, "Dani": 4}


def test_filters_by_variant_and_dates(app: Flask, ids: dict[str, int]):
    ana = frozenset([ids["Ana"]])
    since = stats.record(load(app, ids["Ana"], since=datetime.date(2024, 2, 1)), ana)
    assert (since.matches, since.wins, since.points) == (3, 2, 1500 + 1300 + 80)
    until = stats.record(load(app, ids["Ana"], until=datetime.date(2024, 1, 31)), ana)
    assert (until.matches, until.wins, until.points) == (1, 0, 850)
    classic = stats.record(load(app, ids["Ana"], variant="classic"), ana)
    assert (classic.matches, classic.wins, classic.best_hand.score) == (1, 1, 1300)


def test_pair_record(app: Flask, ids: dict[str, int]):
    pair = frozenset([ids["Ana"], ids["Beto"]])
    record = stats.record(load(app, *pair), pair)
    assert (record.matches, record.finished, record.wins, record.longest_streak) == (3, 2, 1, 1)
    assert (record.hands, record.points, record.closed) == (4, 850 + 1300 + 80, 2)


def test_head_to_head_players_and_pairs(app: Flask, ids: dict[str, int]):
    ana, dani = frozenset([ids["Ana"]]), frozenset([ids["Dani"]])
    result = stats.head_to_head(load(app, ids["Ana"], ids["Dani"]), ana, dani)
    assert (len(result.matches), result.finished) == (4, 3)
    assert (result.first_wins, result.second_wins, result.other_wins) == (2, 1, 0)
    assert result.second.points == 400 + 1400 - 180 + 70 + 50

    ab, cd = frozenset([ids["Ana"], ids["Beto"]]), frozenset([ids["Carla"], ids["Dani"]])
    pairs = stats.head_to_head(load(app, *ab, *cd), ab, cd)
    assert (len(pairs.matches), pairs.first_wins, pairs.second_wins) == (3, 1, 1)

    partners = stats.head_to_head(load(app, ids["Ana"], ids["Beto"]), ana, frozenset([ids["Beto"]]))
    assert (len(partners.matches), partners.first_wins, partners.second_wins) == (1, 1, 0)


def test_shared_and_three_sided_results_count_as_not_won():
    figures = stats.SideFigures.of([stats.SideHand(100, False, 0, 0, 0)])
    sides = tuple(stats.SideSummary(str(i), (i,), 100, figures) for i in range(3))
    shared = stats.MatchSummary(1, datetime.date(2024, 1, 1), "uruguaya", True, None, sides)
    third = stats.MatchSummary(2, datetime.date(2024, 1, 2), "uruguaya", True, 2, sides)
    result = stats.head_to_head([shared, third], frozenset([0]), frozenset([1]))
    assert (result.finished, result.first_wins, result.second_wins, result.other_wins) == (
        2,
        0,
        0,
        2,
    )
    assert stats.record([shared, third], frozenset([0])).win_rate == 0


def test_empty_history():
    record = stats.record([], frozenset([1]))
    assert record.win_rate is None
    assert record.points_per_hand is None
    assert record.best_hand is None


def test_name_keys_used_by_lookups():
    assert name_key("  José   PÉREZ ") == "jose perez"


def test_charts_draw_each_side_and_the_target(app: Flask):
    from anotador import rules
    from anotador.statistics import charts

    with app.test_request_context():
        game, _ = rules.read_match(HISTORY[0])
        svg = str(charts.match_progression_svg(game, rules.score_match(game)))
        assert svg.count("<polyline") == 2
        assert "Ana y Beto" in svg
        assert "(1.000)" in svg  # the target, in the chart's title, as pages write numbers
        day = datetime.date(2024, 1, 1)
        many = [stats.ResultPoint(n, day, n % 2 == 0, n % 7) for n in range(5000)]
        points = str(charts.results_svg(many)).split('points="')[1].split('"')[0].split()
        assert len(points) == charts.MAX_POINTS + 1
        assert str(charts.results_svg([])) == ""


SIDE_HANDS = st.builds(
    stats.SideHand,
    score=st.integers(-2000, 5000),
    closed=st.booleans(),
    clean=st.integers(0, 5),
    dirty=st.integers(0, 5),
    red_threes=st.integers(0, 4),
    kinds=st.tuples(
        st.tuples(st.just("clean"), st.integers(0, 3)),
        st.tuples(st.just("dirty"), st.integers(0, 3)),
    ),
    special=st.booleans(),
)


@given(st.lists(SIDE_HANDS, max_size=30))
def test_adding_hands_one_by_one_gives_the_figures_of_all_of_them(hands: list[stats.SideHand]):
    figures = stats.SideFigures()
    for side_hand in hands:
        figures = figures.plus(side_hand)
    assert figures == stats.SideFigures.of(hands)
