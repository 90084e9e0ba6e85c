"""The shape every variant shares: its settings, its per-hand inputs and its hooks.

A variant is data (layout defaults, options, input fields, card values, the parts of a score,
adjustment presets) plus a few small functions (score one side, the opening-minimum brackets,
the variant's own checks, its blank sheet's reference box). Each input field has a
:class:`Role`, so the rest of the app asks for "the red threes" or "the clean canastas"
instead of a variant's own field names. Adding a variant means writing one module that builds
a ``Variant`` and registering it (``variants.VARIANTS``), plus its words in the label table and
the catalogs; nothing else changes.
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Mapping
from dataclasses import dataclass
from dataclasses import field
from enum import StrEnum
from functools import cached_property
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


class Role(StrEnum):
    """What an input field is, whatever a variant calls it: statistics, the demo, the hand
    form, the match page and the printed sheet ask for a role, never for a field's name."""

    #: Canastas counted as clean (pure, limpia, aces pure...) in the statistics.
    CLEAN_CANASTAS = "clean_canastas"
    #: Canastas counted as dirty (impure, sucia...).
    DIRTY_CANASTAS = "dirty_canastas"
    #: Canastas of another kind (wild cards, pinelle...): neither clean nor dirty.
    OTHER_CANASTAS = "other_canastas"
    #: Canastas also counted in another canasta field (uruguaya's aces canastas).
    INCLUDED_CANASTAS = "included_canastas"
    #: How many red threes the side laid down.
    RED_THREES = "red_three_count"
    #: How many black threes the side laid aside (a variant that scores them, as mac).
    BLACK_THREES = "black_three_count"
    #: The card points the side melded on the table.
    TABLE_POINTS = "table_card_points"
    #: The card points left in the side's hands.
    HAND_POINTS = "hand_card_points"
    #: Cards of one kind (``InputField.card``) left in hand and priced apart.
    CARDS_IN_HAND = "cards_left_in_hand"
    #: Something else the side declares that earns a premium (a flag or a count).
    PREMIUM = "premium"
    #: Something the side declares that costs points (an unfinished meld, a card kept...).
    PENALTY = "penalty"
    #: A choice (nullable) of a hand laid down at once that replaces the side's whole score
    #: and ends the hand (``Variant.special_end``): the side's other inputs stay empty.
    SPECIAL_HAND = "special_hand"
    #: A state of the side, one of the field's choices (the muerto).
    STATE = "side_state"
    #: The manual adjustment (+/-) every variant has, and the reason for it.
    ADJUSTMENT = "adjustment_points"
    ADJUSTMENT_NOTE = "adjustment_reason"
    #: A hand field: the closer went out concealed (a flag), or how (a choice).
    CONCEALED = "concealed_close"


@dataclass(frozen=True, slots=True)
class InputField:
    """One thing the table declares per side (or per hand) after a hand.

    ``enabled_by`` names the option that must be on for the field to exist (``None``: always);
    ``enabled`` decides it from the options when that is more than one switch. ``role`` says
    what the field is (:class:`Role`); ``card`` names the card kind a ``CARDS_IN_HAND`` field
    counts (the card calculator leaves that kind out of the hand's points).
    """

    name: str
    kind: FieldKind
    default: Any = 0
    choices: tuple[str, ...] = ()
    enabled_by: str | None = None
    enabled: Callable[[Options], bool] | None = None
    nullable: bool = False
    role: Role = field(kw_only=True)
    card: str | None = field(default=None, kw_only=True)

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


@dataclass(frozen=True, slots=True)
class Reference:
    """The figures a blank sheet prints for the table to look up, as language-neutral keys
    (the label table words them): canasta bonuses by canasta field name, closing rows and notes
    by reference key (a note's params fill its sentence), red-three values from one up (the
    threes of each colour where a variant scores both alike), special hands by choice."""

    canastas: tuple[tuple[str, int], ...] = ()
    closing: tuple[tuple[str, int], ...] = ()
    red_threes: tuple[int, ...] = ()
    notes: tuple[tuple[str, Mapping[str, Any]], ...] = ()
    #: Penalties by reference key (mac's unfinished melds), and the hands laid down at once
    #: with what each is worth, by ``SPECIAL_HAND`` choice.
    penalties: tuple[tuple[str, int], ...] = ()
    special_hands: tuple[tuple[str, int], ...] = ()
    #: The reference keys that title the threes' values (None: the red threes) and the card
    #: values (None: cards; Burako's are tiles).
    threes_title: str | None = None
    cards_title: str | None = None


def no_reference(rules: Rules) -> Reference:
    return Reference()


def no_premiums(options: Options) -> Mapping[str, int]:
    return {}


def no_special_hands(options: Options) -> Mapping[str, int]:
    return {}


@dataclass(frozen=True)
class Variant:
    """One rule set: its data and the few functions that differ between variants.

    ``parts`` names every part ``score_side`` may return, plus ``adjustment``, in the order a
    sheet's columns show them. ``typical_layouts`` weighs how often tables play each layout
    (for demo data). ``adjustment_presets`` are named penalties the hand form offers to add to
    the adjustment; ``concealed_premiums`` what each choice of a ``CONCEALED`` choice field
    adds to going out, under the given options. ``special_end`` is the hand's end reason when
    a side lays down a ``SPECIAL_HAND`` (None: the variant has none), ``special_hands`` what
    each choice of it is worth under the given options, and ``wins_at_once`` the side whose
    hand ends the game and wins it whatever the totals (asked only of a hand that ended with
    ``special_end``; None: only the usual end, §1.4).
    """

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
    parts: tuple[str, ...]
    reference: Callable[[Rules], Reference] = no_reference
    fixed_decks: int | None = None
    typical_layouts: Mapping[str, int] = field(default_factory=dict)
    adjustment_presets: Mapping[str, int] = field(default_factory=dict)
    concealed_premiums: Callable[[Options], Mapping[str, int]] = no_premiums
    special_end: str | None = None
    special_hands: Callable[[Options], Mapping[str, int]] = no_special_hands
    #: What the game is played with, for the calculator's words: cards, or tiles (Burako).
    pieces: Literal["cards", "tiles"] = "cards"
    #: The game the rule set belongs to, where variants are grouped (the ratings' filter):
    #: canasta, or burraco for its two cousins played with a muerto or pozzetto (§10–§11).
    family: Literal["canasta", "burraco"] = "canasta"
    wins_at_once: Callable[[Rules, HandInput], int | None] | None = None

    @property
    def end_reasons(self) -> tuple[str, ...]:
        """What a hand's ``end`` may be: closed, stock out, and the variant's special end."""
        if self.special_end is None:
            return END_REASONS
        return (*END_REASONS, self.special_end)

    @property
    def has_canastas_to_close(self) -> bool:
        return any(d.canastas_to_close is not None for d in self.layouts.values())

    @property
    def has_red_threes(self) -> bool:
        return Role.RED_THREES in self.roles

    def option(self, name: str) -> OptionSpec | None:
        return next((spec for spec in self.options if spec.name == name), None)

    @cached_property
    def roles(self) -> Mapping[Role, tuple[InputField, ...]]:
        """The side fields of each role, in order (hand fields: :attr:`hand_roles`)."""
        return by_role(self.side_fields)

    @cached_property
    def hand_roles(self) -> Mapping[Role, tuple[InputField, ...]]:
        return by_role(self.hand_fields)

    def name_of(self, role: Role) -> str:
        """The name of the (first) side field with ``role``; KeyError when it has none."""
        return self.roles[role][0].name

    def concealed_kind(self, details: Mapping[str, Any]) -> str | None:
        """How the closer went out when not plainly: the name of a ``CONCEALED`` flag that is
        set, or the choice made in a ``CONCEALED`` choice field; None for a plain close."""
        for spec in self.hand_roles.get(Role.CONCEALED, ()):
            value = details.get(spec.name)
            if spec.kind == "flag" and value:
                return spec.name
            if spec.kind == "choice" and value is not None:
                return str(value)
        return None

    def special_hand(self, hand: HandInput) -> tuple[int, str] | None:
        """The side that laid down a ``SPECIAL_HAND`` in ``hand`` and which one (None: none)."""
        for spec in self.roles.get(Role.SPECIAL_HAND, ()):
            for index, side in enumerate(hand.sides):
                if side.get(spec.name) is not None:
                    return index, str(side[spec.name])
        return None


def weighed(weights: Mapping[str, int]) -> Callable[[SideInput], int]:
    """A side's sum of ``weights[field] * side[field]`` (canasta bonuses by kind): scoring
    runs it for every side of every hand, so it is a plain loop over pairs made once (the
    fastest form on CPython 3.11)."""
    pairs = tuple(weights.items())

    def total(side: SideInput) -> int:
        points = 0
        for name, weight in pairs:
            points += weight * side[name]
        return points

    return total


def by_role(fields: tuple[InputField, ...]) -> dict[Role, tuple[InputField, ...]]:
    found: dict[Role, tuple[InputField, ...]] = {}
    for spec in fields:
        found[spec.role] = (*found.get(spec.role, ()), spec)
    return found


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

    def fields_with(self, role: Role) -> tuple[InputField, ...]:
        """The per-side inputs with ``role`` that exist under these options."""
        return tuple(f for f in self.variant.roles.get(role, ()) if f.is_enabled(self.options))

    def field_with(self, role: Role) -> InputField | None:
        """The first per-side input with ``role`` under these options (None: there is none)."""
        return next(iter(self.fields_with(role)), None)

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
