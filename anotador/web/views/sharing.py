"""Sharing a match: its table link (score without an account), its spectator link (read
only), its group; and opening a link."""

from __future__ import annotations

from flask import Blueprint
from flask import abort
from flask import flash
from flask import redirect
from flask import render_template
from flask import request
from flask import url_for
from flask_babel import gettext as _
from werkzeug.wrappers import Response

from anotador import services
from anotador.services.queries import Sharing
from anotador.services.sharing import LINK_KINDS
from anotador.services.sharing import LinkKind
from anotador.web import access
from anotador.web import addresses as serving
from anotador.web import inputs
from anotador.web.forms.accounts import ConfirmForm
from anotador.web.forms.match import FORM_EXPIRED

bp = Blueprint("sharing", __name__)


@bp.get("/enlace/<string(length=43):token>")
def open_link(token: str) -> Response:
    """Remember the link in this browser and show its match (the token leaves the address
    bar at once)."""
    try:
        token = inputs.link_token(token)
    except inputs.BadInput:
        abort(404)
    match = services.sharing.match_for_token(token)
    if match is None:
        abort(404)
    access.remember_link(token, sent=sent_by_another_site())
    shown = follow_rematches(match.id, services.queries.sharing_of(match))
    return redirect(url_for("matches.show", match_id=shown), 303)


#: How many rematches in a row a link follows at most (a table plays a few in an evening).
MAX_REMATCHES = 50


@bp.get("/partidas/<id:match_id>/revancha")
def follow_rematch(match_id: int) -> Response:
    """The rematch of a match, for whoever may read the match: a phone that opened one of
    its links opens the rematch's link of the same kind (the table link keeps scoring)."""
    state, _granted = access.state_for(match_id, access.Level.READ)
    shown = follow_rematches(match_id, state.sharing)
    return redirect(url_for("matches.show", match_id=shown), 303)


def link_role(granted: access.Grant) -> str | None:
    """What a phone that reaches a match through one of its links may do there: "score" or
    "watch"; None when it reaches it otherwise (its owner, a member of its group)."""
    if not granted.credential.startswith(access.link_credential("")):
        return None
    return "score" if granted.level >= access.Level.SCORE else "watch"


def link_kind(sharing: Sharing) -> LinkKind | None:
    """The kind of link this browser opened for a match shared as ``sharing``, if any."""
    opened = access.links()
    for kind in LINK_KINDS:
        token = services.sharing.token_of(sharing, kind)
        if token and token in opened:
            return kind
    return None


def rematch_reached(match_id: int, sharing: Sharing) -> tuple[int, Sharing, str | None] | None:
    """The rematch of match ``match_id`` (shared as ``sharing``) if this browser may follow
    it there: its id, how it is shared and the token of its link of the kind this browser
    opened for the match (None: it reads the rematch as it reads the match, as its owner or
    in its group). None when there is no rematch, or its link of that kind was revoked."""
    found = services.sharing.rematch_of(match_id)
    if found is None:
        return None
    rematch_id, shared = found
    kind = link_kind(sharing)
    token = services.sharing.token_of(shared, kind) if kind is not None else None
    if token is None and access.level(shared) < access.Level.READ:
        return None
    return rematch_id, shared, token


def follow_rematches(match_id: int, sharing: Sharing) -> int:
    """The last of the rematches after match ``match_id`` this browser reaches (the match
    itself when none), opening on the way their links of the kind it opened."""
    for _step in range(MAX_REMATCHES):
        step = rematch_reached(match_id, sharing)
        if step is None:
            break
        match_id, sharing, token = step
        if token is not None:
            access.remember_link(token)
    return match_id


def sent_by_another_site() -> bool:
    """Whether the browser says another site sent it here (``Sec-Fetch-Site``; browsers send
    it to HTTPS and ``localhost`` only: elsewhere, as for one that says nothing, no)."""
    try:
        site = inputs.choice(request.headers.get("Sec-Fetch-Site"), FETCH_SITES)
    except inputs.BadInput:
        return False
    return site in ("cross-site", "same-site")


#: What ``Sec-Fetch-Site`` says: the page that sent the request, or none (typed, a bookmark,
#: an app handing over an address).
FETCH_SITES = ("cross-site", "same-site", "same-origin", "none")


@bp.get("/partidas/<id:match_id>/compartir")
def show(match_id: int) -> str:
    """The owner's sharing page: the table and spectator links and the group."""
    match = access.match_for(match_id, access.Level.OWN)
    owner = access.user_id()
    assert owner is not None
    table = match.table_token and link_url(match.table_token)
    spectator = match.spectator_token and link_url(match.spectator_token)
    sharing = {
        "table": table,
        "spectator": spectator,
        "qr": {url: serving.qr_svg(url) for url in (table, spectator) if url},
        "ongoing": match.status == "ongoing",
        "group_id": match.group_id,
        "groups": services.groups.groups_of(owner),
        "form": ConfirmForm(formdata=None),
        "title": " · ".join(side.name for side in match.sides),
    }
    title = sharing["title"]
    return render_template("matches/share.html", sharing=sharing, match_id=match_id, title=title)


def link_url(token: str) -> str:
    """The link as the other phones open it: this server's address on the network when the
    owner is on the server's own machine (``127.0.0.1`` would be the phone's)."""
    base = serving.page_url(request)  # ends with the mount point and "/"
    if base is None:
        return url_for(".open_link", token=token, _external=True)
    return base + url_for(".open_link", token=token).removeprefix(request.script_root + "/")


@bp.post("/partidas/<id:match_id>/enlaces")
def set_link(match_id: int) -> Response:
    """Make a new link of a kind (``on=1``) or revoke it (``on=0``)."""
    match = access.match_for(match_id, access.Level.OWN)
    try:
        kind = inputs.choice(request.form.get("kind"), LINK_KINDS)
        on = inputs.choice(request.form.get("on"), ("0", "1"))
    except inputs.BadInput:
        abort(400)
    if kind is None or on is None:
        abort(400)
    if not ConfirmForm().validate_on_submit():
        flash(str(FORM_EXPIRED), "error")
    elif on == "1" and kind == "table" and match.status != "ongoing":
        flash(_("The match is over: a table link would not let anyone score."), "error")
    else:
        services.sharing.set_link(match, kind, on == "1")
        flash(link_message(kind, on == "1"), "success")
    return redirect(url_for(".show", match_id=match_id), 303)


def link_message(kind: str, on: bool) -> str:
    if kind == "table":
        return _("New table link ready.") if on else _("Table link revoked.")
    return _("New spectator link ready.") if on else _("Spectator link revoked.")


@bp.post("/partidas/<id:match_id>/grupo")
def set_group(match_id: int) -> Response:
    """Share the match with one of the owner's groups (or with none: empty value)."""
    match = access.match_for(match_id, access.Level.OWN)
    owner = access.user_id()
    assert owner is not None
    try:
        group_id = inputs.row_id(request.form.get("group")) or None
    except inputs.BadInput:
        abort(400)
    if not ConfirmForm().validate_on_submit():
        flash(str(FORM_EXPIRED), "error")
    elif not services.sharing.set_group(match, owner, group_id):
        abort(404)
    else:
        flash(_("Group of the match saved."), "success")
    return redirect(url_for(".show", match_id=match_id), 303)
