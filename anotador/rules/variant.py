"""The shape every variant shares: its settings, its per-hand inputs and its hooks.

A variant is data (layout defaults, options, input fields, card values) plus a few small
functions (score one side, the opening-minimum brackets, the variant's own checks). Adding a
variant means writing one module that builds a ``Variant``; nothing else changes.
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Mapping
from dataclasses import dataclass
from dataclasses import field
from typing import Any
from typing import Literal

from anotador.rules.problems import Problem

FieldKind = Literal["count", "points", "signed_points", "flag", "choice", "text"]
OptionKind = Literal["bool", "choice", "points"]
Options = Mapping[str, Any]
SideInput = Mapping[str, Any]

MAX_POINTS = 20_000
MAX_COUNT = 30
MAX_START_SCORE = 1_000_000
MAX_TARGET = 1_000_000
TIE_POLICIES = ("extra_hand", "shared")
END_REASONS = ("closed", "stock_out")


@dataclass(frozen=True, slots=True)
class Layout:
    """How many sides sit at the table and how many players form each side."""

    name: str
    sides: int
    players_per_side: int

    @property
    def individual(self) -> bool:
        """Each player is a side of their own (2 or 3 players)."""
        return self.players_per_side == 1


LAYOUTS: dict[str, Layout] = {
    layout.name: layout
    for layout in (
        Layout("2p", 2, 1),
        Layout("3p", 3, 1),
        Layout("4p", 2, 2),
        Layout("6p-3x2", 3, 2),
        Layout("6p-2x3", 2, 3),
    )
}


@dataclass(frozen=True, slots=True)
class LayoutDefaults:
    """What a variant plays by default with one layout."""

    target: int
    decks: int
    canastas_to_close: int | None = None


@dataclass(frozen=True, slots=True)
class InputField:
    """One thing the table declares per side (or per hand) after a hand.

    ``enabled_by`` names the option that must be on for the field to exist (``None``: always);
    ``enabled`` decides it from the options when that is more than one switch.
    """

    name: str
    kind: FieldKind
    default: Any = 0
    choices: tuple[str, ...] = ()
    enabled_by: str | None = None
    enabled: Callable[[Options], bool] | None = None
    nullable: bool = False

    def is_enabled(self, options: Options) -> bool:
        if self.enabled is not None:
            return self.enabled(options)
        return self.enabled_by is None or bool(options.get(self.enabled_by))


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """A per-game setting of a variant; ``choices`` empty means any value of ``kind``."""

    name: str
    kind: OptionKind
    default: Any
    choices: tuple[Any, ...] = ()


@dataclass(frozen=True)
class Variant:
    """One rule set: its data and the few functions that differ between variants."""

    name: str
    layouts: Mapping[str, LayoutDefaults]
    options: tuple[OptionSpec, ...]
    side_fields: tuple[InputField, ...]
    hand_fields: tuple[InputField, ...]
    canasta_fields: tuple[str, ...]
    card_values: Mapping[str, int]
    score_side: Callable[[Rules, SideInput, bool, Mapping[str, Any]], dict[str, int]]
    check_hand: Callable[[Rules, HandInput], list[Problem]]
    # The least card content of each kind of canasta, for the soft check on table points.
    cheapest_canastas: Mapping[str, int]
    opening_brackets: Callable[[Rules], tuple[tuple[float, int], ...]] | None
    fixed_decks: int | None = None
    has_red_threes: bool = True

    @property
    def has_canastas_to_close(self) -> bool:
        return any(d.canastas_to_close is not None for d in self.layouts.values())

    def option(self, name: str) -> OptionSpec | None:
        return next((spec for spec in self.options if spec.name == name), None)


@dataclass(frozen=True)
class Rules:
    """A variant with every setting of one match resolved (defaults filled in)."""

    variant: Variant
    layout: Layout
    target: int
    decks: int
    canastas_to_close: int | None
    tie: str
    options: Mapping[str, Any]
    # The opening table for bisect: the score bounds, and one more minimum than bounds.
    brackets: tuple[tuple[float, ...], tuple[int, ...]] | None = field(default=None, compare=False)

    def side_fields(self) -> tuple[InputField, ...]:
        """The per-side inputs that exist under these options."""
        return tuple(f for f in self.variant.side_fields if f.is_enabled(self.options))

    def hand_fields(self) -> tuple[InputField, ...]:
        """The per-hand inputs (besides end and closer) that exist under these options."""
        return tuple(f for f in self.variant.hand_fields if f.is_enabled(self.options))

    def settings(self) -> dict[str, Any]:
        """Every setting, as the match file's ``options`` object writes it."""
        common: dict[str, Any] = {"target": self.target, "decks": self.decks}
        if self.canastas_to_close is not None:
            common["canastas_to_close"] = self.canastas_to_close
        common["tie"] = self.tie
        return {**common, **self.options}


@dataclass(frozen=True, slots=True)
class HandInput:
    """What the table declared for one hand, validated and with defaults filled in.

    ``details`` holds the variant's hand-level inputs (``concealed``, ``concealed_kind``);
    each entry of ``sides`` maps every per-side field of the variant to its value.
    """

    end: str
    closer: int | None
    sides: tuple[SideInput, ...]
    details: Mapping[str, Any] = field(default_factory=dict)
    note: str = ""
