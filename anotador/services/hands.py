"""Hands: record, edit, delete, undo and preview, each checked by the engine against the
whole match and saved only if the match is still at the version the form was shown with."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError

from anotador import rules
from anotador.ratings import store as ratings
from anotador.services import documents
from anotador.services.documents import match_document
from anotador.services.matches import ChangeRefused
from anotador.services.matches import cached
from anotador.services.matches import claim_version
from anotador.storage import signals
from anotador.storage import write_turns
from anotador.storage.caching import caches
from anotador.storage.caching import match_key
from anotador.storage.database import db
from anotador.storage.models import Hand
from anotador.storage.models import Match


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


def record_hand(
    match: Match, hand: dict[str, Any], version: int, request_key: str | None
) -> Outcome:
    """Add a hand at the end of the match."""
    if request_key:
        saved = saved_with_key(match, request_key)
        if saved is not None:
            return Outcome(duplicate=True, hand_number=saved)
    stored = stored_inputs(match)
    number = len(stored) + 1

    def inputs_after(game: rules.Match) -> list[dict[str, Any]]:
        return [*stored, rules.hand_to_document(game.rules, game.hands[number - 1])]

    def apply(inputs: Sequence[dict[str, Any]]) -> None:
        # Past the ORM, beside the collection: a save never loads the earlier hands.
        row = {"match_id": match.id, "number": number, "request_key": request_key}
        db.session.connection().execute(Hand.__table__.insert(), {**row, "inputs": inputs[-1]})

    reading = changed_reading(match, number - 1, hand)
    outcome = save_hands(match, version, number, inputs_after, apply, "hand_recorded", reading)
    if outcome.conflict and request_key:
        # The same form may have been saved by a parallel retry of this very request.
        saved = saved_with_key(match, request_key)
        if saved is not None:
            return Outcome(duplicate=True, hand_number=saved)
    return outcome


def saved_with_key(match: Match, request_key: str) -> int | None:
    """The number of the match's hand saved with ``request_key``, if any (one indexed read)."""
    statement = sa.select(Hand.number).where(
        Hand.match_id == match.id, Hand.request_key == request_key
    )
    return db.session.scalars(statement).first()


def stored_inputs(match: Match) -> tuple[dict[str, Any], ...]:
    """The stored inputs of the match's hands: from the ``scores`` cache when it holds this
    version, else read."""
    found = cached(match)
    if found is not None:
        return found.inputs
    return tuple(h.inputs for h in match.hands)


def edit_hand(
    match: Match, number: int, hand: dict[str, Any], version: int, request_key: str | None = None
) -> Outcome:
    """Replace the inputs of hand ``number``; every later figure is recomputed. With a
    ``request_key``, the hand takes it (a phone's queued hand that replaces another, so that
    a retried send is recognised as done)."""
    if not 1 <= number <= len(match.hands):
        raise IndexError(number)

    def inputs_after(game: rules.Match) -> list[dict[str, Any]]:
        inputs = [h.inputs for h in match.hands]
        inputs[number - 1] = rules.hand_to_document(game.rules, game.hands[number - 1])
        return inputs

    def apply(inputs: Sequence[dict[str, Any]]) -> None:
        match.hands[number - 1].inputs = inputs[number - 1]
        if request_key:
            match.hands[number - 1].request_key = request_key

    reading = changed_reading(match, number - 1, hand)
    return save_hands(match, version, number, inputs_after, apply, "hand_edited", reading)


def delete_hand(match: Match, number: int, version: int) -> Outcome:
    """Remove hand ``number``; the hands after it move up one place."""
    inputs = [h.inputs for h in match.hands]
    del inputs[number - 1]

    def apply(_inputs: Sequence[dict[str, Any]]) -> None:
        doomed = match.hands[number - 1]
        match.hands.remove(doomed)
        db.session.delete(doomed)
        db.session.flush()  # free its number before the later hands move up into it
        for later in match.hands[number - 1 :]:
            later.number -= 1
            db.session.flush()

    reading = full_reading(match, inputs)
    return save_hands(match, version, None, lambda _game: inputs, apply, "hand_deleted", reading)


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
    if number is None:
        number = len(match.hands) + 1
    _game, score, problems = changed_reading(match, number - 1, hand)
    return score, hand_problems(problems, number)


Reading = tuple[rules.Match | None, rules.MatchScore | None, list[rules.Problem]]


def changed_reading(match: Match, index: int, hand: dict[str, Any]) -> Reading:
    """The engine's reading and score of ``match`` with hand ``index`` (0-based; the number
    of hands adds one) replaced by ``hand``, and every problem. When the ``scores`` cache
    holds this version's reading, only ``hand`` is read and the hands before it keep their
    scores (``rules.replace_hand``: the same result as reading the whole file)."""
    found = cached(match)
    # A save committed by another request between reading the match's row and its hands can
    # leave the cached reading (of the row's version) a hand short: read the whole file then.
    if found is not None and index <= len(found.game.hands):
        return rules.replace_hand(found.game, found.score, index, hand)
    inputs = [h.inputs for h in match.hands]
    if index >= len(inputs):
        inputs.append(hand)
    else:
        inputs[index] = hand
    return full_reading(match, inputs)


def full_reading(match: Match, inputs: list[dict[str, Any]]) -> Reading:
    """The engine's reading and score of ``match`` with ``inputs`` as its hands."""
    game, problems = rules.read_match(match_document(match, inputs))
    return game, rules.score_match(game) if game is not None else None, problems


def save_hands(
    match: Match,
    version: int,
    number: int | None,
    inputs_after: Callable[[rules.Match], list[dict[str, Any]]],
    apply: Callable[[Sequence[dict[str, Any]]], None],
    change: str,
    reading: Reading,
) -> Outcome:
    """Take ``reading`` (the engine's reading of the changed match: :func:`changed_reading`,
    :func:`full_reading`), then apply the change if nobody else changed the match since
    ``version`` was read. ``inputs_after`` gives the stored inputs of every hand afterwards
    (from the reading), ``apply`` writes them; ``change`` names the change for
    :data:`anotador.storage.signals.match_changed`, sent once it is committed."""
    game, score, problems = reading
    if game is None or score is None:
        return Outcome(problems=hand_problems(problems, number))
    inputs = tuple(inputs_after(game))
    # Worked out before the claim: on SQLite the claim takes the database's one write lock,
    # and every other phone's save waits until this one commits.
    summary = documents.summary(match, game, score, inputs, version + 1)
    rated = match.status == "finished" or summary.status == "finished"
    with write_turns.turn():
        try:
            if not claim_version(match, version, change, **summary.columns()):
                return Outcome(conflict=True)
            apply(inputs)
            summary.write_figures(match)
            if rated:
                ratings.match_changed(match)
            match_id, key = match.id, match_key(match)
            db.session.commit()
        except IntegrityError:
            db.session.rollback()
            return Outcome(conflict=True)
        except ChangeRefused as refused:
            return Outcome(problems=refused.problems)
    if key is not None:
        # The planilla the phone is sent to next finds the engine's work already done.
        caches().scores.put(key, (game, score, inputs))
    signals.changed(change, match_id)
    return Outcome(problems=hand_problems(problems, number), hand_number=number)


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
