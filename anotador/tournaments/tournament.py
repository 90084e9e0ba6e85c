"""A tournament as plain frozen data: its set-up, its pairs and every result so far.

Only inputs: the MP of a table given as a match document are read from it once, when the
file is read; VP, standings and draws are computed from these values by the other modules.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from dataclasses import field

from anotador.rules import Match
from anotador.rules import Rules
from anotador.tournaments.victory_points import Scale

FORMAT = "anotador-tournament/1"
SYSTEMS = ("mitchell", "danese", "danese-modificato", "round-robin", "manual", "swiss")


@dataclass(frozen=True, slots=True)
class Pair:
    id: str
    players: tuple[str, str]
    club: str = ""
    withdrawn: bool = False


@dataclass(frozen=True, slots=True)
class Table:
    """A table of a round: NS against EW and their MP (from ``match`` when it was scored in
    the app, None when the MP were written by hand)."""

    table: int
    ns: str
    ew: str
    mp: tuple[int, int]
    match: Match | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class Bye:
    pair: str


Entry = Table | Bye


@dataclass(frozen=True, slots=True)
class Round:
    number: int
    entries: tuple[Entry, ...]

    @property
    def tables(self) -> tuple[Table, ...]:
        return tuple(entry for entry in self.entries if isinstance(entry, Table))

    @property
    def byes(self) -> tuple[str, ...]:
        return tuple(entry.pair for entry in self.entries if isinstance(entry, Bye))


@dataclass(frozen=True)
class Tournament:
    name: str
    variant: str
    layout: str
    rules: Rules
    hands_per_round: int | None
    scale: Scale
    system: str
    rounds: int
    bye_vp: int
    pairs: tuple[Pair, ...]
    results: tuple[Round, ...] = ()
    played_on: str = ""
    #: The options as the file wrote them (a table's match without options is read with them).
    options: Mapping[str, object] = field(default_factory=dict)

    def pair_ids(self) -> tuple[str, ...]:
        return tuple(pair.id for pair in self.pairs)
