"""An account's lists (the history, the home page's) read its own matches and its groups'
others own part by part and merge them: the same matches, in the same order, as one
condition would give, each page reading along an index rather than sorting them all."""

from __future__ import annotations

import datetime
import random

import pytest
import sqlalchemy as sa
from flask import Flask
from stored import create_account
from stored import join_group
from stored import match_document

from anotador import services
from anotador.services import lists
from anotador.services import queries
from anotador.services.scope import Scope
from anotador.storage.database import db
from anotador.storage.models import Match

MATCHES = 36


@pytest.fixture
def accounts(app: Flask) -> tuple[int, int]:
    """Two accounts in one group, each with matches of its own, some shared with the group,
    played and changed on scattered days, a few still ongoing: (reader, other)."""
    reader, other = create_account(app, "Lectora"), create_account(app, "Otra")
    rng = random.Random(14)
    with app.app_context():
        group = services.groups.create_group(reader, "Club")
        join_group(group, "Otra")
        for number in range(MATCHES):
            owner = (reader, other)[number % 2]
            shared = rng.random() < 0.5
            played = datetime.date(2026, 1, 1) + datetime.timedelta(days=rng.randrange(40))
            document = match_document(played_on=played.isoformat(), title=f"P{number}")
            match, problems = services.matches.create_match(
                document, owner_id=owner, group_id=group.id if shared else None
            )
            assert match is not None, problems
            changed = datetime.datetime(2026, 3, 1) + datetime.timedelta(hours=rng.randrange(90))
            values = {"updated_at": changed}
            if rng.random() < 0.6:
                values["status"] = "finished"
            db.session.execute(sa.update(Match).where(Match.id == match.id).values(values))
        db.session.commit()
    return reader, other


def expected(
    account: int, order: tuple[sa.ColumnElement, ...], where: sa.ColumnElement[bool] | None = None
) -> list[int]:
    """The ids ``account`` sees where ``where`` holds, in ``order``, read with one condition."""
    statement = (
        sa.select(Match.id)
        .where(services.scope.account_matches(account), sa.true() if where is None else where)
        .order_by(*(column.desc() for column in order))
    )
    return list(db.session.scalars(statement))


def test_history_pages_list_own_and_group_matches_newest_first(app: Flask, accounts):
    for account in accounts:
        with app.app_context():
            scope, walked, after = Scope(account), [], None
            while True:
                page = queries.history_page(scope, queries.Filters(), after, size=5)
                walked += [state.id for state in page.listed.states]
                if page.next_cursor is None:
                    break
                after = page.next_cursor
            assert walked == expected(account, queries.HISTORY_ORDER)
            # Own matches and the group's others own: each other's shared ones, not private ones.
            assert 0 < len(walked) < MATCHES


def test_home_lists_are_the_most_recently_changed_of_both_parts(app: Flask, accounts):
    for account in accounts:
        with app.app_context():
            ongoing, others = queries.home_lists(Scope(account))
            ids = [state.id for state in ongoing.states]
            assert ids == expected(account, lists.RECENT_FIRST, lists.ONGOING)[:50]
            ids = [state.id for state in others.states]
            assert ids == expected(account, lists.RECENT_FIRST, ~lists.ONGOING)[:20]
            assert ongoing.states
            assert others.states


def test_a_match_of_the_reader_shared_with_its_group_is_listed_once(app: Flask, accounts):
    reader, _ = accounts
    with app.app_context():
        first = queries.history_page(Scope(reader), queries.Filters(), size=MATCHES)
        ids = [state.id for state in first.listed.states]
    assert len(ids) == len(set(ids))


def test_the_accounts_own_matches_are_read_along_an_index_not_sorted(app: Flask, accounts):
    """On SQLite: every list reads the account's own matches along an index in the list's
    order, as many as the page shows, and sorts only the few rows merged (with one OR over
    both parts, SQLite sorted every match the account sees, for every page)."""
    with app.app_context():
        if db.engine.dialect.name != "sqlite":
            pytest.skip("SQLite's query plan")
    reader, _ = accounts
    parameters = {"scope_account": reader, "limit": 26, "after_played_on": None, "after_id": 0}
    with app.app_context():
        connection = db.session.connection()
        for statement in [*queries.ACCOUNT_HISTORY, *lists.ACCOUNT_HOME]:
            compiled = statement.compile(connection)
            values = tuple(
                parameters.get(name, compiled.params.get(name))
                for name in compiled.positiontup or []
            )
            plan = connection.exec_driver_sql(f"EXPLAIN QUERY PLAN {compiled}", values).all()
            parent_of = {step: parent for step, parent, _, _ in plan}
            own = [
                step
                for step, _, _, detail in plan
                if detail.startswith("SEARCH match USING INDEX ix_match_owner_id_")
            ]
            assert len(own) == 1, plan
            reader_of_own = parent_of[own[0]]
            assert any(s == reader_of_own and d.startswith("CO-ROUTINE") for s, _, _, d in plan), (
                plan
            )
            sorts = [parent for _, parent, _, detail in plan if "TEMP B-TREE" in detail]
            assert reader_of_own not in sorts, plan
