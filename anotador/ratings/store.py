"""The stored ratings, never stale: every change that can move an account's ratings (a match
finished, a finished match corrected, undone, imported or restored, players merged) calls
:func:`recompute_from` in its own transaction, before its commit. It deletes the account's
steps from that match on and replays the counted matches from there, starting from each
player's last step before it: the result is the computation from scratch
(:func:`fresh`), which ``anotador check`` compares it with. Each of these changes, and a
renamed player, also bumps the account's :class:`RatingsVersion` (:func:`touch`), the key of
what the ratings pages keep.
"""

from __future__ import annotations

import datetime
import functools
import secrets
from collections.abc import Collection
from collections.abc import Hashable
from collections.abc import Iterable
from typing import Any
from typing import cast

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql
from sqlalchemy.dialects import sqlite

from anotador.ratings import compute
from anotador.ratings.compute import Event
from anotador.ratings.compute import Standing
from anotador.ratings.models import PlayerRating
from anotador.ratings.models import RatingStep
from anotador.ratings.models import RatingsVersion
from anotador.storage.database import db
from anotador.storage.models import Match
from anotador.storage.models import Seat
from anotador.storage.models import Side
from anotador.storage.models import User

#: Where a recomputation starts: a match's date and id (events go in that order).
Start = tuple[datetime.date, int]


def owned(column: Any, owner_id: int | None) -> sa.ColumnElement[bool]:
    """Rows of account ``owner_id`` (None: the rows from before accounts)."""
    return column.is_(None) if owner_id is None else column == owner_id


def from_start(date_column: Any, id_column: Any, start: tuple[Any, Any]) -> sa.ColumnElement[bool]:
    """Rows at or after ``start`` in the events' order (the first bound alone walks the
    indexes on date and id)."""
    day, match_id = start
    return sa.and_(date_column >= day, sa.or_(date_column > day, id_column >= match_id))


def events(
    owner_id: int | None, start: Start | None = None, variants: Collection[str] = ()
) -> list[Event]:
    """The account's counted matches (its own, finished) as events in order, from ``start``
    on when given, of those ``variants`` when given: two statements."""
    chosen = sa.select(Match.id).where(owned(Match.owner_id, owner_id), Match.status == "finished")
    if start is not None:
        chosen = chosen.where(from_start(Match.played_on, Match.id, start))
    if variants:
        chosen = chosen.where(Match.variant.in_(list(variants)))
    rows = db.session.execute(
        sa.select(Match.id, Match.played_on, Match.totals, Match.winner)
        .where(Match.id.in_(chosen))
        .order_by(Match.played_on, Match.id)
    ).all()
    seats: dict[int, dict[int, list[int]]] = {}
    seated = (
        sa.select(Side.match_id, Side.position, Seat.player_id)
        .join(Seat, Seat.side_id == Side.id)
        .where(Side.match_id.in_(chosen))
        .order_by(Side.match_id, Side.position, Seat.seat)
    )
    for match_id, position, player_id in db.session.execute(seated):
        seats.setdefault(match_id, {}).setdefault(position, []).append(player_id)
    made = []
    for match_id, played_on, totals, winner in rows:
        sides = seats.get(match_id, {})
        made.append(
            Event(
                match_id,
                played_on,
                tuple(tuple(sides.get(position, ())) for position in range(len(totals))),
                tuple(totals),
                winner,
            )
        )
    return made


def fresh(owner_id: int | None) -> dict[int, Standing]:
    """Every rated player's standing computed from scratch (player id -> standing)."""
    standings, _steps = compute.replay(events(owner_id))
    return {cast(int, player): standing for player, standing in standings.items()}


def stored(owner_id: int | None) -> dict[int, Standing]:
    """Every rated player's stored standing (player id -> standing)."""
    rows = db.session.execute(
        sa.select(
            PlayerRating.player_id, PlayerRating.mu, PlayerRating.sigma, PlayerRating.matches
        ).where(owned(PlayerRating.owner_id, owner_id))
    )
    return {player: Standing(mu, sigma, matches) for player, mu, sigma, matches in rows}


def recompute_from(owner_id: int | None, start: Start, changed: Match | None = None) -> None:
    """Bring the account's stored ratings in line with its matches, redoing every counted
    match from ``start`` on (in the caller's transaction, which commits it). ``changed``:
    the match at ``start``, when one change to it is the reason."""
    connection = db.session.connection()
    if owner_id is not None and connection.dialect.name != "sqlite":
        # One recomputation of an account at a time (SQLite's writes take turns already).
        connection.execute(sa.select(User.id).where(User.id == owner_id).with_for_update())
    touch(owner_id)
    steps = RatingStep.__table__
    day, match_id = start
    where = {"owner": owner_id, "day": day, "match": match_id}
    undone = set(connection.execute(delete_from(owner_id is None), where).scalars())
    if undone:
        write_current(owner_id, undone)
    if changed is not None and not undone:
        # Nothing was rated from this match on (a match finished last, the usual case): it
        # is the one event to add, as read in this transaction.
        replayed = [event_of(changed)] if changed.status == "finished" else []
    else:
        replayed = events(owner_id, start)
    if not replayed:
        return
    players = {player for event in replayed for side in event.sides for player in side}
    standings = standings_of(players)
    _after, made = compute.replay(replayed, standings)
    if not made:
        return
    connection.execute(steps.insert(), [step_row(owner_id, step) for step in made])
    # Their last steps are among those just made: no need to read them back.
    last = {step.player: step for step in made}
    rows = [current_row(owner_id, step) for step in last.values()]
    connection.execute(upsert(connection.dialect.name), rows)


# The statements of every recomputation, built once (a save that finishes a match runs them).


@functools.cache
def delete_from(ownerless: bool) -> sa.Executable:
    """Delete an account's steps from a match on (parameters ``owner``, ``day``, ``match``),
    returning their players."""
    steps = RatingStep.__table__
    owner = steps.c.owner_id.is_(None) if ownerless else steps.c.owner_id == sa.bindparam("owner")
    start = (sa.bindparam("day", type_=sa.Date), sa.bindparam("match", type_=sa.Integer))
    later = from_start(steps.c.played_on, steps.c.match_id, start)
    return steps.delete().where(owner, later).returning(steps.c.player_id)


def touch(owner_id: int | None) -> None:
    """Bump the account's ratings version (in the caller's transaction): what its ratings
    pages show may change. The rows from before accounts have none (never kept)."""
    if owner_id is not None:
        connection = db.session.connection()
        # A first version is drawn at random: an account made with the id of a deleted one
        # (SQLite reuses the highest) never meets the keys of what was kept for that one.
        first = secrets.randbelow(FIRST_VERSIONS) + 1
        connection.execute(bump(connection.dialect.name), {"owner": owner_id, "first": first})


#: How many first versions there are to draw from (a version is a 32-bit integer).
FIRST_VERSIONS = 2**30


@functools.cache
def bump(dialect: str) -> sa.Insert:
    table = RatingsVersion.__table__
    insert = (postgresql if dialect == "postgresql" else sqlite).insert(table)
    insert = insert.values(owner_id=sa.bindparam("owner"), version=sa.bindparam("first"))
    return insert.on_conflict_do_update(
        index_elements=[table.c.owner_id], set_={"version": table.c.version + 1}
    )


@functools.cache
def standings_statement() -> sa.Select[Any]:
    table = PlayerRating.__table__
    chosen = table.c.player_id.in_(sa.bindparam("players", expanding=True))
    return sa.select(table.c.player_id, table.c.mu, table.c.sigma, table.c.matches).where(chosen)


@functools.cache
def upsert(dialect: str) -> sa.Insert:
    """Write players' current ratings, new or not."""
    table = PlayerRating.__table__
    insert = (postgresql if dialect == "postgresql" else sqlite).insert(table)
    columns = ("owner_id", "mu_before", "sigma_before", "mu", "sigma", "matches")
    return insert.on_conflict_do_update(
        index_elements=[table.c.player_id], set_={name: insert.excluded[name] for name in columns}
    )


def rebuild(owner_id: int | None) -> None:
    """Recompute the account's ratings from its first match."""
    recompute_from(owner_id, (datetime.date.min, 0))


def rebuild_all() -> int:
    """Recompute every account's ratings (``anotador ratings --rebuild``), one transaction
    each; how many accounts."""
    owners = rated_accounts()
    for owner_id in owners:
        rebuild(owner_id)
        db.session.commit()
    return len(owners)


def disagreeing_accounts() -> list[int | None]:
    """The accounts whose stored ratings differ from a computation from scratch."""
    return [owner for owner in rated_accounts() if stored(owner) != fresh(owner)]


def rated_accounts() -> list[int | None]:
    """Every account with matches or stored ratings."""
    owners = set(db.session.scalars(sa.select(Match.owner_id).distinct()))
    owners |= set(db.session.scalars(sa.select(PlayerRating.owner_id).distinct()))
    return list(owners)


def adopt(owner_id: int) -> None:
    """The ratings from before accounts become the first account's, with its matches."""
    adopted = 0
    for table in (RatingStep.__table__, PlayerRating.__table__):
        update = table.update().where(table.c.owner_id.is_(None)).values(owner_id=owner_id)
        adopted += cast(sa.CursorResult[Any], db.session.execute(update)).rowcount
    if adopted:  # an account without ratings keeps version 0 (nothing to read)
        touch(owner_id)


def match_changed(match: Match) -> None:
    """A change to one match that may move the ratings: redo from that match on."""
    recompute_from(match.owner_id, (match.played_on, match.id), match)


def event_of(match: Match) -> Event:
    """A finished match as its event, from the ORM objects (as this transaction has them)."""
    sides = tuple(tuple(seat.player_id for seat in side.seats) for side in match.sides)
    return Event(match.id, match.played_on, sides, tuple(match.totals), match.winner)


def matches_added(match_ids: Iterable[int]) -> None:
    """Matches stored at once (an import, a restore): redo each account from the earliest
    finished one among them."""
    ids = list(match_ids)
    if not ids:
        return
    finished = (
        sa.select(Match.owner_id, Match.played_on, Match.id)
        .where(Match.id.in_(ids), Match.status == "finished")
        .order_by(Match.played_on, Match.id)
    )
    starts: dict[int | None, Start] = {}
    for owner_id, played_on, match_id in db.session.execute(finished):
        starts.setdefault(owner_id, (played_on, match_id))
    for owner_id, start in starts.items():
        recompute_from(owner_id, start)


def standings_of(players: Iterable[Hashable]) -> dict[Hashable, Standing]:
    """The current stored standing of each of ``players`` who has one."""
    found = db.session.connection().execute(standings_statement(), {"players": list(players)})
    return {player: Standing(mu, sigma, matches) for player, mu, sigma, matches in found}


def write_current(owner_id: int | None, players: set[Any]) -> None:
    """Rewrite the current rating of ``players`` from their last stored step (none left:
    no rating)."""
    table = PlayerRating.__table__
    db.session.execute(table.delete().where(table.c.player_id.in_(players)))
    steps = RatingStep.__table__
    last = (
        sa.select(
            steps,
            sa.func.row_number()
            .over(
                partition_by=steps.c.player_id,
                order_by=(steps.c.played_on.desc(), steps.c.match_id.desc()),
            )
            .label("recent"),
        )
        .where(steps.c.player_id.in_(players))
        .subquery()
    )
    latest = db.session.execute(sa.select(last).where(last.c.recent == 1)).mappings().all()
    if latest:
        columns = ("player_id", "mu_before", "sigma_before", "mu", "sigma", "matches")
        rows = [{"owner_id": owner_id, **{c: row[c] for c in columns}} for row in latest]
        db.session.execute(table.insert(), rows)


def current_row(owner_id: int | None, step: compute.Step) -> dict[str, Any]:
    return {
        "player_id": step.player,
        "owner_id": owner_id,
        "mu_before": step.before.mu,
        "sigma_before": step.before.sigma,
        "mu": step.after.mu,
        "sigma": step.after.sigma,
        "matches": step.after.matches,
    }


def step_row(owner_id: int | None, step: compute.Step) -> dict[str, Any]:
    return {
        "owner_id": owner_id,
        "match_id": step.match_id,
        "player_id": step.player,
        "played_on": step.played_on,
        "mu_before": step.before.mu,
        "sigma_before": step.before.sigma,
        "mu": step.after.mu,
        "sigma": step.after.sigma,
        "matches": step.after.matches,
        "place": step.place,
        "shared": step.shared,
        "sides": step.sides,
    }
