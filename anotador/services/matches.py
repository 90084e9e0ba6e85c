"""Matches: create one, score it (through the app's ``scores`` cache), its exported file,
abandon or resume it, and the version claim every change to a match starts with."""

from __future__ import annotations

import dataclasses
import datetime
from typing import Any

import sqlalchemy as sa

from anotador import rules
from anotador.ratings import store as ratings
from anotador.services.accounts import new_token
from anotador.services.accounts import owner_or_default
from anotador.services.documents import match_document
from anotador.services.documents import refresh_summary
from anotador.services.documents import status_of
from anotador.services.players import find_or_create_player
from anotador.storage import signals
from anotador.storage import write_turns
from anotador.storage.caching import caches
from anotador.storage.caching import match_key
from anotador.storage.database import db
from anotador.storage.models import Hand
from anotador.storage.models import Match
from anotador.storage.models import Seat
from anotador.storage.models import Side


@dataclasses.dataclass(frozen=True)
class Scored:
    """A stored match read back through the engine."""

    match: Match
    game: rules.Match
    score: rules.MatchScore
    #: The stored inputs of its hands (what its content hash is made of), in order.
    inputs: tuple[dict[str, Any], ...]


class StoredMatchInvalid(Exception):
    """A stored match no longer passes the rules (data written outside the app)."""

    def __init__(self, match_id: int, problems: list[rules.Problem]) -> None:
        super().__init__(f"match {match_id}: " + "; ".join(p.message for p in problems[:3]))
        self.problems = problems


def score(match: Match) -> Scored:
    """Score a stored match; its stored inputs are re-validated by the engine (once per
    version of the match: later calls reuse the engine's work, kept in the ``scores``
    cache, with the rows' current names, title and notes put in)."""
    found = cached(match)
    if found is not None:
        return found
    inputs = tuple(hand.inputs for hand in match.hands)
    game, problems = rules.read_match(match_document(match, inputs))
    if game is None:
        raise StoredMatchInvalid(match.id, problems)
    result = rules.score_match(game)
    key = match_key(match)
    if key is not None:
        caches().scores.put(key, (game, result, inputs))
    return Scored(match, game, result, inputs)


def cached(match: Match) -> Scored | None:
    """The engine's reading and score of this version of ``match`` when the ``scores``
    cache has them (with the rows' current names, title and notes put in), else None."""
    key = match_key(match)
    found = caches().scores.get(key) if key is not None else None
    if found is None:
        return None
    game, result, inputs = found
    fresh = dataclasses.replace(
        game,
        sides=tuple(
            rules.SideInfo(side.name, tuple(seat.player.name for seat in side.seats))
            for side in match.sides
        ),
        title=match.title or "",
        notes=match.notes or "",
        abandoned=match.abandoned,
    )
    return Scored(match, fresh, result, inputs)


def export_document(match: Match) -> dict[str, Any]:
    """The match file users download: every default written out."""
    return rules.match_to_document(score(match).game)


def create_match(
    document: object,
    first_dealer: int | None = None,
    *,
    owner_id: int | None = None,
    group_id: int | None = None,
    commit: bool = True,
) -> tuple[Match | None, list[rules.Problem]]:
    """Store a new match of account ``owner_id`` (None: the first administrator's, see
    :func:`anotador.services.accounts.owner_or_default`; shared with ``group_id``) from a match
    document (the new-match form builds one; imports bring one); its players are the
    account's. Hands in the document are stored too. Returns the match, or None and the
    problems when the document is not valid. ``commit=False`` leaves the new match pending
    in the session (and sends no signal: whoever commits it does)."""
    game, problems = rules.read_match(document)
    if game is None:
        return None, problems
    owner_id = owner_or_default(owner_id)
    match = Match(
        version=0,  # now, not at the insert: the sides' figures are of this version
        variant=game.rules.variant.name,
        layout=game.rules.layout.name,
        settings=game.rules.settings(),
        start_scores=list(game.start_scores),
        title=game.title,
        notes=game.notes,
        played_on=(
            datetime.date.fromisoformat(game.played_on) if game.played_on else datetime.date.today()
        ),
        abandoned=game.abandoned,
        hand_limit=game.hand_limit,
        play_every_hand=game.play_every_hand,
        first_dealer=first_dealer,
        totals=list(game.start_scores),
        owner_id=owner_id,
        group_id=group_id,
    )
    seats_per_round = len(game.sides)
    for position, info in enumerate(game.sides):
        side = Side(position=position, name=info.name.strip())
        for index, name in enumerate(info.players):
            player = find_or_create_player(name, owner_id)
            side.seats.append(Seat(player=player, seat=position + index * seats_per_round))
        match.sides.append(side)
    for number, hand in enumerate(game.hands, start=1):
        match.hands.append(Hand(number=number, inputs=rules.hand_to_document(game.rules, hand)))
    db.session.add(match)
    refresh_summary(match, game, rules.score_match(game))
    if match.status == "finished":
        db.session.flush()  # its id
        ratings.match_changed(match)
    if commit:
        db.session.commit()
        signals.changed("created", match.id)
    return match, problems


class ChangeRefused(Exception):
    """A change to a match that a row holding it refuses (a tournament's table whose round is
    closed...): ``problems`` say why; nothing was written."""

    def __init__(self, problems: list[rules.Problem]) -> None:
        super().__init__("; ".join(p.message for p in problems))
        self.problems = problems


def claim_version(match: Match, version: int, change: str, **columns: Any) -> bool:
    """Bump the match's version if it is still ``version`` (one statement, so of two phones
    saving at once exactly one wins), writing ``columns`` of its row in the same statement;
    False, and the session rolled back, when it is not. Then ``change`` is put to whoever
    holds the match (:data:`anotador.storage.signals.match_changing`): when they refuse it,
    the session is rolled back and :class:`ChangeRefused` raised."""
    before = {"totals": list(match.totals), "status": match.status}
    table = Match.__table__
    update = (
        table.update()
        .where(table.c.id == match.id, table.c.version == version)
        .values(version=table.c.version + 1, **columns)
    )
    # Past the ORM: nothing pending is flushed first, so on SQLite the claim is the
    # change's first write (it takes the database's write lock).
    claimed = db.session.connection().execute(update)
    if claimed.rowcount != 1:
        db.session.rollback()
        return False
    # What the row now holds, without reading it back.
    for name, value in {"version": version + 1, **columns}.items():
        sa.orm.attributes.set_committed_value(match, name, value)
    # After the claim: its lock is held, so what a holder reads cannot change before the commit.
    problems = signals.refusals(change, match, before)
    if problems:
        db.session.rollback()
        raise ChangeRefused(problems)
    return True


def set_abandoned(match: Match, abandoned: bool, version: int) -> bool:
    """Mark a match as stopped before its end (or resume it); False, and nothing changed,
    when another phone changed the match since ``version`` was read; :class:`ChangeRefused`
    when whoever holds the match refuses it."""
    scored = score(match)
    change = "abandoned" if abandoned else "resumed"
    status = status_of(scored.score, abandoned)
    with write_turns.turn():
        if not claim_version(match, version, change, abandoned=abandoned, status=status):
            return False
        refresh_summary(match, scored.game, scored.score, scored.inputs)
        match_id = match.id
        db.session.commit()
    signals.changed(change, match_id)
    return True


def rematch(match: Match) -> Match:
    """A new match of the same owner (and group) with ``match``'s sides, players, variant,
    layout and options, and the same first dealer: no hands, from zero, dated today. It has
    a link of each kind ``match`` has (new tokens) and ``match`` points to it, so the phones
    of ``match``'s links follow there (``views.sharing``). Made once: asked again, it is the
    rematch already made."""
    made = db.session.get(Match, match.rematch_id) if match.rematch_id is not None else None
    if made is not None:
        return made
    document = match_document(match, hands=[])
    document.pop("title", None)
    document.pop("notes", None)
    # A rematch of a tournament's table is a game of its own, to the target.
    document.pop("hand_limit", None)
    document.pop("play_every_hand", None)
    document.update(
        played_on=datetime.date.today().isoformat(),
        abandoned=False,
        start_scores=[0] * len(match.sides),
    )
    new, problems = create_match(
        document,
        match.first_dealer,
        owner_id=match.owner_id,
        group_id=match.group_id,
        commit=False,
    )
    if new is None:  # the engine accepted this match's own sides and options
        raise StoredMatchInvalid(match.id, problems)
    new.table_token = new_token() if match.table_token else None
    new.spectator_token = new_token() if match.spectator_token else None
    db.session.flush()  # its id
    # Past the ORM, updated_at as it was: the finished match did not change (its version, its
    # place in the lists, the caches keyed on it stay).
    table = Match.__table__
    db.session.execute(
        table.update()
        .where(table.c.id == match.id)
        .values(rematch_id=new.id, updated_at=table.c.updated_at)
    )
    sa.orm.attributes.set_committed_value(match, "rematch_id", new.id)
    db.session.commit()
    signals.changed("created", new.id)
    return new
