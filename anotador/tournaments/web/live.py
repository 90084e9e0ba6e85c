"""The director's live round page, and a table calling the director (what they show:
:mod:`anotador.tournaments.operations.live`).

The round page is rendered whole on the server, as every page (it works without
JavaScript); ``static/js/round.js`` then polls :func:`round_tables` with the ETag of what it
shows: a 304 while nothing changed, else the page's part again, whose tables' states it
swaps in (the forms the director may be filling are left alone). The ETag is the
tournament's live number (every hand saved at a table, every change of the director's, every
call) and the minute, so that a table turning late shows within a minute.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from flask import Blueprint
from flask import Response
from flask import abort
from flask import flash
from flask import redirect
from flask import request
from flask import url_for
from flask_babel import gettext
from flask_wtf.csrf import generate_csrf
from markupsafe import Markup

from anotador.tournaments.operations import live
from anotador.tournaments.operations.confirmations import table_of
from anotador.tournaments.store.models import Round
from anotador.tournaments.store.models import RoundTable
from anotador.tournaments.store.models import Tournament
from anotador.tournaments.web import kept
from anotador.tournaments.web import pages
from anotador.tournaments.web.forms import ConfirmForm
from anotador.tournaments.web.refusals import attempt
from anotador.tournaments.web.refusals import checked
from anotador.tournaments.web.words import render
from anotador.web import access
from anotador.words import i18n

#: Where the kept part's forms take the request's CSRF token (``views.CSRF_SLOT``).
CSRF_SLOT = "csrf-slot"


def minute() -> int:
    """The minute now: part of the kept page's key and of the ETag (lateness goes by it)."""
    return int(time.time() // 60)


def register(
    bp: Blueprint,
    owned_table: Callable[[int, int], RoundTable],
    round_of: Callable[[Tournament, int], Round],
    round_content: Callable[..., str],
) -> None:
    """Add the live round page, its poll, the table's call and its answer to the blueprint."""

    def part(state: Any, number: int, now: int) -> Markup:
        def content() -> str:
            tournament = pages.whole(state)
            return round_content(tournament, round_of(tournament, number), CSRF_SLOT)

        view = ("round", number, i18n.locale_name(), request.script_root, request.host_url, now)
        return Markup(kept.part(state, view, content).replace(CSRF_SLOT, generate_csrf()))

    def etag_of(state: Any, now: int) -> str:
        return f"r{kept.live(state)}-{now}"

    @access.account_required
    def round_page(tournament_id: int, number: int) -> Any:
        """The director's live view of a round, kept under the tournament's state."""
        state = pages.viewed_state(tournament_id, None)
        now = minute()
        follow = {
            "url": url_for(".round_tables", tournament_id=tournament_id, number=number),
            "etag": etag_of(state, now),
        }
        page = part(state, number, now)
        return render(
            "tournaments/round.html", tournament=state, number=number, content=page, follow=follow
        )

    @access.account_required
    def round_tables(tournament_id: int, number: int) -> Any:
        """The round page's part (its tables), or a 304 when the ETag asked is still it."""
        state = pages.viewed_state(tournament_id, None)
        now = minute()
        etag = etag_of(state, now)
        if request.if_none_match.contains(etag):
            response = Response(status=304)
        else:
            response = Response(str(part(state, number, now)), mimetype="text/html")
        response.set_etag(etag)
        response.headers["Cache-Control"] = "private, no-cache"
        return response

    def call(match_id: int) -> Any:
        """A table's phone (whoever may score its match: the table link) calls the director."""
        _state, granted = access.state_for(match_id, access.Level.READ)
        table = table_of(match_id)
        if table is None:
            abort(404)
        if granted.level < access.Level.SCORE:
            access.refuse()
        where = url_for("matches.show", match_id=match_id)
        if (back := checked(ConfirmForm(), where)) is not None:
            return back
        if (back := attempt(lambda: live.call(table), where)) is not None:
            return back
        flash(gettext("The director has been called."), "success")
        return redirect(where, 303)

    @access.account_required
    def answer(tournament_id: int, table_id: int) -> Any:
        """The director marks a table's call answered."""
        table = owned_table(tournament_id, table_id)
        where = url_for(".round_page", tournament_id=tournament_id, number=table.round.number)
        if (back := checked(ConfirmForm(), where)) is not None:
            return back
        director = access.user_id()
        assert director is not None  # account_required
        return attempt(lambda: live.answer(table, director), where) or (
            redirect(where + f"#mesa-{table.id}", 303)
        )

    bp.add_url_rule("/<id:tournament_id>/rondas/<id:number>", "round_page", round_page)
    bp.add_url_rule("/<id:tournament_id>/rondas/<id:number>/mesas", "round_tables", round_tables)
    bp.add_url_rule("/llamar/<id:match_id>", "call_director", call, methods=["POST"])
    bp.add_url_rule(
        "/<id:tournament_id>/mesas/<id:table_id>/atendida",
        "answer_call",
        answer,
        methods=["POST"],
    )
