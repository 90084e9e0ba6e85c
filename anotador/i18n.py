"""The engine's language-neutral problems, said in the user's language."""

from __future__ import annotations

import functools

from babel.numbers import format_decimal
from flask_babel import get_locale
from flask_babel import gettext
from flask_babel import lazy_gettext as _l

from anotador.rules import MESSAGES
from anotador.rules import Problem

#: The engine's ``expected`` words, said inside its messages.
EXPECTED = {
    "a list": _l("a list"),
    "a list of names": _l("a list of names"),
    "a list of whole numbers": _l("a list of whole numbers"),
    "a text": _l("a text"),
    "a whole number": _l("a whole number"),
    "an object": _l("an object"),
    "true or false": _l("true or false"),
}


def problem_message(problem: Problem) -> str:
    """The problem's sentence in the current language, its figures and engine words too."""
    # The catalog holds the English template; the figures are filled in after translating.
    params = {
        key: str(EXPECTED.get(value, value)) if isinstance(value, str) else value
        for key, value in problem.params.items()
    }
    return gettext(MESSAGES[problem.code]).format(**params)


MINUS = "\u2212"


@functools.lru_cache(maxsize=4096)
def grouped(value: int, locale: str) -> str:
    """``value`` (not negative) with the locale's thousands separator (CLDR, via Babel)."""
    return format_decimal(value, locale=locale)


def points(value: float, signed: bool = False) -> str:
    """A score the same way on every page of the current language: es/it "3.460",
    en "3,460"; a real minus sign ("−85"), and "+" before a positive one when ``signed``.
    Input fields keep plain digits."""
    locale = get_locale()
    text = grouped(abs(int(value)), str(locale) if locale else "es")
    if value < 0:
        return MINUS + text
    return ("+" + text) if signed and value > 0 else text
