"""A tournament in the account's backup: one line per tournament, written before the matches
and read before any match is stored.

A line holds the tournament's rows (set-up, status, pairs, rounds with their clocks and
their tables, the director's changes, whether a spectator link was on) with each table's
match given as its place among the backup's match lines (0 for the first match line).
:func:`tournament_lines` writes them; :class:`Section` reads them, checks them all before the
restore stores anything (a bad section stores nothing at all), learns which restored match
each table points to while the matches are stored, then stores every tournament in one
transaction. A link is never restored: a tournament that was shared gets a new spectator
link, and each table's match a new table link (links are secrets of the server that made
them).
"""

from __future__ import annotations

import datetime
import json
from collections.abc import Iterator
from typing import Any

import sqlalchemy as sa

from anotador import rules
from anotador.ratings import store as ratings
from anotador.rules.problems import Problem
from anotador.services.accounts import new_token
from anotador.services.documents import match_document
from anotador.services.documents import refresh_summary
from anotador.services.players import find_or_create_player
from anotador.services.scope import Scope
from anotador.storage.database import db
from anotador.storage.models import Match
from anotador.tournaments import Problem as TournamentProblem
from anotador.tournaments.document import SET_UP
from anotador.tournaments.limits import read_name
from anotador.tournaments.operations.backup_lines import line_problems
from anotador.tournaments.store.models import Round
from anotador.tournaments.store.models import RoundTable
from anotador.tournaments.store.models import Tournament
from anotador.tournaments.store.models import TournamentChange
from anotador.tournaments.store.models import TournamentPair

SECTION_FORMAT = "anotador-backup-tournament/1"


def is_section_line(value: object) -> bool:
    return isinstance(value, dict) and value.get("format") == SECTION_FORMAT


def tournament_lines(scope: Scope) -> Iterator[str]:
    """A backup line (JSON, with its newline) per tournament of the accounts ``scope`` sees
    (an account's: the tournaments it directs), oldest first."""

    statement = sa.select(Tournament).order_by(Tournament.id)
    if not scope.everything:
        statement = statement.where(Tournament.owner_id == scope.user_id)
    tournaments = list(db.session.scalars(statement))
    places = match_places(
        scope,
        {
            table.match_id
            for tournament in tournaments
            for round_row in tournament.round_rows
            for table in round_row.tables
            if table.match_id is not None
        },
    )
    for tournament in tournaments:
        line = section_line(tournament, places)
        yield json.dumps(line, ensure_ascii=False) + "\n"


def match_places(scope: Scope, match_ids: set[int]) -> dict[int, int]:
    """match id -> its place among the backup's match lines (which go by id), in one query."""
    if not match_ids:
        return {}
    place = sa.func.row_number().over(order_by=Match.id) - 1
    numbered = sa.select(Match.id, place.label("place")).where(scope.matches()).subquery()
    statement = sa.select(numbered.c.id, numbered.c.place).where(numbered.c.id.in_(match_ids))
    return {match_id: place for match_id, place in db.session.execute(statement)}


def section_line(tournament: Tournament, places: dict[int, int]) -> dict[str, Any]:
    positions = {pair.id: pair.position for pair in tournament.pairs}
    changes = sa.select(TournamentChange).where(TournamentChange.tournament_id == tournament.id)
    return {
        "format": SECTION_FORMAT,
        **{key: getattr(tournament, key) for key in SET_UP if key != "played_on"},
        "played_on": tournament.played_on.isoformat(),
        "status": tournament.status,
        "shared": tournament.spectator_token is not None,
        "created_at": utc_text(tournament.created_at),
        "pairs": [
            {
                "players": [pair.first_player.name, pair.second_player.name],
                "club": pair.club,
                "withdrawn": pair.withdrawn,
                "joined_round": pair.joined_round,
            }
            for pair in tournament.pairs
        ],
        "round_rows": [
            {
                "number": round_row.number,
                "status": round_row.status,
                "clock": clock_line(round_row),
                "tables": [
                    {
                        "number": table.number,
                        "ns": positions[table.ns_pair_id],
                        "ew": positions[table.ew_pair_id] if table.ew_pair_id else None,
                        "match": places.get(table.match_id) if table.match_id else None,
                        "mp": None if table.mp_ns is None else [table.mp_ns, table.mp_ew],
                    }
                    for table in round_row.tables
                ],
            }
            for round_row in tournament.round_rows
        ],
        "changes": [
            {
                "at": utc_text(change.at),
                "director": change.account_id == tournament.owner_id,
                "change": change.change,
                "details": change.details,
            }
            for change in db.session.scalars(changes.order_by(TournamentChange.id))
        ],
    }


def clock_line(round_row: Round) -> dict[str, Any] | None:
    """A round's clock in its line: null when it never had one."""
    if round_row.clock_minutes is None:
        return None
    ends_at = round_row.clock_ends_at
    return {
        "minutes": round_row.clock_minutes,
        "ends_at": None if ends_at is None else utc_text(ends_at),
    }


def utc_text(moment: datetime.datetime) -> str:
    return utc(moment).isoformat(timespec="seconds")


def utc(moment: datetime.datetime) -> datetime.datetime:
    """``moment`` in UTC to the second (SQLite gives back the naive UTC it stored)."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=datetime.UTC)
    return moment.astimezone(datetime.UTC).replace(microsecond=0)


class LineRefused(Exception):
    """The database refused a value of the tournament line ``number`` (``DataError``)."""

    def __init__(self, number: int) -> None:
        super().__init__(number)
        self.number = number


class Section:
    """The tournament lines of a backup being restored: read and checked first, stored last."""

    def __init__(self) -> None:
        self.lines: list[tuple[int, dict[str, Any]]] = []
        #: place of a match line -> the stored match's id, and its line in the input (only the
        #: places tables point to).
        self.placed: dict[int, int] = {}
        self.line_of: dict[int, int] = {}

    @property
    def wanted(self) -> set[int]:
        """The places of the match lines a table points to."""
        return {
            table["match"]
            for _, line in self.lines
            for round_row in line["round_rows"]
            for table in round_row["tables"]
            if table["match"] is not None
        }

    def read(self, number: int, value: dict[str, Any]) -> list[Problem]:
        """Check a line (``number`` in the backup) and keep it; its problems otherwise."""
        problems = line_problems(value)
        if not problems:
            self.lines.append((number, value))
        return problems

    def store(self, owner_id: int | None) -> tuple[int, int, list[tuple[int, list[Problem]]]]:
        """Add every tournament the account does not have yet to the restore's transaction
        (its caller commits it, or rolls it back on a problem): (created, already present,
        problems). A table whose match line was not restored is a problem, and then nothing
        is added; a line the database refuses a value of raises :class:`LineRefused`."""
        missing = [
            (number, [problem])
            for number, line in self.lines
            for problem in self.table_problems(line)
        ]
        if missing or owner_id is None:  # no account yet: nobody to direct them
            return 0, 0, missing
        created = skipped = 0
        finished: list[int] = []
        for number, line in self.lines:
            if already_present(owner_id, line):
                skipped += 1
                continue
            try:
                finished += store_line(line, owner_id, self.placed)
            except sa.exc.DataError as error:
                raise LineRefused(number) from error
            created += 1
        ratings.matches_added(finished)
        return created, skipped, []

    def table_problems(self, line: dict[str, Any]) -> Iterator[Problem]:
        """A table whose match line was not restored, or whose match plays another number
        of hands than the line's rounds (the match file's own limit is never changed: the
        table's MP would not be the match's)."""
        for r, round_row in enumerate(line["round_rows"]):
            for t, table in enumerate(round_row["tables"]):
                if table["match"] is None:
                    continue
                path = f"$.round_rows[{r}].tables[{t}].match"
                where = {"line": self.line_of.get(table["match"], "?")}
                if table["match"] not in self.placed:
                    yield TournamentProblem(path, "match_not_restored", where)
                    continue
                match = db.session.get(Match, self.placed[table["match"]])
                limit = None if match is None else match.hand_limit
                if limit is not None and limit != line["hands_per_round"]:
                    yield TournamentProblem(path, "hand_limit_mismatch", {**where, "limit": limit})


def already_present(owner_id: int, line: dict[str, Any]) -> bool:
    """The account has this tournament (same name, date and moment it was made)."""
    statement = sa.select(Tournament.created_at).where(
        Tournament.owner_id == owner_id,
        Tournament.name == read_name(line["name"]),
        Tournament.played_on == datetime.date.fromisoformat(line["played_on"]),
    )
    made = utc(datetime.datetime.fromisoformat(line["created_at"]))
    return any(utc(moment) == made for moment in db.session.scalars(statement))


def store_line(line: dict[str, Any], owner_id: int, placed: dict[int, int]) -> list[int]:
    """Add one tournament's rows (committed with the others by :meth:`Section.store`); the
    ids of its tables' matches that the round's hands finish."""
    tournament = Tournament(
        owner_id=owner_id,
        **{key: line.get(key) for key in SET_UP if key not in ("name", "played_on")},
        name=read_name(line["name"]),
        played_on=datetime.date.fromisoformat(line["played_on"]),
        status=line["status"],
        spectator_token=new_token() if line["shared"] else None,
        created_at=utc(datetime.datetime.fromisoformat(line["created_at"])),
        version=len(line["changes"]),
    )
    if tournament.options is None:
        tournament.options = {}
    for position, pair in enumerate(line["pairs"], start=1):
        first, second = pair["players"]
        tournament.pairs.append(
            TournamentPair(
                position=position,
                first_player=find_or_create_player(first, owner_id),
                second_player=find_or_create_player(second, owner_id),
                club=read_name(pair.get("club", ""), required=False),
                joined_round=pair.get("joined_round", 1),
                withdrawn=pair.get("withdrawn", False),
            )
        )
    db.session.add(tournament)
    db.session.flush()
    pair_ids = {pair.position: pair.id for pair in tournament.pairs}
    finished = []
    for entry in line["round_rows"]:
        clock = entry.get("clock") or {}
        ends_at = clock.get("ends_at")
        round_row = Round(
            number=entry["number"],
            status=entry["status"],
            clock_minutes=clock.get("minutes"),
            clock_ends_at=None
            if ends_at is None
            else utc(datetime.datetime.fromisoformat(ends_at)),
        )
        tournament.round_rows.append(round_row)
        for table in entry["tables"]:
            mp = table["mp"] or [None, None]
            match_id = placed[table["match"]] if table["match"] is not None else None
            round_row.tables.append(
                RoundTable(
                    number=None if table["ew"] is None else table["number"],
                    ns_pair_id=pair_ids[table["ns"]],
                    ew_pair_id=None if table["ew"] is None else pair_ids[table["ew"]],
                    match_id=match_id,
                    mp_ns=mp[0],
                    mp_ew=mp[1],
                )
            )
            if match_id is not None and seat_match(match_id, tournament.hands_per_round):
                finished.append(match_id)
    for change in line["changes"]:
        db.session.add(
            TournamentChange(
                tournament_id=tournament.id,
                account_id=owner_id if change["director"] else None,
                at=utc(datetime.datetime.fromisoformat(change["at"])),
                change=change["change"],
                details=change["details"],
            )
        )
    db.session.flush()
    return finished


def seat_match(match_id: int, hand_limit: int | None) -> bool:
    """A restored table's match, with a new table link, plays the round's hands (a backup
    made before match files said so gives its file the limit, and its summary is read
    again; a match file's own limit is the round's, :meth:`Section.table_problems`);
    whether the round's hands finish it now."""
    match = db.session.get(Match, match_id)
    if match is None:
        return False
    if match.table_token is None:
        match.table_token = new_token()
    if match.hand_limit is not None or hand_limit is None:
        return False
    match.hand_limit = hand_limit
    game, _ = rules.read_match(match_document(match))
    if game is None:  # its hands go past the limit: the restore keeps them as they were
        match.hand_limit = None
        return False
    was = match.status
    match.version += 1  # what was kept of it (keyed on its version) is of another file
    refresh_summary(match, game, rules.score_match(game))
    return was != "finished" and match.status == "finished"
