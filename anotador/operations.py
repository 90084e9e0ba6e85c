"""Use cases: one function each, between the views (or the CLI) and the models.

Each function validates through the rules engine, writes, and commits once. None of them
knows about requests, sessions or flashing; they return what happened.
"""

from __future__ import annotations

import dataclasses
import datetime
import hashlib
import json
from collections.abc import Callable
from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError

from anotador import rules
from anotador.cache import LRU
from anotador.extensions import db
from anotador.models import Hand
from anotador.models import Match
from anotador.models import Player
from anotador.models import Seat
from anotador.models import Side
from anotador.models import name_key


@dataclasses.dataclass(frozen=True)
class Scored:
    """A stored match read back through the engine."""

    match: Match
    game: rules.Match
    score: rules.MatchScore


@dataclasses.dataclass(frozen=True)
class Outcome:
    """What a write did: ``problems`` (with hand-relative paths) when it was refused,
    ``conflict`` when another phone changed the match first, ``duplicate`` when the same
    form had already been saved."""

    problems: list[rules.Problem] = dataclasses.field(default_factory=list)
    conflict: bool = False
    duplicate: bool = False
    hand_number: int | None = None

    @property
    def ok(self) -> bool:
        return not self.conflict and not any(p.severity == "error" for p in self.problems)


class StoredMatchInvalid(Exception):
    """A stored match no longer passes the rules (data written outside the app)."""

    def __init__(self, match_id: int, problems: list[rules.Problem]) -> None:
        super().__init__(f"match {match_id}: " + "; ".join(p.message for p in problems[:3]))
        self.problems = problems


# Reading


def match_document(match: Match, hands: Sequence[dict[str, Any]] | None = None) -> dict[str, Any]:
    """The match file of a stored match, optionally with other hands in place of its own."""
    sides = [
        {"name": side.name, "players": [seat.player.name for seat in side.seats]}
        for side in match.sides
    ]
    played = [hand.inputs for hand in match.hands] if hands is None else list(hands)
    return document_of(match, sides, played)


def document_of(
    row: Any, sides: list[dict[str, Any]], hands: list[dict[str, Any]]
) -> dict[str, Any]:
    """The match file of a match's stored columns (an ORM ``Match`` or a plain row with the
    same names), its sides (``{"name", "players"}``) and its hands' inputs."""
    document: dict[str, Any] = {
        "format": rules.MATCH_FORMAT,
        "variant": row.variant,
        "layout": row.layout,
        "options": row.settings,
        "sides": sides,
        "start_scores": row.start_scores,
        "hands": hands,
        "played_on": row.played_on.isoformat(),
        "abandoned": row.abandoned,
    }
    if row.title:
        document["title"] = row.title
    if row.notes:
        document["notes"] = row.notes
    return document


def load_match(match_id: int) -> Match | None:
    """A match with its sides, seats and players in one query. Its hands are not loaded
    here: ``match.hands`` loads them all in one more query when first used (``score`` only
    needs them when the match is not in :data:`SCORES`)."""
    statement = (
        sa.select(Match)
        .where(Match.id == match_id)
        .options(sa.orm.joinedload(Match.sides).joinedload(Side.seats))
    )
    return db.session.scalars(statement).unique().first()


#: The engine's reading and score of the last matches shown, keyed by :func:`cache_key`.
#: Names, title and notes are not taken from here: ``score`` puts the rows' current ones in.
SCORES: LRU[tuple[rules.Match, rules.MatchScore]] = LRU(64)


def cache_key(match: Match | MatchState) -> tuple | None:
    """What identifies one state of a stored match: the database, its id, ``Match.version``
    (bumped by every write to the match) and ``Match.content_hash`` (rewritten with every
    change). Whatever is derived from a match and cached is keyed on this; None (do not
    cache) for a match without a content hash."""
    if match.content_hash is None:
        return None
    return (db.engine.url.render_as_string(), match.id, match.version, match.content_hash)


@dataclasses.dataclass(frozen=True)
class MatchState:
    """Just enough of a stored match to find what was derived from it in a cache."""

    id: int
    version: int
    content_hash: str | None
    first_dealer: int | None
    hand_count: int
    #: Each side's name and its players' names, in seating order.
    names: tuple[tuple[str, tuple[str, ...]], ...]


def state_of(match: Match) -> MatchState:
    """The :class:`MatchState` of a loaded match."""
    names = tuple(
        (side.name, tuple(seat.player.name for seat in side.seats)) for side in match.sides
    )
    return MatchState(
        match.id, match.version, match.content_hash, match.first_dealer, match.hand_count, names
    )


#: The query of :func:`match_state`, built once (the page it serves is meant to be cheap).
MATCH_STATE = (
    sa.select(
        Match.id,
        Match.version,
        Match.content_hash,
        Match.first_dealer,
        Match.hand_count,
        Side.position,
        Side.name,
        Player.name,
    )
    .join(Side, Side.match_id == Match.id)
    .outerjoin(Seat, Seat.side_id == Side.id)
    .outerjoin(Player, Player.id == Seat.player_id)
    .where(Match.id == sa.bindparam("match_id"))
    .order_by(Side.position, Seat.seat)
)


def match_state(match_id: int) -> MatchState | None:
    """The :class:`MatchState` of a match, in one light query (no ORM objects)."""
    rows = db.session.execute(MATCH_STATE, {"match_id": match_id}).all()
    if not rows:
        return None
    sides: dict[int, tuple[str, list[str]]] = {}
    for row in rows:
        side = sides.setdefault(row[5], (row[6], []))
        if row[7] is not None:
            side[1].append(row[7])
    first = rows[0]
    names = tuple((name, tuple(players)) for name, players in sides.values())
    return MatchState(first[0], first[1], first[2], first[3], first[4], names)


def score(match: Match) -> Scored:
    """Score a stored match; its stored inputs are re-validated by the engine (once per
    version of the match: later calls reuse the engine's work, with fresh names)."""
    key = cache_key(match)
    cached = SCORES.get(key) if key is not None else None
    if cached is None:
        game, problems = rules.read_match(match_document(match))
        if game is None:
            raise StoredMatchInvalid(match.id, problems)
        result = rules.score_match(game)
        if key is not None:
            SCORES.put(key, (game, result))
        return Scored(match, game, result)
    game, result = cached
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
    return Scored(match, fresh, result)


def export_document(match: Match) -> dict[str, Any]:
    """The match file users download: every default written out."""
    return rules.match_to_document(score(match).game)


# Creating


def create_match(
    document: dict[str, Any], first_dealer: int | None = None, *, commit: bool = True
) -> tuple[Match | None, list[rules.Problem]]:
    """Store a new match from a match document (the new-match form builds one; imports
    bring one). Hands in the document are stored too. Returns the match, or None and the
    problems when the document is not valid. ``commit=False`` leaves the new match pending
    in the session (bulk imports flush and commit a batch at a time)."""
    game, problems = rules.read_match(document)
    if game is None:
        return None, problems
    match = Match(
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
        first_dealer=first_dealer,
        totals=list(game.start_scores),
    )
    seats_per_round = len(game.sides)
    for position, info in enumerate(game.sides):
        side = Side(position=position, name=info.name.strip())
        for index, name in enumerate(info.players):
            player = find_or_create_player(name)
            side.seats.append(Seat(player=player, seat=position + index * seats_per_round))
        match.sides.append(side)
    for number, hand in enumerate(game.hands, start=1):
        match.hands.append(Hand(number=number, inputs=rules.hand_to_document(game.rules, hand)))
    db.session.add(match)
    refresh_summary(match, rules.score_match(game))
    if commit:
        db.session.commit()
    return match, problems


def find_or_create_player(name: str) -> Player:
    """The registered player with this name (accents and case aside), or a new one."""
    clean = " ".join(name.split())
    key = name_key(clean)
    player = db.session.scalars(sa.select(Player).where(Player.name_key == key)).first()
    if player is None:
        player = Player(name=clean, name_key=key)
        db.session.add(player)
        db.session.flush()
    return player


def recent_player_names(limit: int = 30) -> list[str]:
    """The players seen in the most recent matches, for the new-match form's suggestions."""
    statement = (
        sa.select(Player.name)
        .join(Seat, Seat.player_id == Player.id)
        .join(Side, Side.id == Seat.side_id)
        .group_by(Player.id, Player.name)
        .order_by(sa.func.max(Side.match_id).desc())
        .limit(limit)
    )
    return list(db.session.scalars(statement))


# Lists (home page): the summary columns, sides loaded with them, never the hands


def ongoing_matches(limit: int = 50) -> list[Match]:
    """Matches still being played, the most recently changed first."""
    return list_matches(Match.status == "ongoing", limit)


def recent_finished_matches(limit: int = 20) -> list[Match]:
    """Finished or abandoned matches, the most recently changed first."""
    return list_matches(Match.status != "ongoing", limit)


def list_matches(condition: sa.ColumnElement[bool], limit: int) -> list[Match]:
    statement = (
        sa.select(Match)
        .where(condition)
        .order_by(Match.updated_at.desc(), Match.id.desc())
        .limit(limit)
        .options(sa.orm.selectinload(Match.sides).lazyload(Side.seats))
    )
    return list(db.session.scalars(statement))


# Changing hands


def record_hand(
    match: Match, hand: dict[str, Any], version: int, request_key: str | None
) -> Outcome:
    """Add a hand at the end of the match."""
    if request_key and any(h.request_key == request_key for h in match.hands):
        number = next(h.number for h in match.hands if h.request_key == request_key)
        return Outcome(duplicate=True, hand_number=number)
    inputs = [h.inputs for h in match.hands] + [hand]
    number = len(inputs)

    def apply(game: rules.Match) -> None:
        stored = rules.hand_to_document(game.rules, game.hands[number - 1])
        match.hands.append(Hand(number=number, inputs=stored, request_key=request_key))

    outcome = save_hands(match, inputs, version, number, apply)
    if outcome.conflict and request_key:
        # The same form may have been saved by a parallel retry of this very request.
        statement = sa.select(Hand.number).where(
            Hand.match_id == match.id, Hand.request_key == request_key
        )
        saved = db.session.scalars(statement).first()
        if saved is not None:
            return Outcome(duplicate=True, hand_number=saved)
    return outcome


def edit_hand(match: Match, number: int, hand: dict[str, Any], version: int) -> Outcome:
    """Replace the inputs of hand ``number``; every later figure is recomputed."""
    inputs = [h.inputs for h in match.hands]
    inputs[number - 1] = hand

    def apply(game: rules.Match) -> None:
        match.hands[number - 1].inputs = rules.hand_to_document(game.rules, game.hands[number - 1])

    return save_hands(match, inputs, version, number, apply)


def delete_hand(match: Match, number: int, version: int) -> Outcome:
    """Remove hand ``number``; the hands after it move up one place."""
    inputs = [h.inputs for h in match.hands]
    del inputs[number - 1]

    def apply(game: rules.Match) -> None:
        doomed = match.hands[number - 1]
        match.hands.remove(doomed)
        db.session.delete(doomed)
        db.session.flush()  # free its number before the later hands move up into it
        for later in match.hands[number - 1 :]:
            later.number -= 1
            db.session.flush()

    return save_hands(match, inputs, version, None, apply)


def undo_last_hand(match: Match, version: int) -> Outcome:
    """Remove the last hand (a one-tap correction of the hand just saved)."""
    if not match.hands:
        return Outcome(conflict=match.version != version)
    return delete_hand(match, len(match.hands), version)


def preview_hand(
    match: Match, hand: dict[str, Any], number: int | None = None
) -> tuple[rules.MatchScore | None, list[rules.Problem]]:
    """Score the match as if ``hand`` were recorded (``number`` None) or replaced hand
    ``number``, without writing anything. Problems have paths relative to the hand."""
    inputs = [h.inputs for h in match.hands]
    if number is None:
        inputs.append(hand)
        number = len(inputs)
    else:
        inputs[number - 1] = hand
    game, problems = rules.read_match(match_document(match, inputs))
    score = rules.score_match(game) if game is not None else None
    return score, hand_problems(problems, number)


def save_hands(
    match: Match,
    inputs: list[dict[str, Any]],
    version: int,
    number: int | None,
    apply: Callable[[rules.Match], None],
) -> Outcome:
    """Validate the match with ``inputs`` as its hands, then apply the change if nobody
    else changed the match since ``version`` was read."""
    game, problems = rules.read_match(match_document(match, inputs))
    if game is None:
        return Outcome(problems=hand_problems(problems, number))
    if not claim_version(match, version):
        return Outcome(conflict=True)
    try:
        apply(game)
        score = rules.score_match(game)
        refresh_summary(match, score)
        key = cache_key(match)
        db.session.commit()
    except IntegrityError:
        db.session.rollback()
        return Outcome(conflict=True)
    if key is not None:
        # The planilla the phone is sent to next finds the engine's work already done.
        SCORES.put(key, (game, score))
    return Outcome(problems=hand_problems(problems, number), hand_number=number)


def claim_version(match: Match, version: int) -> bool:
    """Bump the match's version if it is still ``version`` (one statement, so of two phones
    saving at once exactly one wins); False, and the session rolled back, when it is not."""
    claimed = db.session.execute(
        sa.update(Match)
        .where(Match.id == match.id, Match.version == version)
        .values(version=Match.version + 1)
    )
    if claimed.rowcount != 1:
        db.session.rollback()
        return False
    db.session.refresh(match, ["version"])
    return True


def hand_problems(problems: list[rules.Problem], number: int | None) -> list[rules.Problem]:
    """Problems of hand ``number`` with paths relative to it; others keep their full path."""
    if number is None:
        return problems
    prefix = f"hands[{number - 1}]"
    relative = []
    for problem in problems:
        if problem.path == prefix:
            relative.append(dataclasses.replace(problem, path=""))
        elif problem.path.startswith(prefix + "."):
            relative.append(dataclasses.replace(problem, path=problem.path[len(prefix) + 1 :]))
        else:
            relative.append(problem)
    return relative


def refresh_summary(match: Match, score: rules.MatchScore) -> None:
    """Rewrite the derived columns from a fresh score (same transaction as the change)."""
    match.totals = list(score.totals)
    match.winner = score.winner
    match.hand_count = len(score.hands)
    if score.finished:
        match.status = "finished"
    else:
        match.status = "abandoned" if match.abandoned else "ongoing"
    match.content_hash = content_hash(match_document(match))


def content_hash(document: dict[str, Any]) -> str:
    """A fingerprint of a match file: equal for the same match whatever the accents or
    case of its names (a stored match is found again when its file is imported twice)."""
    sides = [
        {"name": name_key(side["name"]), "players": [name_key(p) for p in side["players"]]}
        for side in document["sides"]
    ]
    canonical = {**document, "sides": sides}
    text = json.dumps(canonical, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def set_abandoned(match: Match, abandoned: bool, version: int) -> bool:
    """Mark a match as stopped before its end (or resume it); False, and nothing changed,
    when another phone changed the match since ``version`` was read."""
    scored = score(match)
    if not claim_version(match, version):
        return False
    match.abandoned = abandoned
    refresh_summary(match, scored.score)
    db.session.commit()
    return True


# Players


def rename_player(player: Player, name: str) -> rules.Problem | None:
    """Give ``player`` a new name; the problem instead (the engine's rules for names, or
    ``taken`` when it is another player's name already)."""
    try:
        clean = rules.read_text(name, maximum=rules.MAX_NAME, required=True)
    except rules.TextRefused as refused:
        return rules.Problem("name", refused.code, refused.params)
    key = name_key(clean)
    other = db.session.scalars(sa.select(Player.id).where(Player.name_key == key)).first()
    if other is not None and other != player.id:
        return rules.Problem("name", "taken", {})
    player.name, player.name_key = clean, key
    refresh_hashes(player.id)
    db.session.commit()
    return None


def shared_matches(first: Player, second: Player) -> int:
    """How many matches both players sat in (then they are two people, never one)."""
    both = (
        sa.select(sa.func.count(sa.distinct(Side.match_id)))
        .join(Seat, Seat.side_id == Side.id)
        .where(Seat.player_id == first.id)
        .where(Side.match_id.in_(played_by(second.id)))
    )
    return db.session.scalar(both) or 0


def played_by(player_id: int) -> sa.Select[tuple[int]]:
    """The ids of the matches where the player sat."""
    return (
        sa.select(Side.match_id)
        .join(Seat, Seat.side_id == Side.id)
        .where(Seat.player_id == player_id)
    )


def merge_players(keep: Player, gone: Player) -> int:
    """``gone`` was ``keep`` all along: every seat of ``gone`` becomes ``keep``'s and
    ``gone`` leaves the registry. Every match stays; returns how many seats moved.
    Refused (:class:`ValueError`) when they sat in one match: one person has one seat."""
    if keep.id == gone.id:
        return 0
    if shared_matches(keep, gone):
        raise ValueError("players who sat in the same match are two people")
    moved = db.session.execute(
        sa.update(Seat).where(Seat.player_id == gone.id).values(player_id=keep.id)
    ).rowcount
    db.session.delete(gone)
    db.session.flush()
    db.session.expire_all()
    refresh_hashes(keep.id)
    db.session.commit()
    return moved


def refresh_hashes(player_id: int) -> None:
    """Recompute the content hash of every match of a player whose name changed."""
    statement = (
        sa.select(Match)
        .where(Match.id.in_(played_by(player_id)))
        .options(sa.orm.selectinload(Match.sides), sa.orm.selectinload(Match.hands))
    )
    for match in db.session.scalars(statement):
        match.content_hash = content_hash(match_document(match))
