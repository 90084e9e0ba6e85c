"""Signed-in browsers: each sign-in is a row (``models.SignedIn``) whose id the browser's
session and remember cookies carry (``access.Account.get_id``). Signing out deletes the row,
so those cookies stop working wherever they were copied to; the account page can end every
sign-in but its own. Old ones go when the account signs in again: those older than a cookie
lives, and the oldest beyond :data:`MAX_SIGNED_IN`."""

from __future__ import annotations

import datetime

import sqlalchemy as sa
from flask import current_app

from anotador.services.accounts import new_token
from anotador.storage.database import db
from anotador.storage.models import SignedIn
from anotador.storage.models import utc_now

#: Browsers one account stays signed in on at once (a phone, a tablet, a computer or a
#: few dozen): a new sign-in beyond them ends the oldest.
MAX_SIGNED_IN = 30


def lifetime() -> datetime.timedelta:
    """How long a sign-in's cookies can live: after that its row is only clutter."""
    config = current_app.config
    longest: datetime.timedelta = max(
        config["REMEMBER_COOKIE_DURATION"], config["PERMANENT_SESSION_LIFETIME"]
    )
    return longest


def sign_in(user_id: int) -> str:
    """A new sign-in of the account (commits): its id, for the browser's cookies."""
    token = new_token()
    db.session.add(SignedIn(id=token, user_id=user_id))
    db.session.flush()
    newest = (
        sa.select(SignedIn.id)
        .where(SignedIn.user_id == user_id)
        .order_by(SignedIn.created_at.desc(), SignedIn.id)
        .limit(MAX_SIGNED_IN)
    )
    db.session.execute(
        sa.delete(SignedIn).where(
            SignedIn.user_id == user_id,
            sa.or_(SignedIn.created_at < utc_now() - lifetime(), SignedIn.id.not_in(newest)),
        )
    )
    db.session.commit()
    return token


def sign_out(sign_in_id: str) -> None:
    """End one sign-in (commits): its cookies no longer sign anyone in."""
    db.session.execute(sa.delete(SignedIn).where(SignedIn.id == sign_in_id))
    db.session.commit()


def _others(user_id: int, sign_in_id: str) -> sa.ColumnElement[bool]:
    return sa.and_(SignedIn.user_id == user_id, SignedIn.id != sign_in_id)


def count_others(user_id: int, sign_in_id: str) -> int:
    """How many browsers but this one the account is signed in on (that sign in no longer
    than a cookie lives)."""
    statement = (
        sa.select(sa.func.count())
        .select_from(SignedIn)
        .where(_others(user_id, sign_in_id), SignedIn.created_at >= utc_now() - lifetime())
    )
    return db.session.scalar(statement) or 0


def sign_out_others(user_id: int, sign_in_id: str) -> None:
    """End every sign-in of the account but ``sign_in_id`` (commits)."""
    db.session.execute(sa.delete(SignedIn).where(_others(user_id, sign_in_id)))
    db.session.commit()
