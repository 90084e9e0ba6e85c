"""Every stored tournament read back (``anotador check``) by the checks a restore applies to
its backup line (:func:`backup_lines.line_problems`: its rows' shape, names, seats, table
numbers, rounds and changes, then the tournament file's own reader), and then as the
tournament file its pages read (:func:`service.tournament_document`), so what the app could
not have stored is found, however it got there (an older restore, SQL by hand).

``fix`` mends what has one right answer: a tournament's or a club's name with invisible or
control characters, spaces around or too long (:func:`limits.mended_name`). A player's name
is the account's registry (its matches show it too: a person renames the player), and a pair
against itself or a table beyond the bounds has no right answer: they are reported only.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from collections.abc import Iterator

import sqlalchemy as sa

from anotador.rules.problems import Problem
from anotador.storage.database import db
from anotador.tournaments import check_tournament
from anotador.tournaments.limits import mended_name
from anotador.tournaments.operations import service
from anotador.tournaments.operations.backup import section_line
from anotador.tournaments.operations.backup_lines import line_problems
from anotador.tournaments.store.models import Tournament


@dataclasses.dataclass(frozen=True)
class Finding:
    """What is wrong with one stored tournament (after ``fix``: what is left), and what was
    mended."""

    tournament_id: int
    problems: tuple[Problem, ...] = ()
    mended: tuple[str, ...] = ()

    def lines(self) -> Iterator[str]:
        """``tournament <id>: <path>: <message>`` per problem (English, as the matches'),
        then one line per name mended."""
        for problem in self.problems:
            yield f"tournament {self.tournament_id}: {problem.path}: {problem.message}"
        for mended in self.mended:
            yield f"tournament {self.tournament_id}: fixed {mended}"


@dataclasses.dataclass
class Report:
    checked: int = 0
    #: Tournaments with problems left (after ``fix``), and names mended.
    broken: int = 0
    fixed: int = 0


def problems_of(tournament: Tournament) -> list[Problem]:
    """The tournament's problems: its backup line's, else its tournament file's."""
    places = {
        table.match_id: table.match_id
        for round_row in tournament.round_rows
        for table in round_row.tables
        if table.match_id is not None
    }
    found = line_problems(section_line(tournament, places))
    if found:
        return found
    _, problems = check_tournament(service.tournament_document(tournament))
    return [p for p in problems if p.code != "too_few_pairs"]  # one being set up


def mend(tournament: Tournament) -> list[str]:
    """Mend the tournament's and its clubs' names; what was mended, said for the report."""
    mended = []
    name = mended_name(tournament.name)
    if name and name != tournament.name:
        mended.append(f"$.name: {tournament.name!r} is now {name!r}")
        tournament.name = name
    for index, pair in enumerate(tournament.pairs):
        club = mended_name(pair.club)
        if club != pair.club:
            mended.append(f"$.pairs[{index}].club: {pair.club!r} is now {club!r}")
            pair.club = club
    return mended


def check(fix: bool, found: Callable[[Finding], None]) -> Report:
    """Read every stored tournament again (one at a time: memory stays one tournament);
    ``found`` hears of each one with problems (or mended)."""
    report = Report()
    ids = list(db.session.scalars(sa.select(Tournament.id).order_by(Tournament.id)))
    for tournament_id in ids:
        tournament = db.session.get(Tournament, tournament_id)
        if tournament is None:  # deleted meanwhile
            continue
        report.checked += 1
        problems = problems_of(tournament)
        mended: list[str] = []
        if problems and fix:
            mended = mend(tournament)
            db.session.commit()
            problems = problems_of(tournament)
        if problems or mended:
            found(Finding(tournament_id, tuple(problems), tuple(mended)))
        report.broken += bool(problems)
        report.fixed += len(mended)
        db.session.expunge_all()  # the next tournament's rows only
    return report
