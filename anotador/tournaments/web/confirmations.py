"""The confirmations' pages: a table's phone confirms its result (the pair that did not keep the
score), or the director does from the round page. What a confirmation is and does:
:mod:`anotador.tournaments.operations.confirmations`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Blueprint
from flask import abort
from flask import flash
from flask import redirect
from flask import request
from flask import url_for
from flask_babel import gettext

from anotador.tournaments.operations.confirmations import confirm
from anotador.tournaments.operations.confirmations import progress
from anotador.tournaments.operations.confirmations import table_of
from anotador.tournaments.store.models import RoundTable
from anotador.tournaments.web.forms import ConfirmForm
from anotador.tournaments.web.refusals import attempt
from anotador.tournaments.web.refusals import checked
from anotador.web import access
from anotador.web import inputs


def register(bp: Blueprint, owned_table: Callable[[int, int], RoundTable]) -> None:
    """Add the confirmations to the tournaments' blueprint: from a table's phone (the table
    link, or the director's own planilla) and from the director's round page."""

    def form_values() -> tuple[str | None, int | None]:
        try:
            by = inputs.choice(request.form.get("by"), ("ew",))
            return by, inputs.integer(request.form.get("version"), 0, inputs.MAX_ROW_ID)
        except inputs.BadInput as bad:
            abort(400, str(bad))

    def by_pair(match_id: int) -> Any:
        """The pair that did not keep the score confirms its table's result, as its page
        showed it (``version``)."""
        _state, granted = access.state_for(match_id, access.Level.READ)
        table = table_of(match_id)
        if table is None:
            abort(404)
        where = url_for("matches.show", match_id=match_id)
        if progress(table) == "confirmed":
            return redirect(where, 303)  # a double tap, the other phone: confirmed already
        if granted.level < access.Level.SCORE:
            access.refuse()
        if (back := checked(ConfirmForm(), where)) is not None:
            return back
        by, seen = form_values()
        if by is None or seen is None:
            abort(400)
        if (back := attempt(lambda: confirm(table, access.user_id(), by, seen), where)) is not None:
            return back
        flash(gettext("Result confirmed: it is final."), "success")
        return redirect(where, 303)

    @access.account_required
    def by_director(tournament_id: int, table_id: int) -> Any:
        """The director confirms a table's result instead of its pair."""
        table = owned_table(tournament_id, table_id)
        director = access.user_id()
        where = url_for(".round_page", tournament_id=tournament_id, number=table.round.number)
        if (back := checked(ConfirmForm(), where)) is not None:
            return back
        return attempt(lambda: confirm(table, director, "director", None), where) or (
            redirect(where + f"#mesa-{table.id}", 303)
        )

    bp.add_url_rule("/confirmar/<id:match_id>", "confirm_by_pair", by_pair, methods=["POST"])
    bp.add_url_rule(
        "/<id:tournament_id>/mesas/<id:table_id>/confirmar",
        "confirm_by_director",
        by_director,
        methods=["POST"],
    )
