"""Statistics kept as data: every change to a match rewrites its sides' figures in the same
transaction, so the statistics read from them always equal a fresh scoring of every match;
figures left behind by a change made outside the app are never used."""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask
from sql_counting import count_statements
from stored import create_stored_match
from stored import match_document

from anotador import backup
from anotador import services
from anotador.services.scope import EVERYTHING
from anotador.statistics import reads as statistics
from anotador.statistics import summaries as stats
from anotador.storage.database import db
from anotador.storage.models import Hand
from anotador.storage.models import Match
from anotador.storage.models import Player
from anotador.storage.models import Side

SIDES = [
    {"name": "Nosotros", "players": ["Ana", "Carla"]},
    {"name": "Ellos", "players": ["Beto", "Dani"]},
]


def hand(ours: int, theirs: int, closer: int | None = None, clean: int = 0) -> dict[str, Any]:
    sides = [{"table_points": ours, "hand_points": 0}, {"table_points": theirs, "hand_points": 0}]
    sides[closer or 0]["clean"] = clean
    if closer is None:
        return {"end": "stock_out", "sides": sides}
    return {"end": "closed", "closer": closer, "sides": sides}


HANDS = [hand(120, 50, 0, 1), hand(60, 300, 1, 1), hand(400, 40, 0, 2)]


def ana(app: Flask) -> int:
    with app.app_context():
        return db.session.scalars(sa.select(Player.id).where(Player.name == "Ana")).one()


def kept(app: Flask) -> list[stats.MatchSummary]:
    """Ana's summaries as the statistics page reads them."""
    with app.app_context():
        return statistics.summaries(EVERYTHING, [ana(app)], all_players=True)


def rescored(app: Flask) -> list[stats.MatchSummary]:
    """Ana's summaries from a fresh scoring of every match's stored hands."""
    with app.app_context():
        player = ana(app)
        with_figures = statistics.summaries(EVERYTHING, [player], all_players=True)
        matches = list(
            db.session.scalars(
                sa.select(Match).where(Match.id.in_([s.match_id for s in with_figures]))
            )
        )
        sides = {
            match.id: {
                side.position: statistics.Seated(
                    side.name,
                    None,
                    [seat.player.id for seat in side.seats],
                    [seat.player.name for seat in side.seats],
                )
                for side in match.sides
            }
            for match in matches
        }
        fresh = statistics.rescore([match.id for match in matches], sides)
        return [fresh[s.match_id] for s in with_figures if s.match_id in fresh]


def assert_kept(app: Flask) -> None:
    """The stored figures are of every match's current version and equal a fresh scoring,
    as do the player's statistics made from them."""
    with app.app_context():
        rows = db.session.execute(sa.select(Side.figures, Match.version).join(Match)).all()
        assert rows
        assert all(figures["version"] == version for figures, version in rows)
    summaries, fresh = kept(app), rescored(app)
    assert summaries == fresh
    team = frozenset([ana(app)])
    assert stats.team_stats(summaries, team) == stats.team_stats(fresh, team)


def load(match_id: int) -> Match:
    match = services.queries.load_match(match_id)
    assert match is not None
    return match


Change = Callable[[Match], Any]

CHANGES: dict[str, Change] = {
    "record": lambda m: services.hands.record_hand(m, hand(90, 150, 1, 1), m.version, "k"),
    "edit": lambda m: services.hands.edit_hand(m, 2, hand(500, 0, 0, 3), m.version),
    "delete": lambda m: services.hands.delete_hand(m, 1, m.version),
    "undo": lambda m: services.hands.undo_last_hand(m, m.version),
    "abandon": lambda m: services.matches.set_abandoned(m, True, m.version),
}


@pytest.mark.parametrize("change", list(CHANGES))
def test_a_change_rewrites_the_figures(app: Flask, change: str):
    match_id = create_stored_match(app, match_document(sides=SIDES, hands=HANDS))
    create_stored_match(app, match_document(sides=SIDES, hands=HANDS[:1]))
    assert_kept(app)
    before = kept(app)
    with app.app_context():
        outcome = CHANGES[change](load(match_id))
        assert outcome is True or outcome.ok
    assert kept(app) != before or change == "abandon"
    assert_kept(app)


def test_resuming_an_abandoned_match_rewrites_the_figures(app: Flask):
    match_id = create_stored_match(app, match_document(sides=SIDES, hands=HANDS))
    with app.app_context():
        assert services.matches.set_abandoned(load(match_id), True, load(match_id).version)
        assert services.matches.set_abandoned(load(match_id), False, load(match_id).version)
    assert_kept(app)


def test_an_import_and_a_restore_store_the_figures(app: Flask):
    one = json.dumps(match_document(sides=SIDES, hands=HANDS, played_on="2025-01-02"))
    other = json.dumps(match_document(sides=SIDES, hands=HANDS[:2], played_on="2025-01-03"))
    with app.app_context():
        report = backup.import_stream(io.BytesIO(f"{one}\n{other}\n".encode()))
        assert report.created == 2
    assert_kept(app)
    with app.app_context():
        dump = "".join(backup.export_lines(EVERYTHING)).encode()
        db.session.execute(sa.delete(Match))
        db.session.commit()
        assert backup.import_stream(io.BytesIO(dump)).created == 2
    assert_kept(app)


def test_a_hand_changed_outside_the_app_is_scored_again(app: Flask):
    """A hand rewritten in SQL with the version bumped (as ``anotador check --fix`` does)
    leaves figures of an older version: the statistics score that match instead."""
    match_id = create_stored_match(app, match_document(sides=SIDES, hands=HANDS))
    before = kept(app)
    with app.app_context():
        db.session.execute(
            sa.update(Hand)
            .where(Hand.match_id == match_id, Hand.number == 3)
            .values(inputs=hand(40, 400, 1, 1))
        )
        db.session.execute(sa.update(Match).values(version=Match.version + 1))
        db.session.commit()
    after = kept(app)
    assert after != before
    assert after == rescored(app)


def test_a_match_broken_outside_the_app_leaves_the_statistics(app: Flask):
    """Figures of an older version are not used even when the engine refuses the match now."""
    match_id = create_stored_match(app, match_document(sides=SIDES, hands=HANDS))
    with app.app_context():
        db.session.execute(
            sa.update(Hand)
            .where(Hand.match_id == match_id, Hand.number == 3)
            .values(inputs=hand(40, 400, 1, clean=0))  # closing without a canasta
        )
        db.session.execute(sa.update(Match).values(version=Match.version + 1))
        db.session.commit()
    assert kept(app) == []


def test_statistics_read_no_hands(app: Flask):
    for _ in range(3):
        create_stored_match(app, match_document(sides=SIDES, hands=HANDS))
    player = ana(app)
    with count_statements(app) as statements, app.app_context():
        found = statistics.summaries(EVERYTHING, [player], all_players=True)
    assert len(found) == 3
    assert not [s for s in statements if "hand.inputs" in s]


def test_hands_recorded_one_by_one_add_each_hand_to_the_figures(app: Flask):
    """A save adds its hand to the stored figures (it does not add every hand up again):
    after each hand they are still those of a fresh scoring, the best hand and ties too."""
    match_id = create_stored_match(app, match_document(sides=SIDES, hands=[]))
    played = [*HANDS, hand(400, 40, 0, 2), hand(0, 0), hand(30, 700, 1, 3)]
    for number, played_hand in enumerate(played, start=1):
        with app.app_context():
            match = load(match_id)
            outcome = services.hands.record_hand(match, played_hand, match.version, f"k{number}")
            assert outcome.ok, outcome
        assert_kept(app)


def test_a_save_adds_up_every_hand_when_the_figures_are_not_of_the_version_before(app: Flask):
    """Figures left by a write outside the app (another version) are not added to."""
    match_id = create_stored_match(app, match_document(sides=SIDES, hands=HANDS))
    with app.app_context():
        wrong = stats.SideFigures(hands=2, points=99_999).to_document()
        db.session.execute(sa.update(Side).values(figures={**wrong, "version": 0}))
        db.session.commit()
        match = load(match_id)
        assert services.hands.record_hand(match, hand(90, 150, 1, 1), match.version, "k").ok
    assert_kept(app)
