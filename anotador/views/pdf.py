"""Printed score sheets as PDF downloads: a match's planilla and blank planillas.

A sheet depends only on one state of its match (``caching.match_key`` and the names shown),
the paper, the language and the sheet's files, so the rendered PDF is kept in the app's
``sheets`` cache under that key and served with the key as ETag: a repeated download of an
unchanged match costs one light query and a hash, and a browser that already has it gets a
304.
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Mapping

from flask import Blueprint
from flask import Response
from flask import abort
from flask import render_template
from flask import request
from flask_babel import get_locale
from flask_babel import gettext

from anotador import access
from anotador import inputs
from anotador import labels
from anotador import pdf
from anotador import rules
from anotador import services
from anotador.caching import caches
from anotador.caching import match_key
from anotador.errors import render_error
from anotador.i18n import problem_message
from anotador.rules.variant import MAX_TARGET

bp = Blueprint("pdf", __name__)

#: The ``papel`` parameter: Spanish and English names of each paper size.
PAPERS = {"a4": "A4", "carta": "letter", "letter": "letter"}


class BadParameter(Exception):
    """A query parameter the sheet cannot be drawn with; the message is translated."""


def paper_and_lang(args: Mapping[str, str]) -> tuple[str, str]:
    try:
        paper = inputs.choice(args.get("papel", "a4"), PAPERS)
    except inputs.BadInput:
        paper = None
    if paper is None:
        raise BadParameter(gettext("Unknown paper size: use a4 or carta."))
    try:
        lang = inputs.choice(args.get("idioma"), pdf.LANGUAGES)
    except inputs.BadInput:
        raise BadParameter(gettext("Unknown language: use es, en or it.")) from None
    return PAPERS[paper], lang or str(get_locale() or pdf.LANGUAGES[0])


def pdf_response(
    key: str | None, filename: str, render: Callable[[], tuple[bytes, str | None]]
) -> Response:
    """The PDF under ``key``: 304 when the browser has it, from the ``sheets`` cache, or
    rendered (``render`` gives the PDF and the key of what it drew). No key, no cache and
    no ETag (a match without a content hash)."""
    if key is not None and key[:40] in request.if_none_match:
        response = Response(status=304)
    else:
        cache = caches().sheets
        sheet = cache.get(key) if key is not None else None
        if sheet is None:
            sheet, key = render()
            if key is not None:
                cache.put(key, sheet)
        response = Response(sheet, mimetype="application/pdf")
        response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    if key is not None:
        response.set_etag(key[:40])
    # Revalidate every time: an edited hand changes the sheet, and the ETag with it.
    response.headers["Cache-Control"] = "private, no-cache"
    return response


def match_sheet_key(state: services.queries.MatchState, paper: str, lang: str) -> str | None:
    """The key (and ETag) of a match's sheet: the match's cache key with the names shown,
    the paper, the language and the sheet's own files (``pdf.sheet_key``)."""
    key = match_key(state, state.names)
    return None if key is None else pdf.sheet_key(key, "match", paper, lang)


@bp.get("/partidas/<id:match_id>/planilla.pdf")
def match_sheet(match_id: int) -> Response | tuple[str, int]:
    """The match's score sheet (``?papel=a4|carta``, ``?idioma=es|en|it``)."""
    try:
        paper, lang = paper_and_lang(request.args)
    except BadParameter as error:
        return render_error(400, str(error))
    state, _level = access.state_for(match_id, access.Level.READ)

    def render() -> tuple[bytes, str | None]:
        match = services.queries.load_match(match_id)
        if match is None:  # deleted since
            abort(404)
        # A match the engine refuses raises StoredMatchInvalid: errors.py answers with the
        # page that says what is wrong (409).
        scored = services.matches.score(match)
        sheet = pdf.render_match_sheet(scored.game, scored.score, paper=paper, lang=lang)
        # Keyed on what was drawn (the match may have changed since its state was read).
        return sheet, match_sheet_key(services.queries.state_of(match), paper, lang)

    return pdf_response(match_sheet_key(state, paper, lang), f"planilla-{match_id}.pdf", render)


@bp.get("/planillas/en-blanco")
def blank_sheet() -> Response | tuple[str, int] | str:
    """With ``variante`` and ``disposicion``: a blank sheet as PDF; without: the form."""
    if "variante" not in request.args:
        return render_template("sheets/blank_form.html", **form_context())
    try:
        variant, layout, target = blank_parameters(request.args)
        paper, lang = paper_and_lang(request.args)
        rules.make_rules(variant, layout, {} if target is None else {"target": target})
    except BadParameter as error:
        return render_template("sheets/blank_form.html", error=str(error), **form_context()), 400
    except rules.InvalidInput as error:
        message = "; ".join(problem_message(problem) for problem in error.problems)
        return render_template("sheets/blank_form.html", error=message, **form_context()), 400
    key = pdf.sheet_key({"blank": [variant, layout, target]}, "blank", paper, lang)
    filename = f"planilla-{variant}-{layout}.pdf"
    return pdf_response(
        key,
        filename,
        lambda: (pdf.render_blank_sheet(variant, layout, target, lang, paper=paper), key),
    )


def blank_parameters(args: Mapping[str, str]) -> tuple[str, str, int | None]:
    try:
        variant = inputs.choice(args.get("variante"), rules.VARIANTS)
    except inputs.BadInput:
        variant = None
    if variant is None:
        raise BadParameter(gettext("Choose one of the variants in the list."))
    try:
        layout = inputs.choice(args.get("disposicion"), rules.get_variant(variant).layouts)
    except inputs.BadInput:
        layout = None
    if layout is None:
        raise BadParameter(gettext("This variant is not played with that layout."))
    try:
        # Any whole number: the engine says which targets a variant allows.
        target = inputs.integer(args.get("objetivo"), 0, 10 * MAX_TARGET)
    except inputs.BadInput:
        raise BadParameter(gettext("The target must be a whole number of points.")) from None
    return variant, layout, target


def form_context() -> dict[str, object]:
    return {
        "variants": [(name, str(labels.VARIANT_TITLES[name])) for name in rules.VARIANTS],
        "layouts": [(name, str(label)) for name, label in labels.LAYOUTS.items()],
        "sheet_languages": [("es", "Español"), ("en", "English"), ("it", "Italiano")],
        "args": request.args,
        "current_lang": str(get_locale() or pdf.LANGUAGES[0]),
    }
