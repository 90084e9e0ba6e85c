"""The live table: the tiny page every phone showing a match polls (``static/js/live.js``).

A hand saved on one phone bumps ``Match.version`` in the database, so whichever server
process a viewer's poll reaches sees it: nothing is kept in one process's memory. Each poll
is one small statement and, most of the time, a 304 with no body; it holds a worker thread
for as long as that takes (short polling, never a held connection).
"""

from __future__ import annotations

from flask import Blueprint
from flask import Flask
from flask import Response
from flask import jsonify
from flask import request
from flask import url_for
from flask.sessions import SecureCookieSessionInterface
from flask.sessions import SessionMixin

from anotador import services
from anotador.web import access
from anotador.web.errors import answers_json
from anotador.web.views.sharing import rematch_reached

bp = Blueprint("live", __name__)


class PollingSessions(SecureCookieSessionInterface):
    """The app's signed-cookie sessions, except that a poll leaves the cookie as it is: a
    permanent session (a link's) would otherwise be signed and sent again every second by
    every phone watching. The pages the phone opens keep refreshing it."""

    def should_set_cookie(self, app: Flask, session: SessionMixin) -> bool:
        if request.endpoint == "live.version":
            return session.modified
        return super().should_set_cookie(app, session)


@bp.get("/partidas/<id:match_id>/version")
@answers_json
def version(match_id: int) -> Response:
    """``{"version", "hands", "finished"}`` of a match this request may read, with the
    version as a strong ETag: 304 when the browser already has it; ``rematch``, the address
    that follows to its rematch, once one this browser may follow was made."""
    found = services.queries.match_version(match_id)
    if found is None or access.level(found.sharing) < access.Level.READ:
        access.refuse()
    etag = f"v{found.version}"
    answer: dict[str, object] = {
        "version": found.version,
        "hands": found.hand_count,
        "finished": found.finished,
    }
    # A rematch this phone may follow: its page goes there (another tag than the version's).
    if found.rematch_id is not None and rematch_reached(match_id, found.sharing):
        etag += f"-r{found.rematch_id}"
        answer["rematch"] = url_for("sharing.follow_rematch", match_id=match_id)
    if request.if_none_match.contains_weak(etag):
        # Of the answer's type: nothing after the view takes it for a page.
        response = Response(status=304, mimetype="application/json")
    else:
        response = jsonify(answer)
    response.set_etag(etag)
    # Stored, but asked again every time: the version changes whenever a hand is saved.
    response.headers["Cache-Control"] = "private, no-cache"
    return response


def watched(
    match_id: int, version: int | str, hands: int, number: int | None = None, scores: bool = True
) -> dict[str, object]:
    """What ``templates/_live.html`` needs for a page that follows a match live: its
    planilla (``number`` None: the planilla or the new-hand form) or the form correcting
    hand ``number``. ``version`` is the one the page shows, ``hands`` how many it counts.
    A page of a phone that ``scores`` also says where its copy of the match file is read
    (the outbox's address) and its new-hand form: ``static/js/offline.js`` refreshes both
    when the match changes."""
    return {
        "url": url_for("live.version", match_id=match_id),
        "version": version,
        "hands": hands,
        "number": number,
        "planilla": url_for("matches.show", match_id=match_id),
        "outbox": url_for("outbox.send", match_id=match_id) if scores else "",
        "new_hand": url_for("hands.new", match_id=match_id) if scores else "",
    }
