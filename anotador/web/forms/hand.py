"""The hand form: built per match from the variant's input fields.

Field names are flat so the engine's problem paths map onto them directly: ``closer``,
``note`` and the variant's hand fields by their names for the hand, ``s<i>_<field>`` for side
``i`` (``sides[1].<field>`` -> ``s1_<field>``), and ``s<i>_t_<card>`` / ``s<i>_h_<card>`` for the
card calculator's table and hand counts. The form finds the points, the adjustment and the
concealed close by their roles (:class:`anotador.rules.Role`), and its words in
:mod:`anotador.words.labels`.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from flask_babel import LazyString
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from wtforms import Field
from wtforms import HiddenField
from wtforms import RadioField
from wtforms import StringField
from wtforms import validators

from anotador import rules
from anotador.rules import Role
from anotador.rules.text import MAX_TEXT
from anotador.rules.variant import InputField
from anotador.tournaments.limits import MAX_REASON
from anotador.web import inputs
from anotador.web.forms.hand_fields import MAX_CARDS
from anotador.web.forms.hand_fields import NOBODY
from anotador.web.forms.hand_fields import SPECIAL
from anotador.web.forms.hand_fields import card_label
from anotador.web.forms.hand_fields import closer_choices
from anotador.web.forms.hand_fields import hand_field
from anotador.web.forms.hand_fields import number_field
from anotador.web.forms.hand_fields import side_field
from anotador.web.forms.match import Form
from anotador.words import labels
from anotador.words.i18n import problem_message


class HandForm(Form):
    """Fields are added per match by :func:`hand_form`; this holds what every hand has."""

    request_key = HiddenField()
    version = HiddenField()
    note = StringField(
        _l("Note about this hand"), [validators.Length(max=MAX_TEXT, message=_l("Too long."))]
    )
    #: A tournament table's correction: the director's reason, kept in the change log.
    reason = StringField(
        _l("Reason for the correction (optional)"), render_kw={"maxlength": MAX_REASON}
    )

    game_rules: rules.Rules
    side_names: Sequence[str]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.hand_errors: list[str] = []
        self.hand_warnings: list[str] = []
        self.field_warnings: dict[str, list[str]] = {}

    # What the template walks through

    def hand_level_fields(self) -> list[Field]:
        return [self[spec.name] for spec in self.game_rules.hand_fields()]

    def side_value_fields(self, index: int) -> list[Field]:
        return [self[f"s{index}_{spec.name}"] for spec in self.game_rules.side_fields()]

    def calculator(self, index: int, where: str) -> list[Field]:
        kinds = calculator_kinds(self.game_rules, where)
        return [self[f"s{index}_{where}_{kind}"] for kind in kinds]

    def calculator_words(self) -> tuple[str, str, str]:
        """The calculator's title and its two groups, in what the game is played with."""
        if self.game_rules.variant.pieces == "tiles":
            return _("Tile calculator"), _("Tiles on the table"), _("Tiles in hand")
        return _("Card calculator"), _("Cards on the table"), _("Cards in hand")

    def role_field(self, index: int, role: Role) -> Field:
        """Side ``index``'s input with ``role`` (the points, the adjustment...)."""
        spec = self.game_rules.field_with(role)
        if spec is None:
            raise KeyError(role)
        return self[f"s{index}_{spec.name}"]

    def calculator_target(self, index: int, where: str) -> Field:
        """The points the card calculator fills: on the table (``t``) or in hand (``h``)."""
        return self.role_field(index, Role.TABLE_POINTS if where == "t" else Role.HAND_POINTS)

    def adjustment_fields(self, index: int) -> tuple[Field, Field]:
        """Side ``index``'s adjustment and the reason for it."""
        return self.role_field(index, Role.ADJUSTMENT), self.role_field(index, Role.ADJUSTMENT_NOTE)

    def penalties(self) -> dict[str, tuple[str, int]]:
        """The variant's adjustment presets: key -> (label, points)."""
        presets = self.game_rules.variant.adjustment_presets
        return {key: (labels.say("penalty", key), value) for key, value in presets.items()}

    # Reading and filling

    def version_number(self) -> int:
        """The match version the form was rendered with (-1, a stale one, when unreadable)."""
        try:
            version = inputs.row_id(self.version.data)
        except inputs.BadInput:
            version = None
        return -1 if version is None else version

    def key(self) -> str:
        """The one-time request key; :class:`~anotador.web.inputs.BadInput` when there is none
        (a hand saved without one could be recorded twice by a double tap)."""
        return inputs.request_key(self.request_key.data)

    @property
    def last_side(self) -> int:
        return len(self.side_names) - 1

    def special_hand_chosen(self) -> bool:
        """A side laid down a special hand (its choice is set), or the closer's choice says so."""
        chosen = [
            self[f"s{index}_{spec.name}"].data
            for spec in self.game_rules.fields_with(Role.SPECIAL_HAND)
            for index in range(len(self.side_names))
        ]
        return self.closer.data == SPECIAL or any(chosen)

    def to_hand(self) -> dict[str, Any]:
        """The match-file hand object; empty fields are left out so defaults apply."""
        closer = self.closer.data
        special_end = self.game_rules.variant.special_end
        if special_end is not None and self.special_hand_chosen():
            hand: dict[str, Any] = {"end": special_end, "closer": None}
        else:
            hand = {
                "end": "stock_out" if closer == NOBODY else "closed",
                "closer": None if closer == NOBODY else inputs.integer(closer, 0, self.last_side),
            }
        for spec in self.game_rules.hand_fields():
            value = self[spec.name].data
            if value not in (None, "", False):
                hand[spec.name] = value
        hand["sides"] = [self.side_inputs(index) for index in range(len(self.side_names))]
        if self.note.data and self.note.data.strip():
            hand["note"] = self.note.data.strip()
        return hand

    def side_inputs(self, index: int) -> dict[str, Any]:
        side: dict[str, Any] = {}
        for spec in self.game_rules.side_fields():
            value = self[f"s{index}_{spec.name}"].data
            if isinstance(value, str):
                value = value.strip()
            if value not in (None, "", False):
                side[spec.name] = value
        return side

    def calculate(self, index: int) -> None:
        """Fill side ``index``'s table and hand points from its card counts (no JS)."""
        for where in ("t", "h"):
            counts = {
                field.name.rsplit(f"_{where}_", 1)[1]: field.data
                for field in self.calculator(index, where)
                if isinstance(field.data, int) and 0 <= field.data <= MAX_CARDS
            }
            if counts:
                points = rules.card_points(self.game_rules.variant.name, counts)
                target = self.calculator_target(index, where)
                target.data, target.raw_data = points, [str(points)]

    def add_penalty(self, index: int, key: str) -> None:
        """Add one of the variant's penalties to side ``index``'s adjustment (no JS)."""
        if key not in self.penalties():
            return
        label, points = self.penalties()[key]
        adjustment, note = self.adjustment_fields(index)
        total = (adjustment.data if isinstance(adjustment.data, int) else 0) + points
        adjustment.data, adjustment.raw_data = total, [str(total)]
        text = f"{label} ({points})"
        note.data = f"{note.data.strip()}; {text}" if note.data and note.data.strip() else text
        note.raw_data = [note.data]

    def show_problems(self, problems: Sequence[rules.Problem]) -> None:
        """Put each engine problem next to its field (form-level when it has none), once: the
        save and the previews of :func:`anotador.web.views.hands.every_problem` may find it
        twice."""
        for problem in problems:
            message = problem_message(problem)
            name = field_name(problem.path)
            hand = hand_number_of(problem.path)
            if hand is not None:
                message = _("Hand %(number)d: %(message)s", number=hand, message=message)
            if problem.severity == "warning":
                shown = self.field_warnings.setdefault(name, []) if name in self else None
                found = self.hand_warnings if shown is None else shown
            elif name in self:
                found = self[name].errors = list(self[name].errors)
            else:
                found = self.hand_errors
            if message not in found:
                found.append(message)


def calculator_kinds(game_rules: rules.Rules, where: str) -> list[str]:
    """The card kinds counted for the table (``t``) or the hand (``h``); a kind left in hand
    that the side declares apart (black threes priced at 100 each) is not counted in hand."""
    kinds = list(rules.card_kinds(game_rules.variant.name))
    if where == "h":
        apart = {spec.card for spec in game_rules.fields_with(Role.CARDS_IN_HAND)}
        kinds = [kind for kind in kinds if kind not in apart]
    return kinds


def field_name(path: str) -> str:
    """``sides[1].<field>`` -> ``s1_<field>``; ``end`` -> ``closer``; else the path."""
    found = rules.side_field(path)
    if found is not None:
        return f"s{found[0]}_{found[1]}"
    return "closer" if path == "end" else path


def hand_number_of(path: str) -> int | None:
    """A problem of another hand (``hands[4]``, e.g. a later hand after the end): its number."""
    index = rules.hand_index(path)
    return None if index is None else index + 1


#: What a hand form's fields are made of (and nothing else: no names, no words): the hand's
#: and the sides' input fields, the concealed premiums, the calculator's cards (kind, value)
#: for the table and the hand, and the number of sides.
Shape = tuple[
    tuple[InputField, ...],
    tuple[tuple[str, int], ...],
    tuple[InputField, ...],
    tuple[tuple[str, tuple[tuple[str, int], ...]], ...],
    int,
    bool,
]


def form_shape(game_rules: rules.Rules, sides: int) -> Shape:
    values = rules.card_kinds(game_rules.variant.name)
    premiums = game_rules.variant.concealed_premiums(game_rules.options)
    return (
        tuple(game_rules.hand_fields()),
        tuple(sorted(premiums.items())),
        tuple(game_rules.side_fields()),
        tuple(
            (where, tuple((kind, values[kind]) for kind in calculator_kinds(game_rules, where)))
            for where in ("t", "h")
        ),
        sides,
        game_rules.variant.special_end is not None,
    )


@functools.lru_cache(maxsize=64)
def form_class(shape: Shape) -> type[HandForm]:
    """The form class of one shape, built once: its labels are lazy (translated when shown)
    and its closer's choices are labelled per form (:func:`hand_form`), with the match's
    names."""
    hand_specs, premiums, side_specs, calculator, sides, special = shape
    attrs: dict[str, Any] = {
        "closer": RadioField(
            _l("Who went out?"),
            [validators.InputRequired(_l("Choose who went out, or that the stock ran out."))],
            choices=closer_choices([str(index) for index in range(sides)], special),
        ),
    }
    for spec in hand_specs:
        attrs[spec.name] = hand_field(spec, dict(premiums))
    for index in range(sides):
        for spec in side_specs:
            attrs[f"s{index}_{spec.name}"] = side_field(spec)
        for where, cards in calculator:
            for kind, value in cards:
                label = LazyString(card_label, kind, value)
                field = number_field(label, 0, MAX_CARDS, "count", {"data-value": value})
                attrs[f"s{index}_{where}_{kind}"] = field
    return type("MatchHandForm", (HandForm,), attrs)


def hand_form(game_rules: rules.Rules, side_names: Sequence[str], **kwargs: Any) -> HandForm:
    """A hand form for a match with these rules and sides; ``kwargs`` go to the form
    (``data=`` pre-fills it; on POST it reads the request). Its class is shared by every
    match of the same shape (:func:`form_class`); the rules and names are this form's."""
    form = form_class(form_shape(game_rules, len(side_names)))(**kwargs)
    form.game_rules = game_rules
    form.side_names = tuple(side_names)
    form.closer.choices = closer_choices(
        form.side_names, game_rules.variant.special_end is not None
    )
    return form


def stored_data(game_rules: rules.Rules, inputs: dict[str, Any]) -> dict[str, Any]:
    """Form data pre-filled from a stored hand (for editing)."""
    closer = inputs.get("closer")
    data: dict[str, Any] = {"closer": NOBODY if closer is None else str(closer)}
    if (
        game_rules.variant.special_end is not None
        and inputs.get("end") == game_rules.variant.special_end
    ):
        data["closer"] = SPECIAL
    for spec in game_rules.hand_fields():
        data[spec.name] = inputs.get(spec.name) or ("" if spec.kind == "choice" else False)
    for index, side in enumerate(inputs.get("sides", [])):
        for spec in game_rules.side_fields():
            value = side.get(spec.name, spec.default)
            if spec.kind in ("count", "points", "signed_points") and value == 0:
                value = None
            elif spec.nullable and value is None:
                value = ""
            data[f"s{index}_{spec.name}"] = value
    data["note"] = inputs.get("note", "")
    return data
