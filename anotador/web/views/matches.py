"""Home, new match, the match page (the planilla) and the match file download/upload."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from flask import Blueprint
from flask import Response
from flask import abort
from flask import current_app
from flask import flash
from flask import redirect
from flask import render_template
from flask import request
from flask import url_for
from flask_babel import get_locale
from flask_babel import gettext
from markupsafe import Markup
from werkzeug.wrappers import Response as BaseResponse

from anotador import backup
from anotador import services
from anotador.ratings import reads as ratings
from anotador.rules import Problem
from anotador.rules import describe_variants
from anotador.rules import parse_json
from anotador.rules import read_match
from anotador.rules import validate_match
from anotador.rules.variant import LAYOUTS
from anotador.statistics import charts
from anotador.storage.caching import caches
from anotador.storage.caching import match_key
from anotador.tournaments.operations.clock import table_clock
from anotador.tournaments.operations.confirmations import table_of
from anotador.tournaments.operations.confirmations import table_result_of
from anotador.tournaments.operations.seats import next_seats_of
from anotador.tournaments.operations.seats import nights_of
from anotador.web import access
from anotador.web import addresses as serving
from anotador.web import inputs
from anotador.web import match_page
from anotador.web.extensions import csrf
from anotador.web.forms.match import FORM_EXPIRED
from anotador.web.forms.match import NewMatchForm
from anotador.web.forms.match import UploadForm
from anotador.web.forms.match import csrf_refused
from anotador.web.forms.match import field_for_path
from anotador.web.views.live import watched
from anotador.web.views.pdf import sheet_link
from anotador.web.views.sharing import link_role
from anotador.web.views.sharing import rematch_reached
from anotador.words.i18n import problem_message

bp = Blueprint("matches", __name__)


@bp.get("/")
def index() -> Any:
    """Ongoing matches first, then the recent finished ones, and the match-file upload;
    signed in nowhere, how to sign in (and the matches whose links this browser opened)."""
    if access.signed_in() is None:
        opened = services.queries.opened_matches(access.links())
        return render_template("matches/welcome.html", opened=opened, **phone_link())
    return render_home(UploadForm())


def phone_link() -> dict[str, Any]:
    """The address of the app for the next phone, and its QR code; none when the server
    listens on this machine only, which the page says, with how to let the phones in."""
    url = serving.page_url(request)
    return {
        "phone_url": url,
        "phone_qr": serving.qr_svg(url) if url else None,
        "phones_locked_out": serving.phones_locked_out(current_app),
    }


def render_home(upload: UploadForm, problems: Sequence[Problem] = (), status: int = 200) -> Any:
    ongoing, finished = services.queries.home_lists(access.scope())
    page = render_template(
        "matches/index.html",
        ongoing=ongoing,
        finished=finished,
        upload=upload,
        problems=problems,
        invitations=services.groups.invitation_count(access.user_id() or 0),
        **phone_link(),
    )
    return page, status


@bp.post("/partidas/importar")
@access.account_required
def import_match() -> Any:
    """Store an uploaded match file as a new match (hands included)."""
    upload = UploadForm()
    if not upload.validate_on_submit():
        return render_home(upload, status=400)
    raw = upload.file.data.read()
    document, problems = parse_json(raw)
    if problems:
        return render_home(upload, problems, status=400)
    game, problems = read_match(document)
    if game is None:
        return render_home(upload, problems, status=422)
    stored = backup.stored_copy(game, access.user_id())
    if stored is not None:
        flash(gettext("You already have this match: it was not imported again."), "info")
        return redirect(url_for(".show", match_id=stored), 303)
    match, problems = services.matches.create_match(document, owner_id=access.user_id())
    if match is None:
        return render_home(upload, problems, status=422)
    flash(gettext("Match imported."), "success")
    return redirect(url_for(".show", match_id=match.id), 303)


@bp.route("/partidas/nueva", methods=["GET", "POST"])
@csrf.exempt  # the form checks its token itself and, when it fails, keeps what was typed
@access.account_required
def new() -> Any:
    """One screen; the default match is two taps away: open, "Empezar"."""
    form = NewMatchForm()
    if request.method == "POST" and csrf_refused(form):
        return render_new(form, status=400)  # what was typed, and why nothing happened
    if request.method == "GET" or form.apply.data:
        form.fill_defaults()
        return render_new(form)
    if not form.validate_on_submit():
        # A refused value is the table's to fix (422); a failed CSRF check is not (400).
        return render_new(form, status=400 if "csrf_token" in form.errors else 422)
    document, number_errors, dealer = form.document()
    if number_errors:
        problems = validate_match(document)
        return render_new(form, problems, number_errors, status=422)
    match, problems = services.matches.create_match(
        document, first_dealer=dealer, owner_id=access.user_id()
    )
    if match is None:
        return render_new(form, problems, status=422)
    return redirect(url_for(".show", match_id=match.id), 303)


def render_new(
    form: NewMatchForm,
    problems: Sequence[Problem] = (),
    field_errors: dict[str, str] | None = None,
    status: int = 200,
) -> Any:
    """The form, every problem next to its field (the rest at the top)."""
    errors: dict[str, list[str]] = {}
    general: list[str] = []
    for name, message in (field_errors or {}).items():
        errors.setdefault(name, []).append(message)
    layout = LAYOUTS.get(form.layout.data) if isinstance(form.layout.data, str) else None
    for problem in problems:
        if problem.severity != "error":
            continue
        field = field_for_path(problem.path, form.variant.data, bool(layout and layout.individual))
        if field is not None and field in form:
            errors.setdefault(field, []).append(problem_message(problem))
        else:
            general.append(problem_message(problem))
    for name in form.errors:
        if name == "csrf_token":
            general.append(str(FORM_EXPIRED))
        else:
            errors.setdefault(name, []).extend(form.errors[name])
    form.first_dealer.choices = form.seat_choices()
    page = render_template(
        "matches/new.html",
        form=form,
        errors=errors,
        general=general,
        variants=describe_variants(),
        layouts=LAYOUTS,
        suggestions=services.queries.recent_player_names(access.scope()),
        defaults=match_page.form_defaults(),
        variant=form.variant_name(),
        layout=form.layout_name(),
    )
    return page, status


@bp.get("/partidas/<id:match_id>")
def show(match_id: int) -> str:
    """The planilla: totals, distance to the target, opening minimums, one row per hand."""
    state, granted = access.state_for(match_id, access.Level.READ)
    # Beside the planilla, never in it: the director may write it without a change of the match.
    table_result = state.table_result
    # A tournament table's: which table, its result once ended and who is to confirm it.
    table_id = state.table_id  # (a rendered planilla reads the state again, without it)
    table = table_result_of(table_id) if table_id is not None else None
    level = granted.level
    # The content depends only on this state of the match, the language, the names, where
    # the app is mounted and whether this request may score: rendered once, reused until any
    # of them changes. The undo form's CSRF token and the flashes are added per request.
    can_score, owns = level >= access.Level.SCORE, level == access.Level.OWN
    # Its owner sees the rated players' ratings beside their names: they change with the
    # account's ratings version (0: no ratings yet, nothing to read).
    rated = access.ratings_version() if owns else None
    view = (str(get_locale()), request.script_root, level.value, rated)
    pages = caches().pages
    key = match_key(state, *view, state.names, state.first_dealer)
    content = pages.get(key) if key is not None else None
    if content is None:
        match = access.match_for(match_id, access.Level.READ)
        scored = services.matches.score(match)
        sheet = match_page.build(scored)
        chart = sheet.hand_count and charts.match_progression_svg(scored.game, scored.score)
        content = Markup(
            render_template(
                "matches/_planilla.html",
                sheet=sheet,
                chart=chart,
                can_score=can_score,
                owns=owns,
                # A tournament table's match has no rematch: its pairs' next table is drawn.
                rematch_offered=state.table_id is None,
                ratings=ratings.seated_ratings(match_id) if rated else {},
            )
        )
        # Keyed on the state it was rendered from (the match may have changed meanwhile).
        state = services.queries.state_of(match)
        key = match_key(state, *view, state.names, state.first_dealer)
        if key is not None:
            pages.put(key, content)
    return render_template(
        "matches/show.html",
        title=" · ".join(name for name, _players in state.names),
        planilla=content,
        undo_csrf=can_score and state.hand_count > 0,
        owns=owns,
        match_id=match_id,
        sheet_url=sheet_link(state, granted),
        blank_sheet_url=url_for(
            "pdf.blank_sheet", variante=state.variant, disposicion=state.layout
        ),
        live=watched(match_id, state.version, state.hand_count, scores=can_score),
        rematch=(
            state.rematch_id is not None and rematch_reached(match_id, state.sharing) is not None
        ),
        link_role=link_role(granted),
        table_result=table_result,
        table=table,
        confirms=can_score and table is not None and table.state == "awaiting",
        calls=can_score and table is not None and table.playing,
        version=state.version,
        next_seats=next_seats_shown(state.sharing, granted, table_id) if table_id else [],
        nights=nights_shown(state.sharing, granted, table_id) if table_id else [],
        clock=table_clock(table_id) if table_id is not None and table is not None else None,
    )


def at_the_table(sharing: Any, granted: access.Grant) -> bool:
    """Whether the page is a table's phone (its table link) or its director's."""
    token = sharing.table_token
    holder = token is not None and granted.credential == access.link_credential(token)
    return holder or granted.level == access.Level.OWN


def nights_shown(sharing: Any, granted: access.Grant, table_id: int) -> list[dict[str, Any]]:
    """Each pair of a tournament table with its night's page (by the tournament's spectator
    link) and that page's QR code, for the table's phones and its director: the players scan
    it with their own phones. Nothing while the tournament is not shared."""
    if not at_the_table(sharing, granted):
        return []
    token, pairs = nights_of(table_id)
    nights = []
    for pair in pairs:
        link = url_for("tournaments.night_shared", token=token, pair_id=pair.id, _external=True)
        nights.append({"pair": pair.label, "link": link, "qr": serving.qr_svg(link)})
    return nights


def next_seats_shown(sharing: Any, granted: access.Grant, table_id: int) -> list[dict[str, Any]]:
    """Where the pairs of a tournament table sit in the next round once it is drawn, each
    with its new table's link (and its QR code) once started, for its table's phones and its
    director (a spectator link's phone sees what it saw before)."""
    if not at_the_table(sharing, granted):
        return []
    seats = []
    for seat in next_seats_of(table_id):
        link = seat["token"] and url_for("sharing.open_link", token=seat["token"], _external=True)
        seats.append({**seat, "link": link, "qr": serving.qr_svg(link) if link else None})
    return seats


@bp.post("/partidas/<id:match_id>/abandonar")
def abandon(match_id: int) -> BaseResponse:
    """Mark the match as left unfinished (``abandoned=1``) or take it up again (``0``)."""
    match = access.match_for(match_id, access.Level.OWN)
    try:
        wanted = inputs.choice(request.form.get("abandoned"), ("0", "1"))
        version = inputs.row_id(request.form.get("version"))
    except inputs.BadInput:
        abort(400)
    if wanted is None or version is None:
        abort(400)
    if match.status == "finished":
        flash(gettext("A finished match cannot be abandoned."), "error")
        return redirect(url_for("matches.show", match_id=match_id))
    try:
        done = services.matches.set_abandoned(match, wanted == "1", version)
    except services.matches.ChangeRefused as refused:
        for problem in refused.problems:
            flash(problem_message(problem), "error")
        return redirect(url_for("matches.show", match_id=match_id))
    if not done:
        flash(
            gettext("Another phone changed this match in the meantime. Check and confirm again."),
            "error",
        )
    else:
        flash(
            gettext("Match marked as abandoned.") if wanted == "1" else gettext("Match resumed."),
            "success",
        )
    return redirect(url_for("matches.show", match_id=match_id))


@bp.post("/partidas/<id:match_id>/revancha")
def rematch(match_id: int) -> BaseResponse:
    """A new match with the same sides, players and options, once this one has ended."""
    match = access.match_for(match_id, access.Level.OWN)
    if table_of(match_id) is not None:
        flash(
            gettext(
                "A tournament table's match has no rematch: its pairs play the next round "
                "at the tables the director draws."
            ),
            "error",
        )
        return redirect(url_for(".show", match_id=match_id), 303)
    if match.status == "ongoing":
        flash(gettext("A rematch starts when this match has ended."), "error")
        return redirect(url_for(".show", match_id=match_id), 303)
    new = services.matches.rematch(match)
    flash(gettext("Rematch: same sides, from zero."), "success")
    return redirect(url_for(".show", match_id=new.id), 303)


@bp.get("/partidas/<id:match_id>/exportar")
def export(match_id: int) -> BaseResponse:
    """Download the match file; a match the engine refuses comes as it is stored, so it can
    be corrected and imported again (its other pages say what is wrong)."""
    document = backup.match_file(access.match_for(match_id, access.Level.READ))
    body = json.dumps(document, ensure_ascii=False, indent=2) + "\n"
    return Response(
        body,
        mimetype="application/json",
        headers={"Content-Disposition": f'attachment; filename="partida-{match_id}.json"'},
    )
