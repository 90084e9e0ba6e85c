"""Problems of a tournament file (docs/tournaments.md): a code, a path from ``$``, a message.

They are the engine's problems (:class:`anotador.rules.problems.Problem`) with this file's
own message table, so the web says them as it says the engine's. A table's match document
refused by the engine carries the engine's own problem, whose sentence becomes the
``detail`` of ours.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar

from anotador.rules.problems import N_
from anotador.rules.problems import Problem as EngineProblem

MESSAGES: dict[str, str] = {
    "not_json": N_("The file is not a JSON document in UTF-8: {detail}"),
    "type": N_("Expected {expected}."),
    "missing": N_("This value is required."),
    "unknown_key": N_("Unknown key: the tournament file does not define it."),
    "value": N_("Not a valid value: {detail}."),
    "format": N_("The format must be “{format}”."),
    "variant": N_("Must be one of: {choices}."),
    "layout": N_("A tournament table is two pairs: layout “{layout}”."),
    "options": N_("Options refused for this variant: {detail}"),
    "scale": N_("Not a victory-point scale: {detail}."),
    "scale_not_increasing": N_("The bands of the scale must increase: {detail}."),
    "system": N_("Must be one of: {choices}."),
    "too_few_pairs": N_("A tournament needs at least two pairs."),
    "duplicate_pair": N_("The pair “{pair}” is already in the tournament."),
    "kind": N_("Must be one of: {choices}."),
    "too_few_players": N_("An individual tournament needs at least four players."),
    "duplicate_player": N_("The player “{player}” is already in the tournament."),
    "unknown_player": N_("No player of the tournament is called “{player}”."),
    "too_many_rounds": N_("More rounds of results than the tournament's {rounds} rounds."),
    "round_order": N_("This must be round {round}."),
    "unknown_pair": N_("No pair of the tournament is called “{pair}”."),
    "seated_twice": N_("The pair “{pair}” is already seated in this round."),
    "duplicate_table": N_("Table {table} is already used in this round."),
    "bad_mp": N_("Expected two whole numbers, each at most {maximum} in size."),
    "table_entry": N_("Give a table its match points (mp) or its match, one of them."),
    "match_mismatch": N_("The match must be a {variant} match in layout {layout}."),
    "match_refused": N_("The match is refused: {detail}"),
    "match_incomplete": N_("The match at this table has not finished."),
    "all_rounds_played": N_("Every round of the tournament has been played."),
    "manual_pairing": N_("The director seats the tables of this tournament by hand."),
    # A tournament line of an account's backup (anotador.tournaments.operations.backup)
    "match_not_restored": N_("The match of this table (line {line}) was not restored."),
    "hand_limit_mismatch": N_(
        "The match of this table (line {line}) ends after {limit} hands, its round does "
        "not: restore a backup whose matches and tournament agree."
    ),
}


@dataclass(frozen=True, slots=True)
class Problem(EngineProblem):
    """One thing wrong with a tournament file (or with drawing its next round)."""

    messages: ClassVar[Mapping[str, str]] = MESSAGES

    def to_json(self) -> dict[str, str]:
        return {"path": self.path, "code": self.code, "message": self.message}


#: An individual tournament's problems say "player" where the same code says "pair" (§6.6).
PLAYER_MESSAGES: dict[str, str] = {
    **MESSAGES,
    "seated_twice": N_("The player “{player}” is already seated in this round."),
}


@dataclass(frozen=True, slots=True)
class PlayerProblem(Problem):
    """A problem of an individual tournament's player, whose code a pair's problem shares."""

    messages: ClassVar[Mapping[str, str]] = PLAYER_MESSAGES


class TournamentProblems(ValueError):
    """Raised when a tournament file is invalid, or when it has no next round to draw."""

    def __init__(self, problems: list[Problem]) -> None:
        super().__init__("; ".join(f"{p.path}: {p.message}" for p in problems))
        self.problems = problems


def undrawable(played: int, rounds: int, system: str) -> list[Problem]:
    """Why a valid file has no next round to draw (§5.1): every round played, or a
    ``manual`` tournament; none when it has one."""
    problems = []
    if played >= rounds:
        problems.append(Problem("$.results", "all_rounds_played"))
    if system == "manual":
        problems.append(Problem("$.system", "manual_pairing"))
    return problems
