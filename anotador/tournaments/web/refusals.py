"""How a director's change that was not made is said: the reasons of the tournament's state
(``service.Refused``), a request that another one changed the tournament under, an expired
form; each a redirect back with the reason, nothing changed."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import flash
from flask import redirect
from flask_babel import lazy_gettext as _l
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.exc import ObjectDeletedError

from anotador.storage.database import db
from anotador.tournaments.operations import service
from anotador.web.forms.match import FORM_EXPIRED
from anotador.web.forms.match import csrf_refused

#: Why a change was refused (``service.Refused.code``), said to the director.
REFUSALS = {
    "finished": _l("The tournament has finished: nothing more can change."),
    "names_final": _l(
        "The tournament has finished: its names are final. Reopen it to correct one (the "
        "change log keeps both names)."
    ),
    "too_many_pairs": _l("A tournament has at most 1,000 pairs."),
    "same_player": _l("A pair is two different players."),
    "player_in_a_pair": _l("That player is already in a pair of this tournament."),
    "membership_taken": _l("That membership number is another player's already."),
    "round_open": _l("Close the round being played first."),
    "round_drawn": _l("The next round has already been drawn."),
    "round_closed": _l("This round has already been closed."),
    "changed": _l("The tournament changed meanwhile (another tab?): look at it again."),
    "all_rounds_played": _l("Every round of the tournament has been played."),
    "too_few_pairs": _l("A round needs at least two pairs to play."),
    "round_started": _l("The round has already started: its tables are set."),
    "not_in_round": _l("Choose two different pairs of this round."),
    "no_result_here": _l("This table has no result to write yet."),
    "round_not_playing": _l("This round is not being played."),
    "tables_playing": _l("Some tables have not finished yet."),
    "match_refused": _l("The tables' matches could not be made."),
    "not_started": _l("Start the round first: its tables get their links then."),
    "round_not_closed": _l("This round is not closed."),
    "not_last_round": _l("Only the last round can be reopened."),
    "not_finished": _l("The tournament has not finished."),
    "unreadable": _l(
        "This tournament's stored rows cannot be read, so no round can be drawn: the "
        "server's administrator lists what is wrong with “anotador check”."
    ),
    "table_not_ended": _l("This table's match has not ended yet: there is no result to confirm."),
    "result_changed": _l(
        "The table's result changed meanwhile (a hand was corrected?): check it and confirm again."
    ),
    "clock_running": _l("The round's clock is already running: add minutes, or stop it first."),
    "no_clock": _l("The round's clock is not running: start it first."),
    "clock_changed": _l(
        "The round's clock had changed meanwhile (a second tap, another tab?): nothing was "
        "added. Look at its end before adding more."
    ),
}


def refused(reason: service.Refused, where: str) -> Any:
    flash(str(REFUSALS[reason.code]), "error")
    return redirect(where, 303)


#: What a use case may meet when another request changed the tournament at the same moment
#: past its lock: a unique constraint (the last guard) or a row it read deleted meanwhile.
RACES = (IntegrityError, ObjectDeletedError)


def attempt(use_case: Callable[[], Any], where: str) -> Any | None:
    """Run a use case; None when it took effect, else a redirect back to ``where`` with the
    reason (the tournament's state refused it, or another request changed it at that moment),
    nothing changed."""
    try:
        use_case()
    except service.Refused as reason:
        db.session.rollback()
        return refused(reason, where)
    except RACES:
        db.session.rollback()
        return refused(service.Refused("changed"), where)
    return None


def checked(form: Any, where: str) -> Any:
    """A redirect back with the reason when the form's CSRF token failed; else None."""
    if csrf_refused(form):
        flash(str(FORM_EXPIRED), "error")
        return redirect(where, 303)
    return None
