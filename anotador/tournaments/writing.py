"""A tournament written back as its file, ``anotador-tournament/1`` (§1): what an export
gives and an import reads again to the same tournament."""

from __future__ import annotations

from typing import Any

from anotador.rules import match_to_document
from anotador.tournaments.tournament import FORMAT
from anotador.tournaments.tournament import AnyTournament
from anotador.tournaments.tournament import Bye
from anotador.tournaments.tournament import Entry
from anotador.tournaments.tournament import IndividualEntry
from anotador.tournaments.tournament import IndividualTournament
from anotador.tournaments.tournament import Pair
from anotador.tournaments.tournament import Partnership
from anotador.tournaments.tournament import Player
from anotador.tournaments.tournament import PlayerBye
from anotador.tournaments.victory_points import NAMED_SCALES
from anotador.tournaments.victory_points import Scale


def tournament_to_document(tournament: AnyTournament) -> dict[str, Any]:
    """The file of ``tournament``: its inputs, the bye's VP written out; a table scored in
    the app keeps its match document (every default written out). An individual
    tournament's says its ``kind`` and has ``players`` in place of ``pairs`` (§6.1)."""
    document: dict[str, Any] = {"format": FORMAT}
    if isinstance(tournament, IndividualTournament):
        document["kind"] = "individual"
    document["name"] = tournament.name
    if tournament.played_on:
        document["played_on"] = tournament.played_on
    document.update(
        variant=tournament.variant,
        layout=tournament.layout,
        options=dict(tournament.options),
        hands_per_round=tournament.hands_per_round,
        scale=scale_to_document(tournament.scale),
        system=tournament.system,
        rounds=tournament.rounds,
        bye_vp=tournament.bye_vp,
    )
    if isinstance(tournament, IndividualTournament):
        document["players"] = [player_to_document(player) for player in tournament.players]
    else:
        document["pairs"] = [pair_to_document(pair) for pair in tournament.pairs]
    document["results"] = [
        {"round": played.number, "tables": [entry_to_document(e) for e in played.entries]}
        for played in tournament.results
    ]
    return document


def scale_to_document(scale: Scale) -> str | dict[str, Any]:
    if NAMED_SCALES.get(scale.name) == scale:
        return scale.name
    return {"bands": [list(band) for band in scale.bands], "above": list(scale.above)}


def pair_to_document(pair: Pair) -> dict[str, Any]:
    document: dict[str, Any] = {"id": pair.id, "players": list(pair.players)}
    if pair.club:
        document["club"] = pair.club
    if pair.withdrawn:
        document["withdrawn"] = True
    return document


def player_to_document(player: Player) -> dict[str, Any]:
    document: dict[str, Any] = {"id": player.id, "name": player.name}
    if player.club:
        document["club"] = player.club
    if player.withdrawn:
        document["withdrawn"] = True
    return document


def entry_to_document(entry: Entry | IndividualEntry) -> dict[str, Any]:
    if isinstance(entry, Bye):
        return {"bye": entry.pair}
    if isinstance(entry, PlayerBye):
        return {"bye": entry.player}
    document: dict[str, Any] = {"table": entry.table, "ns": seat(entry.ns), "ew": seat(entry.ew)}
    if entry.match is None:
        document["mp"] = list(entry.mp)
    else:
        document["match"] = match_to_document(entry.match)
    return document


def seat(side: str | Partnership) -> str | list[str]:
    """A side as the file writes it: a pair's id, or a partnership's two players' ids."""
    return side if isinstance(side, str) else list(side)
