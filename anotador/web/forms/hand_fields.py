"""The hand form's fields, one per input of the variant: whole numbers typed on a phone,
flags, choices, who went out (:mod:`anotador.web.forms.hand` builds the form of them)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from flask_babel import LazyString
from flask_babel import lazy_gettext as _l
from wtforms import BooleanField
from wtforms import Field
from wtforms import IntegerField
from wtforms import RadioField
from wtforms import StringField
from wtforms import validators
from wtforms.fields.choices import SelectChoice  # type: ignore[attr-defined]  # (no stub yet)

from anotador.rules.text import MAX_TEXT
from anotador.rules.variant import MAX_COUNT
from anotador.rules.variant import MAX_POINTS
from anotador.rules.variant import InputField
from anotador.web import inputs
from anotador.words import labels

MAX_CARDS = 48
NOBODY = "none"
#: The closer's choice for a hand ended by a side's special hand (the variant's special end).
SPECIAL = "special"


class WholeNumberField(IntegerField):
    """An integer typed on a phone, between ``minimum`` and ``maximum``: spaces, a typographic
    minus and "1.500" are accepted, and a refusal says why in one message
    (:func:`anotador.web.inputs.integer`)."""

    def __init__(self, *args: Any, minimum: int, maximum: int, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.minimum, self.maximum = minimum, maximum

    def process_formdata(self, valuelist: list[Any]) -> None:
        self.data = None
        if valuelist:
            self.data = inputs.integer(valuelist[0], self.minimum, self.maximum, grouped=True)


def number_field(
    label: Any, minimum: int, maximum: int, kind: str, extra: dict[str, Any] | None = None
) -> WholeNumberField:
    render_kw: dict[str, Any] = {"autocomplete": "off", "data-kind": kind, **(extra or {})}
    if kind == "signed_points":
        render_kw.update(type="text", inputmode="text", pattern=r"[+\-−]?[0-9]*")
    else:
        render_kw.update(type="text", inputmode="numeric", pattern="[0-9]*")
    return WholeNumberField(
        label, [validators.Optional()], minimum=minimum, maximum=maximum, render_kw=render_kw
    )


def side_field(spec: InputField) -> Field:
    label = labels.lazy("field", spec.name)
    if spec.kind == "count":
        return number_field(label, 0, MAX_COUNT, "count")
    if spec.kind == "points":
        return number_field(label, 0, MAX_POINTS, "points")
    if spec.kind == "signed_points":
        return number_field(label, -MAX_POINTS, MAX_POINTS, "signed_points")
    if spec.kind == "flag":
        return BooleanField(label)
    if spec.kind == "text":
        message = _l("At most %(max)d characters.")
        return StringField(label, [validators.Length(max=MAX_TEXT, message=message)])
    choices = [SelectChoice(value, labels.lazy("field_choice", value)) for value in spec.choices]
    if spec.nullable:
        # Nothing chosen is the field's null (a special hand: none), the first choice.
        choices.insert(0, SelectChoice("", _l("None")))
        return RadioField(label, [validators.Optional()], choices=choices, default="")
    message = _l("Choose one of the options.")
    return RadioField(
        label, [validators.InputRequired(message)], choices=choices, default=spec.default
    )


def closer_choices(side_names: Sequence[str], special: bool = False) -> list[SelectChoice]:
    choices = [SelectChoice(str(i), name) for i, name in enumerate(side_names)]
    choices.append(SelectChoice(NOBODY, _l("Nobody, the stock ran out")))
    if special:
        choices.append(SelectChoice(SPECIAL, _l("Nobody: a side laid down a special hand")))
    return choices


def hand_field(spec: InputField, premiums: dict[str, int]) -> Field:
    """A hand-level input: a flag, or how the closer went out concealed (each way with what
    it adds to going out)."""
    label = labels.lazy("field", spec.name)
    if spec.kind == "flag":
        return BooleanField(label)
    choices = [SelectChoice("", _l("Normal (not concealed)"))]
    for kind in spec.choices:
        word = LazyString(labels.say, "field_choice", kind)
        if kind in premiums:
            word = LazyString(lambda word, premium: f"{word} (+{premium})", word, premiums[kind])
        choices.append(SelectChoice(kind, word))
    return RadioField(label, [validators.Optional()], choices=choices, default="")


def card_label(kind: str, value: int) -> str:
    return f"{labels.say('card', kind)} ({value})"
