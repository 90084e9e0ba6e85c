"""What the games with a second hand to take share: `real` (§5), `burako` (§10) and `burraco`
(§11). Each side has a muerto (Burraco's pozzetto); going out needs it taken and a canasta of
some kinds; a hand is scored as canastas, table, closing, the muerto and the cards in hand.
Each variant module keeps its own figures and passes them here.
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Sequence

from anotador.rules.problems import Problem
from anotador.rules.variant import HandInput
from anotador.rules.variant import InputField
from anotador.rules.variant import LayoutDefaults
from anotador.rules.variant import Role
from anotador.rules.variant import SideInput

CLOSING = 100  # the final close, in all three games
UNTAKEN_PENALTY = 100  # a side that never took its muerto
TAKEN = "taken"
NOT_TAKEN = "not_taken"
TABLE_POINTS = "table_points"
HAND_POINTS = "hand_points"


def layouts(target: int) -> dict[str, LayoutDefaults]:
    """One against one (each with a muerto) and two pairs (one muerto per pair)."""
    return {
        "2p": LayoutDefaults(target=target, decks=2),
        "4p": LayoutDefaults(target=target, decks=2),
    }


def side_fields(
    canastas: Sequence[InputField], state: str, states: tuple[str, ...]
) -> tuple[InputField, ...]:
    """The canasta counts, the points, the muerto's state and the adjustment."""
    return (
        *canastas,
        InputField(TABLE_POINTS, "points", role=Role.TABLE_POINTS),
        InputField(HAND_POINTS, "points", role=Role.HAND_POINTS),
        # The demo data's closer keeps the default (taken); others sometimes the second choice.
        InputField(state, "choice", TAKEN, states, role=Role.STATE),
        InputField("adjustment", "signed_points", role=Role.ADJUSTMENT),
        InputField("adjustment_note", "text", "", role=Role.ADJUSTMENT_NOTE),
    )


def score_parts(
    side: SideInput,
    is_closer: bool,
    bonuses: Callable[[SideInput], int],
    state: str,
    muerto: int,
    table_sign: int = 1,
) -> dict[str, int]:
    """canastas (``bonuses``, :func:`~anotador.rules.variant.weighed`) + (±) table + closing
    + the muerto's points (part ``state``) − hand."""
    return {
        "canastas": bonuses(side),
        "table": table_sign * side[TABLE_POINTS],
        "closing": CLOSING if is_closer else 0,
        state: muerto,
        "hand": -side[HAND_POINTS],
    }


def check_closer(
    hand: HandInput, state: str, state_code: str, kinds: Sequence[str], kinds_code: str
) -> list[Problem]:
    """Going out needs the side's muerto taken (``state`` is ``taken``) and at least one
    canasta of ``kinds``; each missing one is a problem (``state_code``, ``kinds_code``)."""
    closer = hand.closer
    if closer is None:
        return []
    side = hand.sides[closer]
    problems = []
    if side[state] != TAKEN:
        problems.append(Problem(f"sides[{closer}].{state}", state_code))
    if not any(side[kind] for kind in kinds):
        problems.append(Problem("closer", kinds_code))
    return problems
