"""Helpers for the tournament tests: a tournament file (of pairs, or individual) built from a
few words, its reading, and the two commands run on it through the real CLI (click's
runner)."""

from __future__ import annotations

import json
from typing import Any

from click.testing import CliRunner
from click.testing import Result

from anotador.commands.main import main
from anotador.tournaments import IndividualTournament
from anotador.tournaments import Tournament
from anotador.tournaments import read_tournament
from anotador.tournaments import read_tournament_file


def tournament(pairs: object = 4, results: object = None, **changes: Any) -> dict[str, Any]:
    """A valid tournament file: burraco, 3 hands a round, fibur-3, danese, 6 rounds; its
    ``pairs`` p1..pN, or the ids given, or whatever else is given as it is."""
    ids = [f"p{k}" for k in range(1, pairs + 1)] if isinstance(pairs, int) else pairs
    if isinstance(ids, list) and all(isinstance(pair, str) for pair in ids):
        ids = [{"id": pair, "players": [f"{pair} N", f"{pair} S"]} for pair in ids]
    document: dict[str, Any] = {
        "format": "anotador-tournament/1",
        "name": "Club night",
        "variant": "burraco",
        "layout": "4p",
        "hands_per_round": 3,
        "scale": "fibur-3",
        "system": "danese",
        "rounds": 6,
        "pairs": ids,
        "results": [] if results is None else results,
    }
    document.update(changes)
    return document


def played(*rounds: list[Any]) -> list[dict[str, Any]]:
    """Rounds of results from entries written short: ``("A", "B", 900, 400)`` is a table
    (numbered in order) whose MP were written by hand, ``"E"`` a bye."""
    return [
        {
            "round": number,
            "tables": [
                {"bye": entry}
                if isinstance(entry, str)
                else {"table": k, "ns": entry[0], "ew": entry[1], "mp": [entry[2], entry[3]]}
                for k, entry in enumerate(entries, 1)
            ],
        }
        for number, entries in enumerate(rounds, 1)
    ]


def individual(players: object = 8, results: object = None, **changes: Any) -> dict[str, Any]:
    """A valid individual tournament file (§6): as :func:`tournament`, ``individual-danese``,
    its ``players`` P1..PN (named "Player k"), or the ids given, or whatever else is given."""
    ids = [f"P{k}" for k in range(1, players + 1)] if isinstance(players, int) else players
    if isinstance(ids, list) and all(isinstance(player, str) for player in ids):
        ids = [{"id": player, "name": f"Player {player}"} for player in ids]
    document = tournament(results=results, kind="individual", system="individual-danese")
    del document["pairs"]
    document["players"] = ids
    document.update(changes)
    return document


def partnered(*rounds: list[Any]) -> list[dict[str, Any]]:
    """An individual file's rounds of results written short: ``("P1", "P2", "P3", "P4", 900,
    1100)`` is a table (numbered in order) NS P1 P2, EW P3 P4, whose MP were written by
    hand; ``"P9"`` a bye."""
    return [
        {
            "round": number,
            "tables": [
                {"bye": entry}
                if isinstance(entry, str)
                else {
                    "table": k,
                    "ns": list(entry[0:2]),
                    "ew": list(entry[2:4]),
                    "mp": list(entry[4:6]),
                }
                for k, entry in enumerate(entries, 1)
            ],
        }
        for number, entries in enumerate(rounds, 1)
    ]


def read(document: dict[str, Any]) -> Tournament:
    return read_tournament(json.loads(json.dumps(document)))


def read_individual(document: dict[str, Any]) -> IndividualTournament:
    found = read_tournament_file(json.loads(json.dumps(document)))
    assert isinstance(found, IndividualTournament)
    return found


def run(command: str, document: object) -> Result:
    text = document if isinstance(document, str | bytes) else json.dumps(document)
    return CliRunner().invoke(main, ["tournament", command, "-"], input=text)


def printed(command: str, document: object) -> Any:
    """What the command prints for a valid file (exit status 0)."""
    result = run(command, document)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def problems(command: str, document: object) -> list[tuple[str, str]]:
    """(path, code) of every problem the command prints (exit status 1)."""
    result = run(command, document)
    assert result.exit_code == 1, result.output
    found = json.loads(result.stdout)["problems"]
    assert all(set(p) == {"path", "code", "message"} and p["message"] for p in found)
    return [(p["path"], p["code"]) for p in found]
