"""``anotador tournament standings FILE`` and ``anotador tournament pair FILE`` (§5).

Both print one JSON document on standard output: the answer with exit status 0, or
``{"problems": [...]}`` with exit status 1 (an invalid file, or no next round to draw).
A file of pairs and an individual file (§6.5) are answered alike.
Like ``anotador score``, they load only the rules engine (and, for a ``swiss`` draw, its
matching library: anotador/tournaments/swiss.py), and speak English.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any
from typing import NoReturn

import click

from anotador.tournaments.document import parse_tournament_file
from anotador.tournaments.limits import MAX_FILE_BYTES
from anotador.tournaments.limits import MAX_FILE_MB
from anotador.tournaments.output import draw_document
from anotador.tournaments.output import standings_document
from anotador.tournaments.pairing import next_draw
from anotador.tournaments.problems import Problem
from anotador.tournaments.problems import TournamentProblems
from anotador.tournaments.tournament import AnyTournament

PROBLEMS = 1


@click.group("tournament")
def tournament_command() -> None:
    """Club nights and tournaments: standings and the next round's tables of a tournament
    file (anotador-tournament/1)."""


@tournament_command.command("standings")
@click.argument("file")
def standings_command(file: str) -> None:
    """Print the standings and every round's MP and VP of FILE ('-': standard input)."""
    answer(file, standings_document)


@tournament_command.command("pair")
@click.argument("file")
def pair_command(file: str) -> None:
    """Print the next round's tables of FILE ('-': standard input)."""
    answer(file, lambda tournament: draw_document(next_draw(tournament)))


def answer(file: str, compute: Callable[[AnyTournament], dict[str, Any]]) -> None:
    try:
        document = compute(parse_tournament_file(read_file(file)))
    except TournamentProblems as refused:
        echo({"problems": [problem.to_json() for problem in refused.problems]})
        sys.exit(PROBLEMS)
    echo(document)


def read_file(file: str) -> bytes:
    """The file's bytes; a file larger than MAX_FILE_BYTES is refused before it is read
    (standard input, or a file that grows meanwhile: once one byte more has been read)."""
    too_large = f"the file is larger than {MAX_FILE_MB} MB"
    try:
        if file == "-":
            data = sys.stdin.buffer.read(MAX_FILE_BYTES + 1)
        else:
            path = Path(file)
            if path.stat().st_size > MAX_FILE_BYTES:
                refuse(too_large)
            with path.open("rb") as stream:
                data = stream.read(MAX_FILE_BYTES + 1)
    except OSError as error:
        refuse(f"cannot read {file}: {error.strerror or error}")
    if len(data) > MAX_FILE_BYTES:
        refuse(too_large)
    return data


def refuse(detail: str) -> NoReturn:
    raise TournamentProblems([Problem("$", "not_json", {"detail": detail})]) from None


def echo(document: dict[str, Any]) -> None:
    """The document as UTF-8 JSON, whatever the terminal's encoding; texts that are not
    Unicode (lone surrogates from ``\\ud800`` escapes) are written escaped."""
    text = json.dumps(document, ensure_ascii=False, indent=2) + "\n"
    try:
        data = text.encode("utf-8")
    except UnicodeEncodeError:
        data = (json.dumps(document, indent=2) + "\n").encode("ascii")
    click.echo(data, nl=False)
