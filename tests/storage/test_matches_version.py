"""The database bumps the counters of the matches an account sees (``MatchesVersion``) with
every write that can change them, whoever makes it: the app, a bulk statement, a cascade or
SQL typed by hand. Each write is checked by the counters it changed, after its commit (on
PostgreSQL the triggers run at the commit)."""

from __future__ import annotations

import threading
import time

import pytest
import sqlalchemy as sa
from flask import Flask
from stored import OWNER
from stored import create_account
from stored import create_stored_match
from stored import match_document

from anotador import services
from anotador.storage.database import db
from anotador.storage.models import Match
from anotador.storage.models import MatchesVersion
from anotador.storage.models import Membership
from anotador.storage.models import Player
from anotador.storage.models import Seat
from anotador.storage.models import Side
from anotador.storage.models import User

SIDES = [
    {"name": "Nosotros", "players": ["Ana", "Carla"]},
    {"name": "Ellos", "players": ["Beto", "Dani"]},
]
Counters = dict[tuple[str, int], int]


def counters(app: Flask) -> Counters:
    with app.app_context():
        rows = db.session.execute(
            sa.select(MatchesVersion.holder, MatchesVersion.holder_id, MatchesVersion.version)
        )
        return {(holder, holder_id): version for holder, holder_id, version in rows}


def bumped(before: Counters, after: Counters) -> set[tuple[str, int]]:
    """The holders whose counter a write started or changed."""
    return {holder for holder, version in after.items() if before.get(holder) != version}


def written(app: Flask, *statements: sa.Executable) -> set[tuple[str, int]]:
    """The holders bumped by ``statements``, run in one transaction."""
    before = counters(app)
    with app.app_context():
        for statement in statements:
            db.session.execute(statement)
        db.session.commit()
    return bumped(before, counters(app))


def setting(app: Flask) -> tuple[int, int, int, int]:
    """The owner's account, another account, a group of the owner and a match of the
    owner's shared into it."""
    other = create_account(app, "Otra")
    match_id = create_stored_match(app, match_document(sides=SIDES), owner=OWNER)
    with app.app_context():
        owner = services.accounts.find_account(OWNER)
        assert owner is not None
        group = services.groups.create_group(owner.id, "Familia")
        db.session.commit()
        ids = owner.id, other, group.id
    written(app, sa.update(Match).where(Match.id == match_id).values(group_id=ids[2]))
    return (*ids, match_id)


def test_a_new_match_bumps_its_owner_and_its_group(app: Flask):
    owner, _, group, match_id = setting(app)
    before = counters(app)
    create_stored_match(app, match_document(), owner=OWNER)
    assert bumped(before, counters(app)) == {("a", owner)}
    with app.app_context():
        copied = db.session.get(Match, match_id)
        assert copied is not None
        columns = {column.key: getattr(copied, column.key) for column in Match.__table__.columns}
    columns.update(id=None, group_id=group)
    columns.pop("id")
    assert written(app, sa.insert(Match).values(**columns)) == {("a", owner), ("g", group)}


def test_any_change_to_a_match_bumps_its_holders_and_only_theirs(app: Flask):
    owner, other, group, match_id = setting(app)
    this_match = Match.id == match_id
    version = sa.update(Match).where(this_match).values(version=Match.version + 1)
    assert written(app, version) == {("a", owner), ("g", group)}
    renamed = sa.update(Match).where(this_match).values(content_hash="x")
    assert written(app, renamed) == {("a", owner), ("g", group)}
    unshared = sa.update(Match).where(this_match).values(group_id=None)
    assert written(app, unshared) == {("a", owner), ("g", group)}
    given = sa.update(Match).where(this_match).values(owner_id=other)
    assert written(app, given) == {("a", owner), ("a", other)}
    assert written(app, sa.delete(Match).where(this_match)) == {("a", other)}


def test_a_deleted_shared_match_bumps_its_group(app: Flask):
    owner, _, group, match_id = setting(app)
    deleted = sa.delete(Match).where(Match.id == match_id)
    assert written(app, deleted) == {("a", owner), ("g", group)}


def test_a_seat_given_to_another_player_bumps_its_match_holders(app: Flask):
    owner, _, group, match_id = setting(app)
    with app.app_context():
        seat_id, player_id = db.session.execute(
            sa.select(Seat.id, Seat.player_id)
            .join(Side, Side.id == Seat.side_id)
            .where(Side.match_id == match_id)
            .order_by(Seat.id)
            .limit(1)
        ).one()
        partner = db.session.scalars(
            sa.select(Seat.player_id).where(Seat.player_id != player_id).limit(1)
        ).one()
    seat = sa.update(Seat).where(Seat.id == seat_id)
    assert written(app, seat.values(player_id=partner)) == {("a", owner), ("g", group)}
    assert written(app, sa.delete(Seat).where(Seat.id == seat_id)) == {("a", owner), ("g", group)}


def test_joining_and_leaving_a_group_bump_the_member(app: Flask):
    _, other, group, _ = setting(app)
    assert written(app, sa.insert(Membership).values(group_id=group, user_id=other)) == {
        ("a", other)
    }
    left = sa.delete(Membership).where(Membership.user_id == other)
    assert written(app, left) == {("a", other)}


def test_a_deleted_account_counts_on_for_an_account_made_with_its_id(app: Flask):
    _, other, _, _ = setting(app)
    assert written(app, sa.delete(User).where(User.id == other)) == {("a", other)}
    assert ("a", other) in counters(app)  # the row stays: a reused id starts past it


def test_a_players_change_bumps_its_account(app: Flask):
    owner, other, _, _ = setting(app)
    with app.app_context():
        player = db.session.scalars(sa.select(Player.id).where(Player.name == "Ana")).one()
    this_player = Player.id == player
    renamed = sa.update(Player).where(this_player).values(name="Anita")
    assert written(app, renamed) == {("a", owner)}
    given = sa.update(Player).where(this_player).values(owner_id=other)
    assert written(app, given) == {("a", owner), ("a", other)}
    new = sa.insert(Player).values(name="Nueva", name_key="nueva", owner_id=other)
    assert written(app, new) == {("a", other)}


def test_a_write_rolled_back_to_a_savepoint_bumps_nothing(app: Flask):
    _, other, _, match_id = setting(app)
    before = counters(app)
    with app.app_context():
        db.session.execute(sa.update(Player).where(Player.owner_id == other).values(name="x"))
        new = sa.insert(Player).values(name="Nueva", name_key="nueva", owner_id=other)
        db.session.execute(new)
        savepoint = db.session.begin_nested()
        db.session.execute(sa.update(Match).where(Match.id == match_id).values(version=7))
        savepoint.rollback()
        db.session.commit()
    assert bumped(before, counters(app)) == {("a", other)}


def test_commits_writing_one_group_with_several_owners_never_deadlock(app: Flask):
    """Unsharing matches of two owners, and a save of one of them, commit together: on
    PostgreSQL they lock the counters in one order, so one waits and neither is aborted."""
    if db_dialect(app) != "postgresql":
        pytest.skip("SQLite writes take turns: they cannot wait for each other's locks")
    owner, other, group, shared = setting(app)
    others_matches = [
        create_stored_match(app, match_document(sides=SIDES), owner="Otra") for _ in range(2)
    ]
    share = sa.update(Match).where(Match.id.in_(others_matches)).values(group_id=group)
    written(app, share)
    before = counters(app)
    with app.app_context():
        engine = db.engine
    group_counter = sa.select(MatchesVersion.version).where(
        MatchesVersion.holder == "g", MatchesVersion.holder_id == group
    )
    observer = engine.connect().execution_options(isolation_level="AUTOCOMMIT")
    with (
        observer,
        engine.connect() as holder,
        engine.connect() as unsharing,
        engine.connect() as saving,
    ):
        # The group's counter is held, so both commits are seen waiting on their locks.
        holder.execute(group_counter.with_for_update())
        for match_id in (shared, others_matches[0]):
            unsharing.execute(sa.update(Match).where(Match.id == match_id).values(group_id=None))
        bump = sa.update(Match).where(Match.id == others_matches[1])
        saving.execute(bump.values(version=Match.version + 1))
        failures: list[BaseException] = []
        commits = []
        for connection in (unsharing, saving):
            pid = backend_pid(connection)
            commits.append(threading.Thread(target=commit, args=(connection, failures)))
            commits[-1].start()
            wait_for_lock(observer, pid)
        holder.rollback()
        for thread in commits:
            thread.join(timeout=30)
    assert failures == []
    assert bumped(before, counters(app)) == {("a", owner), ("a", other), ("g", group)}


def db_dialect(app: Flask) -> str:
    with app.app_context():
        return db.engine.dialect.name


def backend_pid(connection: sa.Connection) -> int:
    return connection.execute(sa.text("SELECT pg_backend_pid()")).scalar_one()


def commit(connection: sa.Connection, failures: list[BaseException]) -> None:
    try:
        connection.commit()
    except sa.exc.DBAPIError as failure:
        failures.append(failure)


def wait_for_lock(observer: sa.Connection, pid: int) -> None:
    """Wait until the backend ``pid`` waits for a lock (its commit reached the counters);
    ``observer`` commits each read, so each one sees the activity anew."""
    waiting = sa.text(
        "SELECT count(*) FROM pg_stat_activity WHERE pid = :pid AND wait_event_type = 'Lock'"
    )
    for _ in range(500):
        if observer.execute(waiting, {"pid": pid}).scalar_one():
            return
        time.sleep(0.01)
    raise AssertionError(f"backend {pid} never waited for a lock")
