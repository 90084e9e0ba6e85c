"""The director corrects a pair's names: a typo, or a substitute partner.

What an arbiter expects: the pair is the entrant, so it keeps its place, its results and its
id in the tournament file whoever its players are now; names can change while the tournament
is open (rounds played or not) and are final once it has finished, as its standings are
(reopening it allows a correction again, in the change log). Each player is found in the
director's registry as a new pair's are (accents and case aside): a known player is never
typed twice, and a name that is a known player's spelt otherwise ("Dario" → "Darío") is that
player, given the spelling typed, everywhere it plays. The matches of the pair's tables in the
round being played are that round's record of who sits there: their side is named and seated
anew (their version bumped, so the tables' phones follow); the closed rounds' matches keep the
names they were played under.
"""

from __future__ import annotations

import sqlalchemy as sa

from anotador import rules
from anotador.ratings import store as ratings
from anotador.services.documents import match_document
from anotador.services.documents import refresh_summary
from anotador.services.players import find_or_create_player
from anotador.services.players import set_name
from anotador.storage import signals
from anotador.storage.database import db
from anotador.storage.models import Match
from anotador.storage.models import Player
from anotador.tournaments.operations.service import Refused
from anotador.tournaments.operations.service import check_players
from anotador.tournaments.operations.service import lock
from anotador.tournaments.operations.service import record
from anotador.tournaments.operations.table_matches import side_of
from anotador.tournaments.store.models import Tournament
from anotador.tournaments.store.models import TournamentPair

MATCHES = Match.__table__
#: A match's version, bumped in the database (a phone saving at that moment claims the
#: version it read: one of the two waits, and the phone is told the match changed).
BUMP = (
    MATCHES.update()
    .where(MATCHES.c.id == sa.bindparam("match_id"))
    .values(version=MATCHES.c.version + 1)
    .returning(MATCHES.c.version)
)


def rename_pair(
    tournament: Tournament, account_id: int, pair: TournamentPair, first: str, second: str
) -> None:
    """Give ``pair`` the players ``first`` and ``second`` (names read by the rule of every
    tournament name), kept in the change log with the names it had; the same names again (a
    double tap, another tab) change nothing. Refused (:class:`Refused`) once the tournament
    has finished, for one player twice and for a player of another pair, as registering."""
    lock(tournament)
    if tournament.status == "finished":
        raise Refused("names_final")
    old = [pair.first_player.name, pair.second_player.name]
    if old == [first, second]:
        db.session.rollback()  # the lock's end
        return
    check_players(tournament, first, second, pair)
    renamed: list[int] = []  # matches whose files now say another name
    players = []
    for name in (first, second):
        player = find_or_create_player(name, tournament.owner_id)
        if player.name != name:  # a known player, spelt as now typed
            renamed += set_name(player, name)
        players.append(player)
    moved = {pair.first_player_id: players[0], pair.second_player_id: players[1]}
    pair.first_player, pair.second_player = players
    renamed += seat_anew(tournament, pair, moved)
    record(tournament, account_id, "pair_renamed", pair=pair.position, old=old, new=[first, second])
    db.session.commit()
    signals.changed_many("players_renamed", dict.fromkeys(renamed))


def seat_anew(tournament: Tournament, pair: TournamentPair, moved: dict[int, Player]) -> list[int]:
    """Name and seat ``pair``'s side of its tables' matches in the round being played as it is
    now (``moved``: the player each of its former players' seats goes to); their ids."""
    changed = []
    for round_row in tournament.round_rows:
        if round_row.status != "playing":
            continue
        for table in round_row.tables:
            match = table.match
            if match is None or pair.id not in (table.ns_pair_id, table.ew_pair_id):
                continue
            side = match.sides[0 if table.ns_pair_id == pair.id else 1]
            side.name = side_of(pair)["name"]
            for seat in side.seats:
                seat.player = moved.get(seat.player_id, seat.player)
            version = db.session.execute(BUMP, {"match_id": match.id}).scalar_one()
            sa.orm.attributes.set_committed_value(match, "version", version)
            game, _ = rules.read_match(match_document(match))
            if game is None:  # its hands were the engine's; only names changed
                raise Refused("match_refused")
            refresh_summary(match, game, rules.score_match(game))
            if match.status == "finished":  # its players are rated with it
                db.session.flush()
                ratings.match_changed(match)
            changed.append(match.id)
    return changed
