"""Where each of a side's inputs goes on the hand form, by its role: what most hands need in
view, what few hands need behind one tap (the rarer canasta kinds, the penalties, a special
hand), so a typical hand fits on about one and a half phone screens. Every input is still in
the page: without JavaScript a disclosure opens natively, and one with a value or a problem
is rendered open."""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field as dataclass_field

from wtforms import Field

from anotador.rules import Role
from anotador.web.forms.hand import HandForm

CANASTAS = (
    Role.CLEAN_CANASTAS,
    Role.DIRTY_CANASTAS,
    Role.OTHER_CANASTAS,
    Role.INCLUDED_CANASTAS,
)
#: The canasta kinds most hands have: the first clean and the first dirty field.
USUAL_CANASTAS = (Role.CLEAN_CANASTAS, Role.DIRTY_CANASTAS)
COUNTED = (Role.RED_THREES, Role.BLACK_THREES, Role.CARDS_IN_HAND)
POINTS = (Role.TABLE_POINTS, Role.HAND_POINTS)
BEHIND_THE_ADJUSTMENT = (Role.PENALTY, Role.ADJUSTMENT, Role.ADJUSTMENT_NOTE)


@dataclass
class SideInputs:
    """One side's inputs, grouped as the form shows them."""

    counts: list[Field] = dataclass_field(default_factory=list)
    more_kinds: list[Field] = dataclass_field(default_factory=list)
    points: list[Field] = dataclass_field(default_factory=list)
    others: list[Field] = dataclass_field(default_factory=list)
    special: list[Field] = dataclass_field(default_factory=list)
    penalties: list[Field] = dataclass_field(default_factory=list)

    @staticmethod
    def filled(fields: list[Field]) -> bool:
        """A disclosure of these fields starts open: one holds a value or a problem."""
        return any(f.errors or f.data not in (None, "", False, 0) for f in fields)


def side_inputs(form: HandForm, index: int) -> SideInputs:
    """Side ``index``'s inputs in their groups (the adjustment is apart, as before)."""
    groups = SideInputs()
    usual: set[Role] = set()
    for spec in form.game_rules.side_fields():
        f = form[f"s{index}_{spec.name}"]
        role = spec.role
        if role in CANASTAS:
            if role in USUAL_CANASTAS and role not in usual:
                usual.add(role)
                groups.counts.append(f)
            else:
                groups.more_kinds.append(f)
        elif role in COUNTED:
            groups.counts.append(f)
        elif role in POINTS:
            groups.points.append(f)
        elif role is Role.SPECIAL_HAND:
            groups.special.append(f)
        elif role is Role.PENALTY:
            groups.penalties.append(f)
        elif role not in BEHIND_THE_ADJUSTMENT:
            groups.others.append(f)
    return groups
