"""The club points of an account's players, computed when read from its finished tournaments
(they are few): each one's final standings by the same pure code as ``anotador tournament
standings``, then :func:`anotador.ratings.club_points.club_points`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

import sqlalchemy as sa
from flask import current_app

from anotador.ratings.club_points import Placings
from anotador.ratings.club_points import club_points
from anotador.storage.database import db
from anotador.tournaments.operations import draws
from anotador.tournaments.operations.service import tournament_document
from anotador.tournaments.store.models import Tournament


def placings(tournament: Tournament) -> Placings:
    """The tournament's final standings as each place's two players (their ids)."""
    computed = draws.standings_document(tournament_document(tournament))
    by_key = {pair.key: pair for pair in tournament.pairs}
    return [
        (by_key[row["pair"]].first_player_id, by_key[row["pair"]].second_player_id)
        for row in computed["standings"]
    ]


def points_table() -> Sequence[int]:
    """The club's own table of points by place (``CLUB_POINTS``), empty for the default."""
    return tuple(current_app.config.get("CLUB_POINTS") or ())


def points_by_player(owner_id: int | None) -> dict[int, int]:
    """Every player of the account with club points: player id → points."""
    if owner_id is None:
        return {}
    # Read with every ratings page, and most accounts have no finished tournament: their
    # ids first, past the ORM.
    ids = db.session.connection().execute(FINISHED, {"owner": owner_id}).scalars().all()
    if not ids:
        return {}
    finished = db.session.scalars(
        sa.select(Tournament).where(Tournament.id.in_(ids)).order_by(Tournament.id)
    )
    total = club_points((placings(t) for t in finished), points_table())
    return {cast(int, player): points for player, points in total.items()}


#: The ids of an account's finished tournaments, oldest first.
FINISHED = (
    sa.select(Tournament.__table__.c.id)
    .where(
        Tournament.__table__.c.owner_id == sa.bindparam("owner", type_=sa.Integer),
        Tournament.__table__.c.status == "finished",
    )
    .order_by(Tournament.__table__.c.id)
)
