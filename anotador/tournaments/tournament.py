"""A tournament as plain frozen data: its set-up, its pairs (or, in an individual
tournament, its players) and every result so far.

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
#: The systems of an individual tournament (§6.4).
INDIVIDUAL_SYSTEMS = ("individual-danese", "manual")
#: A file's ``kind`` (§6.1); a file without one is a tournament of pairs.
KINDS = ("pairs", "individual")


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


@dataclass(frozen=True, slots=True)
class Player:
    """A player of an individual tournament (§6.1)."""

    id: str
    name: str
    club: str = ""
    withdrawn: bool = False


#: The two players of a partnership: NS or EW at one table for one round (§6.2).
Partnership = tuple[str, str]


@dataclass(frozen=True, slots=True)
class PartnershipTable:
    """A table of an individual tournament's round: two partnerships and their MP."""

    table: int
    ns: Partnership
    ew: Partnership
    mp: tuple[int, int]
    match: Match | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class PlayerBye:
    player: str


IndividualEntry = PartnershipTable | PlayerBye


@dataclass(frozen=True, slots=True)
class IndividualRound:
    number: int
    entries: tuple[IndividualEntry, ...]

    @property
    def tables(self) -> tuple[PartnershipTable, ...]:
        return tuple(entry for entry in self.entries if isinstance(entry, PartnershipTable))

    @property
    def byes(self) -> tuple[str, ...]:
        return tuple(entry.player for entry in self.entries if isinstance(entry, PlayerBye))


@dataclass(frozen=True, kw_only=True)
class SetUp:
    """What both kinds of tournament share: everything but who plays and the results."""

    name: str
    variant: str
    layout: str
    rules: Rules
    hands_per_round: int | None
    scale: Scale
    system: str
    rounds: int
    bye_vp: int
    played_on: str = ""
    #: The options as the file wrote them (a table's match without options is read with them).
    options: Mapping[str, object] = field(default_factory=dict)


@dataclass(frozen=True, kw_only=True)
class Tournament(SetUp):
    """A tournament of pairs (§1)."""

    pairs: tuple[Pair, ...]
    results: tuple[Round, ...] = ()

    def pair_ids(self) -> tuple[str, ...]:
        return tuple(pair.id for pair in self.pairs)


@dataclass(frozen=True, kw_only=True)
class IndividualTournament(SetUp):
    """An individual tournament (§6): players who change partner every round."""

    players: tuple[Player, ...]
    results: tuple[IndividualRound, ...] = ()

    def player_ids(self) -> tuple[str, ...]:
        return tuple(player.id for player in self.players)


#: A tournament of either kind, as a file holds it.
AnyTournament = Tournament | IndividualTournament
