"""Hands a phone recorded without a connection, sent when the signal returns.

A queued hand says which number it was recorded as (``number``: the match had ``number - 1``
hands on the phone). When the match still has that many, it is appended; when another phone
saved hands meanwhile (or deleted some), the sender gets the conflict and a person chooses:
keep both (``append``: mine after theirs), replace theirs (``replace``), or drop mine (the
phone simply forgets it). The one-time request key makes every retry store the hand once.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from anotador.extensions import db
from anotador.models import Match
from anotador.services.hands import Outcome
from anotador.services.hands import edit_hand
from anotador.services.hands import record_hand
from anotador.services.hands import saved_with_key

#: How a sender settles a conflict: mine after theirs, or mine in place of theirs.
RESOLUTIONS = ("append", "replace")
#: Tries when other phones keep saving between the read and the write.
ATTEMPTS = 3


@dataclasses.dataclass(frozen=True)
class Sent:
    """What became of a queued hand: ``outcome`` when it was written (or refused by the
    rules), else ``conflict``: the match's current version and the hands after ``number - 1``
    another phone saved (possibly none, when it deleted some)."""

    outcome: Outcome | None = None
    conflict: bool = False
    version: int = 0


def send_hand(
    load: Callable[[], Match],
    hand: dict[str, Any],
    key: str,
    number: int,
    resolution: str | None,
    version: int | None,
) -> Sent:
    """Store a queued hand recorded as hand ``number``. ``load()`` reads the match afresh
    (each attempt sees what other phones committed). Without ``resolution`` it is appended
    only when the match has exactly ``number - 1`` hands; ``append`` appends it whatever came
    before, ``replace`` puts it in place of hand ``number``: both only while the match is at
    ``version``, the state the person chose from."""
    for _attempt in range(ATTEMPTS):
        match = load()
        saved = saved_with_key(match, key)
        if saved is not None:
            return Sent(Outcome(duplicate=True, hand_number=saved))
        if resolution is None and len(match.hands) != number - 1:
            return Sent(conflict=True, version=match.version)
        if resolution is not None and match.version != version:
            return Sent(conflict=True, version=match.version)
        if resolution == "replace":
            if not 1 <= number <= len(match.hands):
                return Sent(conflict=True, version=match.version)
            outcome = edit_hand(match, number, hand, match.version, key)
        else:
            outcome = record_hand(match, hand, match.version, key)
        if not outcome.conflict:
            return Sent(outcome)
        db.session.rollback()
    return Sent(conflict=True, version=load().version)
