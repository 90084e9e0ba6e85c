"""Groups (a family, a club): their owner invites members; an invited account sees the
invitation and accepts or declines it, and only then is a member: its lists show the group's
matches and players, and the group counts toward its limits. A member may leave; the owner
removes members and withdraws invitations."""

from __future__ import annotations

from typing import Any
from typing import cast

import sqlalchemy as sa
from flask_babel import lazy_gettext as _l

from anotador.services.accounts import AccountRefused
from anotador.services.accounts import find_account
from anotador.services.accounts import one_line_name
from anotador.storage.database import db
from anotador.storage.models import Group
from anotador.storage.models import Invitation
from anotador.storage.models import Match
from anotador.storage.models import Membership
from anotador.storage.models import User

#: A person in more groups than this is surely a script.
MAX_GROUPS = 50
#: Invitations one account may have waiting for an answer, whatever its groups: a stranger
#: cannot flood anyone's page with groups.
MAX_INVITATIONS = 20
#: An invitation waiting for its answer (a declined one stays, hidden).
PENDING = Invitation.declined.is_(False)


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


def invite(group: Group, inviter_id: int, name: str) -> User:
    """Invite the account called ``name`` into the group (commits)."""
    user = find_account(name)
    if user is None:
        raise AccountRefused("name", str(_l("There is no account with that name.")))
    if any(membership.user_id == user.id for membership in group.memberships):
        raise AccountRefused("name", str(_l("%(name)s is in the group already.", name=user.name)))
    asked = db.session.scalars(
        sa.select(Invitation).where(Invitation.user_id == user.id, Invitation.group_id == group.id)
    ).first()
    if asked is not None and asked.declined:
        raise AccountRefused(
            "name", str(_l("%(name)s declined the invitation to this group.", name=user.name))
        )
    if asked is not None:
        raise AccountRefused("name", str(_l("%(name)s is invited already.", name=user.name)))
    waiting = sa.select(sa.func.count()).where(Invitation.invited_by_id == inviter_id, PENDING)
    if (db.session.scalar(waiting) or 0) >= MAX_INVITATIONS:
        raise AccountRefused(
            "name",
            str(_l("Too many of your invitations are waiting for an answer: withdraw some.")),
        )
    db.session.add(Invitation(group_id=group.id, user_id=user.id, invited_by_id=inviter_id))
    try:
        db.session.commit()
    except sa.exc.IntegrityError:  # the same invitation, made by another request just now
        db.session.rollback()
        raise AccountRefused(
            "name", str(_l("%(name)s is invited already.", name=user.name))
        ) from None
    return user


def invitation_of(user_id: int, group_id: int) -> Invitation | None:
    """The account's invitation into the group, waiting for its answer."""
    statement = sa.select(Invitation).where(
        Invitation.user_id == user_id, Invitation.group_id == group_id, PENDING
    )
    return db.session.scalars(statement).first()


def invitations_of(user_id: int) -> list[Invitation]:
    """The invitations waiting for the account's answer, the newest first, with their
    groups and who invited."""
    statement = (
        sa.select(Invitation)
        .where(Invitation.user_id == user_id, PENDING)
        .order_by(Invitation.created_at.desc(), Invitation.id.desc())
        .options(sa.orm.joinedload(Invitation.group))
    )
    return list(db.session.scalars(statement))


def invitation_count(user_id: int) -> int:
    statement = sa.select(sa.func.count()).where(Invitation.user_id == user_id, PENDING)
    return db.session.scalar(statement) or 0


def invited_to(group_id: int) -> list[Invitation]:
    """Who the group is waiting for, by name."""
    statement = (
        sa.select(Invitation)
        .join(User, User.id == Invitation.user_id)
        .where(Invitation.group_id == group_id, PENDING)
        .order_by(User.name_key)
    )
    return list(db.session.scalars(statement))


def accept(user_id: int, group_id: int) -> Group | None:
    """Join the group the account is invited to (commits): the group, or None without an
    invitation. Refused (:class:`AccountRefused`) for an account in too many groups."""
    invitation = invitation_of(user_id, group_id)
    if invitation is None:
        return None
    if len(group_ids_of(user_id)) >= MAX_GROUPS:
        raise AccountRefused("group", str(_l("You are in too many groups already.")))
    group = invitation.group
    db.session.delete(invitation)
    group.memberships.append(Membership(user_id=user_id))
    try:
        db.session.commit()
    except sa.exc.IntegrityError:  # accepted by another request just now
        db.session.rollback()
    return group


def decline(user_id: int, group_id: int) -> bool:
    """Say no to an invitation, for good (commits); False when none was waiting."""
    statement = (
        sa.update(Invitation)
        .where(Invitation.user_id == user_id, Invitation.group_id == group_id, PENDING)
        .values(declined=True)
    )
    return _changed(statement)


def withdraw(group: Group, user_id: int) -> bool:
    """The owner takes back an invitation still waiting (commits); False when there was none
    (a declined one stays: the group cannot ask again)."""
    statement = sa.delete(Invitation).where(
        Invitation.user_id == user_id, Invitation.group_id == group.id, PENDING
    )
    return _changed(statement)


def _changed(statement: sa.Executable) -> bool:
    changed = cast(sa.CursorResult[Any], db.session.execute(statement)).rowcount
    db.session.commit()
    return bool(changed)


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
