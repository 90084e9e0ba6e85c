"""Seeding a tournament by rating (``docs/ratings.md``): before its first round is drawn, the
pairs are put in order of the sum of their players' shown ratings, highest first, and that
order becomes the tournament's order of pairs (their ids in the tournament file), which every
system reads as its seeding (TOURNAMENTS.md §4)."""

from __future__ import annotations

from collections.abc import Mapping
from collections.abc import Sequence

from anotador.ratings.reads import shown_ratings
from anotador.storage.database import db
from anotador.tournaments.store.models import Tournament
from anotador.tournaments.store.models import TournamentPair


def seeded(pairs: Sequence[TournamentPair], ratings: Mapping[int, int]) -> list[TournamentPair]:
    """``pairs`` by the sum of their players' ratings, highest first (a player without a
    rating counts 0); equal sums keep their order."""

    def strength(pair: TournamentPair) -> int:
        return ratings.get(pair.first_player_id, 0) + ratings.get(pair.second_player_id, 0)

    return sorted(pairs, key=lambda pair: -strength(pair))


def seed_by_rating(tournament: Tournament) -> list[int]:
    """Renumber the tournament's pairs in the order of their ratings (before any round: no
    result names them yet); the old numbers in their new order."""
    players = [p.first_player_id for p in tournament.pairs]
    players += [p.second_player_id for p in tournament.pairs]
    order = seeded(tournament.pairs, shown_ratings(players))
    before = [pair.position for pair in order]
    # Positions are unique in a tournament: out of the way first, then in their new places.
    for pair in order:
        pair.position = -pair.position
    db.session.flush()
    for position, pair in enumerate(order, start=1):
        pair.position = position
    db.session.flush()
    db.session.expire(tournament, ["pairs"])
    return before
