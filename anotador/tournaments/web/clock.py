"""The round clock on the director's round page: start it (minutes per round), add minutes,
stop it (what each does: :mod:`anotador.tournaments.operations.clock`). Every page that
shows a clock (the round page, the board, a table's phone) gives ``static/js/clock.js`` the
server's time (:func:`clock_now`), in the frame it draws for each request: the parts kept
under the tournament's state say only when the clock runs out.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from flask import Blueprint
from flask import abort
from flask import flash
from flask import redirect
from flask import request
from flask import url_for
from flask_babel import gettext

from anotador.tournaments.limits import ADDED_MINUTES
from anotador.tournaments.limits import CLOCK_MINUTES
from anotador.tournaments.operations import clock
from anotador.tournaments.store.models import Round
from anotador.tournaments.store.models import Tournament
from anotador.tournaments.web.forms import ConfirmForm
from anotador.tournaments.web.refusals import attempt
from anotador.tournaments.web.refusals import checked
from anotador.web import access
from anotador.web import inputs


def clock_now() -> int:
    """The server's time in milliseconds since the epoch (a template global)."""
    return int(time.time() * 1000)


#: The largest end a form may say it saw (seconds since the epoch: far in the future).
SEEN_MAX = 2**40
#: What the factory adds to the templates' globals.
TEMPLATE_GLOBALS = (clock_now,)


def minutes_of(bounds: tuple[int, int]) -> int | None:
    """The minutes the form was sent with; None, and the reason flashed, when they are not
    a whole number within ``bounds``."""
    try:
        minutes = inputs.integer(request.form.get("minutes"), *bounds)
    except inputs.BadInput as bad:
        flash(gettext("Minutes: %(reason)s", reason=bad.message), "error")
        return None
    if minutes is None:
        flash(gettext("Write the minutes."), "error")
    return minutes


def register(
    bp: Blueprint,
    owned: Callable[[int], Tournament],
    round_of: Callable[[Tournament, int], Round],
) -> None:
    """Add the clock's three buttons of the round page to the tournaments' blueprint."""

    def changed(
        tournament_id: int,
        number: int,
        change: Callable[..., Any],
        read: Callable[[], tuple[int, ...] | None] = tuple,
    ) -> Any:
        """Run ``change(round, director, *read())`` on the director's round (``read``: the
        form's values, None when they are not usable and the reason flashed); back to its
        page, where the clock is."""
        round_row = round_of(owned(tournament_id), number)
        where = url_for(".round_page", tournament_id=tournament_id, number=number) + "#reloj"
        if (back := checked(ConfirmForm(), where)) is not None:
            return back
        values = read()
        if values is None:
            return redirect(where, 303)
        director = access.user_id()
        assert director is not None  # account_required
        return attempt(lambda: change(round_row, director, *values), where) or (
            redirect(where, 303)
        )

    def minutes(bounds: tuple[int, int]) -> Callable[[], tuple[int, ...] | None]:
        def read() -> tuple[int, ...] | None:
            found = minutes_of(bounds)
            return None if found is None else (found,)

        return read

    def added() -> tuple[int, ...] | None:
        """The minutes to add and the end the page showed (``seen``, a hidden field)."""
        try:
            seen = inputs.integer(request.form.get("seen"), 0, SEEN_MAX)
        except inputs.BadInput as bad:
            abort(400, str(bad))
        if seen is None:
            abort(400)
        found = minutes_of(ADDED_MINUTES)
        return None if found is None else (found, seen)

    @access.account_required
    def start(tournament_id: int, number: int) -> Any:
        """Start the round's clock: it runs out the minutes given from now."""
        return changed(tournament_id, number, clock.start, minutes(CLOCK_MINUTES))

    @access.account_required
    def add(tournament_id: int, number: int) -> Any:
        """Add minutes to the round's clock, as the page showed its end (``seen``)."""
        return changed(tournament_id, number, clock.add, added)

    @access.account_required
    def stop(tournament_id: int, number: int) -> Any:
        return changed(tournament_id, number, clock.stop)

    base = "/<id:tournament_id>/rondas/<id:number>/reloj"
    bp.add_url_rule(base, "start_clock", start, methods=["POST"])
    bp.add_url_rule(f"{base}/sumar", "add_to_clock", add, methods=["POST"])
    bp.add_url_rule(f"{base}/parar", "stop_clock", stop, methods=["POST"])
