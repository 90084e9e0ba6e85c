"""Many new matches at once: one statement per table for a whole batch.

Imports (:mod:`anotador.backup`) and demo data (:mod:`anotador.commands.demo`) store thousands of
matches; going through the ORM one match at a time (a player lookup per name, an object per
row) made a 10,000-match restore take minutes. Here a batch is a few statements: the
batch's players are found and created in two, then matches, sides, seats and hands go in
with one multi-row insert each. The summary columns come from the engine's score, as
:func:`anotador.services.documents.refresh_summary` writes them.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql
from sqlalchemy.dialects import sqlite

from anotador import rules
from anotador.ratings import store as ratings
from anotador.services.documents import stored_figures
from anotador.storage.database import db
from anotador.storage.models import Hand
from anotador.storage.models import Match
from anotador.storage.models import Player
from anotador.storage.models import Seat
from anotador.storage.models import Side
from anotador.storage.models import name_key


@dataclass(frozen=True)
class NewMatch:
    """One match to insert: its ``match`` row, its sides (name, player ids in seat order)
    and its hands (match-file hand objects)."""

    match: dict[str, Any]
    sides: list[tuple[str, list[int]]]
    hands: list[dict[str, Any]]
    #: Each side's ``Side.figures`` (:func:`figures_of`).
    figures: list[dict[str, Any]]


def figures_of(game: rules.Match, score: rules.MatchScore) -> list[dict[str, Any]]:
    """The sides' stored figures of a new match (its version is 0)."""
    return stored_figures(game, score, 0)


def match_row(
    game: rules.Match,
    score: rules.MatchScore,
    document: dict[str, Any],
    content_hash: str,
    owner_id: int | None,
) -> dict[str, Any]:
    """The ``match`` row of an engine match of account ``owner_id``; ``document`` is its
    match file (with a date)."""
    status = "finished" if score.finished else "abandoned" if game.abandoned else "ongoing"
    return {
        "variant": game.rules.variant.name,
        "layout": game.rules.layout.name,
        "settings": document["options"],
        "start_scores": list(game.start_scores),
        "title": game.title,
        "notes": game.notes,
        "played_on": datetime.date.fromisoformat(document["played_on"]),
        "abandoned": game.abandoned,
        "hand_limit": game.hand_limit,
        "play_every_hand": game.play_every_hand,
        "first_dealer": None,
        "status": status,
        "totals": list(score.totals),
        "winner": score.winner,
        "hand_count": len(game.hands),
        "content_hash": content_hash,
        "owner_id": owner_id,
        "group_id": None,
        "table_token": None,
        "spectator_token": None,
    }


def player_ids(names: Iterable[str], owner_id: int | None) -> dict[str, int]:
    """name_key -> id of the player of account ``owner_id`` for every name, creating the
    missing players (the first
    spelling of a name wins, as when matches are created one by one): a query, and an insert
    and a second query when some are new. A player another request created meanwhile is
    found, not inserted twice."""
    wanted: dict[str, str] = {}
    for name in names:
        clean = rules.clean_text(name)
        wanted.setdefault(name_key(clean), clean)
    if not wanted:
        return {}
    owned = Player.owner_id == owner_id  # IS NULL for None
    statement = sa.select(Player.name_key, Player.id).where(owned, Player.name_key.in_(wanted))
    known: dict[str, int] = {key: player_id for key, player_id in db.session.execute(statement)}
    missing = [
        {"name": name, "name_key": key, "owner_id": owner_id}
        for key, name in wanted.items()
        if key not in known
    ]
    if missing:
        db.session.execute(insert_new_players(), missing)
        statement = sa.select(Player.name_key, Player.id).where(
            owned, Player.name_key.in_([row["name_key"] for row in missing])
        )
        known.update({key: player_id for key, player_id in db.session.execute(statement)})
    return known


def insert_new_players() -> sa.Insert:
    """INSERT into player that skips a name the account has already (both databases say it
    as ON CONFLICT DO NOTHING)."""
    table = Player.__table__
    names = ["owner_id", "name_key"]
    if db.session.get_bind().dialect.name == "postgresql":
        return postgresql.insert(table).on_conflict_do_nothing(index_elements=names)
    return sqlite.insert(table).on_conflict_do_nothing(index_elements=names)


def insert_matches(new: list[NewMatch]) -> list[int]:
    """Insert matches with their sides, seats and hands (four statements); the new ids."""
    if not new:
        return []
    # Core statements on the session's connection: the ORM's bulk path costs a third more.
    connection = db.session.connection()
    table = Match.__table__
    statement = table.insert().returning(table.c.id, sort_by_parameter_order=True)
    match_ids = list(connection.execute(statement, [item.match for item in new]).scalars())
    side_rows = [
        {"match_id": match_id, "position": position, "name": name, "figures": figures}
        for match_id, item in zip(match_ids, new, strict=True)
        for position, ((name, _), figures) in enumerate(zip(item.sides, item.figures, strict=True))
    ]
    table = Side.__table__
    statement = table.insert().returning(table.c.id, sort_by_parameter_order=True)
    side_ids = iter(list(connection.execute(statement, side_rows).scalars()))
    seats, hands = [], []
    for match_id, item in zip(match_ids, new, strict=True):
        count = len(item.sides)
        for position, (_, players) in enumerate(item.sides):
            side_id = next(side_ids)
            for index, player_id in enumerate(players):
                seat = position + index * count
                seats.append({"side_id": side_id, "player_id": player_id, "seat": seat})
        for number, inputs in enumerate(item.hands, start=1):
            hands.append({"match_id": match_id, "number": number, "inputs": inputs})
    if seats:
        connection.execute(Seat.__table__.insert(), seats)
    if hands:
        connection.execute(Hand.__table__.insert(), hands)
    ratings.matches_added(match_ids)
    return match_ids
