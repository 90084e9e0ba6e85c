"""A player's night: the list of the tournament's pairs, where each player picks their own
(the board's QR code leads there), and a pair's night round by round (its table, seat and
opponents, MP, VP, running total and place after each round; its place now) with a short text
to share. Reached without an account through the spectator link (``/torneos/ver/<token>/
noche``), and by the director by id.

Both pages are kept under the tournament's state as the standings are (:func:`kept.part`):
a room full of phones opening their night when a round closes costs one rendering of each,
and an unknown pair is told apart by one small query, never by reading the whole tournament.
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from flask import Blueprint
from flask import abort
from flask import request
from flask import url_for
from flask_babel import gettext

from anotador.storage.database import db
from anotador.tournaments.operations import draws
from anotador.tournaments.operations import service
from anotador.tournaments.store.models import Tournament
from anotador.tournaments.store.models import TournamentPair
from anotador.tournaments.web import kept
from anotador.tournaments.web import pages
from anotador.tournaments.web.reports import pair_rounds
from anotador.tournaments.web.words import render
from anotador.web.templating import number
from anotador.words import i18n


def places_by_round(document: dict[str, Any]) -> dict[int, dict[str, dict[str, Any]]]:
    """Round number → each pair's standings row (rank, VP...) after that round, by the pure
    code's standings of the results up to it (:func:`draws.standings_document`)."""
    found = {}
    for k, played in enumerate(document["results"], start=1):
        computed = draws.standings_document({**document, "results": document["results"][:k]})
        found[played["round"]] = {row["pair"]: row for row in computed["standings"]}
    return found


def night_rows(tournament: Tournament, pair: TournamentPair) -> tuple[list[dict[str, Any]], Any]:
    """Pair ``pair``'s rounds (:func:`reports.pair_rounds`), each played one with the pair's
    running VP total and place after it; and its standings row now."""
    document = service.tournament_document(tournament)
    computed = draws.standings_document(document)
    after = places_by_round(document)
    rows = []
    for row in pair_rounds(tournament, computed, pair):
        standing = after.get(row["round"], {}).get(pair.key)
        if standing is not None and (row.get("bye") or "mp_for" in row):
            row = {**row, "total": standing["vp"], "place": standing["rank"]}
        rows.append(row)
    now = next(row for row in computed["standings"] if row["pair"] == pair.key)
    return rows, now


def pair_name(pair: TournamentPair) -> str:
    return gettext(
        "%(first)s and %(second)s", first=pair.first_player.name, second=pair.second_player.name
    )


def share_text(
    tournament: Tournament, pair: TournamentPair, rows: list[dict[str, Any]], now: Any
) -> str:
    """The night in one line, to send: "Torneo del club, 07/12/2026 — Ana y Luis: 3.º de 8,
    42 PV (R1 mesa 2 vs Carla y Diego; R2 libre)"."""
    by_key = {other.key: other for other in tournament.pairs}
    rounds = []
    for row in rows:
        if row.get("bye"):
            rounds.append(gettext("R%(round)d bye", round=row["round"]))
        else:
            opponent = pair_name(by_key[row["opponent"]])
            rounds.append(
                gettext(
                    "R%(round)d table %(table)d vs %(opponent)s",
                    round=row["round"],
                    table=row["table"],
                    opponent=opponent,
                )
            )
    text = gettext(
        "%(tournament)s, %(date)s — %(pair)s: %(place)s, %(vp)s VP",
        tournament=tournament.name,
        date=tournament.played_on.strftime("%d/%m/%Y"),
        pair=pair_name(pair),
        place=gettext(
            "place %(place)d of %(count)d", place=now["rank"], count=len(tournament.pairs)
        ),
        vp=number(now["vp"]),
    )
    return f"{text} ({'; '.join(rounds)})" if rounds else text


def known_pair(state: Any, pair_id: int) -> None:
    """A 404 unless the tournament of ``state`` has pair ``pair_id`` (one small query)."""
    statement = sa.select(TournamentPair.id).where(
        TournamentPair.id == pair_id, TournamentPair.tournament_id == state.id
    )
    if db.session.scalar(statement) is None:
        abort(404)


def register(bp: Blueprint) -> None:
    """Add the night pages to the tournaments' blueprint, by id and by spectator link."""

    def where(state: Any, token: str | None) -> dict[str, Any]:
        return {"token": token} if token else {"tournament_id": state.id}

    def suffix(token: str | None) -> str:
        return "_shared" if token else ""

    def nights(tournament_id: int | None = None, token: str | None = None) -> Any:
        state = pages.viewed_state(tournament_id, token)

        def content() -> str:
            tournament = pages.whole(state)
            urls = {
                pair.id: url_for(
                    f"tournaments.night{suffix(token)}", pair_id=pair.id, **where(state, token)
                )
                for pair in tournament.pairs
            }
            return render("tournaments/_nights.html", tournament=tournament, urls=urls)

        view = ("nights", i18n.locale_name(), request.script_root, token)
        standings = url_for(f"tournaments.standings{suffix(token)}", **where(state, token))
        return render(
            "tournaments/night.html",
            tournament=state,
            content=kept.part(state, view, content),
            back={"url": standings, "words": gettext("Standings")},
        )

    def night(pair_id: int, tournament_id: int | None = None, token: str | None = None) -> Any:
        state = pages.viewed_state(tournament_id, token)
        known_pair(state, pair_id)

        def content() -> str:
            tournament = pages.whole(state)
            pair = next((p for p in tournament.pairs if p.id == pair_id), None)
            if pair is None:  # removed since the query above
                abort(404)
            rows, now = night_rows(tournament, pair)
            return render(
                "tournaments/_night.html",
                tournament=tournament,
                pair=pair,
                rows=rows,
                now=now,
                opponents={other.key: pair_name(other) for other in tournament.pairs},
                share=share_text(tournament, pair, rows, now),
            )

        view = ("night", pair_id, i18n.locale_name(), request.script_root)
        nights_url = url_for(f"tournaments.nights{suffix(token)}", **where(state, token))
        return render(
            "tournaments/night.html",
            tournament=state,
            content=kept.part(state, view, content),
            back={"url": nights_url, "words": gettext("Every pair")},
        )

    pages.add_route(bp, "/noche", "nights", nights)
    pages.add_route(bp, "/noche/<id:pair_id>", "night", night)
