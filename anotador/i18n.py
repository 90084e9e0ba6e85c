"""The engine's language-neutral problems, said in the user's language."""

from __future__ import annotations

from flask_babel import gettext

from anotador.rules import MESSAGES
from anotador.rules import Problem


def problem_message(problem: Problem) -> str:
    """The problem's sentence translated into the current locale, with its figures."""
    # The catalog holds the English template; the figures are filled in after translating.
    return gettext(MESSAGES[problem.code]).format(**problem.params)
