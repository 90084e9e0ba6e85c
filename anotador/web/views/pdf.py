"""Printed score sheets as PDF downloads: a match's planilla and blank planillas.

A sheet depends only on one state of its match (``caching.match_key`` and the names shown),
the paper, the language and the sheet's files, so the rendered PDF is kept under that key,
in this worker's ``sheets`` cache and in the instance folder for every worker
(``pdf.shelf``), and served with the key as ETag: a repeated download of an unchanged match
costs one light query and a hash, and a browser that already has it gets a 304. A sheet is
drawn in a child process within a cap on renders at once (beyond it the page says it is
being prepared and asks again by itself), and in the background when a hand ends a match.
"""

from __future__ import annotations

import contextlib
import dataclasses
import threading
from collections.abc import Callable
from collections.abc import Mapping
from functools import partial
from typing import Any

import sqlalchemy as sa
from flask import Blueprint
from flask import Flask
from flask import Response
from flask import abort
from flask import current_app
from flask import redirect
from flask import render_template
from flask import request
from flask import url_for
from flask.typing import ResponseReturnValue
from flask_babel import get_locale
from flask_babel import gettext

from anotador import rules
from anotador import services
from anotador import sheets as pdf
from anotador.rules.variant import MAX_TARGET
from anotador.sheets import shelf
from anotador.storage import signals
from anotador.storage.caching import caches
from anotador.storage.caching import match_key
from anotador.storage.database import db
from anotador.storage.models import Match
from anotador.web import access
from anotador.web import inputs
from anotador.web import sheet_links
from anotador.web.errors import render_error
from anotador.words import labels
from anotador.words.i18n import problem_message

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


#: A sheet is downloaded (kept on the phone); a printout opens in the browser, to print.
ATTACHMENT = "attachment"
INLINE = "inline"
#: A sheet asked for by the match's address: revalidated every time (an edited hand changes
#: the sheet, and the ETag with it).
REVALIDATE = "private, no-cache"
#: A sheet asked for by its own address (the key in it): that address always answers the
#: same bytes, so the browser keeps them and never asks again.
IMMUTABLE = "private, max-age=31536000, immutable"


def pdf_response(
    key: str | None,
    filename: str,
    order: shelf.Order,
    cache_control: str = REVALIDATE,
    match_id: int | None = None,
) -> ResponseReturnValue:
    """The PDF under ``key``: what :func:`kept_response` answers, else drawn in a child
    process (``order`` gives what to draw, for ``pdf.child``, and the key of what it draws)
    when a render slot is free for this requester, else the "preparing" page; the page that
    says it cannot be drawn when that failed for this key lately. No key, no cache and no
    ETag (a match without a content hash)."""
    response = None if key is None else kept_response(key, filename, cache_control)
    if response is not None:
        return response
    offers = sheet_offers(match_id)
    if key is not None and shelf.failed(key):
        return cannot_draw(offers)
    wanted, key = order()
    if key is not None and shelf.failed(key):
        return cannot_draw(offers)
    usual = shelf.usual(wanted)
    drawing = partial(
        shelf.draw_and_keep,
        key,
        lambda: (wanted, key),
        requester=requester(),
        unusual=not usual or shelf.costly(wanted),
        on_disk=usual,
    )
    return drawn_response(filename, cache_control, offers, drawing)


def drawn_response(
    filename: str,
    cache_control: str,
    offers: list[tuple[str, str]],
    drawing: Callable[[], tuple[bytes, str | None] | None],
    printout: bool = False,
) -> ResponseReturnValue:
    """The sheet ``drawing`` draws (:func:`shelf.draw_and_keep`), kept in this worker too;
    the "preparing" page when no slot was free; the page that says it cannot be drawn. A
    ``printout`` opens in the browser and has its own words for being prepared."""
    try:
        drawn = drawing()
    except shelf.RenderFailed:
        current_app.logger.exception("a sheet could not be drawn")
        return cannot_draw(offers)
    if drawn is None:
        return preparing(printout)
    sheet, key = drawn
    if key is not None:
        caches().sheets.put(key, sheet)
    disposition = INLINE if printout else ATTACHMENT
    return sheet_response(sheet, key, filename, cache_control, disposition)


def requester() -> str:
    """Who asks, for the share of render slots: the account, else the address."""
    account = access.signed_in()
    return f"account:{account.id}" if account is not None else f"address:{request.remote_addr}"


def kept_response(
    key: str, filename: str, cache_control: str, disposition: str = ATTACHMENT
) -> Response | None:
    """304 when the browser has the sheet under ``key``; the sheet from this worker's
    ``sheets`` cache or the sheets every worker keeps (``pdf.shelf``); None when no worker
    has drawn it yet."""
    if key[:40] in request.if_none_match:
        # Of the PDF's type: nothing after the view takes it for a page (offline.tag_account).
        response = Response(status=304, mimetype="application/pdf")
        response.set_etag(key[:40])
        response.headers["Cache-Control"] = cache_control
        return response
    cache = caches().sheets
    sheet = cache.get(key) or shelf.kept(key)
    if sheet is None:
        return None
    cache.put(key, sheet)
    return sheet_response(sheet, key, filename, cache_control, disposition)


def sheet_response(
    sheet: bytes, key: str | None, filename: str, cache_control: str, disposition: str = ATTACHMENT
) -> Response:
    response = Response(sheet, mimetype="application/pdf")
    response.headers["Content-Disposition"] = f'{disposition}; filename="{filename}"'
    if key is not None:
        response.set_etag(key[:40])
    response.headers["Cache-Control"] = cache_control
    return response


def preparing(printout: bool = False) -> tuple[str, int, dict[str, str]]:
    """Every render slot is busy, or (a ``printout``) it is being drawn for another viewer:
    come back in a few seconds (the page asks again by itself)."""
    retry = shelf.RETRY_SECONDS
    page = render_template("sheets/preparing.html", retry=retry, printout=printout)
    return page, 503, {"Retry-After": str(retry), "Cache-Control": "no-store"}


def cannot_draw(offers: list[tuple[str, str]]) -> tuple[str, int, dict[str, str]]:
    """Drawing this sheet failed or took too long lately: say so, without asking again by
    itself, and offer what else there is (``offers``: addresses and their words)."""
    page = render_template("sheets/cannot_draw.html", offers=offers)
    retry = str(shelf.FAILED_SECONDS)
    return page, 503, {"Retry-After": retry, "Cache-Control": "no-store"}


def sheet_offers(match_id: int | None) -> list[tuple[str, str]]:
    """What else there is than a sheet: the match on screen and its file; other sheets."""
    if match_id is None:
        return [(url_for("pdf.blank_sheet"), gettext("Choose another blank sheet"))]
    return [
        (url_for("matches.show", match_id=match_id), gettext("See the match on screen")),
        (url_for("matches.export", match_id=match_id), gettext("Download the match file")),
    ]


def match_sheet_key(state: services.queries.MatchState, paper: str, lang: str) -> str | None:
    """The key (and ETag) of a match's sheet: the match's cache key with the names shown,
    the result a tournament's director wrote by hand over it (the sheet says it, and it
    changes without the match), the paper, the language and the sheet's own files
    (``pdf.sheet_key``)."""
    key = match_key(state, state.names, state.table_result)
    return None if key is None else pdf.sheet_key(key, "match", paper, lang)


@bp.get("/partidas/<id:match_id>/planilla.pdf")
def match_sheet(match_id: int) -> ResponseReturnValue:
    """The match's score sheet as it is now (``?papel=a4|carta``, ``?idioma=es|en|it``): the
    address to keep or to give a program."""
    try:
        paper, lang = paper_and_lang(request.args)
    except BadParameter as error:
        return render_error(400, str(error))
    state, _grant = access.state_for(match_id, access.Level.READ)
    key = match_sheet_key(state, paper, lang)
    orderer = match_orderer(match_id, paper, lang)
    return pdf_response(key, sheet_filename(match_id), orderer, match_id=match_id)


@bp.get("/partidas/<id:match_id>/planillas/<sheet_key:key>.pdf")
def sheet_of_state(match_id: int, key: str) -> ResponseReturnValue:
    """One state of the match's score sheet, by its key: the link the match page gives
    (:func:`sheet_link`). A browser presenting what the link was signed for gets a kept
    sheet without a database read (a phone's download, or its reload, costs about what a
    bare page costs); otherwise, or when no worker drew it yet, access is checked as for
    :func:`match_sheet`, and a key that is no longer the match's sends to the sheet as it
    is now."""
    try:
        paper, lang = paper_and_lang(request.args)
    except BadParameter as error:
        return render_error(400, str(error))
    filename = sheet_filename(match_id)
    signed = sheet_links.signed_for_this_browser
    if signed(match_id, key, request.args.get("hasta"), request.args.get("firma")):
        response = kept_response(key, filename, IMMUTABLE)
        if response is not None:
            return response
    state, _grant = access.state_for(match_id, access.Level.READ)
    if match_sheet_key(state, paper, lang) != key:
        current = url_for(".match_sheet", match_id=match_id, papel=paper_name(paper), idioma=lang)
        return redirect(current, 303)
    orderer = match_orderer(match_id, paper, lang)
    return pdf_response(key, filename, orderer, IMMUTABLE, match_id)


def sheet_link(state: services.queries.MatchState, granted: access.Grant) -> str:
    """The match page's link to its sheet (A4, the page's language): this state's key,
    signed for what gave this browser its access (:mod:`anotador.web.sheet_links`). The
    match's own address when the sheet has no key (no content hash)."""
    lang = str(get_locale() or pdf.LANGUAGES[0])
    key = match_sheet_key(state, PAPERS["a4"], lang)
    if key is None:
        return url_for("pdf.match_sheet", match_id=state.id)
    until = sheet_links.expiry()
    return url_for(
        "pdf.sheet_of_state",
        match_id=state.id,
        key=key,
        idioma=lang,
        hasta=until,
        firma=sheet_links.signature(state.id, key, until, granted.credential),
    )


def match_orderer(
    match_id: int, paper: str, lang: str
) -> Callable[[], tuple[dict[str, Any], str | None]]:
    def order() -> tuple[dict[str, Any], str | None]:
        match = services.queries.load_match(match_id)
        if match is None:  # deleted since
            abort(404)
        return match_order(match, paper, lang)

    return order


def sheet_filename(match_id: int) -> str:
    return f"planilla-{match_id}.pdf"


def paper_name(paper: str) -> str:
    """The ``papel`` parameter of a paper size."""
    return next(name for name, size in PAPERS.items() if size == paper)


@signals.match_changed.connect
def prepare_finished(app: Flask, match_ids: tuple[int, ...], change: str) -> None:
    """A hand that ends a match: draw its sheet now, in the background (after the commit,
    in a free render slot: none free, it is drawn when asked for), so the download that
    usually follows finds it ready. In the language of the phone that ended it, on A4."""
    if change not in FINISHING or not app.config.get("PDF_PREPARE_FINISHED", True):
        return
    orders = []
    finished = sa.select(Match.id).where(Match.id.in_(match_ids), Match.status == "finished")
    for match_id in db.session.scalars(finished):  # most changes end nothing: one light read
        match = services.queries.load_match(match_id)
        if match is not None:
            lang = str(get_locale() or pdf.LANGUAGES[0])
            with contextlib.suppress(services.matches.StoredMatchInvalid):
                orders.append(match_order(match, PAPERS["a4"], lang))
    for wanted, key in orders:
        if key is not None and shelf.kept(key) is None and not shelf.failed(key):
            threading.Thread(target=draw_in_background, args=(app, key, wanted)).start()


#: The changes that can end a match.
FINISHING = ("hand_recorded", "hand_edited", "hand_deleted", "resumed")


def draw_in_background(app: Flask, key: str, wanted: dict[str, Any]) -> None:
    with app.app_context():
        try:
            shelf.draw_and_keep(key, lambda: (wanted, key), unusual=shelf.costly(wanted))
        except shelf.RenderFailed:
            app.logger.exception("a finished match's sheet could not be drawn")


def match_order(match: Match, paper: str, lang: str) -> tuple[dict[str, Any], str | None]:
    """What the child process draws for a match's sheet, and its key."""
    # A match the engine refuses raises StoredMatchInvalid: errors.py answers with the
    # page that says what is wrong (409).
    scored = services.matches.score(match)
    document = rules.match_to_document(scored.game)
    table_result = services.queries.table_result_of(match.id)
    wanted: dict[str, Any] = {"kind": "match", "document": document, "paper": paper, "lang": lang}
    if table_result is not None:
        wanted["table_result"] = list(table_result)
    # Keyed on what is drawn (the match may have changed since its state was read).
    state = dataclasses.replace(services.queries.state_of(match), table_result=table_result)
    return wanted, match_sheet_key(state, paper, lang)


@bp.get("/planillas/en-blanco")
def blank_sheet() -> ResponseReturnValue:
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
    wanted = {
        "kind": "blank",
        "variant": variant,
        "layout": layout,
        "target": target,
        "paper": paper,
        "lang": lang,
    }
    return pdf_response(key, filename, lambda: (wanted, key))


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
