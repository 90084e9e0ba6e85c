"""Tournaments: the director's screens (the owner only) and the standings everyone with the
tournament's link sees (a page, a board for a projector, the exports).

Thin, as every view: a form read by :mod:`anotador.web.inputs`, one use case of
:mod:`anotador.tournaments.operations.service` or
:mod:`~anotador.tournaments.operations.rounds`, a redirect; a change the tournament's state
does not allow says why (409) and changes nothing.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from functools import partial
from typing import Any

from flask import Blueprint
from flask import abort
from flask import flash
from flask import redirect
from flask import request
from flask import url_for
from flask.wrappers import Response
from flask_wtf.csrf import generate_csrf
from markupsafe import Markup

from anotador.storage.database import db
from anotador.tournaments.operations import rounds
from anotador.tournaments.operations import service
from anotador.tournaments.operations.clock import clock_of
from anotador.tournaments.operations.clock import default_minutes
from anotador.tournaments.store.models import Round
from anotador.tournaments.store.models import RoundTable
from anotador.tournaments.store.models import Tournament
from anotador.tournaments.web import asking
from anotador.tournaments.web import cards
from anotador.tournaments.web import clock
from anotador.tournaments.web import confirmations
from anotador.tournaments.web import corrections
from anotador.tournaments.web import live
from anotador.tournaments.web import nights
from anotador.tournaments.web import pages
from anotador.tournaments.web import pair_names
from anotador.tournaments.web import reports
from anotador.tournaments.web.forms import ConfirmForm
from anotador.tournaments.web.forms import PairForm
from anotador.tournaments.web.forms import ResultForm
from anotador.tournaments.web.forms import SwapForm
from anotador.tournaments.web.forms import TournamentForm
from anotador.tournaments.web.refusals import REFUSALS
from anotador.tournaments.web.refusals import attempt
from anotador.tournaments.web.refusals import checked
from anotador.tournaments.web.words import render
from anotador.web import access
from anotador.web import inputs
from anotador.web.forms.match import FORM_EXPIRED
from anotador.web.forms.match import csrf_refused
from anotador.words.i18n import problem_message

bp = Blueprint("tournaments", __name__, url_prefix="/torneos")


def director() -> int:
    identity = access.user_id()
    assert identity is not None  # account_required
    return identity


def owned(tournament_id: int) -> Tournament:
    """The signed-in account's tournament, else a 404 (another account's is not shown)."""
    tournament = service.owned(director(), tournament_id)
    if tournament is None:
        abort(404)
    return tournament


def round_of(tournament: Tournament, number: int) -> Round:
    for round_row in tournament.round_rows:
        if round_row.number == number:
            return round_row
    abort(404)


@bp.route("", methods=["GET", "POST"])
@access.account_required
def index() -> Any:
    """The director's tournaments and a new one."""
    form = TournamentForm()
    errors: dict[str, str] = {}
    problems: list[str] = []
    if request.method == "GET":  # a form refused keeps its key: nothing was made with it
        form.request_key.data = uuid.uuid4().hex
    if request.method == "POST":
        if csrf_refused(form):
            problems.append(str(FORM_EXPIRED))
        else:
            form.validate()
            setup, errors = form.setup()
            errors.update({name: messages[0] for name, messages in form.errors.items()})
            if setup is not None and not errors:
                made = service.create_tournament(director(), setup)
                if isinstance(made, Tournament):
                    return redirect(url_for(".show", tournament_id=made.id), 303)
                problems = [problem_message(problem) for problem in made]
    page = render(
        "tournaments/index.html",
        form=form,
        errors=errors,
        problems=problems,
        tournaments=service.tournaments_of(director()),
    )
    return page, 422 if errors or problems else 200


def show_page(tournament: Tournament, form: PairForm, **more: Any) -> str:
    """The tournament's page: its rounds, its pairs (``form``: a new one), its spectator link
    and its last changes, each with the pairs it concerns by name."""
    names = pages.labels_of(tournament)
    return render(
        "tournaments/show.html",
        tournament=tournament,
        form=form,
        confirm=ConfirmForm(formdata=None),
        latest=service.current_round(tournament),
        changes=service.changes_of(tournament)[:50],
        link=pages.spectator_link(tournament),
        pair_names={pair.position: names[pair.key] for pair in tournament.pairs},
        table_pairs=pages.table_pairs(tournament),
        **more,
    )


@bp.get("/<id:tournament_id>")
@access.account_required
def show(tournament_id: int) -> Any:
    return show_page(owned(tournament_id), PairForm(formdata=None))


@bp.post("/<id:tournament_id>/parejas")
@access.account_required
def add_pair(tournament_id: int) -> Any:
    tournament = owned(tournament_id)
    form = PairForm()
    where = url_for(".show", tournament_id=tournament.id)
    if (back := checked(form, where)) is not None:
        return back
    if not form.validate():
        errors = [messages[0] for messages in form.errors.values()]
        return show_page(tournament, form, pair_errors=errors), 422
    first, second, club = form.first.data or "", form.second.data or "", form.club.data or ""
    numbers = form.memberships()
    back = attempt(
        lambda: service.add_pair(tournament, director(), first, second, club, numbers), where
    )
    return back or redirect(where + "#parejas", 303)


@bp.post("/<id:tournament_id>/parejas/<id:pair_id>/retiro")
@access.account_required
def withdraw(tournament_id: int, pair_id: int) -> Any:
    tournament = owned(tournament_id)
    where = url_for(".show", tournament_id=tournament.id)
    if (back := checked(ConfirmForm(), where)) is not None:
        return back
    pair = next((p for p in tournament.pairs if p.id == pair_id), None)
    try:
        withdrawn = inputs.choice(request.form.get("withdrawn"), ("0", "1"))
    except inputs.BadInput as bad:
        abort(400, str(bad))
    if pair is None or withdrawn is None:
        abort(404 if pair is None else 400)
    leaves = withdrawn == "1"
    if leaves and (page := asking.asked("withdraw", where, pair=pair.label)) is not None:
        return page
    back = attempt(lambda: service.set_withdrawn(tournament, director(), pair, leaves), where)
    return back or redirect(where + "#parejas", 303)


@bp.post("/<id:tournament_id>/rondas")
@access.account_required
def draw(tournament_id: int) -> Any:
    tournament = owned(tournament_id)
    where = url_for(".show", tournament_id=tournament.id)
    if (back := checked(ConfirmForm(), where)) is not None:
        return back
    try:
        by_rating = inputs.choice(request.form.get("by_rating"), ("1",)) == "1"
    except inputs.BadInput as bad:
        abort(400, str(bad))
    drawn: list[Round] = []  # the use case's answer, when it took effect
    user = director()
    back = attempt(lambda: drawn.append(rounds.draw_round(tournament, user, by_rating)), where)
    if back is not None:
        return back
    number = drawn[0].number
    return redirect(url_for(".round_page", tournament_id=tournament_id, number=number), 303)


def round_content(tournament: Tournament, round_row: Round, csrf: str, **form: Any) -> str:
    """The live view of a round: its clock, its tables and what the director can do with them
    (``form``: a result written by hand that was refused, its table and its problems)."""
    return render(
        "tournaments/_round_page.html",
        tournament=tournament,
        round=round_row,
        tables=pages.table_rows(round_row),
        clock=clock_of(round_row),
        clock_minutes=default_minutes(tournament),
        result_form=form.pop("result_form", None) or ResultForm(formdata=None),
        csrf=csrf,
        **form,
    )


@bp.get("/<id:tournament_id>/rondas/<id:number>/mesas.pdf")
@access.account_required
def table_cards(tournament_id: int, number: int) -> Any:
    """The round's table cards to print: once it has started (its tables have their links).
    A printout kept by the tournament's state (:func:`reports.printed`); its QR codes hold
    the links as this address names them."""
    state = pages.viewed_state(tournament_id, None)
    if reports.round_status(state, number) == "drawn":
        flash(str(REFUSALS["not_started"]), "error")
        return redirect(url_for(".round_page", tournament_id=tournament_id, number=number), 303)

    def context(tournament: Tournament) -> dict[str, Any]:
        return cards.cards_context(round_of(tournament, number))

    name = f"torneo-{tournament_id}-ronda-{number}-mesas.pdf"
    view = ("cards", number, request.url_root)
    return reports.printed(state, cards.CARDS, view, context, name, None)


@bp.post("/<id:tournament_id>/rondas/<id:number>/cambio")
@access.account_required
def swap(tournament_id: int, number: int) -> Any:
    tournament = owned(tournament_id)
    round_row = round_of(tournament, number)
    where = url_for(".round_page", tournament_id=tournament.id, number=number)
    form = SwapForm()
    if (back := checked(form, where)) is not None:
        return back
    try:
        first, second = inputs.row_id(form.first.data), inputs.row_id(form.second.data)
        seen = inputs.row_id(form.seen.data)
    except inputs.BadInput as bad:
        abort(400, str(bad))
    by_id = {pair.id: pair for pair in tournament.pairs}
    if first not in by_id or second not in by_id:
        abort(400, str(REFUSALS["not_in_round"]))
    pairs = by_id[first], by_id[second]
    back = attempt(lambda: rounds.swap(round_row, director(), *pairs, seen=seen), where)
    return back or redirect(where, 303)


def change(where: str, use_case: Callable[[], Any], ask: Callable[[], Any] = lambda: None) -> Any:
    """Run a button's use case (its form's CSRF token checked first, then ``ask``: its
    confirmation page, None once confirmed); back to ``where``, with the reason when the
    tournament's state refused it (nothing changed)."""
    if (back := checked(ConfirmForm(), where)) is not None:
        return back
    if (page := ask()) is not None:
        return page
    return attempt(use_case, where) or redirect(where, 303)


@bp.post("/<id:tournament_id>/rondas/<id:number>/empezar")
@access.account_required
def start_round(tournament_id: int, number: int) -> Any:
    """Start a drawn round: each table's match is made, with its table link."""
    round_row = round_of(owned(tournament_id), number)
    where = url_for(".round_page", tournament_id=tournament_id, number=number)
    return change(where, lambda: rounds.start_round(round_row, director()))


@bp.post("/<id:tournament_id>/rondas/<id:number>/cerrar")
@access.account_required
def close_round(tournament_id: int, number: int) -> Any:
    round_row = round_of(owned(tournament_id), number)
    where = url_for(".round_page", tournament_id=tournament_id, number=number)
    ask = partial(asking.asked, "close_round", where, num=number)
    return change(where, lambda: rounds.close_round(round_row, director()), ask)


@bp.post("/<id:tournament_id>/terminar")
@access.account_required
def finish(tournament_id: int) -> Any:
    tournament = owned(tournament_id)
    where = url_for(".standings", tournament_id=tournament_id)
    back = url_for(".show", tournament_id=tournament_id)
    ask = partial(asking.asked, "finish", back)
    answer = change(where, lambda: rounds.finish(tournament, director()), ask)
    if tournament.status != "finished" and isinstance(answer, Response):
        answer.location = back  # refused: the reason is shown where it was asked
    return answer


@bp.post("/<id:tournament_id>/enlace")
@access.account_required
def set_link(tournament_id: int) -> Any:
    """Make (a new token) or revoke the tournament's spectator link."""
    tournament = owned(tournament_id)
    try:
        on = inputs.choice(request.form.get("on"), ("0", "1"))
    except inputs.BadInput as bad:
        abort(400, str(bad))
    if on is None:
        abort(400)
    where = url_for(".show", tournament_id=tournament_id) + "#enlace"
    return change(where, lambda: service.set_spectator_link(tournament, director(), on == "1"))


def owned_table(tournament_id: int, table_id: int) -> RoundTable:
    """A table of the signed-in account's tournament, else a 404."""
    tournament = owned(tournament_id)
    table = db.session.get(RoundTable, table_id)
    if table is None or table.round.tournament_id != tournament.id:
        abort(404)
    return table


@bp.post("/<id:tournament_id>/mesas/<id:table_id>")
@access.account_required
def result(tournament_id: int, table_id: int) -> Any:
    """Write a table's match points by hand (both empty: its match counts again)."""
    table = owned_table(tournament_id, table_id)
    tournament = table.round.tournament
    where = url_for(".round_page", tournament_id=tournament.id, number=table.round.number)
    form = ResultForm()
    if (back := checked(form, where)) is not None:
        return back
    mp, errors = form.points()
    reason = form.reason_text(errors)
    if errors:
        content = Markup(
            round_content(
                tournament,
                table.round,
                generate_csrf(),
                result_form=form,
                result_table=table.id,
                result_errors=list(errors.values()),
            )
        )
        number = table.round.number
        page = render(
            "tournaments/round.html", tournament=tournament, number=number, content=content
        )
        return page, 422
    return attempt(lambda: rounds.enter_result(table, director(), mp, reason), where) or (
        redirect(where, 303)
    )


# The standings, the board, the exports and their live poll: by id and by spectator link.
pages.register(bp, owned)
reports.register(bp, owned)
pair_names.register(bp, owned)
nights.register(bp)
corrections.register(bp, owned, round_of, change)
confirmations.register(bp, owned_table)
live.register(bp, owned_table, round_of, round_content)
clock.register(bp, owned, round_of)
