"""The match a tournament's table plays: an ordinary match of the director's, its sides
named for the table's pairs, with its table link."""

from __future__ import annotations

import datetime
from typing import Any

from anotador import rules
from anotador.rules.text import MAX_TITLE
from anotador.services.accounts import new_token
from anotador.services.matches import create_match
from anotador.storage.models import Match
from anotador.tournaments.operations.service import Refused
from anotador.tournaments.store.models import Round
from anotador.tournaments.store.models import RoundTable
from anotador.tournaments.store.models import Tournament
from anotador.tournaments.store.models import TournamentPair


def side_of(pair: TournamentPair) -> dict[str, Any]:
    players = [pair.first_player.name, pair.second_player.name]
    return {"name": side_name(pair.position, players), "players": players}


def side_name(position: int, players: list[str]) -> str:
    """ "3. Ana – Bruno": a pair as its table's match names its side, within a side name's
    :data:`~anotador.rules.MAX_NAME` characters. Two long names are each shortened ("…"),
    the shorter one kept whole when it fits in half the room: both partners always show
    (cutting the label at the limit dropped the second one)."""
    prefix, joint = f"{position}. ", " – "
    first, second = (rules.clean_text(name) for name in players)
    room = rules.MAX_NAME - len(prefix) - len(joint)
    if len(first) + len(second) > room:
        half = room // 2
        if len(second) <= half:
            first = shortened(first, room - len(second))
        elif len(first) <= half:
            second = shortened(second, room - len(first))
        else:
            first, second = shortened(first, half), shortened(second, room - half)
    return prefix + first + joint + second


def shortened(name: str, length: int) -> str:
    """``name`` in at most ``length`` characters, an ellipsis for what is left out."""
    return name if len(name) <= length else name[: length - 1].rstrip() + "…"


def table_match(tournament: Tournament, round_row: Round, table: RoundTable) -> Match:
    """The match a table plays: an ordinary match of the director's, with its table link."""
    assert table.ew_pair is not None
    document: dict[str, Any] = {
        "format": rules.MATCH_FORMAT,
        "variant": tournament.variant,
        "layout": tournament.layout,
        "options": tournament.options,
        "title": f"{tournament.name} · {round_row.number} · {table.number}"[:MAX_TITLE],
        "played_on": datetime.date.today().isoformat(),
        "sides": [side_of(table.ns_pair), side_of(table.ew_pair)],
        "hands": [],
    }
    if tournament.hands_per_round is not None:  # the engine ends the table after them
        document["hand_limit"] = tournament.hands_per_round
        if "target" not in tournament.options:  # a round of N hands plays them all
            document["play_every_hand"] = True
    match, problems = create_match(document, owner_id=tournament.owner_id, commit=False)
    if match is None:  # the tournament's options were the engine's when it was made
        raise Refused("match_refused")
    match.table_token = new_token()
    return match
