"""Hands a phone recorded without a connection, sent when the signal returns.

A queued hand says which number it was recorded as (``number``: the phone knew ``number - 1``
hands). It is stored once, whatever happens in between:

- a hand stored with its request key, or a hand stored after the ones the phone knew whose
  inputs equal the queued one's (another phone typed the same hand), is the queued hand:
  nothing is written and the answer is "already stored";
- when the match still has ``number - 1`` hands, it is appended;
- otherwise the sender gets the conflict (the hands other phones saved from ``number`` on,
  each with its :func:`fingerprint`) and a person chooses: keep both (``append``: mine after
  the last stored hand, which changes no stored hand), mine replaces one of the hands shown
  (``replace`` with its ``target`` number and the ``shown`` fingerprint of what was shown:
  replaced only while that hand is still exactly what was shown, else a fresh conflict), or
  drop mine (the phone simply forgets it).

No stored hand is ever changed but the one a person was shown and chose to replace.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Callable
from collections.abc import Sequence
from typing import Any

from anotador import rules
from anotador.services.hands import Outcome
from anotador.services.hands import edit_hand
from anotador.services.hands import record_hand
from anotador.services.hands import saved_with_key
from anotador.services.matches import score
from anotador.storage.database import db
from anotador.storage.models import Hand
from anotador.storage.models import Match

#: How a sender settles a conflict: mine after theirs, or mine in place of one of theirs.
RESOLUTIONS = ("append", "replace")
#: Tries when other phones keep saving between the read and the write.
ATTEMPTS = 3


@dataclasses.dataclass(frozen=True)
class Sent:
    """What became of a queued hand: ``outcome`` when it was written, found already stored
    (``duplicate``) or refused by the rules, else ``conflict``: the match's current version."""

    outcome: Outcome | None = None
    conflict: bool = False
    version: int = 0


@dataclasses.dataclass(frozen=True)
class Choice:
    """What a person chose in the conflict panel: ``resolution`` (None: not asked yet), and for
    ``replace`` the ``target`` hand and the ``shown`` fingerprint of it as the panel showed it
    (a phone from before fingerprints sends neither: then ``version``, the match's version
    the panel was drawn on, must still be the match's, and the target is hand ``number``)."""

    resolution: str | None = None
    target: int | None = None
    shown: str | None = None
    version: int | None = None


def fingerprint(hand: Hand) -> str:
    """A stored hand as a conflict panel showed it, in 32 hex digits, checked when the choice
    comes back: the same row with the same inputs (another hand with equal inputs, moved to
    its number when hands were deleted, was not shown; SQLite may give a new hand the id of
    a deleted one, never its time and key)."""
    row = [hand.id, hand.created_at.isoformat(), hand.request_key, hand.inputs]
    text = json.dumps(row, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def send_hand(
    load: Callable[[], Match], hand: dict[str, Any], key: str, number: int, choice: Choice
) -> Sent:
    """Store a queued hand recorded as hand ``number`` (see the module's docstring).
    ``load()`` reads the match afresh (each attempt sees what other phones committed)."""
    for _attempt in range(ATTEMPTS):
        match = load()
        # The hands first, then the key: a hand stored by a concurrent send of this very
        # request is then seen by one read or the other, never taken for another phone's.
        stored = [h.inputs for h in match.hands]
        saved = saved_with_key(match, key)
        if saved is None:
            saved = same_hand(match, stored, hand, number)
        if saved is not None:
            return Sent(Outcome(duplicate=True, hand_number=saved))
        if choice.resolution is None:
            if len(stored) != number - 1:
                return Sent(conflict=True, version=match.version)
            outcome = record_hand(match, hand, match.version, key)
        elif choice.resolution == "append":
            outcome = record_hand(match, hand, match.version, key)
        else:
            target = replaceable(match, number, choice)
            if target is None:
                return Sent(conflict=True, version=match.version)
            outcome = edit_hand(match, target, hand, match.version, key)
        if not outcome.conflict:
            return Sent(outcome)
        db.session.rollback()
    return Sent(conflict=True, version=load().version)


def same_hand(
    match: Match, stored: Sequence[dict[str, Any]], hand: dict[str, Any], number: int
) -> int | None:
    """The number of a hand stored from ``number`` on (one the sending phone did not know)
    whose inputs, as the engine reads them, equal ``hand``'s: the same hand typed on two
    phones."""
    if number > len(stored):
        return None
    game_rules = score(match).game.rules
    mine = normalized(game_rules, hand)
    if mine is None:
        return None
    for index in range(number - 1, len(stored)):
        if normalized(game_rules, stored[index]) == mine:
            return index + 1
    return None


def normalized(game_rules: rules.Rules, hand: object) -> dict[str, Any] | None:
    """A hand object as the match file writes it (defaults filled in), None if unreadable."""
    found, _problems = rules.read_hand(game_rules, hand)
    return rules.hand_to_document(game_rules, found) if found is not None else None


def replaceable(match: Match, number: int, choice: Choice) -> int | None:
    """The stored hand ``choice`` replaces, if it is still the one the person was shown: one
    of the hands from ``number`` on, unchanged since (its fingerprint; without one, the
    whole match at the version the panel was drawn on)."""
    target = choice.target if choice.target is not None else number
    if not number <= target <= len(match.hands):
        return None
    if choice.shown is None:
        return target if match.version == choice.version else None
    return target if fingerprint(match.hands[target - 1]) == choice.shown else None
