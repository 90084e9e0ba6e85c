"""The new-match form and the match-file upload form.

The form only reads what was typed; the rules engine judges it. :meth:`NewMatchForm.document`
builds a match document, and :func:`field_for_path` says which field an engine problem
belongs to, so each problem is shown next to what caused it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from flask_babel import gettext
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from flask_wtf.file import FileField
from flask_wtf.file import FileRequired
from wtforms import BooleanField
from wtforms import Field
from wtforms import RadioField
from wtforms import SelectField
from wtforms import StringField
from wtforms import SubmitField
from wtforms.fields.choices import SelectChoice  # type: ignore[attr-defined]  # (no stub yet)

from anotador import rules
from anotador.rules import VARIANTS
from anotador.rules import variant_defaults
from anotador.rules.variant import LAYOUTS
from anotador.rules.variant import TIE_POLICIES
from anotador.tournaments.limits import MEMBERSHIP_LENGTH
from anotador.web import inputs
from anotador.words import i18n
from anotador.words import labels

DEFAULT_VARIANT = rules.DEFAULT_VARIANT
DEFAULT_LAYOUT = "4p"
MAX_SIDES = max(layout.sides for layout in LAYOUTS.values())
MAX_PLAYERS = max(layout.players_per_side for layout in LAYOUTS.values())
COMMON_OPTIONS = ("target", "decks", "canastas_to_close", "tie")
#: Beyond every setting the engine accepts: it says which range applies.
MAX_NUMBER = 999_999_999


class Form(FlaskForm):
    """Every form of the app: Flask-WTF's (its CSRF token), with WTForms' own messages from
    :data:`anotador.words.i18n.FORM_MESSAGES`."""

    class Meta:
        def get_translations(self, form: Any) -> i18n.FormMessages:
            return i18n.FORM_MESSAGES


class TextField(StringField):
    """A one-line text, read by the input policy (:func:`anotador.web.inputs.text`): NFC,
    trimmed, single spaces, at most ``maximum`` characters, no control characters. A refused
    text stays in the field as typed, with the reason next to it."""

    def __init__(self, *args: Any, maximum: int = rules.MAX_NAME, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.maximum = maximum

    def process_formdata(self, valuelist: list[Any]) -> None:
        if valuelist:
            self.data = valuelist[0]
            self.data = inputs.text(valuelist[0], self.maximum)


class MembershipField(TextField):
    """A player's membership number (optional), by the rule of every door
    (:func:`anotador.web.inputs.membership`); None when left empty."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, maximum=MEMBERSHIP_LENGTH, **kwargs)

    def process_formdata(self, valuelist: list[Any]) -> None:
        if valuelist:
            self.data = valuelist[0]
            self.data = inputs.membership(valuelist[0])


#: What a form whose CSRF check failed says: it came from an old page, or its session is gone
#: (a closed browser, a long pause at the table). What was typed is shown again, kept.
FORM_EXPIRED = _l(
    "This form had expired, so nothing was saved yet: what you typed is kept. "
    "Check it and tap the button again."
)


def csrf_refused(form: FlaskForm) -> bool:
    """The form's CSRF check failed (its token says an ``FORM_EXPIRED``)."""
    return bool(form.meta.csrf) and not form.csrf_token.validate(form)


def default_side_names(layout: str) -> list[str]:
    """Default side names: us / them (/ the others) for teams, "Player N" for individual play."""
    shape = LAYOUTS[layout]
    if shape.individual:
        return [gettext("Player %(num)d", num=i + 1) for i in range(shape.sides)]
    return [gettext("Us"), gettext("Them"), gettext("The others")][: shape.sides]


def all_default_names() -> set[str]:
    return {name for layout in LAYOUTS for name in default_side_names(layout)}


def option_field_name(variant: str, option: str) -> str:
    return f"{variant}__{option}"


def options(pairs: Any) -> list[SelectChoice]:
    """WTForms choices from (value, label) pairs."""
    return [SelectChoice(value, label) for value, label in pairs]


def seat_of(side: int, index: int, sides: int) -> int:
    """Players sit alternately: side ``s`` player ``k`` is at seat ``s + k·sides``."""
    return side + index * sides


class NewMatchForm(Form):
    """One screen: variant, layout, sides, players, first dealer, settings, start scores."""

    variant = RadioField(
        _l("Variant"), choices=options(labels.VARIANTS.items()), validate_choice=False
    )
    layout = RadioField(
        _l("Players"), choices=options(labels.LAYOUTS.items()), validate_choice=False
    )
    first_dealer = SelectField(_l("Deals first"), choices=[], validate_choice=False)
    target = StringField(_l("Target score"))
    decks = RadioField(
        _l("Decks"), choices=options([("2", "2"), ("3", "3")]), validate_choice=False
    )
    canastas_to_close = StringField(_l("Canastas to go out"))
    tie = RadioField(
        _l("On a tie"), choices=options(labels.TIE_POLICIES.items()), validate_choice=False
    )
    apply = SubmitField(_l("Apply"))
    start = SubmitField(_l("Start"))

    # Side names, players and start scores are added below, one field per possible slot.

    def variant_name(self) -> str:
        return self.variant.data if self.variant.data in VARIANTS else DEFAULT_VARIANT

    def layout_name(self) -> str:
        layout = self.layout.data
        variant = VARIANTS[self.variant_name()]
        if layout in variant.layouts:
            return layout
        return DEFAULT_LAYOUT if DEFAULT_LAYOUT in variant.layouts else next(iter(variant.layouts))

    def side_field(self, side: int) -> Field:
        return self[f"side_{side}"]

    def player_field(self, side: int, index: int) -> Field:
        return self[f"player_{side}_{index}"]

    def start_field(self, side: int) -> Field:
        return self[f"start_{side}"]

    def option_fields(self, variant: str) -> list[Field]:
        return [self[option_field_name(variant, spec.name)] for spec in VARIANTS[variant].options]

    def fill_defaults(self, keep_typed_names: bool = True) -> None:
        """Settings from the engine's defaults for the chosen variant and layout; side names
        that are still someone's default follow the layout."""
        variant, layout = self.variant_name(), self.layout_name()
        self.variant.data, self.layout.data = variant, layout
        defaults = variant_defaults(variant, layout)
        self.target.data = str(defaults["target"])
        self.decks.data = str(defaults["decks"])
        self.canastas_to_close.data = str(defaults.get("canastas_to_close", ""))
        self.tie.data = defaults["tie"]
        for spec in VARIANTS[variant].options:
            field = self[option_field_name(variant, spec.name)]
            field.data = spec_to_form(spec.kind, defaults[spec.name])
        names, known = default_side_names(layout), all_default_names()
        for side in range(MAX_SIDES):
            field = self.side_field(side)
            typed = (field.data or "").strip()
            if side < len(names) and (not keep_typed_names or not typed or typed in known):
                field.data = names[side]

    def seat_choices(self) -> list[SelectChoice]:
        """Who may deal first: every seat, named by side and player."""
        shape = LAYOUTS[self.layout_name()]
        choices = [("", gettext("Not noted"))]
        for seat in range(shape.sides * shape.players_per_side):
            side, index = seat % shape.sides, seat // shape.sides
            side_name = (self.side_field(side).data or "").strip() or str(side + 1)
            if shape.individual:
                choices.append((str(seat), side_name))
                continue
            player = (self.player_field(side, index).data or "").strip()
            player = player or gettext("player %(num)s", num=index + 1)
            choices.append((str(seat), f"{side_name}: {player}"))
        return options(choices)

    def document(self) -> tuple[dict[str, Any], dict[str, str], int | None]:
        """The match document typed so far, the fields that are not numbers (name → message)
        and the first dealer's seat."""
        variant, layout = self.variant.data, self.layout.data
        shape = LAYOUTS.get(layout) if isinstance(layout, str) else None
        errors: dict[str, str] = {}
        options: dict[str, Any] = {"tie": self.tie.data}
        numbers = {"target": self.target, "decks": self.decks}
        if variant in VARIANTS and VARIANTS[variant].has_canastas_to_close:
            numbers["canastas_to_close"] = self.canastas_to_close
        for key, field in numbers.items():
            value = read_number(field, errors)
            if value is not None:
                options[key] = value
        if variant in VARIANTS:
            options.update(read_options(self, variant, errors))
        sides = self.sides_document(shape)
        document: dict[str, Any] = {
            "format": rules.MATCH_FORMAT,
            "variant": variant,
            "layout": layout,
            "options": options,
            "sides": sides,
            "hands": [],
        }
        starts = [read_number(self.start_field(i), errors) for i in range(len(sides))]
        if any(value is not None for value in starts):
            document["start_scores"] = [value or 0 for value in starts]
        return document, errors, self.dealer_seat(shape, errors)

    def sides_document(self, shape: Any) -> list[dict[str, Any]]:
        sides = []
        for side in range(shape.sides if shape else 2):
            name = (self.side_field(side).data or "").strip()
            if shape is not None and shape.individual:
                players = [name] if name and name not in all_default_names() else []
            else:
                count = shape.players_per_side if shape else 0
                typed = [(self.player_field(side, i).data or "").strip() for i in range(count)]
                players = [player for player in typed if player]
            sides.append({"name": name, "players": players})
        return sides

    def dealer_seat(self, shape: Any, errors: dict[str, str]) -> int | None:
        if shape is None:
            return None
        try:
            return inputs.integer(
                self.first_dealer.data, 0, shape.sides * shape.players_per_side - 1
            )
        except inputs.BadInput:
            errors["first_dealer"] = gettext("Choose one of the seats.")
            return None


def read_number(field: Field, errors: dict[str, str]) -> int | None:
    """The whole number typed in ``field`` (None when empty); a message in ``errors`` else.
    The engine judges its range."""
    try:
        return inputs.integer(field.data, -MAX_NUMBER, MAX_NUMBER, grouped=True)
    except inputs.BadInput as refused:
        errors[field.name] = refused.message
        return None


def read_options(form: Form, variant: str, errors: dict[str, str]) -> dict[str, Any]:
    """The variant's own options as ``form``'s fields (:func:`add_option_fields`) give them
    (a choice the engine judges; an option left empty is left out: its default); a message
    in ``errors`` for a field that is not a number."""
    options: dict[str, Any] = {}
    for spec in VARIANTS[variant].options:
        field = form[option_field_name(variant, spec.name)]
        value = form_to_spec(spec.kind, spec.choices, field, errors)
        if value is not None or spec.kind == "choice":
            options[spec.name] = value
    return options


def spec_to_form(kind: str, value: Any) -> Any:
    if kind == "bool":
        return bool(value)
    return "" if value is None else str(value)


def form_to_spec(kind: str, choices: tuple, field: Field, errors: dict[str, str]) -> Any:
    if kind == "bool":
        return bool(field.data)
    if kind == "points":
        return read_number(field, errors)
    by_text = {spec_to_form(kind, choice): choice for choice in choices}
    return by_text.get(field.data or "", field.data)


def field_for_path(path: str, variant: object, individual: bool) -> str | None:
    """The form field an engine problem at ``path`` belongs to (None: the whole form)."""
    segments = rules.parse_path(path)
    match segments:
        case ((("variant" | "layout") as key, None),):
            return key
        case (("options", None), (option, None)):
            if option in COMMON_OPTIONS:
                return option
            if (
                isinstance(variant, str)
                and variant in VARIANTS
                and VARIANTS[variant].option(option)
            ):
                return option_field_name(variant, option)
            return None
        case (("sides", int(side)),) | (("sides", int(side)), ("name", None)):
            return f"side_{side}"
        case (("sides", int(side)), ("players", int(index))):
            return f"side_{side}" if individual else f"player_{side}_{index}"
        case (("start_scores", int(side)),):
            return f"start_{side}"
    return None


def _add_slot_fields() -> None:
    for side in range(MAX_SIDES):
        setattr(NewMatchForm, f"side_{side}", TextField(_l("Name")))
        setattr(NewMatchForm, f"start_{side}", StringField(_l("Starting score")))
        for index in range(MAX_PLAYERS):
            setattr(NewMatchForm, f"player_{side}_{index}", TextField(_l("Player")))
    add_option_fields(NewMatchForm, VARIANTS)


def add_option_fields(form: type[Form], variants: Iterable[str], defaults: bool = False) -> None:
    """Give ``form`` a field for each option of each of ``variants`` (``<variant>__<option>``,
    read by :func:`read_options`); ``defaults``: each shows its spec's default unless filled."""
    for name in variants:
        for spec in VARIANTS[name].options:
            label = labels.OPTIONS.get(spec.name, spec.name)
            default = spec_to_form(spec.kind, spec.default) if defaults else None
            if spec.kind == "bool":
                field: Field = BooleanField(label, default=default)
            elif spec.kind == "choice":
                choices = [(spec_to_form("choice", c), option_choice(c)) for c in spec.choices]
                field = SelectField(
                    label, choices=options(choices), validate_choice=False, default=default
                )
            else:
                field = StringField(label, default=default)
            setattr(form, option_field_name(name, spec.name), field)


def option_choice(value: Any) -> Any:
    if isinstance(value, int):
        return str(value)
    return labels.CHOICES.get(value, str(value))


_add_slot_fields()


class UploadForm(Form):
    """A match file (``.json``) to import as a new match."""

    file = FileField(_l("Match file (.json)"), validators=[FileRequired(_l("Choose a file."))])
    upload = SubmitField(_l("Import"))


__all__ = ["NewMatchForm", "UploadForm", "TIE_POLICIES", "field_for_path", "seat_of"]
