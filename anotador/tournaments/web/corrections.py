"""The director's reopenings, when a correction is needed: the last round (closed → playing:
its tables' matches take changes again, each one logged) and a finished tournament
(finished → playing). Each is a confirmation form with an optional reason, kept in the
change log with who and when."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Blueprint
from flask import flash
from flask import redirect
from flask import url_for

from anotador.tournaments.operations import rounds
from anotador.tournaments.store.models import Round
from anotador.tournaments.store.models import Tournament
from anotador.tournaments.web.forms import ReasonForm
from anotador.web import access

Change = Callable[[str, Callable[[], Any]], Any]


def register(
    bp: Blueprint,
    owned: Callable[[int], Tournament],
    round_of: Callable[[Tournament, int], Round],
    change: Change,
) -> None:
    """Add the reopenings to the tournaments' blueprint (``change``: how a button's use case
    runs, its CSRF token checked and a refusal said)."""

    def reasoned(where: str, use_case: Callable[[int, str], Any]) -> Any:
        """``change``, given the director and their optional reason (a reason refused is
        said, and nothing changed)."""
        errors: dict[str, str] = {}
        reason = ReasonForm().reason_text(errors)
        if errors:
            flash(next(iter(errors.values())), "error")
            return redirect(where, 303)
        director = access.user_id()
        assert director is not None  # account_required
        return change(where, lambda: use_case(director, reason))

    @access.account_required
    def reopen_round(tournament_id: int, number: int) -> Any:
        """Reopen the last round, closed, to correct a table of it."""
        round_row = round_of(owned(tournament_id), number)
        where = url_for(".round_page", tournament_id=tournament_id, number=number)
        return reasoned(where, lambda who, why: rounds.reopen_round(round_row, who, why))

    @access.account_required
    def reopen(tournament_id: int) -> Any:
        """Reopen a finished tournament."""
        tournament = owned(tournament_id)
        where = url_for(".show", tournament_id=tournament_id)
        return reasoned(where, lambda who, why: rounds.reopen(tournament, who, why))

    bp.add_url_rule(
        "/<id:tournament_id>/rondas/<id:number>/reabrir",
        "reopen_round",
        reopen_round,
        methods=["POST"],
    )
    bp.add_url_rule("/<id:tournament_id>/reabrir", "reopen", reopen, methods=["POST"])
