"""Who may do what: the signed-in account, the links this browser opened, and for each match
the level of access they give.

A match is its owner's. Members of its group may read it; whoever opened its spectator link
may read it; whoever opened its table link may score it (record, correct, undo) while it is
played, and read it afterwards. Anything less than a route needs is a 404, as for a match
that does not exist, so nobody learns which ids are taken; a browser signed in nowhere is
sent to sign in instead (the same for every id).

Links are remembered in the session, so the match's own pages serve them and the token shows
in the address bar once: the link itself redirects. The session keeps the newest of each kind
apart (:data:`LINK_LISTS`), so that however many links another site sends a browser to, a
phone keeps the table link it scores with and the links it opened itself.
"""

from __future__ import annotations

import dataclasses
import enum
import hmac
from collections.abc import Callable
from functools import wraps
from typing import Any
from typing import NoReturn
from typing import TypeVar

import sqlalchemy as sa
from flask import abort
from flask import g
from flask import request
from flask import session
from flask_login import current_user

from anotador import services
from anotador.ratings import reads as ratings
from anotador.ratings.models import RatingsVersion
from anotador.services.queries import MatchState
from anotador.services.queries import Sharing
from anotador.services.scope import NOBODY
from anotador.services.scope import Scope
from anotador.storage.database import db
from anotador.storage.models import Match
from anotador.storage.models import SignedIn
from anotador.storage.models import User
from anotador.web import inputs
from anotador.web.extensions import login_manager

#: The session's lists of links and how many each keeps (its oldest is forgotten first), most
#: trusted first: the table links this browser scored with (a POST, which no other site can
#: send with its cookies), the links it opened (a QR code, a typed or pasted address, or a
#: browser that does not say where it came from), those another site sent it to
#: (``Sec-Fetch-Site``: an attacker's page can send a browser to any number of them).
LINK_LISTS = {"scored_links": 5, "links": 20, "sent_links": 10}


class Level(enum.IntEnum):
    NONE = 0
    #: The planilla, its chart, the PDF and the match file.
    READ = 1
    #: Also record, correct, delete and undo hands.
    SCORE = 2
    #: Also share, move to a group, abandon and resume.
    OWN = 3


@dataclasses.dataclass(frozen=True)
class Account:
    """The signed-in account as every request sees it: read with one light query, no ORM
    object (the write views load the ``User`` row: :func:`signed_in_user`)."""

    id: int
    name: str
    is_admin: bool
    session_token: str
    #: This browser's sign-in (``models.SignedIn``): signing out ends it.
    sign_in: str
    #: The account's ratings version (``ratings.store.touch``), read with it: the key of
    #: what the pages keep of its ratings; None when not read (the sign-in's own request).
    ratings_version: int | None = None

    # What Flask-Login asks of a user object.
    is_authenticated = True
    is_active = True
    is_anonymous = False

    def get_id(self) -> str:
        """What the session and remember cookies keep: ``<id>:<session token>:<sign-in>``."""
        return f"{self.lasting_id()}:{self.sign_in}"

    def lasting_id(self) -> str:
        """The account as all its sign-ins share it, until a new password."""
        return f"{self.id}:{self.session_token}"

    @classmethod
    def of(cls, user: User, sign_in: str) -> Account:
        return cls(user.id, user.name, user.is_admin, user.session_token, sign_in)


ACCOUNT = (
    sa.select(
        User.id,
        User.name,
        User.is_admin,
        User.session_token,
        SignedIn.id.label("sign_in"),
        sa.func.coalesce(RatingsVersion.version, 0).label("ratings_version"),
    )
    .join(SignedIn, SignedIn.user_id == User.id)
    .outerjoin(RatingsVersion, RatingsVersion.owner_id == User.id)
    .where(User.id == sa.bindparam("user_id"), SignedIn.id == sa.bindparam("sign_in"))
)


@login_manager.user_loader
def load_user(user_id: str) -> Account | None:
    """The account of a session or remember cookie (:meth:`Account.get_id`): a token
    replaced since (a new password) or a sign-in ended (signed out) signs the cookie out."""
    number, _, rest = user_id.partition(":")
    token, _, sign_in = rest.partition(":")
    try:
        identity = inputs.row_id(number)
    except inputs.BadInput:
        return None
    if not identity or not sign_in:
        return None
    # On the session's connection, past the ORM: this runs before every page.
    connection = db.session.connection()
    row = connection.execute(ACCOUNT, {"user_id": identity, "sign_in": sign_in}).first()
    if row is None or not hmac.compare_digest(row.session_token, token):
        return None
    return Account(
        row.id, row.name, row.is_admin, row.session_token, row.sign_in, row.ratings_version
    )


def signed_in() -> Account | None:
    user = current_user._get_current_object()
    return user if isinstance(user, Account) else None


def signed_in_user() -> User:
    """The signed-in account's row, for a view that changes it (after account_required)."""
    account = signed_in()
    user = db.session.get(User, account.id) if account is not None else None
    if user is None:
        abort(404)
    return user


def user_id() -> int | None:
    user = signed_in()
    return user.id if user is not None else None


def ratings_version() -> int | None:
    """The signed-in account's ratings version, as read with the account at the start of the
    request (what is drawn from its ratings later is as new or newer); None: no account."""
    user = signed_in()
    if user is None:
        return None
    return user.ratings_version if user.ratings_version is not None else ratings.version(user.id)


def scope() -> Scope:
    """What the lists of this request show: the signed-in account's matches and its groups'."""
    user = signed_in()
    return Scope(user.id) if user is not None else NOBODY


def group_ids() -> frozenset[int]:
    """The groups of the signed-in account (one query, once per request)."""
    if "group_ids" not in g:
        identity = user_id()
        g.group_ids = frozenset(services.groups.group_ids_of(identity)) if identity else frozenset()
    found: frozenset[int] = g.group_ids
    return found


def links_in(kind: str) -> list[str]:
    kept = session.get(kind)
    return [token for token in kept if isinstance(token, str)] if isinstance(kept, list) else []


def links() -> list[str]:
    """Every link this browser opened and still remembers."""
    return list(dict.fromkeys(token for kind in LINK_LISTS for token in links_in(kind)))


def remember_link(token: str, *, sent: bool = False) -> None:
    """Remember an opened link (``sent``: another site sent the browser to it), unless a more
    trusted list has it already."""
    kind = "sent_links" if sent else "links"
    trusted = list(LINK_LISTS)[: list(LINK_LISTS).index(kind)]
    if not any(token in links_in(better) for better in trusted):
        keep_link(kind, token)
    session.permanent = True  # a phone at the table keeps its link for the evening and more


def keep_link(kind: str, token: str) -> None:
    """``token`` as the newest of the list ``kind``, and in no less trusted one."""
    for other in list(LINK_LISTS)[list(LINK_LISTS).index(kind) + 1 :]:
        if token in links_in(other):
            session[other] = [known for known in links_in(other) if known != token]
    kept = [known for known in links_in(kind) if known != token]
    session[kind] = [*kept, token][-LINK_LISTS[kind] :]


def keep_scoring_link(sharing: Sharing) -> None:
    """A table link this browser scores with (a POST) is this phone's own: keep it apart from
    the links opened after it."""
    token = sharing.table_token
    if request.method == "POST" and token and token in links():
        keep_link("scored_links", token)


@dataclasses.dataclass(frozen=True)
class Grant:
    """A request's access to one match, and what this browser presented for it: its signed-in
    account (the session's credential) or an opened link. A sheet link is signed for it
    (``views.pdf``), so that only a browser presenting the same can use the link unchecked."""

    level: Level
    credential: str = ""


def grant(sharing: Sharing) -> Grant:
    """The access the current request has to a match shared as ``sharing``."""
    user = signed_in()
    if user is not None and sharing.owner_id == user.id:
        return Grant(Level.OWN, account_credential(user))
    opened = links()
    if sharing.table_token and sharing.table_token in opened:
        level = Level.SCORE if sharing.ongoing else Level.READ
        return Grant(level, link_credential(sharing.table_token))
    if sharing.spectator_token and sharing.spectator_token in opened:
        return Grant(Level.READ, link_credential(sharing.spectator_token))
    if user is not None and sharing.group_id is not None and sharing.group_id in group_ids():
        return Grant(Level.READ, account_credential(user))
    return Grant(Level.NONE)


def level(sharing: Sharing) -> Level:
    """The access the current request has to a match shared as ``sharing``."""
    return grant(sharing).level


def account_credential(user: Account) -> str:
    # What Flask-Login keeps in the session of a signed-in browser (Account.get_id): a new
    # password, which replaces the session token, or a new sign-in changes it.
    return f"account:{user.get_id()}"


def link_credential(token: str) -> str:
    return f"link:{token}"


def presented_credentials() -> list[str]:
    """Every credential this browser's session presents, read from the session alone (no
    database): its account's, as Flask-Login keeps it, and its opened links'."""
    presented = [link_credential(token) for token in links()]
    account = session.get("_user_id")
    if isinstance(account, str):
        presented.append(f"account:{account}")
    return presented


def refuse() -> NoReturn:
    """Stop a request for a match it may not reach: to sign in, or with a 404."""
    if signed_in() is None:
        abort(login_manager.unauthorized())
    abort(404)


def match_for(match_id: int, need: Level) -> Match:
    """The match with its sides and players, if this request has ``need`` on it."""
    match = services.queries.load_match(match_id)
    if match is None:
        refuse()
    sharing = services.queries.sharing_of(match)
    if level(sharing) < need:
        refuse()
    if need >= Level.SCORE:
        keep_scoring_link(sharing)
    return match


def state_for(match_id: int, need: Level) -> tuple[MatchState, Grant]:
    """The light state of a match and this request's access to it, if at least ``need``."""
    state = services.queries.match_state(match_id)
    granted = grant(state.sharing) if state is not None else Grant(Level.NONE)
    if state is None or granted.level < need:
        refuse()
    return state, granted


View = TypeVar("View", bound=Callable[..., Any])


def account_required(view: View) -> View:
    """A page of the signed-in account (its lists, players, groups): sign in first."""

    @wraps(view)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        return require_account() or view(*args, **kwargs)

    return wrapped  # type: ignore[return-value]


def require_account() -> Any:
    """None when an account is signed in; else the way to sign in. A blueprint whose every
    page is an account's registers it with ``before_request``."""
    if signed_in() is None:
        return login_manager.unauthorized()
    return None
