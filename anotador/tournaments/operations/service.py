"""A tournament's use cases: set it up, register its pairs, draw, start and close its rounds,
write a table's result by hand, finish it; each change is kept with who and when.

Victory points, standings and draws are never computed here: the rows are turned into the
tournament file of ``TOURNAMENTS.md`` (:func:`tournament_document`) and read by the same pure
code as ``anotador tournament`` (``read_tournament``, ``standings``, ``next_round``). A table
scored in the app is an ordinary match, created by the app's own use case with a table link;
a round of a fixed number of hands gives its match file a ``hand_limit``, so the engine ends it
after them (on the server and on an offline phone alike).
"""

from __future__ import annotations

import dataclasses
import datetime
from typing import Any

import sqlalchemy as sa

from anotador import rules
from anotador.services.accounts import new_token
from anotador.services.matches import export_document
from anotador.services.players import find_or_create_player
from anotador.services.players import give_membership
from anotador.storage.database import db
from anotador.storage.names import skeleton
from anotador.tournaments.limits import MAX_PAIRS
from anotador.tournaments.limits import MAX_SIZE
from anotador.tournaments.store.models import Round
from anotador.tournaments.store.models import RoundTable
from anotador.tournaments.store.models import Tournament
from anotador.tournaments.store.models import TournamentChange
from anotador.tournaments.store.models import TournamentPair

FORMAT = "anotador-tournament/1"
SCALES = ("fibur-3", "fibur-4", "wdl", "points")
SYSTEMS = ("mitchell", "danese", "danese-modificato", "round-robin", "manual", "swiss")
#: Every integer of the tournament file is at most this in size (MP written by hand too).
MAX_MP = MAX_SIZE


class Refused(Exception):
    """A change the tournament's state does not allow; ``code`` says why (a page says it)."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


def not_finished(tournament: Tournament) -> None:
    """Refuse any change to a finished tournament (until its director reopens it)."""
    if tournament.status == "finished":
        raise Refused("finished")


@dataclasses.dataclass(frozen=True)
class SetUp:
    """What the director chose for a new tournament (read and bounded by the form)."""

    name: str
    played_on: datetime.date
    variant: str
    options: dict[str, Any]
    hands_per_round: int | None
    #: A named scale, or a club's bands as the tournament file writes them (§2.2).
    scale: str | dict[str, Any]
    system: str
    rounds: int
    bye_vp: int | None = None
    #: The form's one-time key (None: a request without one is not kept from twice).
    request_key: str | None = None


def table_rules(variant: str, options: dict[str, Any]) -> tuple[dict[str, Any] | None, list[Any]]:
    """The options of every table of a tournament, every default written out, as the engine
    reads them for ``variant`` played by two pairs; None and the engine's problems when it
    refuses them."""
    document = {
        "format": rules.MATCH_FORMAT,
        "variant": variant,
        "layout": "4p",
        "options": options,
        "sides": [{"name": "NS", "players": []}, {"name": "EW", "players": []}],
        "hands": [],
    }
    game, problems = rules.read_match(document)
    if game is None:
        return None, problems
    return game.rules.settings(), []


def create_tournament(owner_id: int, setup: SetUp) -> Tournament | list[Any]:
    """A new tournament of account ``owner_id``; the engine's problems with its options
    instead, and nothing stored. A form posted again with the same key (a double tap, another
    tab, at the same moment or later) gives the tournament it made: the database's unique
    key decides which request made it (a second insert waits for the first and fails)."""
    options, problems = table_rules(setup.variant, setup.options)
    if options is None:
        return problems
    if setup.hands_per_round is not None and "target" not in setup.options:
        # A round of N hands has no target unless its director set one: its tables play
        # every hand (``table_match``).
        del options["target"]
    try:
        return new_tournament(owner_id, setup, options)
    except sa.exc.IntegrityError:
        db.session.rollback()
        made = made_by(owner_id, setup.request_key)
        if made is None:
            raise
        return made


def made_by(owner_id: int, request_key: str | None) -> Tournament | None:
    """The tournament of ``owner_id`` that the form of ``request_key`` created."""
    if request_key is None:
        return None
    statement = sa.select(Tournament).where(
        Tournament.owner_id == owner_id, Tournament.request_key == request_key
    )
    return db.session.scalars(statement).first()


def new_tournament(owner_id: int, setup: SetUp, options: dict[str, Any]) -> Tournament:
    tournament = Tournament(
        owner_id=owner_id,
        name=setup.name,
        played_on=setup.played_on,
        variant=setup.variant,
        layout="4p",
        options=options,
        hands_per_round=setup.hands_per_round,
        scale=setup.scale,
        system=setup.system,
        rounds=setup.rounds,
        bye_vp=setup.bye_vp,
        status="registering",
        version=0,
        request_key=setup.request_key,
    )
    db.session.add(tournament)
    db.session.flush()
    record(tournament, owner_id, "created", name=setup.name)
    db.session.commit()
    return tournament


def tournaments_of(owner_id: int) -> list[Tournament]:
    statement = (
        sa.select(Tournament)
        .where(Tournament.owner_id == owner_id)
        .order_by(Tournament.played_on.desc(), Tournament.id.desc())
    )
    return list(db.session.scalars(statement))


def owned(owner_id: int, tournament_id: int) -> Tournament | None:
    """The tournament ``tournament_id`` if account ``owner_id`` directs it."""
    tournament = db.session.get(Tournament, tournament_id)
    return tournament if tournament is not None and tournament.owner_id == owner_id else None


def shared(token: str) -> Tournament | None:
    """The tournament whose spectator link is ``token``."""
    statement = sa.select(Tournament).where(Tournament.spectator_token == token)
    return db.session.scalars(statement).first()


#: The tournament's row by id, in the statements below.
ROW = Tournament.__table__.c
#: An UPDATE that changes nothing (as ``backup/integrity.py``'s): on PostgreSQL it takes the
#: tournament's row lock, on SQLite the database's write lock (SELECT ... FOR UPDATE takes
#: neither there). Held until the change commits or rolls back.
LOCK = sa.update(Tournament.__table__).where(ROW.id == sa.bindparam("tournament_id"))
#: The version's increment, in the database: two changes committed at once each add their 1.
BUMP = LOCK.values(version=ROW.version + 1)


def lock(tournament: Tournament) -> None:
    """Begin a change of the director's: the tournament's lock first, so that requests
    changing it at once (tabs, double taps, two workers or hosts) take turns, then every row
    read before forgotten, so that the use case checks the state the request before it left
    (the session would hand back its rows as it read them)."""
    db.session.execute(LOCK.values(version=ROW.version), {"tournament_id": tournament.id})
    db.session.expire_all()


def record(tournament: Tournament, account_id: int | None, change: str, **details: Any) -> None:
    """Keep a change of the director's (in the change's transaction, after :func:`lock`) and
    bump the version the boards poll and the kept pages are keyed by."""
    db.session.execute(BUMP, {"tournament_id": tournament.id})
    db.session.expire(tournament, ["version"])
    db.session.add(
        TournamentChange(
            tournament_id=tournament.id, account_id=account_id, change=change, details=details
        )
    )


def set_spectator_link(tournament: Tournament, account_id: int, on: bool) -> None:
    """Make (a new token: an old link never comes back) or revoke the spectator link; asked
    for the link it already has (a double tap, another tab), nothing changes."""
    lock(tournament)
    if (tournament.spectator_token is not None) == on:
        db.session.rollback()  # the lock's end
        return
    tournament.spectator_token = new_token() if on else None
    record(tournament, account_id, "link_made" if on else "link_revoked")
    db.session.commit()


def changes_of(tournament: Tournament) -> list[TournamentChange]:
    statement = (
        sa.select(TournamentChange)
        .where(TournamentChange.tournament_id == tournament.id)
        .order_by(TournamentChange.id.desc())
    )
    return list(db.session.scalars(statement))


def current_round(tournament: Tournament) -> Round | None:
    return tournament.round_rows[-1] if tournament.round_rows else None


def add_pair(
    tournament: Tournament,
    account_id: int,
    first: str,
    second: str,
    club: str = "",
    memberships: tuple[str | None, str | None] = (None, None),
) -> TournamentPair:
    """Register a pair of two players of the director's registry (found by name, accents and
    case aside, or added to it). A pair registered once rounds were played joins late: it is
    drawn from the next round on. ``memberships``: the two players' membership numbers as
    typed (None: a known player keeps the one the registry has, so it is typed once)."""
    lock(tournament)
    if tournament.status == "finished":
        raise Refused("finished")
    if len(tournament.pairs) >= MAX_PAIRS:
        raise Refused("too_many_pairs")
    check_players(tournament, first, second)
    if None not in memberships and memberships[0] == memberships[1]:
        raise Refused("membership_taken")
    players = [find_or_create_player(name, tournament.owner_id) for name in (first, second)]
    for player, number in zip(players, memberships, strict=True):
        if number is not None and not give_membership(player, number):
            raise Refused("membership_taken")
    latest = current_round(tournament)
    pair = TournamentPair(
        position=len(tournament.pairs) + 1,
        first_player=players[0],
        second_player=players[1],
        club=club,
        joined_round=latest.number + 1 if latest is not None else 1,
        withdrawn=False,
    )
    tournament.pairs.append(pair)
    db.session.flush()
    record(tournament, account_id, "pair_added", pair=pair.position, players=[first, second])
    db.session.commit()
    return pair


def check_players(
    tournament: Tournament, first: str, second: str, pair: TournamentPair | None = None
) -> None:
    """Refuse one player twice, or a player of another pair than ``pair``: names compared by
    their look (accents, case and look-alike letters aside: "Аna" with a Cyrillic А is Ana)."""
    if skeleton(first) == skeleton(second):
        raise Refused("same_player")
    others = (other for other in tournament.pairs if other is not pair)
    seated = {skeleton(p.name) for o in others for p in (o.first_player, o.second_player)}
    if skeleton(first) in seated or skeleton(second) in seated:
        raise Refused("player_in_a_pair")


def set_withdrawn(
    tournament: Tournament, account_id: int, pair: TournamentPair, withdrawn: bool
) -> None:
    """A pair leaves (it keeps its results and is not drawn again) or comes back; nothing
    changes when it already has (a double tap, another tab)."""
    lock(tournament)
    if tournament.status == "finished":
        raise Refused("finished")
    if pair.withdrawn == withdrawn:
        db.session.rollback()  # the lock's end
        return
    pair.withdrawn = withdrawn
    change = "pair_withdrawn" if withdrawn else "pair_back"
    record(tournament, account_id, change, pair=pair.position)
    db.session.commit()


def table_state(table: RoundTable) -> str:
    """``bye``, ``not_started``, ``playing``, ``finished`` (its MP count in the standings) or
    ``out_of_bounds`` (its match's points are past the file's bound, :data:`MAX_MP`: they
    cannot count, the director writes the table's result by hand)."""
    if table.is_bye:
        return "bye"
    if table.mp_ns is not None and table.mp_ew is not None:
        return "finished"
    match = table.match
    if match is None:
        return "not_started"
    if any(abs(total) > MAX_MP for total in match.totals):
        return "out_of_bounds"
    if match.status in ("finished", "abandoned"):
        return "finished"
    return "playing" if match.hand_count else "not_started"


def table_result(table: RoundTable) -> tuple[int, int] | None:
    """The MP a table shows: written by hand, else its match's totals once it has a hand."""
    if table.mp_ns is not None and table.mp_ew is not None:
        return table.mp_ns, table.mp_ew
    match = table.match
    if match is not None and match.hand_count:
        return match.totals[0], match.totals[1]
    return None


def table_entry(table: RoundTable, full: bool) -> dict[str, Any] | None:
    """The table's entry in the tournament file, None while it has no result. ``full``: a
    table scored in the app as its whole match document (the downloadable file), else as the
    match's totals (the same MP: its match ends after the round's hands)."""
    if table.is_bye:
        return {"bye": table.ns_pair.key}
    assert table.ew_pair is not None
    seat = {"table": table.number, "ns": table.ns_pair.key, "ew": table.ew_pair.key}
    if table.mp_ns is not None and table.mp_ew is not None:
        return {**seat, "mp": [table.mp_ns, table.mp_ew]}
    if table_state(table) != "finished" or table.match is None:
        return None
    if full:
        return {**seat, "match": export_document(table.match)}
    return {**seat, "mp": list(table.match.totals)}


def tournament_document(tournament: Tournament, *, full: bool = False) -> dict[str, Any]:
    """The tournament file (``anotador-tournament/1``) of the rows: its set-up, its pairs
    and every result so far (the tables of the round being played that have finished)."""
    document: dict[str, Any] = {
        "format": FORMAT,
        "name": tournament.name,
        "played_on": tournament.played_on.isoformat(),
        "variant": tournament.variant,
        "layout": tournament.layout,
        "options": dict(tournament.options),
        "hands_per_round": tournament.hands_per_round,
        "scale": tournament.scale,
        "system": tournament.system,
        "rounds": tournament.rounds,
        "pairs": [
            {
                "id": pair.key,
                "players": [pair.first_player.name, pair.second_player.name],
                **({"club": pair.club} if pair.club else {}),
                **({"withdrawn": True} if pair.withdrawn else {}),
            }
            for pair in tournament.pairs
        ],
        "results": [],
    }
    if tournament.bye_vp is not None:
        document["bye_vp"] = tournament.bye_vp
    for round_row in tournament.round_rows:
        if round_row.status == "drawn":
            continue
        # Tables by number, then the byes (a manual round seats its tables in any order).
        in_order = sorted(round_row.tables, key=lambda t: (t.is_bye, t.number or 0))
        entries = [table_entry(table, full) for table in in_order]
        tables = [entry for entry in entries if entry is not None]
        document["results"].append({"round": round_row.number, "tables": tables})
    return document
