"""The director's form on a pair's page that corrects its names (a typo, a substitute
partner): read as a new pair's are, one use case (``operations.pair_names``), back to the
pair's page; a name refused is said next to the form with what was typed, a change the
tournament's state refuses (finished, a player of another pair) is said there too."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from flask import Blueprint
from flask import abort
from flask import flash
from flask import redirect
from flask import url_for
from flask_babel import gettext

from anotador.tournaments.operations import pair_names
from anotador.tournaments.store.models import Tournament
from anotador.tournaments.web import reports
from anotador.tournaments.web.forms import PairNamesForm
from anotador.tournaments.web.refusals import attempt
from anotador.tournaments.web.refusals import checked
from anotador.web import access


def register(bp: Blueprint, owned: Callable[[int], Tournament]) -> None:
    """Add the names' form to the tournaments' blueprint."""

    @access.account_required
    def rename_pair(tournament_id: int, pair_id: int) -> Any:
        tournament = owned(tournament_id)
        pair = next((p for p in tournament.pairs if p.id == pair_id), None)
        if pair is None:
            abort(404)
        where = url_for(".pair_page", tournament_id=tournament.id, pair_id=pair.id)
        form = PairNamesForm()
        if (back := checked(form, where)) is not None:
            return back
        if not form.validate():
            return reports.pair_view(tournament, pair, None, form), 422
        first, second = form.first.data or "", form.second.data or ""
        director = access.user_id()
        assert director is not None  # account_required
        use_case = partial(pair_names.rename_pair, tournament, director, pair, first, second)
        if (back := attempt(use_case, where)) is not None:
            return back
        flash(gettext("Names saved: %(pair)s.", pair=pair.label), "success")
        return redirect(where, 303)

    bp.add_url_rule(
        "/<id:tournament_id>/parejas/<id:pair_id>/nombres",
        "rename_pair",
        rename_pair,
        methods=["POST"],
    )
