"""Players: find or create one by name, rename, merge two who are one person."""

from __future__ import annotations

from typing import Any
from typing import cast

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql
from sqlalchemy.dialects import sqlite

from anotador import rules
from anotador.ratings import store as ratings
from anotador.services.documents import content_hash
from anotador.services.documents import match_document
from anotador.services.filters import played_by
from anotador.storage import signals
from anotador.storage.database import db
from anotador.storage.models import Match
from anotador.storage.models import Player
from anotador.storage.models import Seat
from anotador.storage.models import Side
from anotador.storage.models import name_key


def find_or_create_player(name: str, owner_id: int | None) -> Player:
    """The account's player with this name (accents and case aside), or a new one.

    Two requests may add the same new name at one moment (two pairs naming one new player,
    two tables' matches): the player is added by an upsert (``ON CONFLICT DO NOTHING`` on
    either database; on PostgreSQL it waits for the other's commit), then read, so both find
    the one row instead of one failing on the unique names."""
    clean = rules.clean_text(name)
    key = name_key(clean)
    statement = sa.select(Player).where(Player.name_key == key, Player.owner_id == owner_id)
    player = db.session.scalars(statement).first()
    if player is None:
        insert = postgresql.insert if db.engine.dialect.name == "postgresql" else sqlite.insert
        added = insert(Player).values(name=clean, name_key=key, owner_id=owner_id)
        db.session.execute(added.on_conflict_do_nothing(index_elements=["owner_id", "name_key"]))
        player = db.session.scalars(statement).one()
    return player


def rename_player(player: Player, name: str) -> rules.Problem | None:
    """Give ``player`` a new name; the problem instead (the engine's rules for names, or
    ``taken`` when it is another player's of the same account already)."""
    try:
        clean = rules.read_text(name, maximum=rules.MAX_NAME, required=True)
    except rules.TextRefused as refused:
        return rules.Problem("name", refused.code, refused.params)
    key = name_key(clean)
    same = sa.select(Player.id).where(Player.name_key == key, Player.owner_id == player.owner_id)
    other = db.session.scalars(same).first()
    if other is not None and other != player.id:
        return rules.Problem("name", "taken", {})
    renamed = clean != player.name
    match_ids = set_name(player, clean)
    db.session.commit()
    if renamed:  # every match of the player now shows the new name
        signals.changed_many("players_renamed", match_ids)
    return None


def set_name(player: Player, clean: str) -> list[int]:
    """Give ``player`` the name ``clean`` (read by the rules for names, no other player's) in
    the caller's transaction, which sends ``players_renamed`` for the ids returned (its
    matches', whose files now name it so) after its commit."""
    player.name, player.name_key = clean, name_key(clean)
    match_ids = refresh_hashes(player.id)
    ratings.touch(player.owner_id)  # the Ranking page shows the name
    return match_ids


def membership_holder(owner_id: int | None, number: str) -> int | None:
    """The id of the account's player holding membership number ``number``, None if none."""
    statement = sa.select(Player.id).where(Player.owner_id == owner_id, Player.membership == number)
    return db.session.scalars(statement).first()


def give_membership(player: Player, number: str | None) -> bool:
    """Set (None: clear) ``player``'s membership number, not committed; False, changing
    nothing, when another player of the account holds it."""
    if number is not None:
        holder = membership_holder(player.owner_id, number)
        if holder is not None and holder != player.id:
            return False
    player.membership = number
    return True


def set_membership(player: Player, number: str | None) -> bool:
    """:func:`give_membership`, committed. Two requests giving one number to two players at
    once meet the unique index: the later commit fails, and that one is False too."""
    if not give_membership(player, number):
        return False
    try:
        db.session.commit()
    except sa.exc.IntegrityError:
        db.session.rollback()
        return False
    return True


def shared_matches(first: Player, second: Player) -> int:
    """How many matches both players sat in (then they are two people, never one)."""
    both = (
        sa.select(sa.func.count(sa.distinct(Side.match_id)))
        .join(Seat, Seat.side_id == Side.id)
        .where(Seat.player_id == first.id)
        .where(Side.match_id.in_(played_by(second.id)))
    )
    return db.session.scalar(both) or 0


def merge_players(keep: Player, gone: Player) -> int:
    """``gone`` was ``keep`` all along: every seat of ``gone`` becomes ``keep``'s and
    ``gone`` leaves the registry. Every match stays; returns how many seats moved.
    Refused (:class:`ValueError`) when they sat in one match: one person has one seat."""
    if keep.id == gone.id:
        return 0
    if shared_matches(keep, gone):
        raise ValueError("players who sat in the same match are two people")
    moved_matches = list(db.session.scalars(played_by(gone.id)))
    update = sa.update(Seat).where(Seat.player_id == gone.id).values(player_id=keep.id)
    moved = cast(sa.CursorResult[Any], db.session.execute(update)).rowcount
    ratings.rebuild(keep.owner_id)  # one person now: gone's matches rate keep
    db.session.delete(gone)
    db.session.flush()
    db.session.expire_all()
    refresh_hashes(keep.id)
    db.session.commit()
    signals.changed_many("players_renamed", moved_matches)  # gone's matches name keep now
    return moved


def refresh_hashes(player_id: int) -> list[int]:
    """Recompute the content hash of every match of a player whose name changed; the ids
    of those matches."""
    statement = (
        sa.select(Match)
        .where(Match.id.in_(played_by(player_id)))
        .options(sa.orm.selectinload(Match.sides), sa.orm.selectinload(Match.hands))
    )
    match_ids = []
    for match in db.session.scalars(statement):
        match.content_hash = content_hash(match_document(match))
        match_ids.append(match.id)
    return match_ids
