"""The stored ratings: derived data, like ``Match.totals``, rewritten in the same transaction
as every change that moves them (``anotador.ratings.store``).

``RatingStep`` is what one counted match did to one player (the history); ``PlayerRating``
is each player's latest step with the count of its matches (the leaderboard reads only it);
``RatingsVersion`` counts an account's changes, the key of what its ratings pages keep.
"""

from __future__ import annotations

import datetime
from typing import TYPE_CHECKING

import sqlalchemy as sa
from sqlalchemy.orm import Mapped
from sqlalchemy.orm import mapped_column

from anotador.storage.database import db

if TYPE_CHECKING:
    from anotador.storage.database import Base as Model
else:
    Model = db.Model


class RatingStep(Model):
    """One player's rating before and after one counted match of its account."""

    __tablename__ = "rating_step"

    id: Mapped[int] = mapped_column(primary_key=True)
    owner_id: Mapped[int | None] = mapped_column(sa.ForeignKey("account.id", ondelete="CASCADE"))
    match_id: Mapped[int] = mapped_column(sa.ForeignKey("match.id", ondelete="CASCADE"))
    player_id: Mapped[int] = mapped_column(sa.ForeignKey("player.id", ondelete="CASCADE"))
    # The match's date, copied: steps are replayed and read in the events' order.
    played_on: Mapped[datetime.date] = mapped_column(sa.Date)
    mu_before: Mapped[float] = mapped_column(sa.Double)
    sigma_before: Mapped[float] = mapped_column(sa.Double)
    mu: Mapped[float] = mapped_column(sa.Double)
    sigma: Mapped[float] = mapped_column(sa.Double)
    # Counted matches of the player up to this one.
    matches: Mapped[int]
    # The player's side's place (1-based), shared or not, among ``sides`` that took part.
    place: Mapped[int]
    shared: Mapped[bool]
    sides: Mapped[int]

    __table_args__ = (
        sa.UniqueConstraint("match_id", "player_id"),
        # A recomputation deletes and replays an account's steps from one match on.
        sa.Index("ix_rating_step_owner_id_played_on_match_id", "owner_id", "played_on", "match_id"),
        # A player's history, in order.
        sa.Index(
            "ix_rating_step_player_id_played_on_match_id", "player_id", "played_on", "match_id"
        ),
    )


class PlayerRating(Model):
    """A rated player's current rating: its latest :class:`RatingStep`, with its count."""

    __tablename__ = "player_rating"

    player_id: Mapped[int] = mapped_column(
        sa.ForeignKey("player.id", ondelete="CASCADE"), primary_key=True
    )
    owner_id: Mapped[int | None] = mapped_column(
        sa.ForeignKey("account.id", ondelete="CASCADE"), index=True
    )
    mu_before: Mapped[float] = mapped_column(sa.Double)
    sigma_before: Mapped[float] = mapped_column(sa.Double)
    mu: Mapped[float] = mapped_column(sa.Double)
    sigma: Mapped[float] = mapped_column(sa.Double)
    matches: Mapped[int]


class RatingsVersion(Model):
    """A counter per account, bumped in the same transaction as every change to what its
    ratings pages show (its ratings, its players' names): the pages' kept parts are keyed
    on it, so a change is a new key and nothing stale is served (``storage/caching.py``)."""

    __tablename__ = "ratings_version"

    owner_id: Mapped[int] = mapped_column(
        sa.ForeignKey("account.id", ondelete="CASCADE"), primary_key=True, autoincrement=False
    )
    version: Mapped[int]
