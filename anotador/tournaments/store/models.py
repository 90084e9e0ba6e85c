"""A tournament's rows: its set-up, its pairs, its rounds and their tables, and every change
its director made.

They hold what the tournament file of ``TOURNAMENTS.md`` holds (inputs only): victory points,
standings and pairings are always computed from the file the rows make
(``service.tournament_document``). A table scored in the app is an ordinary ``Match`` that the
table points to; a table scored on paper keeps its match points here.
"""

from __future__ import annotations

import datetime
from typing import TYPE_CHECKING
from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import Mapped
from sqlalchemy.orm import mapped_column
from sqlalchemy.orm import relationship

from anotador.storage.database import db
from anotador.storage.models import NAME_LENGTH
from anotador.storage.models import TOKEN_LENGTH
from anotador.storage.models import Match
from anotador.storage.models import Player
from anotador.storage.models import User
from anotador.storage.models import utc_now

if TYPE_CHECKING:
    from anotador.storage.database import Base as Model
else:
    Model = db.Model

#: A tournament is set up (pairs registered), then played round by round, then finished.
TOURNAMENT_STATUSES = ("registering", "playing", "finished")
#: A round is drawn (the director may still swap pairs), then played, then closed.
ROUND_STATUSES = ("drawn", "playing", "closed")


class Tournament(Model):
    """A club night or a tournament of one account (its director)."""

    id: Mapped[int] = mapped_column(primary_key=True)
    owner_id: Mapped[int] = mapped_column(
        sa.ForeignKey("account.id", ondelete="CASCADE"), index=True
    )
    name: Mapped[str] = mapped_column(sa.String(NAME_LENGTH))
    played_on: Mapped[datetime.date] = mapped_column(sa.Date)
    variant: Mapped[str] = mapped_column(sa.String(20))
    layout: Mapped[str] = mapped_column(sa.String(10), default="4p")
    # The match file's ``options`` of every table (the engine's defaults written out).
    options: Mapped[dict[str, Any]] = mapped_column(sa.JSON)
    # None: each round is a game to the variant's target.
    hands_per_round: Mapped[int | None]
    # "fibur-3", "fibur-4", "wdl", "points" or a club's bands, as the file writes it.
    scale: Mapped[Any] = mapped_column(sa.JSON)
    system: Mapped[str] = mapped_column(sa.String(20))
    rounds: Mapped[int]
    bye_vp: Mapped[int | None]
    status: Mapped[str] = mapped_column(sa.String(12), default="registering")
    # The standings and board for anyone holding the link (None: not shared).
    spectator_token: Mapped[str | None] = mapped_column(sa.String(TOKEN_LENGTH), unique=True)
    # Bumped by every change that moves the standings (a table's result included): the
    # board's live poll compares it.
    version: Mapped[int] = mapped_column(default=0)
    created_at: Mapped[datetime.datetime] = mapped_column(
        sa.DateTime(timezone=True), default=utc_now
    )
    # The one-time key of the form that created it (as a hand's): the same form posted twice
    # at once (a double tap, two tabs) meets the unique constraint and is answered with this
    # tournament instead of a second one. None: made without one (restored, a script).
    request_key: Mapped[str | None] = mapped_column(sa.String(36))

    # Every page reads the whole tournament (its file): pairs, rounds, tables and their
    # matches' rows load in a statement each, never one per table.
    pairs: Mapped[list[TournamentPair]] = relationship(
        back_populates="tournament",
        order_by="TournamentPair.position",
        cascade="all, delete-orphan",
        passive_deletes=True,
        lazy="selectin",
    )
    round_rows: Mapped[list[Round]] = relationship(
        back_populates="tournament",
        order_by="Round.number",
        cascade="all, delete-orphan",
        passive_deletes=True,
        lazy="selectin",
    )

    __table_args__ = (
        sa.CheckConstraint(
            "status IN ('registering', 'playing', 'finished')", name="tournament_status"
        ),
        sa.UniqueConstraint("owner_id", "request_key"),
    )


class TournamentPair(Model):
    """Two players of the director's registry who play together the whole tournament."""

    __tablename__ = "tournament_pair"

    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(sa.ForeignKey("tournament.id", ondelete="CASCADE"))
    # Order of registration, from 1: the pair's id in the tournament file and its last
    # tie-break.
    position: Mapped[int]
    first_player_id: Mapped[int] = mapped_column(sa.ForeignKey("player.id"), index=True)
    second_player_id: Mapped[int] = mapped_column(sa.ForeignKey("player.id"), index=True)
    club: Mapped[str] = mapped_column(sa.String(NAME_LENGTH), default="")
    # The first round it can be drawn in (1, or later for a pair that joined late).
    joined_round: Mapped[int] = mapped_column(default=1)
    withdrawn: Mapped[bool] = mapped_column(default=False)

    tournament: Mapped[Tournament] = relationship(back_populates="pairs")
    first_player: Mapped[Player] = relationship(foreign_keys=[first_player_id], lazy="joined")
    second_player: Mapped[Player] = relationship(foreign_keys=[second_player_id], lazy="joined")

    __table_args__ = (sa.UniqueConstraint("tournament_id", "position"),)

    @property
    def key(self) -> str:
        """The pair's id in the tournament file."""
        return str(self.position)

    @property
    def label(self) -> str:
        return f"{self.first_player.name} – {self.second_player.name}"


class Round(Model):
    """One round of a tournament: its tables and byes."""

    __tablename__ = "tournament_round"

    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(sa.ForeignKey("tournament.id", ondelete="CASCADE"))
    number: Mapped[int]
    status: Mapped[str] = mapped_column(sa.String(12), default="drawn")
    # The round's clock (``operations.clock``): the minutes the director last started it with
    # (None: never) and when it runs out (minutes added move it; None: not running, never
    # started or stopped).
    clock_minutes: Mapped[int | None]
    clock_ends_at: Mapped[datetime.datetime | None] = mapped_column(sa.DateTime(timezone=True))

    tournament: Mapped[Tournament] = relationship(back_populates="round_rows")
    tables: Mapped[list[RoundTable]] = relationship(
        back_populates="round",
        order_by="RoundTable.id",
        cascade="all, delete-orphan",
        passive_deletes=True,
        lazy="selectin",
    )

    __table_args__ = (
        sa.UniqueConstraint("tournament_id", "number"),
        sa.CheckConstraint("status IN ('drawn', 'playing', 'closed')", name="round_status"),
    )


class RoundTable(Model):
    """A table of a round (NS against EW), or a bye (``number`` and ``ew_pair_id`` None).

    Scored in the app, it is ``match`` (created when the round starts, with its table link);
    ``mp_ns`` and ``mp_ew``, when set, are the match points the director wrote by hand (a
    table scored on paper, or a correction) and count instead of the match.
    """

    __tablename__ = "round_table"

    id: Mapped[int] = mapped_column(primary_key=True)
    round_id: Mapped[int] = mapped_column(
        sa.ForeignKey("tournament_round.id", ondelete="CASCADE"), index=True
    )
    number: Mapped[int | None]
    ns_pair_id: Mapped[int] = mapped_column(sa.ForeignKey("tournament_pair.id", ondelete="CASCADE"))
    ew_pair_id: Mapped[int | None] = mapped_column(
        sa.ForeignKey("tournament_pair.id", ondelete="CASCADE")
    )
    match_id: Mapped[int | None] = mapped_column(
        sa.ForeignKey("match.id", ondelete="SET NULL"), index=True
    )
    mp_ns: Mapped[int | None]
    mp_ew: Mapped[int | None]
    # Who confirmed the result of its ended match ("ew": the pair that did not keep the
    # score, "director"), and when; None: not yet (``confirmations``). Confirmed, the table's
    # phones no longer change it.
    confirmed_by: Mapped[str | None] = mapped_column(sa.String(10))
    confirmed_at: Mapped[datetime.datetime | None] = mapped_column(sa.DateTime(timezone=True))
    # When the table's phone called the director and the call is still open; None: no call
    # (``operations.live``). One column: repeated taps never make a second call.
    called_at: Mapped[datetime.datetime | None] = mapped_column(sa.DateTime(timezone=True))
    # When the director marked its last call answered (the phones say the director is coming);
    # None: never, or called again since.
    answered_at: Mapped[datetime.datetime | None] = mapped_column(sa.DateTime(timezone=True))

    round: Mapped[Round] = relationship(back_populates="tables")
    # The pairs are the tournament's, already loaded: found by id without a statement.
    ns_pair: Mapped[TournamentPair] = relationship(foreign_keys=[ns_pair_id])
    ew_pair: Mapped[TournamentPair | None] = relationship(foreign_keys=[ew_pair_id])
    match: Mapped[Match | None] = relationship(lazy="selectin")

    @property
    def is_bye(self) -> bool:
        return self.ew_pair_id is None


def open_result(match_id: Any) -> Any:
    """Whether match ``match_id`` is a tournament table's whose result its pairs may still
    fix (an SQL expression): not confirmed, not written by hand, its round being played.
    Its table link keeps scoring it, though it has ended (``one_match.Sharing.ongoing``;
    ``confirmations``)."""
    return (
        sa.select(RoundTable.id)
        .join(Round, Round.id == RoundTable.round_id)
        .join(Tournament, Tournament.id == Round.tournament_id)
        .where(
            RoundTable.match_id == match_id,
            RoundTable.confirmed_by.is_(None),
            RoundTable.mp_ns.is_(None),
            Round.status == "playing",
            Tournament.status != "finished",
        )
        .exists()
    )


class TournamentChange(Model):
    """What the director changed, who and when (kept for good)."""

    __tablename__ = "tournament_change"

    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(
        sa.ForeignKey("tournament.id", ondelete="CASCADE"), index=True
    )
    account_id: Mapped[int | None] = mapped_column(sa.ForeignKey("account.id", ondelete="SET NULL"))
    at: Mapped[datetime.datetime] = mapped_column(sa.DateTime(timezone=True), default=utc_now)
    # A short code of the change ("pair_added", "round_started", "result_entered"...) and
    # what it changed, as data: pages say it in the reader's language.
    change: Mapped[str] = mapped_column(sa.String(40))
    details: Mapped[dict[str, Any]] = mapped_column(sa.JSON, default=dict)

    # Who made it (None: a table link's phone, or an account since deleted).
    account: Mapped[User | None] = relationship(lazy="joined")
