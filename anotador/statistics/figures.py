"""Each side's figures over one match, made from the engine's scored match: what the
statistics (:mod:`anotador.statistics.summaries`) add up and what ``Side.figures`` stores. Pure, no
database, no Flask."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from collections.abc import Sequence
from dataclasses import asdict
from dataclasses import dataclass
from typing import Any

from anotador import rules
from anotador.rules import Role


@dataclass(frozen=True)
class SideHand:
    """One side's result in one hand."""

    score: int
    closed: bool
    clean: int
    dirty: int
    red_threes: int
    # Canastas of each kind, by canasta field (the variant's own kinds), and whether the
    # side laid down a special hand.
    kinds: tuple[tuple[str, int], ...] = ()
    special: bool = False


@dataclass(frozen=True)
class SideFigures:
    """One side's figures over one match's hands: what the statistics add up. Stored with
    the side (``Side.figures``, rewritten with every change to the match), so statistics
    read them instead of scoring every match again."""

    hands: int = 0
    points: int = 0
    closed: int = 0
    clean: int = 0
    dirty: int = 0
    red_threes: int = 0
    special_hands: int = 0
    #: Canastas of each kind, by canasta field in the variant's order (none without hands).
    kinds: tuple[tuple[str, int], ...] = ()
    #: The side's best hand: its score and number (1-based; the first of equal ones).
    best_score: int | None = None
    best_number: int | None = None

    @classmethod
    def of(cls, hands: Sequence[SideHand]) -> SideFigures:
        kinds: Counter[str] = Counter()
        best: tuple[int, int] | None = None
        for number, hand in enumerate(hands, start=1):
            for kind, count in hand.kinds:
                kinds[kind] += count
            if best is None or hand.score > best[0]:
                best = (hand.score, number)
        return cls(
            hands=len(hands),
            points=sum(hand.score for hand in hands),
            closed=sum(hand.closed for hand in hands),
            clean=sum(hand.clean for hand in hands),
            dirty=sum(hand.dirty for hand in hands),
            red_threes=sum(hand.red_threes for hand in hands),
            special_hands=sum(hand.special for hand in hands),
            kinds=tuple(kinds.items()),
            best_score=best[0] if best else None,
            best_number=best[1] if best else None,
        )

    def plus(self, hand: SideHand) -> SideFigures:
        """These figures with one more hand played after the others (what :meth:`of` gives
        for the hands and this one)."""
        kinds = Counter(dict(self.kinds))
        for kind, count in hand.kinds:
            kinds[kind] += count
        number = self.hands + 1
        better = self.best_score is None or hand.score > self.best_score
        return SideFigures(
            hands=number,
            points=self.points + hand.score,
            closed=self.closed + hand.closed,
            clean=self.clean + hand.clean,
            dirty=self.dirty + hand.dirty,
            red_threes=self.red_threes + hand.red_threes,
            special_hands=self.special_hands + hand.special,
            kinds=tuple(kinds.items()),
            best_score=hand.score if better else self.best_score,
            best_number=number if better else self.best_number,
        )

    def to_document(self) -> dict[str, Any]:
        """As stored (JSON)."""
        document = asdict(self)
        document["kinds"] = [list(pair) for pair in self.kinds]
        return document

    @classmethod
    def from_document(cls, document: dict[str, Any]) -> SideFigures:
        known = {name: document[name] for name in cls.__dataclass_fields__ if name in document}
        known["kinds"] = tuple((str(kind), int(count)) for kind, count in known.get("kinds", ()))
        return cls(**known)


def side_figures(game: rules.Match, score: rules.MatchScore) -> list[SideFigures]:
    """Each side's figures in a match scored by the engine.

    Clean and dirty canastas are the inputs with those roles (canastas also counted in another
    field, and those of other kinds, are neither)."""
    read = side_hand_reader(game)
    hands = list(zip(game.hands, score.hands, strict=True))
    return [
        SideFigures.of([read(hand, scored, index) for hand, scored in hands])
        for index in range(len(game.sides))
    ]


def with_last_hand(
    earlier: Sequence[SideFigures], game: rules.Match, score: rules.MatchScore
) -> list[SideFigures]:
    """What :func:`side_figures` gives, from each side's figures over every hand of the
    match but its last (a save adds one hand: the others are not added up again)."""
    read = side_hand_reader(game)
    hand, scored = game.hands[-1], score.hands[-1]
    return [figures.plus(read(hand, scored, index)) for index, figures in enumerate(earlier)]


SideHandReader = Callable[[rules.HandInput, rules.HandScore, int], SideHand]


def side_hand_reader(game: rules.Match) -> SideHandReader:
    """The :class:`SideHand` of side ``index`` in a hand of ``game`` and its score."""
    roles = game.rules.variant.roles
    clean_fields, dirty_fields, red_fields = (
        [spec.name for spec in roles.get(role, ())]
        for role in (Role.CLEAN_CANASTAS, Role.DIRTY_CANASTAS, Role.RED_THREES)
    )
    kinds = game.rules.variant.canasta_fields
    special_fields = [spec.name for spec in roles.get(Role.SPECIAL_HAND, ())]

    def read(hand: rules.HandInput, scored: rules.HandScore, index: int) -> SideHand:
        inputs = hand.sides[index]
        return SideHand(
            score=scored.sides[index].score,
            closed=hand.closer == index,
            clean=sum(inputs.get(name, 0) for name in clean_fields),
            dirty=sum(inputs.get(name, 0) for name in dirty_fields),
            red_threes=sum(inputs.get(name, 0) for name in red_fields),
            kinds=tuple((kind, inputs.get(kind, 0)) for kind in kinds),
            special=any(inputs.get(name) is not None for name in special_fields),
        )

    return read
