"""A whole match as plain data: rules, sides, start scores and every hand's inputs."""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field
from typing import TYPE_CHECKING

from anotador.rules.problems import Problem
from anotador.rules.variant import HandInput
from anotador.rules.variant import Rules

if TYPE_CHECKING:
    from anotador.rules.scoring import MatchScore


@dataclass(frozen=True, slots=True)
class SideInfo:
    """Who plays as one side: its name and its players in seating order."""

    name: str
    players: tuple[str, ...] = ()


@dataclass(frozen=True)
class Match:
    """A whole match: its rules, its sides and every hand, as the table declared them."""

    rules: Rules
    sides: tuple[SideInfo, ...]
    hands: tuple[HandInput, ...] = ()
    start_scores: tuple[int, ...] = ()
    title: str = ""
    played_on: str = ""
    notes: str = ""
    abandoned: bool = False
    #: Played to this many hands (a tournament's round): the game ends after them, if no
    #: side reached the target first. None: played to the target only.
    hand_limit: int | None = None
    #: With ``hand_limit``: every one of its hands is played, the target does not end the
    #: game first (a round of N smazzate whose director set no target).
    play_every_hand: bool = False
    warnings: tuple[Problem, ...] = field(default=(), compare=False)
    # The score of this (immutable) match, kept by scoring.score_match once computed.
    scored: MatchScore | None = field(default=None, init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        if not self.start_scores:
            object.__setattr__(self, "start_scores", (0,) * len(self.sides))
