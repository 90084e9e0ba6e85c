"""Who sits where in the round being drawn or played: the board's seating
(:func:`seating_of`), and each pair's own seat in it (:func:`seat_of_pair`), which a pair's
page and the table phones of the round before tell it ("Round 2: table 5, NS, against …",
or that it rests). A round drawn or changed before it starts, and a round started (its
tables' links made), tell the phones of the round before (:func:`tell_round_before`, by
:mod:`.phones`)."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa

from anotador.storage.database import db
from anotador.storage.models import Match
from anotador.tournaments.operations.phones import tell_round
from anotador.tournaments.operations.service import current_round
from anotador.tournaments.store.models import Round
from anotador.tournaments.store.models import RoundTable
from anotador.tournaments.store.models import Tournament
from anotador.tournaments.store.models import TournamentPair


def labels_of(tournament: Tournament) -> dict[str, str]:
    """Each pair's id in the tournament file → how pages name it."""
    return {pair.key: f"{pair.position}. {pair.label}" for pair in tournament.pairs}


def seating_of(tournament: Tournament) -> dict[str, Any] | None:
    """Who sits where in the round being played (drawn or started), as the board shows it
    for the pairs looking for their table: each table's NS and EW pairs (names, ids in the
    tournament file, and the table's match once the round has started), then the pairs
    that rest; None between rounds."""
    latest = current_round(tournament)
    if latest is None or latest.status == "closed":
        return None
    names = labels_of(tournament)
    seated = sorted((t for t in latest.tables if not t.is_bye), key=lambda t: t.number or 0)
    return {
        "number": latest.number,
        "status": latest.status,
        "tables": [
            {
                "number": t.number,
                "ns": names[t.ns_pair.key],
                "ew": names[t.ew_pair.key],
                "ns_key": t.ns_pair.key,
                "ew_key": t.ew_pair.key,
                "match_id": t.match_id,
            }
            for t in seated
            if t.ew_pair is not None
        ],
        # A manual round's pairs without a table yet wait for the director; they do not rest.
        "byes": (
            []
            if latest.status == "drawn" and tournament.system == "manual"
            else [
                {"key": t.ns_pair.key, "name": names[t.ns_pair.key]}
                for t in latest.tables
                if t.is_bye
            ]
        ),
    }


def seat_of_pair(seating: dict[str, Any] | None, key: str) -> dict[str, Any] | None:
    """Pair ``key``'s seat in ``seating`` (:func:`seating_of`): its round, table, side
    ("NS" or "EW"), opponents and table link's token, or ``bye`` when it rests; None when it
    has no seat there (none drawn, or a manual round's pair not seated yet)."""
    if seating is None:
        return None
    for table in seating["tables"]:
        for side, other in (("ns", "ew"), ("ew", "ns")):
            if table[f"{side}_key"] == key:
                return {
                    "round": seating["number"],
                    "pair": table[side],
                    "table": table["number"],
                    "side": side.upper(),
                    "against": table[other],
                    "token": token_of(table["match_id"]),
                    "bye": False,
                }
    for bye in seating["byes"]:
        if bye["key"] == key:
            return {"round": seating["number"], "pair": bye["name"], "bye": True, "token": None}
    return None


def token_of(match_id: int | None) -> str | None:
    """The table link's token of a table's match (a round started), if any."""
    if match_id is None:
        return None
    return db.session.scalar(sa.select(Match.table_token).where(Match.id == match_id))


def next_seats(table: RoundTable) -> list[dict[str, Any]]:
    """The seats of a table's two pairs in the round after the table's (:func:`seat_of_pair`),
    once it is drawn; nothing before, nor for a table of an older round. Of the table's own
    tournament only."""
    tournament = table.round.tournament
    latest = current_round(tournament)
    if latest is None or latest.number != table.round.number + 1 or table.ew_pair is None:
        return []
    seating = seating_of(tournament)
    found = (seat_of_pair(seating, pair.key) for pair in (table.ns_pair, table.ew_pair))
    return [seat for seat in found if seat is not None]


def next_seats_of(table_id: int) -> list[dict[str, Any]]:
    """:func:`next_seats` of table ``table_id`` (a match page's ``MatchState.table_id``)."""
    table = db.session.get(RoundTable, table_id)
    return [] if table is None else next_seats(table)


def tell_round_before(tournament: Tournament, number: int) -> None:
    """The seating of round ``number`` changed (drawn, pairs swapped or seated, started):
    the phones of round ``number - 1``'s tables reload and show their pairs' next seats (in
    the caller's transaction)."""
    before = next((r for r in tournament.round_rows if r.number == number - 1), None)
    if before is not None:
        tell_round(before.id)


def nights_of(table_id: int) -> tuple[str | None, list[TournamentPair]]:
    """The spectator link's token of table ``table_id``'s tournament (None: not shared) and
    the table's pairs, whose nights its phone leads to; two small statements, the
    tournament itself is not read."""
    statement = (
        sa.select(Tournament.spectator_token, RoundTable.ns_pair_id, RoundTable.ew_pair_id)
        .join(Round, Round.id == RoundTable.round_id)
        .join(Tournament, Tournament.id == Round.tournament_id)
        .where(RoundTable.id == table_id)
    )
    found = db.session.execute(statement).first()
    if found is None or found.spectator_token is None:
        return None, []
    ids = [pair_id for pair_id in (found.ns_pair_id, found.ew_pair_id) if pair_id is not None]
    pairs = db.session.scalars(sa.select(TournamentPair).where(TournamentPair.id.in_(ids)))
    return found.spectator_token, sorted(pairs, key=lambda pair: ids.index(pair.id))
