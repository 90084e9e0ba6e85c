"""A pair's own page (every round it is in: its results, its table of the round being
played, its byes; its place) and the printable standings and
round results (PDF through :func:`anotador.sheets.render.render_pages`), by id for the
director and by the spectator link for everyone else. Every number is the pure code's
(:func:`pages.computed_of`, the standings ``anotador tournament standings`` prints): these
views only pick a pair's side of each table."""

from __future__ import annotations

from typing import Any

from flask import Blueprint
from flask import Response
from flask import abort
from flask import url_for

from anotador.sheets.render import render_pages
from anotador.tournaments.web import pages
from anotador.tournaments.web import service
from anotador.tournaments.web.models import Tournament
from anotador.tournaments.web.models import TournamentPair
from anotador.tournaments.web.words import SCALE_LABELS
from anotador.tournaments.web.words import render
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


def pdf(body: bytes, name: str) -> Response:
    disposition = f'inline; filename="{name}"'
    return Response(body, mimetype="application/pdf", headers={"Content-Disposition": disposition})


def printout(tournament: Tournament, results: list[dict[str, Any]], **context: Any) -> bytes:
    context = {
        "tournament": tournament,
        "results": results,
        "scale_labels": SCALE_LABELS,
        **context,
    }
    return render_pages("tournaments/printout.html", context, lang=i18n.locale_name())


def register(bp: Blueprint, owned: pages.Owned) -> None:
    """Add the pair pages and the printouts to the tournaments' blueprint."""

    def pair_page(pair_id: int, tournament_id: int | None = None, token: str | None = None) -> Any:
        tournament = pages.find_viewed(owned, tournament_id, token)
        pair = next((p for p in tournament.pairs if p.id == pair_id), None)
        if pair is None:
            abort(404)
        computed = pages.computed_of(tournament)
        standing = next(row for row in computed["standings"] if row["pair"] == pair.key)
        if token:
            standings_url = url_for("tournaments.standings_shared", token=token)
        else:
            standings_url = url_for("tournaments.standings", tournament_id=tournament.id)
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
        )

    def standings_pdf(tournament_id: int | None = None, token: str | None = None) -> Response:
        tournament = pages.find_viewed(owned, tournament_id, token)
        computed = pages.computed_of(tournament)
        body = printout(
            tournament,
            pages.result_rows(computed, tournament),
            standings=pages.standings_rows(computed, tournament),
        )
        return pdf(body, f"torneo-{tournament.id}-posiciones.pdf")

    def round_pdf(
        number: int, tournament_id: int | None = None, token: str | None = None
    ) -> Response:
        tournament = pages.find_viewed(owned, tournament_id, token)
        if number not in {round_row.number for round_row in tournament.round_rows}:
            abort(404)
        # A round being played prints the tables that have finished.
        computed = pages.computed_of(tournament)
        results = [row for row in pages.result_rows(computed, tournament) if row["round"] == number]
        body = printout(tournament, results, round=number)
        return pdf(body, f"torneo-{tournament.id}-ronda-{number}.pdf")

    pages.add_route(bp, "/parejas/<id:pair_id>", "pair_page", pair_page)
    pages.add_route(bp, "/posiciones.pdf", "standings_pdf", standings_pdf)
    pages.add_route(bp, "/rondas/<id:number>/resultados.pdf", "round_pdf", round_pdf)
