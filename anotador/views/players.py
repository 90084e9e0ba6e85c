"""The players: registry, a player's statistics, pairs, head-to-head, rename and merge."""

from __future__ import annotations

from typing import Any

from flask import Blueprint
from flask import abort
from flask import flash
from flask import jsonify
from flask import redirect
from flask import render_template
from flask import request
from flask import url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import BooleanField
from wtforms import StringField
from wtforms.validators import InputRequired
from wtforms.validators import Length

from anotador import charts
from anotador import history
from anotador import labels
from anotador import operations
from anotador import stats
from anotador.extensions import db
from anotador.models import NAME_LENGTH
from anotador.models import Player
from anotador.views.history import STATUS_LABELS
from anotador.views.history import read_filters

bp = Blueprint("players", __name__, url_prefix="/jugadores")

RENAME_ERRORS = {
    "empty": _l("Write the new name."),
    "too_long": _l("Names are at most %(num)d characters long.", num=NAME_LENGTH),
    "taken": _l("Another player already has that name: merge them instead."),
}


class RenameForm(FlaskForm):
    name = StringField(_l("New name"), [InputRequired(), Length(max=NAME_LENGTH)])


class MergeForm(FlaskForm):
    other = StringField(_l("Same person as"), [InputRequired(), Length(max=NAME_LENGTH)])
    confirm = BooleanField(_l("Yes, they are the same person"), [InputRequired()])


@bp.get("/")
def index() -> str:
    """Every player by name, with how many matches each played."""
    search = request.args.get("q", "").strip()[:NAME_LENGTH]
    after = request.args.get("despues") or None
    players, next_key = history.player_registry(search, after)
    return render_template(
        "players/index.html", players=players, search=search, next_key=next_key, after=after
    )


@bp.get("/sugerencias")
def suggestions() -> Any:
    """Player names for a name being typed (JSON list), accents and case aside."""
    return jsonify(history.suggestions(request.args.get("q", "")[:NAME_LENGTH]))


def get_player(player_id: int) -> Player:
    player = db.session.get(Player, player_id)
    if player is None:
        abort(404)
    return player


def render_stats(template: str, team: list[Player], **context: Any) -> tuple[str, int]:
    """A statistics page of one player or a pair, with the page's filters."""
    filters, errors = read_filters(request.args)
    filters = history.Filters(variant=filters.variant, since=filters.since, until=filters.until)
    ids = frozenset(p.id for p in team)
    summaries = [] if errors else history.summaries(ids, filters, all_players=True)
    figures = stats.team_stats(summaries, ids)
    names = history.players_by_id(p.player_id for p in figures.partners)
    page = render_template(
        template,
        team=team,
        figures=figures,
        filters=filters,
        errors=errors,
        partners=names,
        chart=charts.results_svg(figures.results),
        variant_labels=labels.VARIANTS,
        statuses=STATUS_LABELS,
        args={k: v for k, v in request.args.items() if k in ("variante", "desde", "hasta")},
        **context,
    )
    return page, 400 if errors else 200


@bp.get("/<id:player_id>")
def show(player_id: int) -> ResponseReturnValue:
    """A player's statistics and results over time, with rename and merge forms."""
    player = get_player(player_id)
    return render_stats(
        "players/show.html",
        [player],
        rename=RenameForm(name=player.name),
        merge=MergeForm(),
    )


@bp.get("/<id:first_id>/con/<id:second_id>")
def pair(first_id: int, second_id: int) -> ResponseReturnValue:
    """The statistics of two partners playing together."""
    if first_id == second_id:
        abort(404)
    return render_stats("players/pair.html", [get_player(first_id), get_player(second_id)])


def read_team(text: str) -> list[Player] | None:
    """One or two player ids ("3" or "3,8") as players; None if any is not one."""
    parts = [part.strip() for part in text.split(",") if part.strip()]
    if not 1 <= len(parts) <= 2 or not all(part.isdigit() and len(part) < 10 for part in parts):
        return None
    found = history.players_by_id(int(part) for part in parts)
    if len(found) != len(set(parts)) or len(set(parts)) != len(parts):
        return None
    return [found[int(part)] for part in parts]


@bp.get("/cara-a-cara")
def head_to_head() -> ResponseReturnValue:
    """Two players (or two pairs) against each other: ``a`` and ``b`` are ids ("3" or
    "3,8"); ``rival`` may name the second player instead of ``b``."""
    first = read_team(request.args.get("a", ""))
    second = read_team(request.args.get("b", ""))
    if second is None and request.args.get("rival", "").strip():
        rival = history.find_player(request.args["rival"][:NAME_LENGTH])
        second = [rival] if rival is not None else None
    if first is None or second is None or {p.id for p in first} & {p.id for p in second}:
        message = _("Choose two different players (or pairs) who have played.")
        page = render_template("players/head_to_head.html", error=message)
        return page, 404
    a, b = frozenset(p.id for p in first), frozenset(p.id for p in second)
    summaries = history.summaries(a | b, all_players=True)
    result = stats.head_to_head(summaries, a, b)
    return render_template(
        "players/head_to_head.html",
        first=first,
        second=second,
        result=result,
        error=None,
        variant_labels=labels.VARIANTS,
    )


@bp.post("/<id:player_id>/nombre")
def rename(player_id: int) -> ResponseReturnValue:
    player = get_player(player_id)
    form = RenameForm()
    if form.validate_on_submit():
        error = operations.rename_player(player, form.name.data or "")
        if error is None:
            flash(_("Renamed to %(name)s.", name=player.name), "success")
            return redirect(url_for("players.show", player_id=player.id))
        form.name.errors = [str(RENAME_ERRORS[error])]
    page, _status = render_stats("players/show.html", [player], rename=form, merge=MergeForm())
    return page, 400


@bp.post("/<id:player_id>/fusionar")
def merge(player_id: int) -> ResponseReturnValue:
    """Fold another player (named in the form) into this one."""
    player = get_player(player_id)
    form = MergeForm()
    if form.validate_on_submit():
        other = history.find_player(form.other.data or "")
        if other is None:
            form.other.errors = [
                _("Nobody called “%(name)s” has played yet.", name=form.other.data)
            ]
        elif other.id == player.id:
            form.other.errors = [_("That is this same player.")]
        else:
            name = other.name
            operations.merge_players(player, other)
            flash(_("%(other)s is now %(name)s.", other=name, name=player.name), "success")
            return redirect(url_for("players.show", player_id=player.id))
    page, _status = render_stats("players/show.html", [player], rename=RenameForm(), merge=form)
    return page, 400
