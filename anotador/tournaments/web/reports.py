"""A pair's own page (every round it is in: its results, its table of the round being
played, its byes; its place) and the printable standings and round results, by id for the
director and by the spectator link for everyone else. Every number is the pure code's
(:func:`pages.computed_of`, the standings ``anotador tournament standings`` prints): these
views only pick a pair's side of each table.

A printout (these and a round's table cards) is a match sheet's kin (``views/pdf.py``): kept
under the tournament's state (:mod:`kept`), in every worker's shelf, served again with its
ETag (a 304 to a browser that has it); laid out and drawn only when a render slot is free, in
the child process, one printout of a tournament at a time and one slot per viewer (the
account, else the address), so spectators asking at once make one drawing and the others are
told to come back in a few seconds (503 with ``Retry-After``), never a queue of drawings.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import sqlalchemy as sa
from flask import Blueprint
from flask import abort
from flask import url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext

from anotador.sheets import shelf
from anotador.sheets.render import printout_html
from anotador.sheets.render import printout_key
from anotador.storage.database import db
from anotador.tournaments.operations import service
from anotador.tournaments.operations.seats import seat_of_pair
from anotador.tournaments.operations.seats import seating_of
from anotador.tournaments.store.models import Round
from anotador.tournaments.store.models import Tournament
from anotador.tournaments.store.models import TournamentPair
from anotador.tournaments.web import kept
from anotador.tournaments.web import pages
from anotador.tournaments.web.forms import PairNamesForm
from anotador.tournaments.web.words import SCALE_LABELS
from anotador.tournaments.web.words import render
from anotador.web.addresses import qr_svg
from anotador.web.views.printouts import printout_response
from anotador.words import i18n


def pair_rows(computed: dict[str, Any], key: str) -> list[dict[str, Any]]:
    """Pair ``key``'s results round by round, from its own side: its table and seat, its
    opponent's id, its MP for and against and its VP (a bye: its VP only)."""
    rows = []
    for played in computed["rounds"]:
        for entry in played["tables"]:
            if entry.get("bye") == key:
                rows.append({"round": played["round"], "bye": True, "vp": entry["vp"]})
            elif key in (entry.get("ns"), entry.get("ew")):
                ours = 0 if entry["ns"] == key else 1
                rows.append(
                    {
                        "round": played["round"],
                        "table": entry["table"],
                        "seat": "NS" if ours == 0 else "EW",
                        "opponent": entry["ew"] if ours == 0 else entry["ns"],
                        "mp_for": entry["mp"][ours],
                        "mp_against": entry["mp"][1 - ours],
                        "vp": entry["vp"][ours],
                    }
                )
    return rows


def pair_rounds(
    tournament: Tournament, computed: dict[str, Any], pair: TournamentPair
) -> list[dict[str, Any]]:
    """Every round pair ``pair`` is in: its result (:func:`pair_rows`) once it has one, else
    its seat as drawn (``state``: ``not_started`` or ``playing``; a bye: ``bye``), with its
    opponent's id. A round the pair is absent from (it joined later, or had withdrawn) is
    not listed."""
    results = {row["round"]: row for row in pair_rows(computed, pair.key)}
    rows = []
    for round_row in tournament.round_rows:
        number = round_row.number
        table = next((t for t in round_row.tables if pair.id in (t.ns_pair_id, t.ew_pair_id)), None)
        if number in results:
            rows.append(results[number])
        elif table is not None and table.is_bye:
            rows.append({"round": number, "bye": True, "vp": None})
        elif table is not None and table.ew_pair is not None:
            ours = table.ns_pair_id == pair.id
            drawn = round_row.status == "drawn"
            rows.append(
                {
                    "round": number,
                    "table": table.number,
                    "seat": "NS" if ours else "EW",
                    "opponent": (table.ew_pair if ours else table.ns_pair).key,
                    "state": "not_started" if drawn else service.table_state(table),
                }
            )
    return rows


#: The tournament printout's template (the standings and a round's results).
PRINTOUT = "tournaments/printout.html"


def printed(
    state: Any,
    template: str,
    view: tuple[str | int, ...],
    context: Callable[[Tournament], dict[str, Any]],
    filename: str,
    token: str | None,
) -> ResponseReturnValue:
    """The printout of ``template`` for the tournament in ``state`` (a row of
    :func:`kept.state_of`) and ``view`` (which printout, and whatever else it shows), kept
    under both and the language (``pdf.printout_response``). ``context`` gives the
    template's context of the whole tournament, read only when it is to be drawn."""
    lang = i18n.locale_name()
    document = {"tournament": [db.engine.url.render_as_string(), *state]}
    key = printout_key(template, document, *map(str, view), lang)

    def order() -> tuple[dict[str, Any], str | None]:
        html = printout_html(template, context(pages.whole(state)), lang=lang)
        # Kept only if the state read again is the one of the key (as kept.part does).
        unchanged = tuple(kept.state_of(state.id) or ()) == tuple(state)
        return {"kind": "html", "html": html}, key if unchanged else None

    return printout_response(
        key,
        filename,
        order,
        subject=f"tournament:{db.engine.url.render_as_string()}:{state.id}",
        unusual=int(state.tables) // kept.PER_MATCH > shelf.COSTLY_ROWS,
        offers=offers(state, token),
    )


def offers(state: Any, token: str | None) -> list[tuple[str, str]]:
    """What else there is when a printout cannot be drawn: the standings on screen, in CSV."""
    where = {"token": token} if token else {"tournament_id": state.id}
    suffix = "_shared" if token else ""
    return [
        (url_for(f"tournaments.standings{suffix}", **where), gettext("See the standings")),
        (
            url_for(f"tournaments.standings_csv{suffix}", **where),
            gettext("Download the standings (CSV)"),
        ),
    ]


def round_status(state: Any, number: int) -> str:
    """The status of round ``number`` of the tournament in ``state``; a 404 when it has no
    such round (yet)."""
    statement = sa.select(Round.status).where(
        Round.tournament_id == state.id, Round.number == number
    )
    status = db.session.scalar(statement)
    if status is None:
        abort(404)
    return str(status)


def next_seat(tournament: Tournament, pair: TournamentPair, director: bool) -> Any:
    """The pair's seat in the round drawn or being played (or that it rests), with its
    table's link and QR code for the director only: a spectator link reads the seating the
    board shows, never a link that scores."""
    seat = seat_of_pair(seating_of(tournament), pair.key)
    if seat is None:
        return None
    link = (
        director
        and seat["token"]
        and url_for("sharing.open_link", token=seat["token"], _external=True)
    )
    return {**seat, "link": link or None, "qr": qr_svg(link) if link else None}


def pair_view(
    tournament: Tournament,
    pair: TournamentPair,
    token: str | None,
    names_form: PairNamesForm | None = None,
) -> str:
    """The pair's page, by the spectator link ``token`` or (None) the director's, with the
    form correcting its names while the tournament is open (``names_form``: one refused)."""
    computed = pages.computed_of(tournament)
    standing = next(row for row in computed["standings"] if row["pair"] == pair.key)
    if token:
        standings_url = url_for("tournaments.standings_shared", token=token)
    else:
        standings_url = url_for("tournaments.standings", tournament_id=tournament.id)
    if names_form is None and token is None:  # a spectator gets no form (nor a CSRF token)
        names = {"first": pair.first_player.name, "second": pair.second_player.name}
        names_form = PairNamesForm(formdata=None, data=names)
    return render(
        "tournaments/pair.html",
        tournament=tournament,
        pair=pair,
        standing=standing,
        rows=pair_rounds(tournament, computed, pair),
        names=pages.labels_of(tournament),
        pair_urls=pages.pair_addresses(tournament, token),
        standings_url=standings_url,
        director=token is None,
        next_seat=next_seat(tournament, pair, director=token is None),
        names_form=names_form,
    )


def printout(tournament: Tournament, results: list[dict[str, Any]], **more: Any) -> dict[str, Any]:
    """The context of :data:`PRINTOUT`: the tournament, ``results`` and ``more``."""
    return {"tournament": tournament, "results": results, "scale_labels": SCALE_LABELS, **more}


def register(bp: Blueprint, owned: pages.Owned) -> None:
    """Add the pair pages and the printouts to the tournaments' blueprint."""

    def pair_page(pair_id: int, tournament_id: int | None = None, token: str | None = None) -> Any:
        tournament = pages.find_viewed(owned, tournament_id, token)
        pair = next((p for p in tournament.pairs if p.id == pair_id), None)
        if pair is None:
            abort(404)
        return pair_view(tournament, pair, token)

    def standings_pdf(tournament_id: int | None = None, token: str | None = None) -> Any:
        state = pages.viewed_state(tournament_id, token)

        def context(tournament: Tournament) -> dict[str, Any]:
            computed = pages.computed_of(tournament)
            results = pages.result_rows(computed, tournament)
            return printout(
                tournament, results, standings=pages.standings_rows(computed, tournament)
            )

        filename = f"torneo-{state.id}-posiciones.pdf"
        return printed(state, PRINTOUT, ("standings",), context, filename, token)

    def round_pdf(number: int, tournament_id: int | None = None, token: str | None = None) -> Any:
        state = pages.viewed_state(tournament_id, token)
        round_status(state, number)

        def context(tournament: Tournament) -> dict[str, Any]:
            # A round being played prints the tables that have finished.
            computed = pages.computed_of(tournament)
            rows = pages.result_rows(computed, tournament)
            return printout(
                tournament, [row for row in rows if row["round"] == number], round=number
            )

        filename = f"torneo-{state.id}-ronda-{number}.pdf"
        return printed(state, PRINTOUT, ("round", number), context, filename, token)

    pages.add_route(bp, "/parejas/<id:pair_id>", "pair_page", pair_page)
    pages.add_route(bp, "/posiciones.pdf", "standings_pdf", standings_pdf)
    pages.add_route(bp, "/rondas/<id:number>/resultados.pdf", "round_pdf", round_pdf)
