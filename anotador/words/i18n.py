"""The engine's language-neutral problems, said in the user's language."""

from __future__ import annotations

import functools
import locale
from collections.abc import Mapping
from typing import NamedTuple

from babel.numbers import format_decimal
from babel.support import NullTranslations
from babel.support import Translations
from flask_babel import Domain
from flask_babel import _get_current_context
from flask_babel import get_domain
from flask_babel import get_locale
from flask_babel import get_translations
from flask_babel import gettext
from flask_babel import lazy_gettext as _l
from wtforms.i18n import messages_path

from anotador.rules import Problem
from anotador.words import TRANSLATIONS

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
    return gettext(problem.messages[problem.code]).format(**params)


MINUS = "\u2212"


class Language(NamedTuple):
    catalog: NullTranslations
    name: str


def language() -> Language:
    """The current language and its catalog, looked up once per request (a page says a few
    hundred words). Kept in the slot Flask-Babel's ``force_locale`` clears and restores, so
    a sheet drawn in another language gets that language."""
    state = _get_current_context()
    if state is None:
        return Language(get_translations(), str(get_locale() or "es"))
    found: Language | None = getattr(state, "babel_translations", None)
    if found is None:
        catalog = Domain.get_translations(get_domain())  # the lookup this one saves
        found = state.babel_translations = Language(catalog, str(get_locale()))
    return found


class RequestDomain(Domain):
    """Flask-Babel's message domain with :func:`language`'s catalog, so every ``gettext``,
    ``ngettext`` and lazy string of the code finds it at once too."""

    def get_translations(self) -> NullTranslations:
        return language().catalog


def locale_name() -> str:
    """The current language's identifier ("es", "en", "it")."""
    return language().name


@functools.lru_cache(maxsize=4096)
def grouped(value: int, locale: str) -> str:
    """``value`` (not negative) with the locale's thousands separator (CLDR, via Babel)."""
    return format_decimal(value, locale=locale)


def points(value: float, signed: bool = False) -> str:
    """A score the same way on every page of the current language: es/it "3.460",
    en "3,460"; a real minus sign ("−85"), and "+" before a positive one when ``signed``.
    Input fields keep plain digits."""
    text = grouped(abs(int(value)), locale_name())
    if value < 0:
        return MINUS + text
    return ("+" + text) if signed and value > 0 else text


@functools.lru_cache(maxsize=16)
def wtforms_catalog(locale: str) -> NullTranslations:
    """WTForms' own messages in ``locale``, read once per process."""
    return Translations.load(messages_path(), [locale], domain="wtforms")


class FormMessages:
    """WTForms' own messages (a required field, a number out of range...) in the request's
    language: what Flask-WTF gives forms, but its catalog read once per process and
    language instead of once per request (a form's page or save)."""

    def gettext(self, string: str) -> str:
        return wtforms_catalog(locale_name()).ugettext(string)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return wtforms_catalog(locale_name()).ungettext(singular, plural, n)


FORM_MESSAGES = FormMessages()


#: The variables that name the machine's language, first found first (POSIX's order, with
#: GNU gettext's ``LANGUAGE`` list before them).
LANGUAGE_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


def machine_language(environ: Mapping[str, str], languages: tuple[str, ...]) -> str:
    """The language of ``languages`` the machine's user reads (for what the server prints
    in a terminal): the first variable of :data:`LANGUAGE_VARIABLES` that names one of them
    (``es_AR.UTF-8``, ``it``, ``en_US``); without any of them set, the system's own locale
    (Windows sets no such variable); else the first of ``languages`` (Spanish).
    """
    named = [environ.get(variable, "").strip() for variable in LANGUAGE_VARIABLES]
    for value in filter(None, named):
        for name in value.split(":"):
            code = name.strip().split(".")[0].split("@")[0].split("_")[0].lower()
            if code in ("c", "posix"):  # no language chosen: what follows would not be read
                return languages[0]
            if code in languages:
                return code
    if any(named):  # a language of none of ours
        return languages[0]
    system = locale.getlocale()[0] or ""
    code = system.split("_")[0].lower()
    return code if code in languages else languages[0]


@functools.lru_cache(maxsize=8)
def catalog_of(language: str) -> NullTranslations:
    """The app's catalog for ``language``, outside any request (what a command prints)."""
    return Translations.load(str(TRANSLATIONS), [language])
