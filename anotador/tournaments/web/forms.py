"""The director's forms (CSRF on, as every form). Every value is read by the shared parsers
of :mod:`anotador.web.inputs`; what is wrong is said next to its field."""

from __future__ import annotations

import datetime
from typing import Any

from flask_babel import gettext
from flask_babel import lazy_gettext as _l
from wtforms import SelectField
from wtforms import StringField
from wtforms.validators import InputRequired

from anotador.rules import VARIANTS
from anotador.tournaments.web.service import MAX_HANDS_PER_ROUND
from anotador.tournaments.web.service import MAX_MP
from anotador.tournaments.web.service import MAX_ROUNDS
from anotador.tournaments.web.service import SetUp
from anotador.tournaments.web.words import SCALE_LABELS
from anotador.tournaments.web.words import SYSTEM_LABELS
from anotador.web import inputs
from anotador.web.forms.match import Form
from anotador.web.forms.match import TextField
from anotador.web.forms.match import options
from anotador.words import labels

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


class TournamentForm(Form):
    name = TextField(_l("Name"), [InputRequired(_l("Write the name."))])
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
    rounds = StringField(_l("Rounds"), default="4", render_kw={"inputmode": "numeric"})

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
        for field, value in ((self.variant, variant), (self.rounds, rounds)):
            if value is None and field.name not in errors:
                errors[field.name] = gettext("This value is required.")
        if errors or variant is None or rounds is None:
            return None, errors
        return SetUp(
            name=self.name.data or "",
            played_on=played_on or datetime.date.today(),
            variant=variant,
            options={"target": target} if target is not None else {},
            hands_per_round=hands,
            scale=scale or "fibur-3",
            system=system or "danese",
            rounds=rounds,
        ), errors


class PairForm(Form):
    first = TextField(_l("Player"), [InputRequired(_l("Write the name."))])
    second = TextField(_l("Partner"), [InputRequired(_l("Write the name."))])
    club = TextField(_l("Club (optional)"))


class ResultForm(Form):
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


class ConfirmForm(Form):
    """A button that changes something: its CSRF token only."""
