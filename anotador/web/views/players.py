"""The players: registry, a player's statistics, pairs, head-to-head, rename and merge."""

from __future__ import annotations

from collections.abc import Hashable
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
from flask_babel import ngettext
from markupsafe import Markup
from wtforms import BooleanField
from wtforms.validators import InputRequired

from anotador import services
from anotador.ratings.views import club_points_of
from anotador.statistics import charts
from anotador.statistics import reads as statistics_reads
from anotador.statistics import summaries as stats
from anotador.storage.caching import caches
from anotador.storage.caching import kept
from anotador.storage.models import NAME_LENGTH
from anotador.storage.models import Player
from anotador.web import access
from anotador.web import inputs
from anotador.web.errors import answers_json
from anotador.web.forms.match import Form
from anotador.web.forms.match import MembershipField
from anotador.web.forms.match import TextField
from anotador.web.views.history import read_filters
from anotador.words import labels
from anotador.words.i18n import locale_name
from anotador.words.i18n import problem_message

bp = Blueprint("players", __name__, url_prefix="/jugadores")
bp.before_request(access.require_account)


class RenameForm(Form):
    name = TextField(_l("New name"), [InputRequired(_l("Write the new name."))])


class MembershipForm(Form):
    membership = MembershipField(_l("Membership number"))


class MergeForm(Form):
    other = TextField(_l("Same person as"), [InputRequired()])
    confirm = BooleanField(_l("Yes, they are the same person"), [InputRequired()])


@bp.get("/")
def index() -> tuple[str, int]:
    """Every player by name, with how many matches each played."""
    try:
        search = inputs.name(request.args.get("q"))
        after = inputs.text(request.args.get("despues"), 3 * NAME_LENGTH) or None
    except inputs.BadInput as refused:
        page = render_template("players/index.html", error=refused.message, search="")
        return page, 400
    page = render_template("players/index.html", search=search, registry=registry(search, after))
    return page, 200


def registry(search: str, after: str | None) -> Markup:
    """A page of the players the account sees (named like ``search``, after ``after``),
    with their matches: counting them reads every seat of every match, so the page is drawn
    once per :func:`matches_version` of the account (which the players count in too)."""
    scope = access.scope()
    version = statistics_reads.matches_version(scope)
    view = (search, after, locale_name(), request.script_root)
    key = None if version is None else ("registry", *view, version)

    def draw() -> Markup:
        players, next_key = services.queries.player_registry(scope, search, after)
        return Markup(
            render_template(
                "players/_registry.html",
                players=players,
                search=search,
                next_key=next_key,
                after=after,
            )
        )

    return kept(caches().sections, key, draw)


@bp.get("/sugerencias")
@answers_json
def suggestions() -> Any:
    """Player names for a name being typed (JSON list), accents and case aside."""
    try:
        typed = inputs.text(request.args.get("q"), 3 * NAME_LENGTH)
    except inputs.BadInput as refused:
        return jsonify({"error": refused.message}), 400
    return jsonify(services.queries.suggestions(access.scope(), typed[:NAME_LENGTH]))


def get_player(player_id: int, *, own: bool = False) -> Player:
    """A player the account sees (one of its own, with ``own``: renames and merges)."""
    player = services.queries.player_by_id(access.scope(), player_id)
    if player is None or (own and player.owner_id != access.user_id()):
        abort(404)
    return player


def render_stats(template: str, team: list[Player]) -> tuple[str, int]:
    """A statistics page of a pair, with the page's filters."""
    filters, errors, args = read_statistics_filters()
    ids = [p.id for p in team]
    version = None if errors else statistics_reads.matches_version(access.scope())
    statistics, _ = statistics_section(ids, filters, errors, args, version)
    page = render_template(template, team=team, statistics=statistics)
    return page, 400 if errors else 200


def read_statistics_filters() -> tuple[services.queries.Filters, list[str], dict[str, str]]:
    """A statistics page's filters, the problems found reading them and the arguments."""
    read, errors = read_filters(request.args)
    filters = services.queries.Filters(variant=read.variant, since=read.since, until=read.until)
    args = {k: v for k, v in request.args.items() if k in ("variante", "desde", "hasta")}
    return filters, errors, args


def statistics_section(
    team: list[int],
    filters: services.queries.Filters,
    errors: list[str],
    args: dict[str, str],
    version: Hashable | None,
) -> tuple[Markup, bool]:
    """The page's filters (``filters`` as read from ``args``, with their ``errors``) and the
    figures of ``team`` over the matches the account sees. These depend on those matches
    alone, the filters, the language and where the app is mounted, so they are drawn once
    for all of these and kept under the account's ``version`` (:func:`matches_version`, one
    small read: the matches are listed only to draw; None: not kept). Not kept while a
    match has no content hash (one written outside the app), whose figures are read every
    time: then False comes with the section (what shows it may not be kept either)."""
    scope = access.scope()
    view = (tuple(team), tuple(sorted(args.items())), locale_name(), request.script_root)
    key = None if version is None else (*view, version)
    found = statistics_reads.Summaries()

    def draw() -> Markup:
        nonlocal found
        if not errors:
            found = statistics_reads.kept_summaries(scope, team, filters, all_players=True)
        figures = stats.team_stats(found.found, frozenset(team))
        pair = len(team) > 1
        action = (
            url_for("players.pair", first_id=team[0], second_id=team[1])
            if pair
            else url_for("players.show", player_id=team[0])
        )
        return Markup(
            render_template(
                "players/_statistics.html",
                figures=figures,
                chart=charts.results_svg(figures.results),
                player_id=team[0],
                pair=pair,
                args=args,
                action=action,
                filters=filters,
                errors=errors,
                variant_labels=labels.VARIANTS,
            )
        )

    section = kept(caches().sections, key, draw, lambda: None if found.key is None else key)
    return section, found.key is not None


@bp.get("/<id:player_id>")
def show(player_id: int) -> ResponseReturnValue:
    """A player's statistics and results over time (its rating and club points for its own
    account). Below its title the page is drawn once per state of all it shows, and kept:
    the account's matches and players (:func:`matches_version`), its ratings (their
    version, read with the account), the player's club points, the filters, the language
    and where the app is mounted."""
    player = get_player(player_id)
    filters, errors, args = read_statistics_filters()
    own = player.owner_id == access.user_id()
    club_points = club_points_of(player.id) if own else 0
    version = None if errors else statistics_reads.matches_version(access.scope())
    view = (player.id, player.name, own, club_points, tuple(sorted(args.items())))
    place = (locale_name(), request.script_root, access.ratings_version())
    key = None if version is None else ("player", *view, *place, version)

    keep = True

    def draw() -> Markup:
        nonlocal keep
        statistics, keep = statistics_section([player.id], filters, errors, args, version)
        return Markup(
            render_template(
                "players/_show.html",
                player=player,
                own=own,
                club_points=club_points,
                statistics=statistics,
            )
        )

    body = kept(caches().sections, key, draw, lambda: key if keep else None)
    page = render_template("players/show.html", player=player, body=body)
    return page, 400 if errors else 200


@bp.get("/<id:player_id>/editar")
def manage(player_id: int) -> ResponseReturnValue:
    """The forms that rename one of the account's players or merge another into it."""
    player = get_player(player_id, own=True)
    return render_manage(player, RenameForm(name=player.name), MergeForm())


def render_manage(
    player: Player,
    rename: RenameForm,
    merge: MergeForm,
    status: int = 200,
    membership: MembershipForm | None = None,
) -> tuple[str, int]:
    if membership is None:
        membership = MembershipForm(formdata=None, membership=player.membership)
    page = render_template(
        "players/manage.html", player=player, rename=rename, merge=merge, membership=membership
    )
    return page, status


@bp.get("/<id:first_id>/con/<id:second_id>")
def pair(first_id: int, second_id: int) -> ResponseReturnValue:
    """The statistics of two partners playing together."""
    if first_id == second_id:
        abort(404)
    return render_stats("players/pair.html", [get_player(first_id), get_player(second_id)])


def read_team(raw: str | None) -> list[Player] | None:
    """One or two player ids ("3" or "3,8") as players; None if any is not one."""
    parts = (raw or "").split(",")
    try:
        ids = [inputs.integer(part, 1, inputs.MAX_ROW_ID) for part in parts]
    except inputs.BadInput:
        return None
    if not 1 <= len(ids) <= 2 or None in ids or len(set(ids)) != len(ids):
        return None
    found = services.queries.players_by_id(
        access.scope(), (player_id for player_id in ids if player_id is not None)
    )
    if len(found) != len(ids):
        return None
    return [found[player_id] for player_id in ids if player_id is not None]


@bp.get("/cara-a-cara")
def head_to_head() -> ResponseReturnValue:
    """Two players (or two pairs) against each other: ``a`` and ``b`` are ids ("3" or
    "3,8"); ``rival`` may name the second player instead of ``b``."""
    first = read_team(request.args.get("a"))
    second = read_team(request.args.get("b"))
    try:
        rival_name = inputs.name(request.args.get("rival"))
    except inputs.BadInput:
        rival_name = ""
    if second is None and rival_name:
        rival = services.queries.find_player(access.scope(), rival_name)
        second = [rival] if rival is not None else None
    if first is None or second is None or {p.id for p in first} & {p.id for p in second}:
        message = _("Choose two different players (or pairs) who have played.")
        page = render_template("players/head_to_head.html", error=message)
        return page, 404
    a, b = frozenset(p.id for p in first), frozenset(p.id for p in second)
    summaries = statistics_reads.summaries(access.scope(), a | b, all_players=True)
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
    player = get_player(player_id, own=True)
    form = RenameForm()
    if form.validate_on_submit():
        problem = services.players.rename_player(player, form.name.data or "")
        if problem is None:
            flash(_("Renamed to %(name)s.", name=player.name), "success")
            return redirect(url_for("players.show", player_id=player.id))
        known = labels.word("rename_problem", problem.code)
        form.name.errors = [
            labels.say("rename_problem", problem.code) if known else problem_message(problem)
        ]
    return render_manage(player, form, MergeForm(), 400)


@bp.post("/<id:player_id>/socio")
def set_membership(player_id: int) -> ResponseReturnValue:
    """Give one of the account's players a membership number (empty: none)."""
    player = get_player(player_id, own=True)
    form = MembershipForm()
    if form.validate_on_submit():
        number = form.membership.data or None
        if services.players.set_membership(player, number):
            if number is None:
                flash(_("%(name)s has no membership number now.", name=player.name), "success")
            else:
                flash(_("Membership number saved: %(number)s.", number=number), "success")
            return redirect(url_for("players.show", player_id=player.id))
        form.membership.errors = [_("That membership number is another player's already.")]
    return render_manage(player, RenameForm(name=player.name), MergeForm(), 400, form)


@bp.post("/<id:player_id>/fusionar")
def merge(player_id: int) -> ResponseReturnValue:
    """Fold another of the account's players (named in the form) into this one."""
    player = get_player(player_id, own=True)
    form = MergeForm()
    if form.validate_on_submit():
        other = services.queries.find_player(access.scope(), form.other.data or "")
        if other is not None and other.owner_id != player.owner_id:
            other = None
        shared = other is not None and services.players.shared_matches(player, other)
        if other is None:
            form.other.errors = [
                _("Nobody called “%(name)s” has played yet.", name=form.other.data)
            ]
        elif other.id == player.id:
            form.other.errors = [_("That is this same player.")]
        elif shared:
            form.other.errors = [
                ngettext(
                    "They played %(num)d match together: they cannot be the same person.",
                    "They played %(num)d matches together: they cannot be the same person.",
                    shared,
                )
            ]
        else:
            name = other.name
            services.players.merge_players(player, other)
            flash(_("%(other)s is now %(name)s.", other=name, name=player.name), "success")
            return redirect(url_for("players.show", player_id=player.id))
    return render_manage(player, RenameForm(name=player.name), form, 400)
