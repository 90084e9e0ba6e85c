"""What every template of the app may use, registered once by the factory.

Filters (``points``, ``num``, ``pct``), globals (``variant_label``, ``field_label``,
``match_url``, the list rows of :mod:`anotador.web.rows`) and the context every page gets (the
label tables, ``problem_message``, the languages): none of them belongs to one blueprint,
so none is registered by one.
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Hashable
from collections.abc import Iterable
from typing import Any

from flask import Flask
from flask import current_app
from flask import render_template
from flask import request
from flask import url_for
from flask_babel import format_decimal
from markupsafe import Markup

from anotador.storage.caching import caches
from anotador.storage.caching import kept
from anotador.web import rows
from anotador.web.extensions import LANGUAGES
from anotador.words import i18n
from anotador.words import labels
from anotador.words.i18n import problem_message


def register_template_helpers(
    app: Flask,
    *,
    more_globals: Iterable[Callable[..., Any]] = (),
    more_context: Iterable[Callable[[], dict[str, Any]]] = (),
) -> None:
    """Add the app-wide filters, globals and context to ``app``'s templates: the one place
    that does (``tests/test_house.py``), the factory handing in those the areas define
    (``more_globals``, ``more_context``)."""
    app.add_template_filter(points, "points")
    app.add_template_filter(number, "num")
    app.add_template_filter(percent, "pct")
    app.add_template_global(variant_label)
    app.add_template_global(field_label)
    app.add_template_global(match_url)
    app.add_template_global(shared_fragment)
    for helper in (rows.cached_list, rows.cached_row, rows.home_key, rows.history_key):
        app.add_template_global(helper)
    app.context_processor(page_context)
    for helper in more_globals:
        app.add_template_global(helper)
    for context in more_context:
        app.context_processor(context)


def points(value: int, signed: bool = False) -> str:
    """A score in the page's language ("3.460", "3,460"), a real minus, "+" if asked."""
    return i18n.points(value, signed)


def number(value: float | None, digits: int = 0) -> str:
    """A figure in the page's language, as every page writes them ("12.000", "−85", "1,5");
    "–" when there is none."""
    if value is None:
        return "–"
    if digits:
        return format_decimal(value, format="0." + "0" * digits).replace("-", "\u2212")
    return i18n.points(round(value))


def percent(value: float | None) -> str:
    return "–" if value is None else f"{round(100 * value)}\u00a0%"


def variant_label(name: str) -> str:
    return labels.label(labels.VARIANTS, name)


def field_label(name: str) -> str:
    """What the screens call a variant's input field (a kind of canasta, say)."""
    return labels.say("field", name)


def match_url(match_id: int) -> str:
    """The match page."""
    return url_for("matches.show", match_id=match_id)


def shared_fragment(template: str, **context: Hashable) -> Markup:
    """``template``, a piece of many pages drawn from ``context``, the language and where
    the app is mounted alone (every page's head links and header, a live page's words, the
    history's filters), once for all of them; in debug mode every time, as a static file's
    URL follows its content there. The piece reads nothing else of the request."""
    key = None
    if not current_app.debug:
        key = (template, i18n.locale_name(), request.script_root, *sorted(context.items()))
    return kept(caches().fragments, key, lambda: Markup(render_template(template, **context)))


def page_context() -> dict[str, Any]:
    return {
        "labels": labels,
        "problem_message": problem_message,
        "languages": LANGUAGES,
        "current_language": i18n.locale_name(),
    }
