"""Recording, previewing, correcting and undoing hands.

Thin: the hand form becomes a match-file hand object, one operation stores it, and the page
redirects to the planilla; on any problem the same form is shown again with what was typed.
"""

from __future__ import annotations

import uuid
from typing import Any

from flask import Blueprint
from flask import abort
from flask import flash
from flask import jsonify
from flask import redirect
from flask import render_template
from flask import request
from flask import url_for
from flask_babel import gettext as _
from werkzeug.wrappers import Response

from anotador import rules
from anotador import services
from anotador.storage.models import Match
from anotador.tournaments.limits import MAX_REASON
from anotador.tournaments.operations import tables
from anotador.web import access
from anotador.web import inputs
from anotador.web.errors import answers_json
from anotador.web.extensions import csrf
from anotador.web.forms.hand import HandForm
from anotador.web.forms.hand import hand_form
from anotador.web.forms.hand import hand_number_of
from anotador.web.forms.hand import stored_data
from anotador.web.forms.hand_layout import side_inputs
from anotador.web.forms.hand_problems import every_problem
from anotador.web.forms.hand_problems import problem_links
from anotador.web.forms.match import FORM_EXPIRED
from anotador.web.forms.match import csrf_refused
from anotador.web.views.live import watched
from anotador.words.i18n import points
from anotador.words.i18n import problem_message

bp = Blueprint("hands", __name__, url_prefix="/partidas/<id:match_id>")

Page = tuple[str, int] | Response


def get_match(match_id: int) -> Match:
    """The match, if this request may score it (its owner, or a table link)."""
    return access.match_for(match_id, access.Level.SCORE)


def get_number(match: Match, number: int) -> int:
    if not 1 <= number <= len(match.hands):
        abort(404)
    return number


def match_page(match_id: int) -> str:
    """The planilla this flow returns to."""
    return url_for("matches.show", match_id=match_id)


def build_form(scored: services.matches.Scored, **kwargs: Any) -> HandForm:
    names = [side.name for side in scored.match.sides]
    return hand_form(scored.game.rules, names, **kwargs)


@bp.route("/manos/nueva", methods=["GET", "POST"])
@csrf.exempt  # the form checks its token itself and, when it fails, keeps the typed hand
def new(match_id: int) -> Page:
    """Record the next hand."""
    scored = services.matches.score(get_match(match_id))
    form = build_form(scored)
    if request.method == "POST":
        return submit(form, scored, None)
    if scored.score.finished or scored.match.status == "finished":
        flash(_("The game is over: no more hands can be recorded."), "error")
        return redirect(match_page(match_id))
    form.request_key.data = uuid.uuid4().hex
    form.version.data = str(scored.match.version)
    return render(form, scored, None)


@bp.route("/manos/<int:number>", methods=["GET", "POST"])
@csrf.exempt  # as new(): an expired form keeps the typed hand
def edit(match_id: int, number: int) -> Page:
    """Correct hand ``number``; every later figure follows."""
    match = get_match(match_id)
    get_number(match, number)
    scored = services.matches.score(match)
    if request.method == "POST":
        return submit(build_form(scored), scored, number)
    data = stored_data(scored.game.rules, match.hands[number - 1].inputs)
    # The key is not needed to save an edit: draft.js tells its own failed save by it.
    data.update(version=str(match.version), request_key=uuid.uuid4().hex)
    form = build_form(scored, data=data)
    return render(form, scored, number)


def submit(form: HandForm, scored: services.matches.Scored, number: int | None) -> Page:
    """Handle the hand form's buttons: save, preview, the calculator and penalty presets."""
    if csrf_refused(form):
        form.request_key.data = form.request_key.data or uuid.uuid4().hex
        form.hand_errors.append(str(FORM_EXPIRED))
        return render(form, scored, number, status=400)
    action = request.form.get("action", "save")
    if action != "save":
        return other_action(form, scored, number, action)
    if not form.validate():
        # What the form could read is checked too: every problem is reported at once.
        form.show_problems(every_problem(form, scored, number)[1])
        return render(form, scored, number, status=422)
    match, hand, version = scored.match, form.to_hand(), form.version_number()
    # Read before the save: the commit expires the row, and reading it again costs a query.
    match_id = match.id
    if number is None:
        try:
            key = form.key()
        except inputs.BadInput as refused:
            # Kept as typed, with a fresh key: the next tap saves it, once.
            form.request_key.data = uuid.uuid4().hex
            form.hand_errors.append(refused.message)
            return render(form, scored, number, status=422)
        outcome = services.hands.record_hand(match, hand, version, key)
    else:
        try:
            tables.give_reason(inputs.text(form.reason.data, MAX_REASON))
        except inputs.BadInput as refused:
            form.hand_errors.append(refused.message)
            return render(form, scored, number, status=422)
        outcome = services.hands.edit_hand(match, number, hand, version)
    if outcome.duplicate:
        flash(_("This hand was already saved."), "success")
        return to_planilla(match_id)
    if outcome.conflict:
        return stale(form, match_id, number)
    form.show_problems(outcome.problems)
    if not outcome.ok:
        form.show_problems(every_problem(form, scored, number)[1])
        return render(form, scored, number, status=422)
    shown = outcome.hand_number or 0
    if number is None:
        flash(_("Hand %(number)d saved.", number=shown), "success")
    else:
        flash(_("Hand %(number)d corrected.", number=shown), "success")
    for message in form.hand_warnings + sum(form.field_warnings.values(), []):
        flash(message, "warning")
    return to_planilla(match_id)


def to_planilla(match_id: int) -> Page:
    """Where a saved hand leads: a redirect to the planilla, or, for the form's script
    (static/js/offline.js asks for JSON), where to go: following the redirect itself would
    draw the planilla, and spend its one-time messages, before the page goes there."""
    url = match_page(match_id)
    if request.accept_mimetypes.best_match(("text/html", "application/json")) == "application/json":
        return jsonify(location=url)
    return redirect(url)


def stale(form: HandForm, match_id: int, number: int | None) -> Page:
    """Another phone changed the match: show the fresh totals, keep the input."""
    match = get_match(match_id)
    if number is not None and number > len(match.hands):
        flash(_("Another phone deleted this hand in the meantime."), "error")
        return redirect(match_page(match_id))
    form.version.data = str(match.version)
    form.hand_errors.append(
        _(
            "Another phone recorded or changed a hand in the meantime. Check the totals above "
            "and tap Save again to record this hand."
        )
    )
    return render(form, services.matches.score(match), number, status=409)


def other_action(
    form: HandForm, scored: services.matches.Scored, number: int | None, action: str
) -> Page:
    """The no-JavaScript buttons: card calculator, penalty presets and preview."""
    kind, _sep, argument = action.partition(":")
    target, _sep, penalty = argument.partition(":")
    try:
        side = inputs.integer(target.removeprefix("s"), 0, len(form.side_names) - 1)
    except inputs.BadInput:
        side = None
    form.validate()
    if kind == "calc" and side is not None and target.startswith("s"):
        form.calculate(side)
    elif kind == "penalty" and side is not None and target.startswith("s"):
        form.add_penalty(side, penalty)
    elif kind != "preview":
        abort(400)
    preview = None
    if kind == "preview" and not form.errors:
        preview = preview_rows(form, scored, number)
    return render(form, scored, number, preview=preview)


def preview_rows(
    form: HandForm, scored: services.matches.Scored, number: int | None
) -> list[dict[str, Any]] | None:
    """Each side's score, new total and next opening minimum, or None (problems on form)."""
    score, problems = every_problem(form, scored, number)
    form.show_problems(problems)
    if score is None:
        return None
    index = (number or len(score.hands)) - 1
    names = form.side_names
    ended = score.ended_at == index
    return [
        {
            "name": names[i],
            "score": side.score,
            "total": side.total,
            "minimum": side.opening_minimum,
            "winner": ended and score.winner == i,
            # The same figures as the page writes them in its language ("+2.260", "3.460").
            "score_text": points(side.score, signed=True),
            "total_text": points(side.total),
            "minimum_text": "—" if side.opening_minimum is None else points(side.opening_minimum),
        }
        for i, side in enumerate(score.hands[index].sides)
    ]


@bp.post("/manos/vista-previa")
@answers_json
def preview(match_id: int) -> dict[str, Any]:
    """The live preview (JSON) of the hand being typed: ``?numero=N`` when editing hand N."""
    match = get_match(match_id)
    try:
        number = inputs.row_id(request.args.get("numero"))
    except inputs.BadInput:
        abort(404)
    if number is not None:
        get_number(match, number)
    scored = services.matches.score(match)
    form = build_form(scored)
    if form.validate():
        rows = preview_rows(form, scored, number)
    else:
        rows = None
        form.show_problems(every_problem(form, scored, number)[1])
    labels = {name: (target, label) for name, target, label in problem_links(form)}
    problems = [
        {
            "field": name,
            "message": str(message),
            "severity": "error",
            "target": labels.get(name, ("", ""))[0],
            "label": labels.get(name, ("", ""))[1],
        }
        for name, messages in form.errors.items()
        for message in messages
    ]
    problems += [{"field": "", "message": m, "severity": "error"} for m in form.hand_errors]
    problems += [{"field": "", "message": m, "severity": "warning"} for m in form.hand_warnings]
    problems += [
        {"field": name, "message": m, "severity": "warning"}
        for name, messages in form.field_warnings.items()
        for m in messages
    ]
    return {"ok": rows is not None, "sides": rows or [], "problems": problems}


@bp.post("/manos/<int:number>/borrar")
def delete(match_id: int, number: int) -> Page:
    """Delete hand ``number`` after a confirmation (``confirm=1``)."""
    match = get_match(match_id)
    get_number(match, number)
    return remove(match, number, lambda version: services.hands.delete_hand(match, number, version))


@bp.post("/deshacer")
def undo(match_id: int) -> Page:
    """Undo the last hand after a confirmation (``confirm=1``)."""
    match = get_match(match_id)
    if not match.hands:
        flash(_("There is no hand to undo."), "error")
        return redirect(match_page(match_id))
    return remove(match, None, lambda version: services.hands.undo_last_hand(match, version))


def remove(match: Match, number: int | None, operation: Any) -> Page:
    """Ask first; then delete, refusing a stale confirmation or a change the rules forbid."""
    try:
        version = inputs.row_id(request.form.get("version"))
    except inputs.BadInput:
        version = None
    shown = number or len(match.hands)
    if request.form.get("confirm") != "1" or version is None:
        # Without the version it was shown with, a confirmation is asked (again).
        return confirm_page(match, number, match.version if version is None else version)
    outcome = operation(version)
    if outcome.conflict:
        match = get_match(match.id)
        error = _("Another phone changed this match in the meantime. Check and confirm again.")
        if number is not None and number > len(match.hands) or not match.hands:
            flash(error, "error")
            return redirect(match_page(match.id))
        return confirm_page(match, number, match.version, [error], 409)
    if not outcome.ok:
        form_errors = [problem_text(p) for p in outcome.problems if p.severity == "error"]
        return confirm_page(match, number, version, form_errors, 422)
    flash(_("Hand %(number)d deleted.", number=shown), "success")
    return redirect(match_page(match.id))


def problem_text(problem: rules.Problem) -> str:
    number = hand_number_of(problem.path)
    message = problem_message(problem)
    return _("Hand %(number)d: %(message)s", number=number, message=message) if number else message


def confirm_page(
    match: Match, number: int | None, version: int, errors: list[str] | None = None, status=200
) -> tuple[str, int]:
    scored = services.matches.score(match)
    shown = number or len(match.hands)
    page = render_template(
        "hands/confirm.html",
        match=match,
        number=number,
        shown=shown,
        sides=scored.score.hands[shown - 1].sides,
        version=version,
        errors=errors or [],
        back=match_page(match.id),
    )
    return page, status


def closer_empty_hand(game_rules: rules.Rules) -> str | None:
    """The field the closer leaves empty, hidden once a side is chosen: its hand points when
    each side is one player (V5; a partner may still hold cards)."""
    spec = game_rules.field_with(rules.Role.HAND_POINTS)
    return spec.name if spec and game_rules.layout.players_per_side == 1 else None


def render(
    form: HandForm,
    scored: services.matches.Scored,
    number: int | None,
    preview: list[dict[str, Any]] | None = None,
    status: int = 200,
) -> tuple[str, int]:
    """The hand form, with the totals and opening minimums the hand starts from."""
    game, score = scored.game, scored.score
    if number is None or number == 1:
        before = list(score.totals) if number is None else list(game.start_scores)
    else:
        before = [side.total for side in score.hands[number - 2].sides]
    minimums = [rules.opening_minimum(game.rules, total) for total in before]
    preview_url = url_for("hands.preview", match_id=scored.match.id)
    if number is not None:
        preview_url += f"?numero={number}"
    page = render_template(
        "hands/form.html",
        form=form,
        match=scored.match,
        number=number,
        shown=number or len(score.hands) + 1,
        before=before,
        minimums=minimums,
        target=game.rules.target,
        preview=preview,
        preview_url=preview_url,
        problem_links=problem_links(form),
        side_inputs=side_inputs,
        closer_empty_hand=closer_empty_hand(game.rules),
        back=match_page(scored.match.id),
        live=watched(scored.match.id, form.version.data or "", len(score.hands), number),
        # A correction of a tournament table's hand: the change log keeps its reason.
        reason_asked=number is not None and tables.is_table(scored.match.id),
    )
    return page, status
