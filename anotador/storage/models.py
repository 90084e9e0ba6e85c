"""Typed ORM models: persistence only.

The stored truth of a match is what the table declared: its settings, its sides and seats,
and each hand's inputs as a match-file hand object. Scores are always derived by the rules
engine; the few summary columns on ``Match`` are rewritten in the same transaction as every
change to its hands, so lists can show totals without scoring every match.
"""

from __future__ import annotations

import datetime
import unicodedata
from typing import TYPE_CHECKING
from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import Mapped
from sqlalchemy.orm import mapped_column
from sqlalchemy.orm import relationship

from anotador import rules
from anotador.storage.database import db
from anotador.tournaments.limits import MEMBERSHIP_LENGTH

if TYPE_CHECKING:
    # What db.Model is (extensions.Base), said so that the type checker sees it too.
    from anotador.storage.database import Base as Model
else:
    Model = db.Model

#: The engine's limit: a name the database holds is one a match file may hold.
NAME_LENGTH = rules.MAX_NAME
STATUSES = ("ongoing", "finished", "abandoned")


def utc_now() -> datetime.datetime:
    return datetime.datetime.now(datetime.UTC)


def name_key(name: str) -> str:
    """How names are compared: without accents, case or extra spaces ("José" = "jose")."""
    decomposed = unicodedata.normalize("NFKD", name)
    bare = "".join(char for char in decomposed if not unicodedata.combining(char))
    return " ".join(bare.casefold().split())


#: Folding can lengthen a name ("ß" becomes "ss"); three times is the most NFKD + casefold gives.
NAME_KEY_LENGTH = 3 * NAME_LENGTH
#: ``secrets.token_urlsafe(32)``: the length of every token the app hands out.
TOKEN_LENGTH = 43


class User(Model):
    """An account. Matches, players and groups belong to one.

    Rows the installation had before accounts existed have no owner: they belong to its first
    administrator, who takes them when the account is made (``services.accounts``).
    """

    # "user" is a reserved word in SQL.
    __tablename__ = "account"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(sa.String(NAME_LENGTH))
    name_key: Mapped[str] = mapped_column(sa.String(NAME_KEY_LENGTH), unique=True)
    # What the name looks like (anotador.storage.names.skeleton_digest): unique, so no two accounts,
    # made at once or not, get names a person cannot tell apart. NULL only for an account
    # made before names were compared so whose look an older account already had.
    name_skeleton: Mapped[str | None] = mapped_column(sa.String(64), unique=True)
    password_hash: Mapped[str] = mapped_column(sa.String(255))
    is_admin: Mapped[bool] = mapped_column(default=False)
    # True for the account that claimed the installation (its first administrator), NULL
    # for every other: a unique column holds one True, so of first sign-ups arriving at once
    # exactly one is made (services.accounts.create_account).
    first_account: Mapped[bool | None] = mapped_column(unique=True)
    # Part of the id in the session and remember cookies (with the browser's SignedIn): a
    # new password replaces it, and every cookie made with the old one stops working.
    session_token: Mapped[str] = mapped_column(sa.String(TOKEN_LENGTH))
    created_at: Mapped[datetime.datetime] = mapped_column(
        sa.DateTime(timezone=True), default=utc_now
    )


class Group(Model):
    """A family or a club: its members see its matches, their players and statistics."""

    __tablename__ = "account_group"  # "group" is a reserved word in SQL

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(sa.String(NAME_LENGTH))
    owner_id: Mapped[int] = mapped_column(
        sa.ForeignKey("account.id", ondelete="CASCADE"), index=True
    )
    created_at: Mapped[datetime.datetime] = mapped_column(
        sa.DateTime(timezone=True), default=utc_now
    )

    owner: Mapped[User] = relationship()
    memberships: Mapped[list[Membership]] = relationship(
        back_populates="group", cascade="all, delete-orphan", passive_deletes=True
    )


class Membership(Model):
    """A user in a group (its owner too: one row per member, one query for a user's groups)."""

    id: Mapped[int] = mapped_column(primary_key=True)
    group_id: Mapped[int] = mapped_column(sa.ForeignKey("account_group.id", ondelete="CASCADE"))
    user_id: Mapped[int] = mapped_column(
        sa.ForeignKey("account.id", ondelete="CASCADE"), index=True
    )
    created_at: Mapped[datetime.datetime] = mapped_column(
        sa.DateTime(timezone=True), default=utc_now
    )

    group: Mapped[Group] = relationship(back_populates="memberships")
    user: Mapped[User] = relationship(lazy="joined")

    __table_args__ = (sa.UniqueConstraint("group_id", "user_id"),)


class Invitation(Model):
    """An account asked into a group, until it accepts (a :class:`Membership` then) or
    declines (for good): before that the group shows nowhere in its lists and counts toward
    none of its limits."""

    id: Mapped[int] = mapped_column(primary_key=True)
    group_id: Mapped[int] = mapped_column(sa.ForeignKey("account_group.id", ondelete="CASCADE"))
    user_id: Mapped[int] = mapped_column(
        sa.ForeignKey("account.id", ondelete="CASCADE"), index=True
    )
    invited_by_id: Mapped[int] = mapped_column(
        sa.ForeignKey("account.id", ondelete="CASCADE"), index=True
    )
    # Declined: kept so that the group cannot ask again (a stranger could, without end).
    declined: Mapped[bool] = mapped_column(default=False)
    created_at: Mapped[datetime.datetime] = mapped_column(
        sa.DateTime(timezone=True), default=utc_now
    )

    group: Mapped[Group] = relationship()
    user: Mapped[User] = relationship(foreign_keys=[user_id], lazy="joined")
    invited_by: Mapped[User] = relationship(foreign_keys=[invited_by_id], lazy="joined")

    __table_args__ = (sa.UniqueConstraint("group_id", "user_id"),)


class SignedIn(Model):
    """One browser signed in to an account: its id is in that browser's session and remember
    cookies (``access.Account.get_id``), so signing out deletes the row and ends both there,
    whoever copied them."""

    __tablename__ = "signed_in"

    id: Mapped[str] = mapped_column(sa.String(TOKEN_LENGTH), primary_key=True)
    user_id: Mapped[int] = mapped_column(
        sa.ForeignKey("account.id", ondelete="CASCADE"), index=True
    )
    created_at: Mapped[datetime.datetime] = mapped_column(
        sa.DateTime(timezone=True), default=utc_now
    )


class SignInFailure(Model):
    """Counted attempts of one throttle key (services.throttle): sign-ins of one account
    name, one address or one device, setup codes, sign-ups."""

    # "account:<name key>", "address:<IP>", "device:<account id>:<nonce>"... (throttle.py).
    key: Mapped[str] = mapped_column(sa.String(NAME_KEY_LENGTH + 10), primary_key=True)
    failures: Mapped[int] = mapped_column(default=0)
    # Forgotten keys (the last attempt long ago) are deleted along this index.
    last_failure: Mapped[datetime.datetime] = mapped_column(sa.DateTime(timezone=True), index=True)


class Player(Model):
    """A person, reused across the matches of one account (each account has its own names)."""

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(sa.String(NAME_LENGTH))
    name_key: Mapped[str] = mapped_column(sa.String(NAME_KEY_LENGTH))
    owner_id: Mapped[int | None] = mapped_column(
        sa.ForeignKey("account.id", ondelete="CASCADE"), index=True
    )
    # The player's membership number of a federation or club (optional; read by
    # ``tournaments.limits.read_membership``: upper case, so one number is written one way).
    # Unique per account: a club gives each member one number, so two players holding the
    # same one are a typing mistake (NULLs never collide). A unique index, not a constraint:
    # SQLite adds an index without rebuilding the table (which would drop its triggers).
    membership: Mapped[str | None] = mapped_column(sa.String(MEMBERSHIP_LENGTH))
    created_at: Mapped[datetime.datetime] = mapped_column(
        sa.DateTime(timezone=True), default=utc_now
    )

    __table_args__ = (
        sa.UniqueConstraint("owner_id", "name_key"),
        sa.Index("ix_player_owner_id_membership", "owner_id", "membership", unique=True),
    )


class Match(Model):
    """One game between two or three sides, under one variant's rules."""

    id: Mapped[int] = mapped_column(primary_key=True)
    variant: Mapped[str] = mapped_column(sa.String(20))
    layout: Mapped[str] = mapped_column(sa.String(10))
    # The match file's ``options`` object, every default written out.
    settings: Mapped[dict[str, Any]] = mapped_column(sa.JSON)
    start_scores: Mapped[list[int]] = mapped_column(sa.JSON)
    title: Mapped[str] = mapped_column(sa.String(200), default="")
    notes: Mapped[str] = mapped_column(sa.Text, default="")
    played_on: Mapped[datetime.date] = mapped_column(sa.Date)
    abandoned: Mapped[bool] = mapped_column(default=False)
    # Seat (0-based, around the table) of the player who dealt the first hand.
    first_dealer: Mapped[int | None]
    # Bumped by every change to the hands: a save from a stale form is refused, not lost.
    version: Mapped[int] = mapped_column(default=0)
    created_at: Mapped[datetime.datetime] = mapped_column(
        sa.DateTime(timezone=True), default=utc_now
    )
    updated_at: Mapped[datetime.datetime] = mapped_column(
        sa.DateTime(timezone=True), default=utc_now, onupdate=utc_now
    )
    # Derived summary, rewritten with the hands (see services.documents.refresh_summary).
    status: Mapped[str] = mapped_column(sa.String(12), default="ongoing", index=True)
    totals: Mapped[list[int]] = mapped_column(sa.JSON)
    winner: Mapped[int | None]
    hand_count: Mapped[int] = mapped_column(default=0)
    # Fingerprint of the match file (names compared by name_key): imports skip what is here.
    content_hash: Mapped[str | None] = mapped_column(sa.String(64), index=True)
    # Who may see it (anotador.web.access): its owner, the members of its group, whoever holds
    # one of its links. A link is revoked by replacing or clearing its token.
    owner_id: Mapped[int | None] = mapped_column(sa.ForeignKey("account.id", ondelete="CASCADE"))
    group_id: Mapped[int | None] = mapped_column(
        sa.ForeignKey("account_group.id", ondelete="SET NULL")
    )
    table_token: Mapped[str | None] = mapped_column(sa.String(TOKEN_LENGTH), unique=True)
    spectator_token: Mapped[str | None] = mapped_column(sa.String(TOKEN_LENGTH), unique=True)
    # Its rematch, once one is made: the phones of its links follow there (services.sharing).
    rematch_id: Mapped[int | None] = mapped_column(sa.ForeignKey("match.id", ondelete="SET NULL"))
    # The most hands it is played to (a tournament's round): it ends after them, or at the
    # target before (services.documents.summary). None: to the target only.
    hand_limit: Mapped[int | None]
    # With ``hand_limit``: its hands are all played, the target does not end it first (the
    # match file's ``play_every_hand``: a round of N smazzate whose director set no target).
    play_every_hand: Mapped[bool] = mapped_column(default=False, server_default=sa.false())

    sides: Mapped[list[Side]] = relationship(
        back_populates="match", order_by="Side.position", cascade="all, delete-orphan"
    )
    hands: Mapped[list[Hand]] = relationship(
        back_populates="match", order_by="Hand.number", cascade="all, delete-orphan"
    )

    __table_args__ = (
        sa.CheckConstraint("status IN ('ongoing', 'finished', 'abandoned')", name="status"),
        sa.Index("ix_match_updated_at", "updated_at"),
        # Keyset pagination of the history, newest first, with and without a filter.
        sa.Index("ix_match_played_on_id", "played_on", "id"),
        sa.Index("ix_match_status_played_on_id", "status", "played_on", "id"),
        sa.Index("ix_match_variant_played_on_id", "variant", "played_on", "id"),
        # Every list is one account's own matches and its groups' (read part by part,
        # services.lists.first_of_parts): the history's keyset and the home page's lists
        # (ongoing ones, then the others, the most recently changed first) per owner and
        # per group.
        sa.Index("ix_match_owner_id_played_on_id", "owner_id", "played_on", "id"),
        sa.Index("ix_match_group_id_played_on_id", "group_id", "played_on", "id"),
        sa.Index("ix_match_owner_id_updated_at_id", "owner_id", "updated_at", "id"),
        sa.Index("ix_match_group_id_updated_at_id", "group_id", "updated_at", "id"),
        sa.Index(
            "ix_match_owner_id_status_updated_at_id", "owner_id", "status", "updated_at", "id"
        ),
        sa.Index(
            "ix_match_group_id_status_updated_at_id", "group_id", "status", "updated_at", "id"
        ),
    )


class Side(Model):
    """One side of a match (a player, a pair or a trio) in seating order."""

    id: Mapped[int] = mapped_column(primary_key=True)
    match_id: Mapped[int] = mapped_column(sa.ForeignKey("match.id", ondelete="CASCADE"))
    position: Mapped[int]
    name: Mapped[str] = mapped_column(sa.String(NAME_LENGTH))
    # Derived, like Match.totals: the side's figures over the match's hands for the
    # statistics (stats.SideFigures as JSON, with the Match.version they were made at),
    # rewritten in the same transaction as every change (services.documents.refresh_summary).
    figures: Mapped[dict[str, Any] | None] = mapped_column(sa.JSON)

    match: Mapped[Match] = relationship(back_populates="sides")
    seats: Mapped[list[Seat]] = relationship(
        back_populates="side", order_by="Seat.seat", cascade="all, delete-orphan", lazy="selectin"
    )

    __table_args__ = (sa.UniqueConstraint("match_id", "position"),)


class Seat(Model):
    """A player sitting at the table for a side; ``seat`` counts around the table from 0."""

    id: Mapped[int] = mapped_column(primary_key=True)
    side_id: Mapped[int] = mapped_column(sa.ForeignKey("side.id", ondelete="CASCADE"))
    player_id: Mapped[int] = mapped_column(sa.ForeignKey("player.id"), index=True)
    seat: Mapped[int]

    side: Mapped[Side] = relationship(back_populates="seats")
    player: Mapped[Player] = relationship(lazy="joined")

    __table_args__ = (sa.UniqueConstraint("side_id", "seat"),)


class Hand(Model):
    """One hand's inputs, exactly as a match file's hand object."""

    id: Mapped[int] = mapped_column(primary_key=True)
    match_id: Mapped[int] = mapped_column(sa.ForeignKey("match.id", ondelete="CASCADE"))
    number: Mapped[int]  # 1, 2, 3 ... in the order played
    inputs: Mapped[dict[str, Any]] = mapped_column(sa.JSON)
    # The form's one-time key: a double tap or a retried request records the hand once.
    request_key: Mapped[str | None] = mapped_column(sa.String(36))
    created_at: Mapped[datetime.datetime] = mapped_column(
        sa.DateTime(timezone=True), default=utc_now
    )
    updated_at: Mapped[datetime.datetime] = mapped_column(
        sa.DateTime(timezone=True), default=utc_now, onupdate=utc_now
    )

    match: Mapped[Match] = relationship(back_populates="hands")

    __table_args__ = (
        sa.UniqueConstraint("match_id", "number"),
        sa.UniqueConstraint("match_id", "request_key"),
    )


class MatchesVersion(Model):
    """A counter per account (``holder`` "a") and per group ("g"), bumped by the database
    itself, in the same transaction, on every write to a match the holder holds (its owner's
    and its group's), to a seat of one, to an account's players and to its memberships
    (migrations ``c9e1f3a5b7d8`` and ``d2f4a6c8e0b1``: triggers, so no write path can
    forget it; on PostgreSQL they lock the counters at the commit, all in one order). What
    is derived from the matches and players an account sees is kept under its counter and
    its groups' (``statistics.reads.matches_version``): a change is a new key, nothing stale
    is served. Rows are never deleted, so an account or group made with a deleted one's id
    counts on."""

    __tablename__ = "matches_version"

    holder: Mapped[str] = mapped_column(sa.String(1), primary_key=True)
    holder_id: Mapped[int] = mapped_column(primary_key=True, autoincrement=False)
    version: Mapped[int]
