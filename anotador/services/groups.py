"""Groups (a family, a club): their owner adds and removes members; members see the
group's matches, their players and statistics, and may leave."""

from __future__ import annotations

import sqlalchemy as sa
from flask_babel import lazy_gettext as _l

from anotador.extensions import db
from anotador.models import Group
from anotador.models import Match
from anotador.models import Membership
from anotador.models import User
from anotador.services.accounts import AccountRefused
from anotador.services.accounts import find_account
from anotador.services.accounts import one_line_name

#: A person in more groups than this is surely a script.
MAX_GROUPS = 50


def group_ids_of(user_id: int) -> list[int]:
    statement = sa.select(Membership.group_id).where(Membership.user_id == user_id)
    return list(db.session.scalars(statement))


def groups_of(user_id: int) -> list[Group]:
    """The user's groups by name, each with its members loaded."""
    statement = (
        sa.select(Group)
        .join(Membership, Membership.group_id == Group.id)
        .where(Membership.user_id == user_id)
        .order_by(Group.name, Group.id)
        .options(sa.orm.selectinload(Group.memberships))
    )
    return list(db.session.scalars(statement))


def group_for(user_id: int, group_id: int) -> Group | None:
    """The group, if the user is one of its members."""
    statement = (
        sa.select(Group)
        .join(Membership, Membership.group_id == Group.id)
        .where(Group.id == group_id, Membership.user_id == user_id)
        .options(sa.orm.selectinload(Group.memberships))
    )
    return db.session.scalars(statement).first()


def create_group(owner_id: int, name: str) -> Group:
    if len(group_ids_of(owner_id)) >= MAX_GROUPS:
        raise AccountRefused("name", str(_l("You are in too many groups already.")))
    group = Group(name=one_line_name(name), owner_id=owner_id)
    group.memberships.append(Membership(user_id=owner_id))
    db.session.add(group)
    db.session.commit()
    return group


def add_member(group: Group, name: str) -> User:
    """Add the account called ``name`` to the group (commits)."""
    user = find_account(name)
    if user is None:
        raise AccountRefused("name", str(_l("There is no account with that name.")))
    if any(membership.user_id == user.id for membership in group.memberships):
        raise AccountRefused("name", str(_l("%(name)s is in the group already.", name=user.name)))
    group.memberships.append(Membership(user_id=user.id))
    db.session.commit()
    return user


def remove_member(group: Group, user_id: int) -> bool:
    """Take a member out (commits); the owner stays (False). The matches the member shared
    with the group stay the member's, no longer shared."""
    if user_id == group.owner_id:
        return False
    db.session.execute(
        sa.update(Match)
        .where(Match.group_id == group.id, Match.owner_id == user_id)
        .values(group_id=None)
    )
    db.session.execute(
        sa.delete(Membership).where(Membership.group_id == group.id, Membership.user_id == user_id)
    )
    db.session.commit()
    return True


def delete_group(group: Group) -> None:
    """Delete the group (commits): its matches stay their owners', no longer shared."""
    db.session.delete(group)
    db.session.commit()
