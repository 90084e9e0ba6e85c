"""Accounts: create, sign in (throttled), change the password, remove; the first one.

The first account of an installation is its administrator. Through the web it needs the
setup code the server prints in its terminal (:func:`setup_code`), so that a stranger on the
same network cannot claim the installation first; ``anotador users add`` needs none. That
account takes every match and player the installation had before accounts existed (rows
without an owner), so an upgrade keeps everything.
"""

from __future__ import annotations

import dataclasses
import hashlib
import hmac
import secrets

import sqlalchemy as sa
from flask import current_app
from flask_babel import lazy_gettext as _l
from werkzeug.security import check_password_hash
from werkzeug.security import generate_password_hash

from anotador import rules
from anotador.ratings import store as ratings
from anotador.rules.text import invisible_characters
from anotador.services import throttle
from anotador.storage import names
from anotador.storage import signals
from anotador.storage.database import db
from anotador.storage.models import Match
from anotador.storage.models import Player
from anotador.storage.models import SignedIn
from anotador.storage.models import User
from anotador.storage.models import name_key
from anotador.tournaments.store.models import Tournament

MIN_PASSWORD = 8
MAX_PASSWORD = 200


class AccountRefused(Exception):
    """What was asked cannot be done: ``message`` says why, next to form field ``field``."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message


def new_token() -> str:
    return secrets.token_urlsafe(32)


def account_count() -> int:
    return db.session.scalar(sa.select(sa.func.count()).select_from(User)) or 0


def accounts_with_counts() -> list[tuple[User, int]]:
    """Every account by name, with how many matches it owns."""
    counts = (
        sa.select(Match.owner_id, sa.func.count().label("matches"))
        .group_by(Match.owner_id)
        .subquery()
    )
    statement = (
        sa.select(User, sa.func.coalesce(counts.c.matches, 0))
        .outerjoin(counts, counts.c.owner_id == User.id)
        .order_by(User.name_key)
    )
    return [(user, matches) for user, matches in db.session.execute(statement)]


def find_account(name: str) -> User | None:
    return db.session.scalars(sa.select(User).where(User.name_key == name_key(name))).first()


def first_administrator_id() -> int | None:
    """Who takes what is stored for no account in particular (the command line without
    ``--owner``): the first administrator, or None before any account (the rows then wait
    for that account, see the module docs)."""
    statement = sa.select(User.id).where(User.is_admin).order_by(User.id).limit(1)
    return db.session.scalar(statement)


def owner_or_default(owner_id: int | None) -> int | None:
    """``owner_id``, or for None the first administrator (see above)."""
    return owner_id if owner_id is not None else first_administrator_id()


def setup_code(secret_key: str) -> str:
    """The code that lets the web make the first account: nine digits derived from the
    installation's secret key, so every worker and host of it agrees without storing one."""
    digest = hmac.new(secret_key.encode(), b"anotador first account", hashlib.sha256).digest()
    digits = f"{int.from_bytes(digest[:8], 'big') % 10**9:09d}"
    return f"{digits[:3]} {digits[3:6]} {digits[6:]}"


def setup_code_matches(typed: str) -> bool:
    wanted = setup_code(current_app.config["SECRET_KEY"]).replace(" ", "")
    given = "".join(char for char in typed if char not in " -.")
    return hmac.compare_digest(given.encode(), wanted.encode())


def one_line_name(name: str) -> str:
    """An account's or a group's name by the engine's text rules, or :class:`AccountRefused`."""
    try:
        return rules.read_text(name, maximum=rules.MAX_NAME, required=True)
    except rules.TextRefused:
        raise AccountRefused("name", str(_l("Write a name of one line."))) from None


def check_new_password(password: str, field: str = "password") -> None:
    if len(password) < MIN_PASSWORD:
        message = _l("The password needs at least %(count)d characters.", count=MIN_PASSWORD)
        raise AccountRefused(field, str(message))
    if len(password) > MAX_PASSWORD:
        message = _l("The password can have at most %(count)d characters.", count=MAX_PASSWORD)
        raise AccountRefused(field, str(message))


def password_hash(password: str) -> str:
    # scrypt (memory-hard) by default: PASSWORD_HASH_METHOD in anotador.storage.config.
    return generate_password_hash(password, method=current_app.config["PASSWORD_HASH_METHOD"])


def account_name(name: str) -> str:
    """A new account's name: one line, every character visible (:mod:`anotador.storage.names`)."""
    clean = one_line_name(name)
    if invisible_characters(clean):
        message = _l(
            "Write the name with visible characters only: no invisible spaces, soft hyphens "
            "or marks that change the writing direction."
        )
        raise AccountRefused("name", str(message))
    return clean


def create_account(
    name: str, password: str, *, admin: bool = False, first: bool | None = None
) -> User:
    """A new account (commits); the first one is an administrator and takes the rows that
    have no owner. ``first`` says whether it claims the installation (by default: whether
    there is no account yet); of such claims arriving at once exactly one is made, the
    others refused. Refused (:class:`AccountRefused`) for a bad name or password, or a name
    another account has or looks like."""
    clean = account_name(name)
    check_new_password(password)
    skeleton = names.skeleton_digest(clean)
    check_name_free(clean, skeleton)
    if first is None:
        first = account_count() == 0
    user = User(
        name=clean,
        name_key=name_key(clean),
        name_skeleton=skeleton,
        password_hash=password_hash(password),
        is_admin=admin or first,
        first_account=True if first else None,
        session_token=new_token(),
    )
    db.session.add(user)
    try:
        db.session.flush()
    except sa.exc.IntegrityError:  # a name, a look or the first account taken just now
        db.session.rollback()
        check_name_free(clean, skeleton)
        if first:
            raise AccountRefused("first", str(FIRST_TAKEN)) from None
        raise AccountRefused("name", str(_l("That name is taken: choose another."))) from None
    adopted: list[int] = []
    if first:
        adopted = list(db.session.scalars(sa.select(Match.id).where(Match.owner_id.is_(None))))
        db.session.execute(
            sa.update(Match).where(Match.owner_id.is_(None)).values(owner_id=user.id)
        )
        db.session.execute(
            sa.update(Player).where(Player.owner_id.is_(None)).values(owner_id=user.id)
        )
        ratings.adopt(user.id)
    db.session.commit()
    if adopted:
        signals.changed_many("adopted", adopted)
    return user


#: What a first sign-up hears when another one, arriving at the same time, was made.
FIRST_TAKEN = _l(
    "The first account of this installation was created a moment ago from another device: "
    "sign in with it, or ask its administrator for an account."
)


def check_name_free(name: str, skeleton: str) -> None:
    """:class:`AccountRefused` when another account has the name, or one that looks like it
    (all a person choosing a name needs to know: which one, it does not say)."""
    if find_account(name) is not None:
        raise AccountRefused("name", str(_l("That name is taken: choose another.")))
    taken = sa.select(User.id).where(User.name_skeleton == skeleton)
    if db.session.scalar(taken) is not None:
        message = _l("That name looks too much like another account's: choose another.")
        raise AccountRefused("name", str(message))


@dataclasses.dataclass(frozen=True)
class SignIn:
    """A sign-in's outcome: the account, or how long to wait, or neither (wrong name or
    password: which of the two, it does not say)."""

    user: User | None = None
    wait: int = 0


@dataclasses.dataclass(frozen=True)
class Device:
    """A browser's device cookie, read: its nonce and the accounts it signed in to."""

    nonce: str
    accounts: tuple[int, ...] = ()


class MustWait(Exception):
    """The throttle refused an attempt: try again in ``seconds``."""

    def __init__(self, seconds: int) -> None:
        super().__init__(seconds)
        self.seconds = seconds


#: Checked when the name is unknown, so a wrong name takes as long as a wrong password.
_NOBODY = generate_password_hash("anotador: nobody", method="scrypt")


def sign_in(name: str, password: str, address: str | None, device: Device | None = None) -> SignIn:
    """Check a name and password, unless the throttle says to wait first. A browser whose
    device cookie signed in to this account before counts against its own allowance; any
    other against the account's name and its address (services.throttle)."""
    user = find_account(name) if len(password) <= MAX_PASSWORD else None
    if user is not None and device is not None and user.id in device.accounts:
        keys = [throttle.device_key(user.id, device.nonce)]
    else:
        keys = [throttle.account_key(name_key(name)), throttle.address_key(address)]
    wait = throttle.claim(keys)
    if wait:
        return SignIn(wait=wait)
    if user is None:
        check_password_hash(_NOBODY, password[:MAX_PASSWORD])
    elif check_password_hash(user.password_hash, password):
        throttle.forget(keys[0])
        throttle.give_back(keys[1:])
        return SignIn(user=user)
    return SignIn(wait=throttle.wait_seconds(keys))


def sign_up(name: str, password: str, address: str | None, setup_code: str | None = None) -> User:
    """A new account from the sign-up form (commits). Throttled per address and for the
    whole installation (so that nobody can make accounts or try names fast); the first
    account needs the setup code, throttled for the whole installation, and claims the
    installation. :class:`MustWait` or :class:`AccountRefused` when not made."""
    first = setup_code is not None
    keys = [throttle.SETUP_KEY] if first else throttle.sign_up_keys(address)
    wait = throttle.claim(keys)
    if wait:
        raise MustWait(wait)
    if first and not setup_code_matches(setup_code or ""):
        message = _l("That is not the setup code: the server printed it where it was started.")
        raise AccountRefused("setup_code", str(message))
    if first:
        throttle.give_back(keys)
    return create_account(name, password, first=first)


def password_matches(user: User, password: str) -> bool:
    return len(password) <= MAX_PASSWORD and check_password_hash(user.password_hash, password)


def change_password(user: User, current: str, new: str) -> None:
    """Replace the password (commits); every other session of the account ends."""
    if not password_matches(user, current):
        raise AccountRefused("current", str(_l("That is not your current password.")))
    check_new_password(new, "new")
    set_password(user, new)


def set_password(user: User, new: str) -> None:
    """The new password (commits): every browser signed in to the account is signed out."""
    user.password_hash = password_hash(new)
    user.session_token = new_token()
    db.session.execute(sa.delete(SignedIn).where(SignedIn.user_id == user.id))
    db.session.commit()


def remove_account(user: User) -> int:
    """Delete the account with its matches, players and groups (commits); how many matches
    went. The last administrator of an installation with other accounts stays."""
    others = sa.select(sa.func.count()).select_from(User).where(User.id != user.id)
    admins = others.where(User.is_admin)
    if user.is_admin and db.session.scalar(others) and not db.session.scalar(admins):
        raise AccountRefused(
            "confirm",
            str(_l("You are the only administrator: make another one first.")),
        )
    match_ids = list(db.session.scalars(sa.select(Match.id).where(Match.owner_id == user.id)))
    # The database's ON DELETE CASCADE takes the rest (players, groups, memberships; its
    # groups' other matches stay, unshared). What points to the account's players goes first,
    # in its own statements: PostgreSQL checks a seat's or a pair's reference to a player
    # before one cascade from the account has reached it through the match or tournament.
    db.session.execute(sa.delete(Tournament).where(Tournament.owner_id == user.id))
    db.session.execute(sa.delete(Match).where(Match.owner_id == user.id))
    db.session.execute(sa.delete(User).where(User.id == user.id))
    db.session.commit()
    signals.changed_many("deleted", match_ids)
    return len(match_ids)
