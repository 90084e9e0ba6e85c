"""The director's forms (CSRF on, as every form). Every value is read by the shared parsers
of :mod:`anotador.web.inputs`; what is wrong is said next to its field."""

from __future__ import annotations

import datetime
from typing import Any

from flask_babel import gettext
from flask_babel import lazy_gettext as _l
from wtforms import HiddenField
from wtforms import SelectField
from wtforms import StringField
from wtforms import TextAreaField
from wtforms.validators import InputRequired

from anotador.rules import VARIANTS
from anotador.tournaments.limits import MAX_HANDS_PER_ROUND
from anotador.tournaments.limits import MAX_REASON
from anotador.tournaments.limits import MAX_ROUNDS
from anotador.tournaments.limits import MAX_SIZE as MAX_MP
from anotador.tournaments.limits import NAME_LENGTH
from anotador.tournaments.operations import draws
from anotador.tournaments.operations.service import SetUp
from anotador.tournaments.web.words import SCALE_LABELS
from anotador.tournaments.web.words import SYSTEM_LABELS
from anotador.web import inputs
from anotador.web.forms.match import Form
from anotador.web.forms.match import MembershipField
from anotador.web.forms.match import TextField
from anotador.web.forms.match import add_option_fields
from anotador.web.forms.match import option_field_name
from anotador.web.forms.match import options
from anotador.web.forms.match import read_options
from anotador.words import labels
from anotador.words.i18n import problem_message

#: The variants two pairs can play (every table of a tournament is two pairs).
PAIR_VARIANTS = [name for name, variant in VARIANTS.items() if "4p" in variant.layouts]


def read(field: Any, errors: dict[str, str], parse: Any, *args: Any, **kwargs: Any) -> Any:
    """``parse(field.data, *args, **kwargs)``, or None and the parser's message under the
    field's name."""
    try:
        return parse(field.data, *args, **kwargs)
    except inputs.BadInput as refused:
        errors[field.name] = str(refused)
        return None


class NameField(TextField):
    """A name the tournament stores (its own, a player's, a club's), by the rule of every door
    (:func:`anotador.web.inputs.tournament_name`): the form refuses what the file refuses."""

    def __init__(self, *args: Any, required: bool = True, **kwargs: Any) -> None:
        super().__init__(*args, maximum=NAME_LENGTH, **kwargs)
        self.required = required

    def process_formdata(self, valuelist: list[Any]) -> None:
        if valuelist:
            self.data = valuelist[0]
            self.data = inputs.tournament_name(valuelist[0], required=self.required)


class TournamentForm(Form):
    name = NameField(_l("Name"), [InputRequired(_l("Write the name."))])
    played_on = StringField(_l("Date"), render_kw={"type": "date"})
    variant = SelectField(
        _l("Variant"),
        choices=options((name, labels.VARIANTS[name]) for name in PAIR_VARIANTS),
        validate_choice=False,
    )
    target = StringField(_l("Target score"), render_kw={"inputmode": "numeric"})
    hands_per_round = StringField(
        _l("Hands per round (empty: to the target)"), render_kw={"inputmode": "numeric"}
    )
    scale = SelectField(
        _l("Victory points"), choices=options(SCALE_LABELS.items()), validate_choice=False
    )
    system = SelectField(
        _l("Pairing"), choices=options(SYSTEM_LABELS.items()), validate_choice=False
    )
    bands = TextAreaField(
        _l("A club's bands, one a line: up to this MP difference, winner's VP, loser's VP"),
        render_kw={"rows": 4, "placeholder": "0 10 10\n150 12 8\n500 15 5"},
    )
    above = StringField(
        _l("A club's VP beyond the last band: winner's, loser's"),
        render_kw={"placeholder": "20 0"},
    )
    bye_vp = StringField(_l("VP of a bye (empty: the scale's)"), render_kw={"inputmode": "numeric"})
    rounds = StringField(_l("Rounds"), default="4", render_kw={"inputmode": "numeric"})
    #: One-time, given when the form is shown: the same form posted twice makes one tournament.
    request_key = HiddenField()
    #: Sent by the form, which shows each variant's own rule options (its fields are added
    #: below, as the new-match form's): then a box left unticked is a "no". A request without
    #: it (a script, a page from before) gets the variant's defaults.
    house_rules = HiddenField()

    def rule_fields(self) -> list[tuple[str, list[Any]]]:
        """Each variant with options of its own, and their fields."""
        return [
            (name, [self[option_field_name(name, spec.name)] for spec in VARIANTS[name].options])
            for name in PAIR_VARIANTS
            if VARIANTS[name].options
        ]

    def club_scale(self) -> dict[str, Any]:
        """The club's bands as the tournament file writes them; a word that is not a whole
        number is kept as written, so the tournament reader says what is wrong with it."""
        return {
            "bands": [
                numbers(line) for line in (self.bands.data or "").splitlines() if line.strip()
            ],
            "above": numbers(self.above.data or ""),
        }

    def scale_errors(
        self, scale: object, bye_vp: object, variant: str | None, errors: dict[str, str]
    ) -> None:
        """The tournament reader's problems with the scale and the bye's VP, by field."""
        for problem in draws.scale_problems(scale, bye_vp, variant or PAIR_VARIANTS[0]):
            field: Any
            if problem.path.startswith("$.bye_vp"):
                field = self.bye_vp
            elif problem.path.startswith("$.scale.above"):
                field = self.above
            else:
                field = self.bands if scale_is_club(scale) else self.scale
            errors.setdefault(field.name, problem_message(problem))

    def setup(self) -> tuple[SetUp | None, dict[str, str]]:
        """What was chosen, or None and each refused field's message."""
        errors: dict[str, str] = {}
        variant = read(self.variant, errors, inputs.choice, PAIR_VARIANTS)
        scale = read(self.scale, errors, inputs.choice, SCALE_LABELS)
        system = read(self.system, errors, inputs.choice, SYSTEM_LABELS)
        played_on = read(self.played_on, errors, inputs.date)
        target = read(self.target, errors, inputs.integer, 1, 1_000_000)
        hands = read(self.hands_per_round, errors, inputs.integer, 1, MAX_HANDS_PER_ROUND)
        rounds = read(self.rounds, errors, inputs.integer, 1, MAX_ROUNDS)
        bye_vp = read(self.bye_vp, errors, inputs.integer, -MAX_MP, MAX_MP)
        chosen: str | dict[str, Any] = scale or "fibur-3"
        if chosen == "club":
            chosen = self.club_scale()
        self.scale_errors(chosen, bye_vp, variant, errors)
        for field, value in ((self.variant, variant), (self.rounds, rounds)):
            if value is None and field.name not in errors:
                errors[field.name] = gettext("This value is required.")
        options = {"target": target} if target is not None else {}
        if variant is not None and self.house_rules.data:
            options |= read_options(self, variant, errors)
        if errors or variant is None or rounds is None:
            return None, errors
        return SetUp(
            name=self.name.data or "",
            played_on=played_on or datetime.date.today(),
            variant=variant,
            options=options,
            hands_per_round=hands,
            scale=chosen,
            system=system or "danese",
            rounds=rounds,
            bye_vp=bye_vp,
            request_key=inputs.digest(self.request_key.data),
        ), errors


add_option_fields(TournamentForm, PAIR_VARIANTS, defaults=True)


def scale_is_club(scale: object) -> bool:
    return isinstance(scale, dict)


def numbers(line: str) -> list[int | str]:
    """The words of ``line``, each a whole number when it reads as one."""
    found: list[int | str] = []
    for word in line.split():
        try:
            found.append(inputs.integer(word, -MAX_MP, MAX_MP) or 0)
        except inputs.BadInput:
            found.append(word)
    return found


class PairNamesForm(Form):
    """A pair's two players: registering it, or correcting its names."""

    first = NameField(_l("Player"), [InputRequired(_l("Write the name."))])
    second = NameField(_l("Partner"), [InputRequired(_l("Write the name."))])


class PairForm(PairNamesForm):
    """A pair registered: its players, their membership numbers and its club."""

    first_membership = MembershipField(_l("Player's membership number (optional)"))
    second_membership = MembershipField(_l("Partner's membership number (optional)"))
    club = NameField(_l("Club (optional)"), required=False)

    def memberships(self) -> tuple[str | None, str | None]:
        """The two membership numbers typed (None: left empty, the registry's is kept)."""
        return self.first_membership.data or None, self.second_membership.data or None


class ReasonForm(Form):
    """A change of what was final (reopening, a correction): the director's optional reason."""

    reason = StringField(_l("Reason (optional)"), render_kw={"maxlength": MAX_REASON})

    def reason_text(self, errors: dict[str, str]) -> str:
        """The reason given (empty: none), or its problem under the field's name."""
        return read(self.reason, errors, inputs.text, MAX_REASON) or ""


class ResultForm(ReasonForm):
    """A table's match points written by hand (both empty: the table's match counts)."""

    mp_ns = StringField(_l("NS points"), render_kw={"inputmode": "numeric"})
    mp_ew = StringField(_l("EW points"), render_kw={"inputmode": "numeric"})

    def points(self) -> tuple[tuple[int, int] | None, dict[str, str]]:
        errors: dict[str, str] = {}
        ns = read(self.mp_ns, errors, inputs.integer, -MAX_MP, MAX_MP, grouped=True)
        ew = read(self.mp_ew, errors, inputs.integer, -MAX_MP, MAX_MP, grouped=True)
        if errors:
            return None, errors
        if (ns is None) != (ew is None):
            missing = self.mp_ns if ns is None else self.mp_ew
            errors[missing.name] = gettext("Write the points of both pairs, or of neither.")
            return None, errors
        return (ns, ew) if ns is not None and ew is not None else None, errors


class SwapForm(Form):
    first = StringField()
    second = StringField()
    #: The tournament's version the page showed (``rounds.swap``).
    seen = StringField()


class ConfirmForm(Form):
    """A button that changes something: its CSRF token only."""
