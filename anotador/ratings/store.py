"""The stored ratings, never stale: every change that can move an account's ratings (a match
finished, a finished match corrected, undone, imported or restored, players merged) calls
:func:`recompute_from` in its own transaction, before its commit. It deletes the account's
steps from that match on and replays the counted matches from there, starting from each
player's last step before it: the result is the computation from scratch
(:func:`fresh`), which ``anotador check`` compares it with.
"""

from __future__ import annotations

import datetime
from collections.abc import Hashable
from collections.abc import Iterable
from typing import Any
from typing import cast

import sqlalchemy as sa

from anotador.extensions import db
from anotador.models import Match
from anotador.models import Seat
from anotador.models import Side
from anotador.models import User
from anotador.ratings import compute
from anotador.ratings.compute import Event
from anotador.ratings.compute import Standing
from anotador.ratings.models import PlayerRating
from anotador.ratings.models import RatingStep

#: Where a recomputation starts: a match's date and id (events go in that order).
Start = tuple[datetime.date, int]


def owned(column: Any, owner_id: int | None) -> sa.ColumnElement[bool]:
    """Rows of account ``owner_id`` (None: the rows from before accounts)."""
    return column.is_(None) if owner_id is None else column == owner_id


def from_start(date_column: Any, id_column: Any, start: Start) -> sa.ColumnElement[bool]:
    """Rows at or after ``start`` in the events' order."""
    day, match_id = start
    return sa.or_(date_column > day, sa.and_(date_column == day, id_column >= match_id))


def events(
    owner_id: int | None, start: Start | None = None, variant: str | None = None
) -> list[Event]:
    """The account's counted matches (its own, finished) as events in order, from ``start``
    on when given, of one variant when given: two statements."""
    chosen = sa.select(Match.id).where(owned(Match.owner_id, owner_id), Match.status == "finished")
    if start is not None:
        chosen = chosen.where(from_start(Match.played_on, Match.id, start))
    if variant:
        chosen = chosen.where(Match.variant == variant)
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


def fresh(owner_id: int | None, variant: str | None = None) -> dict[int, Standing]:
    """Every rated player's standing computed from scratch (player id -> standing)."""
    standings, _steps = compute.replay(events(owner_id, variant=variant))
    return {cast(int, player): standing for player, standing in standings.items()}


def stored(owner_id: int | None) -> dict[int, Standing]:
    """Every rated player's stored standing (player id -> standing)."""
    rows = db.session.execute(
        sa.select(
            PlayerRating.player_id, PlayerRating.mu, PlayerRating.sigma, PlayerRating.matches
        ).where(owned(PlayerRating.owner_id, owner_id))
    )
    return {player: Standing(mu, sigma, matches) for player, mu, sigma, matches in rows}


def recompute_from(owner_id: int | None, start: Start) -> None:
    """Bring the account's stored ratings in line with its matches, redoing every counted
    match from ``start`` on (in the caller's transaction, which commits it)."""
    if owner_id is not None:
        # One recomputation of an account at a time (PostgreSQL; SQLite's writes take turns).
        db.session.execute(sa.select(User.id).where(User.id == owner_id).with_for_update())
    steps = RatingStep.__table__
    later = sa.and_(
        owned(steps.c.owner_id, owner_id), from_start(steps.c.played_on, steps.c.match_id, start)
    )
    undone = set(db.session.scalars(sa.select(steps.c.player_id).where(later).distinct()))
    if undone:
        db.session.execute(steps.delete().where(later))
        write_current(owner_id, undone)
    replayed = events(owner_id, start)
    if not replayed:
        return
    players = {player for event in replayed for side in event.sides for player in side}
    standings = standings_of(players)
    _after, made = compute.replay(replayed, standings)
    if not made:
        return
    db.session.execute(steps.insert(), [step_row(owner_id, step) for step in made])
    write_current(owner_id, {step.player for step in made})


def rebuild(owner_id: int | None) -> None:
    """Recompute the account's ratings from its first match."""
    recompute_from(owner_id, (datetime.date.min, 0))


def rebuild_all() -> int:
    """Recompute every account's ratings (``anotador ratings --rebuild``), one transaction
    each; how many accounts."""
    owners = list(db.session.scalars(sa.select(Match.owner_id).distinct()))
    for owner_id in owners:
        rebuild(owner_id)
        db.session.commit()
    return len(owners)


def disagreeing_accounts() -> list[int | None]:
    """The accounts whose stored ratings differ from a computation from scratch."""
    owners = set(db.session.scalars(sa.select(Match.owner_id).distinct()))
    owners |= set(db.session.scalars(sa.select(PlayerRating.owner_id).distinct()))
    return [owner for owner in owners if stored(owner) != fresh(owner)]


def adopt(owner_id: int) -> None:
    """The ratings from before accounts become the first account's, with its matches."""
    for table in (RatingStep.__table__, PlayerRating.__table__):
        db.session.execute(
            table.update().where(table.c.owner_id.is_(None)).values(owner_id=owner_id)
        )


def match_changed(match: Match) -> None:
    """A change to one match that may move the ratings: redo from that match on."""
    recompute_from(match.owner_id, (match.played_on, match.id))


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
    found = db.session.execute(
        sa.select(
            PlayerRating.player_id, PlayerRating.mu, PlayerRating.sigma, PlayerRating.matches
        ).where(PlayerRating.player_id.in_(list(players)))
    )
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
