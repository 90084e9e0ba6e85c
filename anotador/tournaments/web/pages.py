"""What everyone with access sees of a tournament: its standings, the large-type board a
projector shows (following it live with the planilla's own ``static/js/live.js``), the
exports and the tournament file. The director reaches them by the tournament's id; anyone
else by its spectator link (``/torneos/ver/<token>/...``). Each is computed from the
tournament file the rows make, by the same pure code as ``anotador tournament``."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable
from typing import Any

from flask import Blueprint
from flask import Response
from flask import abort
from flask import jsonify
from flask import request
from flask import url_for

from anotador.backup import csv_cell
from anotador.storage.database import db
from anotador.tournaments.operations import confirmations
from anotador.tournaments.operations import draws
from anotador.tournaments.operations import live
from anotador.tournaments.operations import service
from anotador.tournaments.operations.clock import clock_of
from anotador.tournaments.operations.seats import labels_of
from anotador.tournaments.operations.seats import seating_of
from anotador.tournaments.store.models import Round
from anotador.tournaments.store.models import Tournament
from anotador.tournaments.web import kept
from anotador.tournaments.web.words import render
from anotador.web import access
from anotador.web import inputs
from anotador.web.addresses import qr_svg
from anotador.web.errors import answers_json
from anotador.words import i18n

Owned = Callable[[int], Tournament]


def spectator_link(tournament: Tournament) -> str | None:
    if tournament.spectator_token is None:
        return None
    return url_for("tournaments.standings_shared", token=tournament.spectator_token, _external=True)


def nights_link(state: Any) -> dict[str, Any] | None:
    """The list of the pairs' nights by the spectator link, with its QR code (the board's
    corner: a player scans it and picks their name); None while the tournament has no link."""
    if state.spectator_token is None:
        return None
    link = url_for("tournaments.nights_shared", token=state.spectator_token, _external=True)
    return {"link": link, "qr": qr_svg(link)}


def table_rows(round_row: Round) -> list[dict[str, Any]]:
    """A round's tables as the director's live view lists them, byes last."""
    rows = []
    following = live.round_progress(round_row)
    for table in sorted(round_row.tables, key=lambda t: (t.is_bye, t.number or 0)):
        match = table.match
        rows.append(
            {
                "table": table,
                "state": confirmations.progress(table),
                "live": following[table.id],
                "by_hand": table.mp_ns is not None,
                "mp": service.table_result(table),
                "hands": match.hand_count if match is not None else 0,
                "match_url": url_for("matches.show", match_id=match.id) if match else None,
                "table_link": (
                    url_for("sharing.open_link", token=match.table_token, _external=True)
                    if match is not None and match.table_token
                    else None
                ),
            }
        )
    return rows


def table_pairs(tournament: Tournament) -> dict[tuple[int, int], tuple[str, str]]:
    """Each table of the tournament's rounds, (round, table) → its NS and EW pairs' names."""
    names = labels_of(tournament)
    return {
        (round_row.number, table.number): (names[table.ns_pair.key], names[table.ew_pair.key])
        for round_row in tournament.round_rows
        for table in round_row.tables
        if table.number is not None and table.ew_pair is not None
    }


def pair_addresses(tournament: Tournament, token: str | None) -> dict[str, str]:
    """Each pair's id in the tournament file → its page (by id, or by the spectator link)."""
    if token:
        return {
            pair.key: url_for("tournaments.pair_page_shared", token=token, pair_id=pair.id)
            for pair in tournament.pairs
        }
    return {
        pair.key: url_for("tournaments.pair_page", tournament_id=tournament.id, pair_id=pair.id)
        for pair in tournament.pairs
    }


def players_of(tournament: Tournament) -> dict[str, list[dict[str, str | None]]]:
    """Each pair's id in the tournament file → its two players, each with their membership
    number (None: none), as the standings print them and the exports write them."""
    return {
        pair.key: [
            {"name": player.name, "membership": player.membership}
            for player in (pair.first_player, pair.second_player)
        ]
        for pair in tournament.pairs
    }


def standings_rows(computed: dict[str, Any], tournament: Tournament) -> list[dict[str, Any]]:
    """The standings of ``computed`` (:func:`draws.standings_document`), each pair named,
    with its players and their membership numbers (``player_1``, ``membership_1``... for a
    CSV's columns)."""
    names = labels_of(tournament)
    players = players_of(tournament)
    rows = []
    for row in computed["standings"]:
        pair = players.get(row["pair"], [])
        columns = {
            f"{part}_{n}": player[part]
            for n, player in enumerate(pair, start=1)
            for part in ("name", "membership")
        }
        rows.append(
            {**row, "name": names.get(row["pair"], row["pair"]), "players": pair, **columns}
        )
    return rows


def result_rows(computed: dict[str, Any], tournament: Tournament) -> list[dict[str, Any]]:
    """Every result so far: round, table, NS, EW, their MP and VP (a bye: its pair, its VP)."""
    names = labels_of(tournament)
    rows = []
    for played in computed["rounds"]:
        for entry in played["tables"]:
            if "bye" in entry:
                pair, vp = entry["bye"], entry["vp"]
                row = {"ns": pair, "ns_name": names.get(pair, pair), "vp_ns": vp, "bye": True}
            else:
                ns, ew = entry["ns"], entry["ew"]
                row = {
                    "table": entry["table"],
                    "ns": ns,
                    "ns_name": names.get(ns, ns),
                    "ew": ew,
                    "ew_name": names.get(ew, ew),
                    "mp_ns": entry["mp"][0],
                    "mp_ew": entry["mp"][1],
                    "vp_ns": entry["vp"][0],
                    "vp_ew": entry["vp"][1],
                }
            rows.append({"round": played["round"], **row})
    return rows


def computed_of(tournament: Tournament) -> dict[str, Any]:
    return draws.standings_document(service.tournament_document(tournament))


def viewed_state(tournament_id: int | None, token: str | None) -> Any:
    """The state (:func:`kept.state_of`) of the director's tournament by id (signed in), or
    of anyone's by its spectator link, without reading the tournament itself; else a 404."""
    if tournament_id is not None:
        if access.signed_in() is None:
            access.refuse()
        state = kept.state_of(tournament_id)
        if state is None or state.owner_id != access.user_id():
            abort(404)
        return state
    try:
        checked = inputs.link_token(token)
    except inputs.BadInput:
        abort(404)
    state = kept.state_of(None, checked)
    if state is None:
        abort(404)
    return state


def whole(state: Any) -> Tournament:
    """The tournament of ``state``, every row of it (it may have been deleted since)."""
    tournament = db.session.get(Tournament, state.id)
    if tournament is None:
        abort(404)
    return tournament


def find_viewed(owned: Owned, tournament_id: int | None, token: str | None) -> Tournament:
    """The director's tournament by id (signed in), or anyone's by its spectator link."""
    if tournament_id is not None:
        if access.signed_in() is None:
            access.refuse()
        return owned(tournament_id)
    try:
        checked = inputs.link_token(token)
    except inputs.BadInput:
        abort(404)
    found = service.shared(checked)
    if found is None:
        abort(404)
    return found


def add_route(bp: Blueprint, path: str, endpoint: str, view: Callable[..., Any]) -> None:
    """``view`` at ``path`` of a tournament by id, and at its spectator link's (``_shared``)."""
    bp.add_url_rule(f"/<id:tournament_id>{path}", endpoint, view)
    bp.add_url_rule(f"/ver/<string(length=43):token>{path}", f"{endpoint}_shared", view)


def register(bp: Blueprint, owned: Owned) -> None:
    """Add the pages to the tournaments' blueprint, each by id (the director) and by link."""

    def viewed(tournament_id: int | None, token: str | None) -> Tournament:
        return find_viewed(owned, tournament_id, token)

    def route(path: str, endpoint: str, view: Callable[..., Any]) -> None:
        add_route(bp, path, endpoint, view)

    def addresses(tournament: Any, token: str | None) -> dict[str, str]:
        where = {"token": token} if token else {"tournament_id": tournament.id}
        suffix = "_shared" if token else ""
        names = ("standings", "board", "version", "standings_csv", "standings_json")
        more = ("results_csv", "tournament_file", "standings_pdf")
        return {name: url_for(f"tournaments.{name}{suffix}", **where) for name in (*names, *more)}

    def standings(tournament_id: int | None = None, token: str | None = None) -> Any:
        state = viewed_state(tournament_id, token)

        def content() -> str:
            tournament = whole(state)
            computed = computed_of(tournament)
            return render(
                "tournaments/_standings_page.html",
                tournament=tournament,
                rows=standings_rows(computed, tournament),
                results=result_rows(computed, tournament),
                unreadable=bool(computed.get("problems")),
                urls=addresses(tournament, token),
                pair_urls=pair_addresses(tournament, token),
                director=token is None,
            )

        view = ("standings", i18n.locale_name(), request.script_root, token)
        return render(
            "tournaments/standings.html", tournament=state, content=kept.part(state, view, content)
        )

    def board(tournament_id: int | None = None, token: str | None = None) -> Any:
        state = viewed_state(tournament_id, token)
        urls = addresses(state, token)
        live = {
            "url": urls["version"],
            "version": kept.live(state),
            "hands": 0,
            "number": None,
            "planilla": urls["board"],
        }

        def content() -> str:
            tournament = whole(state)
            computed = computed_of(tournament)
            latest = service.current_round(tournament)
            return render(
                "tournaments/_board.html",
                tournament=tournament,
                latest=latest,
                clock=clock_of(latest) if latest is not None else None,
                seating=seating_of(tournament),
                rows=standings_rows(computed, tournament),
                pair_urls=None,
                unreadable=bool(computed.get("problems")),
            )

        view = ("board", i18n.locale_name(), request.script_root)
        return render(
            "tournaments/board.html",
            tournament=state,
            board=kept.part(state, view, content),
            live=live,
            nights=nights_link(state),
        )

    @answers_json
    def version(tournament_id: int | None = None, token: str | None = None) -> Response:
        if tournament_id is not None and access.signed_in() is None:
            access.refuse()
        try:
            checked = None if token is None else inputs.link_token(token)
        except inputs.BadInput:
            abort(404)
        state = kept.live_of(tournament_id, checked)
        if state is None or (tournament_id is not None and state.owner_id != access.user_id()):
            abort(404)
        current = kept.live(state)
        etag = f"v{current}"
        if request.if_none_match.contains_weak(etag):
            response = Response(status=304, mimetype="application/json")
        else:
            answer = {"version": current, "hands": 0, "finished": state.status == "finished"}
            response = jsonify(answer)
        response.set_etag(etag)
        response.headers["Cache-Control"] = "private, no-cache"
        return response

    def download(
        tournament_id: int | None,
        token: str | None,
        name: str,
        make: Callable[[Tournament], str],
    ) -> Response:
        """An export ``make`` writes from the whole tournament, kept under its state as the
        pages are (:func:`kept.part`): a spectator asking it again and again costs one
        computation a state, and every change is in the next answer."""
        state = viewed_state(tournament_id, token)
        view = ("export", name, i18n.locale_name())
        body = kept.part(state, view, lambda: make(whole(state)))
        mimetype = "text/csv" if name.endswith(".csv") else "application/json"
        disposition = f'attachment; filename="torneo-{state.id}{name}"'
        return Response(body, mimetype=mimetype, headers={"Content-Disposition": disposition})

    def standings_csv(tournament_id: int | None = None, token: str | None = None) -> Response:
        def make(tournament: Tournament) -> str:
            columns = ("rank", "pair", "name", "vp", "mp_for", "mp_against", "mp_diff", "played")
            players = ("name_1", "membership_1", "name_2", "membership_2")
            rows = standings_rows(computed_of(tournament), tournament)
            return as_csv((*columns, "byes", "withdrawn", *players), rows)

        return download(tournament_id, token, "-posiciones.csv", make)

    def results_csv(tournament_id: int | None = None, token: str | None = None) -> Response:
        def make(tournament: Tournament) -> str:
            rows = result_rows(computed_of(tournament), tournament)
            columns = ("round", "table", "ns", "ns_name", "ew", "ew_name")
            return as_csv((*columns, "mp_ns", "mp_ew", "vp_ns", "vp_ew"), rows)

        return download(tournament_id, token, "-resultados.csv", make)

    def standings_json(tournament_id: int | None = None, token: str | None = None) -> Response:
        def make(tournament: Tournament) -> str:
            return json.dumps(computed_of(tournament), ensure_ascii=False, indent=2) + "\n"

        return download(tournament_id, token, "-posiciones.json", make)

    def tournament_file(tournament_id: int | None = None, token: str | None = None) -> Response:
        def make(tournament: Tournament) -> str:
            document = service.tournament_document(tournament, full=True)
            return json.dumps(document, ensure_ascii=False, indent=2) + "\n"

        return download(tournament_id, token, ".json", make)

    route("/posiciones", "standings", standings)
    route("/tablero", "board", board)
    route("/version", "version", version)
    route("/posiciones.csv", "standings_csv", standings_csv)
    route("/posiciones.json", "standings_json", standings_json)
    route("/resultados.csv", "results_csv", results_csv)
    route("/archivo.json", "tournament_file", tournament_file)


def as_csv(columns: tuple[str, ...], rows: list[dict[str, Any]]) -> str:
    """``rows`` under ``columns``; a text cell a spreadsheet would run as a formula is
    written as text (the history's own :func:`anotador.backup.csv_cell`)."""
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=columns, extrasaction="ignore", lineterminator="\r\n")
    writer.writeheader()
    writer.writerows({key: csv_cell(value) for key, value in row.items()} for row in rows)
    return out.getvalue()
