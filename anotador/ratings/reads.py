"""What the pages show of the ratings: the account's leaderboard (stored, or computed for one
variant), a player's history and the ratings of the players at a table."""

from __future__ import annotations

import dataclasses
import datetime
from collections.abc import Collection
from collections.abc import Iterable
from typing import cast

import sqlalchemy as sa

from anotador.ratings import compute
from anotador.ratings import store
from anotador.ratings.compute import Standing
from anotador.ratings.models import PlayerRating
from anotador.ratings.models import RatingStep
from anotador.ratings.models import RatingsVersion
from anotador.storage.database import db
from anotador.storage.models import Player
from anotador.storage.models import Seat
from anotador.storage.models import Side
from anotador.storage.models import name_key


@dataclasses.dataclass(frozen=True)
class Rated:
    """A row of the leaderboard: a player, its standing and the change of its last match."""

    player_id: int
    name: str
    standing: Standing
    change: int


@dataclasses.dataclass(frozen=True)
class Played:
    """A row of a player's history: one counted match and what it did to the rating."""

    match_id: int
    played_on: datetime.date
    place: int
    shared: bool
    sides: int
    shown: int
    change: int


def change(mu_before: float, sigma_before: float, mu: float, sigma: float) -> int:
    return compute.shown(mu, sigma) - compute.shown(mu_before, sigma_before)


def in_order(rows: Iterable[Rated]) -> list[Rated]:
    """Highest mu − 3σ first, ties by the folded name (docs/ratings.md)."""
    return sorted(rows, key=lambda r: (-(r.standing.mu - 3 * r.standing.sigma), name_key(r.name)))


def version(owner_id: int | None) -> int | None:
    """The account's ratings version (:func:`anotador.ratings.store.touch`): 0 before its
    first change (and then it has no ratings); None for the rows from before accounts (not
    kept)."""
    if owner_id is None:
        return None
    found = db.session.connection().execute(VERSION, {"owner": owner_id}).scalar()
    return found or 0


#: Read with every ratings page: built once, run past the ORM.
VERSION = sa.select(RatingsVersion.__table__.c.version).where(
    RatingsVersion.__table__.c.owner_id == sa.bindparam("owner", type_=sa.Integer)
)


def leaderboard(owner_id: int | None, variants: Collection[str] = ()) -> list[Rated]:
    """Every rated player of the account: the stored ratings, or for some ``variants`` (one,
    or a family's) those computed from their matches alone."""
    if variants:
        return variant_board(owner_id, variants)
    rows = db.session.execute(
        sa.select(PlayerRating, Player.name)
        .join(Player, Player.id == PlayerRating.player_id)
        .where(store.owned(PlayerRating.owner_id, owner_id))
    ).all()
    return in_order(
        Rated(
            r.player_id,
            name,
            Standing(r.mu, r.sigma, r.matches),
            change(r.mu_before, r.sigma_before, r.mu, r.sigma),
        )
        for r, name in rows
    )


def variant_board(owner_id: int | None, variants: Collection[str]) -> list[Rated]:
    standings, steps = compute.replay(store.events(owner_id, variants=variants))
    last = {step.player: step.change for step in steps}
    statement = sa.select(Player.id, Player.name).where(Player.id.in_(list(standings)))
    names = {player_id: name for player_id, name in db.session.execute(statement)}
    return in_order(
        Rated(cast(int, player), names[cast(int, player)], standing, last[player])
        for player, standing in standings.items()
    )


def rating_of(player_id: int) -> Standing | None:
    row = db.session.get(PlayerRating, player_id)
    return Standing(row.mu, row.sigma, row.matches) if row is not None else None


def shown_ratings(player_ids: Iterable[int]) -> dict[int, int]:
    """The shown rating of each of ``player_ids`` that is rated (one statement)."""
    rows = db.session.execute(
        sa.select(PlayerRating.player_id, PlayerRating.mu, PlayerRating.sigma).where(
            PlayerRating.player_id.in_(list(player_ids))
        )
    )
    return {player_id: compute.shown(mu, sigma) for player_id, mu, sigma in rows}


def history(player_id: int) -> list[Played]:
    """The player's counted matches in rating order, each with the rating after it."""
    steps = RatingStep.__table__.c
    rows = db.session.connection().execute(
        sa.select(
            steps.match_id,
            steps.played_on,
            steps.place,
            steps.shared,
            steps.sides,
            steps.mu_before,
            steps.sigma_before,
            steps.mu,
            steps.sigma,
        )
        .where(steps.player_id == player_id)
        .order_by(steps.played_on, steps.match_id)
    )
    return [
        Played(
            match_id,
            played_on,
            place,
            shared,
            sides,
            compute.shown(mu, sigma),
            change(mu_before, sigma_before, mu, sigma),
        )
        for match_id, played_on, place, shared, sides, mu_before, sigma_before, mu, sigma in rows
    ]


def ratings_by_name(owner_id: int | None, names: Iterable[str]) -> dict[str, Standing]:
    """The standing of each of ``names`` that is a rated player of the account."""
    keys = {name_key(name): name for name in names}
    if not keys:
        return {}
    rows = db.session.execute(
        sa.select(Player.name_key, PlayerRating.mu, PlayerRating.sigma, PlayerRating.matches)
        .join(PlayerRating, PlayerRating.player_id == Player.id)
        .where(store.owned(Player.owner_id, owner_id), Player.name_key.in_(list(keys)))
    )
    return {keys[key]: Standing(mu, sigma, matches) for key, mu, sigma, matches in rows}


def seated_ratings(match_id: int) -> dict[str, int]:
    """The shown rating of each rated player at the table of a match, by name (one
    statement)."""
    rows = db.session.connection().execute(SEATED, {"match": match_id})
    return {name: compute.shown(mu, sigma) for name, mu, sigma in rows}


#: The rated players at a match's table (``match``), their names and ratings.
SEATED = (
    sa.select(Player.__table__.c.name, PlayerRating.__table__.c.mu, PlayerRating.__table__.c.sigma)
    .select_from(Side.__table__)
    .join(Seat.__table__, Seat.__table__.c.side_id == Side.__table__.c.id)
    .join(Player.__table__, Player.__table__.c.id == Seat.__table__.c.player_id)
    .join(PlayerRating.__table__, PlayerRating.__table__.c.player_id == Player.__table__.c.id)
    .where(Side.__table__.c.match_id == sa.bindparam("match", type_=sa.Integer))
)


def table_of(match_id: int) -> list[list[tuple[str, Standing]]]:
    """Each side's players (seating order) with their standings (a new player: openskill's
    start)."""
    rows = db.session.execute(
        sa.select(
            Side.position, Player.name, PlayerRating.mu, PlayerRating.sigma, PlayerRating.matches
        )
        .join(Seat, Seat.side_id == Side.id)
        .join(Player, Player.id == Seat.player_id)
        .outerjoin(PlayerRating, PlayerRating.player_id == Player.id)
        .where(Side.match_id == match_id)
        .order_by(Side.position, Seat.seat)
    )
    count = db.session.scalar(sa.select(sa.func.count()).where(Side.match_id == match_id)) or 0
    sides: list[list[tuple[str, Standing]]] = [[] for _ in range(count)]
    for position, name, mu, sigma, matches in rows:
        standing = Standing(mu, sigma, matches) if mu is not None else Standing()
        sides[position].append((name, standing))
    return sides
