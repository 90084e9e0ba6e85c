"""Signals the app sends (blinker, as Flask's own): live pages and spectators listen.

:data:`match_changed` is sent *after* the commit of every write to a match (a new match, a
hand recorded, edited, deleted or undone, an abandon or resume, a rename or merge of a player
that changes a match's file, an import or demo seed: one send per batch, a summary repaired
by ``anotador check --fix``), never for a write that was refused or lost to another phone.
The sender is the app; the keywords are ``match_ids`` (a tuple of ids) and ``change`` (what
happened: ``created``, ``hand_recorded``, ``hand_edited``, ``hand_deleted``, ``abandoned``,
``resumed``, ``players_renamed``, ``imported``, ``repaired``)::

    @match_changed.connect_via(app)
    def refresh(app, match_ids, change): ...

A listener runs in the request (or command) that made the change, in its app context, with
the change already committed; what it raises reaches that request.

:data:`match_changing` is sent *inside* every change to a match that claims its version (a
hand recorded, edited, deleted or undone, an abandon or resume), right after the claim, by
:func:`anotador.services.matches.claim_version`: the one place every door (the planilla, a
table link, a phone's outbox) goes through. The keywords are ``match`` (its row's new columns
already set), ``change`` (as above) and ``before`` (its ``totals`` and ``status`` before the
change). A receiver returns the problems that refuse the change (then the claim is rolled
back and nothing is written) or none, and may add rows of its own to the change's
transaction: a tournament refuses a change to a closed table and logs a correction
(:mod:`anotador.tournaments.operations.tables`, connected by the factory).
"""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Mapping
from typing import Any

from blinker import Namespace
from flask import current_app

signals = Namespace()

match_changed = signals.signal("match-changed")
match_changing = signals.signal("match-changing")


def changed(change: str, *match_ids: int) -> None:
    """Send :data:`match_changed` for ``match_ids`` (nothing when there are none)."""
    changed_many(change, match_ids)


def changed_many(change: str, match_ids: Iterable[int]) -> None:
    ids = tuple(match_ids)
    if ids:
        sender = current_app._get_current_object()  # type: ignore[attr-defined]
        match_changed.send(sender, match_ids=ids, change=change)


def refusals(change: str, match: Any, before: Mapping[str, Any]) -> list[Any]:
    """Send :data:`match_changing`; the problems its receivers refuse the change with."""
    sender = current_app._get_current_object()  # type: ignore[attr-defined]
    found: list[Any] = []
    for _receiver, problems in match_changing.send(
        sender, match=match, change=change, before=before
    ):
        found.extend(problems or ())
    return found
