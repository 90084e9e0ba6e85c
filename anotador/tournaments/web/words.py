"""A tournament's words: every name the pages show for the data's codes (English msgids,
translated when a page is drawn)."""

from __future__ import annotations

from typing import Any

from flask import render_template
from flask_babel import gettext
from flask_babel import lazy_gettext as _l

from anotador.rules import VARIANTS
from anotador.tournaments.operations.live import BEHIND_HANDS
from anotador.tournaments.operations.live import IDLE_MINUTES
from anotador.web.forms.match import option_choice
from anotador.words import labels

SCALE_LABELS = {
    "fibur-3": _l("FIBUR, 3 hands (20–0)"),
    "fibur-4": _l("FIBUR, 4 hands (20–0)"),
    "wdl": _l("Win 2, draw 1, loss 0"),
    "points": _l("Match points"),
    "club": _l("A club's own bands"),
}
SYSTEM_LABELS = {
    "mitchell": _l("Mitchell"),
    "danese": _l("Danish"),
    "danese-modificato": _l("Modified Danish"),
    "round-robin": _l("Round robin"),
    "manual": _l("Manual (the director seats the tables)"),
    "swiss": _l("Swiss"),
}
TOURNAMENT_STATUS = {
    "registering": _l("registering pairs"),
    "playing": _l("playing"),
    "finished": _l("over"),
}
ROUND_STATUS = {"drawn": _l("drawn"), "playing": _l("playing"), "closed": _l("closed")}
TABLE_STATES = {
    "not_started": _l("not started"),
    "playing": _l("playing"),
    "finished": _l("finished"),
    "awaiting": _l("awaiting confirmation"),
    "confirmed": _l("confirmed"),
    "bye": _l("bye"),
    "out_of_bounds": _l("points out of bounds"),
}
#: Why a table is late (``operations.live.lateness``).
LATE_REASONS = {
    "idle": _l("no hand saved for %(num)d minutes"),
    "behind": _l("%(num)d hands or more behind the table furthest ahead"),
}
#: The number each of :data:`LATE_REASONS` says.
LATE_LIMITS = {"idle": IDLE_MINUTES, "behind": BEHIND_HANDS}
#: Who confirmed a table's result (``table_confirmed``'s ``by``).
CONFIRMED_BY = {"ew": _l("by EW"), "director": _l("by the director")}
#: What a correction of a table's hands was (``table_corrected``'s ``hands``).
HAND_CHANGES = {
    "hand_recorded": _l("hand recorded"),
    "hand_edited": _l("hand edited"),
    "hand_deleted": _l("hand deleted"),
    "abandoned": _l("match abandoned"),
    "resumed": _l("match resumed"),
}
CHANGE_LABELS = {
    "created": _l("Tournament created"),
    "pair_added": _l("Pair added"),
    "pair_withdrawn": _l("Pair withdrawn"),
    "pair_back": _l("Pair back in"),
    "pair_renamed": _l("Pair renamed"),
    "pairs_seeded": _l("Pairs seeded by rating"),
    "round_drawn": _l("Round drawn"),
    "pairs_swapped": _l("Pairs swapped"),
    "table_seated": _l("Table seated"),
    "round_started": _l("Round started"),
    "result_entered": _l("Result written by hand"),
    "result_cleared": _l("Result by hand removed"),
    "round_closed": _l("Round closed"),
    "finished": _l("Tournament finished"),
    "round_reopened": _l("Round reopened"),
    "reopened": _l("Tournament reopened"),
    "table_corrected": _l("Hand corrected at a table"),
    "table_confirmed": _l("Table result confirmed"),
    "director_called": _l("A table called the director"),
    "call_answered": _l("Call answered"),
    "clock_started": _l("Round clock started"),
    "clock_extended": _l("Minutes added to the round clock"),
    "clock_stopped": _l("Round clock stopped"),
    "link_made": _l("Spectator link made"),
    "link_revoked": _l("Spectator link revoked"),
}


#: What each button does, said before it is done: (question, what happens, its button).
QUESTIONS = {
    "close_round": (
        _l("Close round %(num)d?"),
        _l(
            "Its results become final and count in the standings; the tables still awaiting "
            "their pairs' confirmation are confirmed by you. The next round can be drawn then."
        ),
        _l("Close the round"),
    ),
    "withdraw": (
        _l("Withdraw %(pair)s?"),
        _l(
            "The pair keeps its results so far and is not drawn in the next rounds; the change "
            "log keeps it. It can come back in later."
        ),
        _l("Withdraw"),
    ),
    "finish": (
        _l("Finish the tournament?"),
        _l(
            "Its standings become final and no more rounds are drawn; the change log keeps it. "
            "Reopening it afterwards is possible, but the standings will have been published "
            "as final."
        ),
        _l("Finish the tournament"),
    ),
}


def question(kind: str, **names: Any) -> str:
    """The dialog's question for a button (its ``data-confirm``)."""
    asked, what, _ = QUESTIONS[kind]
    return f"{str(asked) % names} {what}"


def house_rules(variant: str, options: dict[str, Any]) -> list[str]:
    """The variant's own rule options every table plays, as the tournament's page says them
    ("Semipulito burraco (150): no"): each, whether or not it is the variant's default."""
    said = []
    for spec in VARIANTS[variant].options if variant in VARIANTS else ():
        value = options.get(spec.name, spec.default)
        if isinstance(value, bool):
            shown = gettext("yes") if value else gettext("no")
        else:
            shown = "–" if value is None else str(option_choice(value))
        said.append(f"{labels.say('option', spec.name)}: {shown}")
    return said


def render(template: str, **context: Any) -> str:
    """A tournament page, with the words of its codes."""
    return render_template(
        template,
        scale_labels=SCALE_LABELS,
        system_labels=SYSTEM_LABELS,
        tournament_status=TOURNAMENT_STATUS,
        round_status=ROUND_STATUS,
        table_states=TABLE_STATES,
        change_labels=CHANGE_LABELS,
        hand_changes=HAND_CHANGES,
        confirmed_by=CONFIRMED_BY,
        late_reasons=LATE_REASONS,
        late_limits=LATE_LIMITS,
        ask=question,
        house_rules=house_rules,
        **context,
    )
