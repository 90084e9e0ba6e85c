"""Drawing a printed score sheet (planilla) as PDF, and the key its cached copy is kept under.

Jinja templates in ``templates/sheets/`` and ``static/css/sheet.css`` rendered by WeasyPrint,
which is imported only when a sheet is drawn. Every file comes from disk (a filesystem
``base_url`` and a fetcher that refuses anything else), so rendering never touches the network.
Figures come from the rules engine: scores from :func:`anotador.rules.score_match`, the blank
sheet's reference box from the variant's own ``reference``; words from :mod:`anotador.words.labels`
(their ``sheet`` forms), said in the sheet's language, not the request's.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
from collections.abc import Iterator
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from flask import Flask
from flask import current_app
from flask import has_app_context
from flask_babel import force_locale
from flask_babel import gettext
from markupsafe import Markup

from anotador import rules
from anotador.rules.variants import unknown_variant_problem
from anotador.sheets.content import LANGUAGES
from anotador.sheets.content import blank_context
from anotador.sheets.content import match_context
from anotador.storage.config import PROJECT_ROOT
from anotador.words import TRANSLATIONS
from anotador.words import i18n
from anotador.words import labels

PAPERS = {"a4": "A4", "letter": "letter"}
STYLESHEET = PROJECT_ROOT / "static" / "css" / "sheet.css"


# Rendering


@functools.cache
def _standalone_app() -> Flask:
    """Templates and catalogs without a database, for the command line."""
    from flask_babel import Babel

    app = Flask("anotador", template_folder=PROJECT_ROOT / "templates", static_folder=None)
    Babel(app, default_locale=LANGUAGES[0], default_translation_directories=str(TRANSLATIONS))
    # The app's own way of writing a score (templating registers it on the web app).
    app.add_template_filter(i18n.points, "points")
    return app


@contextlib.contextmanager
def _rendering(lang: str) -> Iterator[Flask]:
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}: use one of {', '.join(LANGUAGES)}")
    app_context = contextlib.nullcontext() if has_app_context() else _standalone_app().app_context()
    with app_context, force_locale(lang):
        yield current_app._get_current_object()  # type: ignore[attr-defined]


def local_fetcher() -> Any:
    """A WeasyPrint fetcher that opens files and data: URLs, and refuses any other scheme."""
    from weasyprint.urls import URLFetcher

    return URLFetcher(allowed_protocols=("file", "data"))


@functools.cache
def _stylesheet() -> Any:
    import weasyprint

    return weasyprint.CSS(filename=str(STYLESHEET), url_fetcher=local_fetcher())


def _pdf(app: Flask, template: str, context: dict[str, Any]) -> bytes:
    return html_pdf(app.jinja_env.get_template(template).render(**context))


def html_pdf(html: str) -> bytes:
    """The PDF of a printout's HTML, with the sheets' stylesheet and files from disk only."""
    import weasyprint

    document = weasyprint.HTML(
        string=html, base_url=PROJECT_ROOT.as_uri() + "/", url_fetcher=local_fetcher()
    )
    return document.write_pdf(stylesheets=[_stylesheet()])


def _page_setup(paper: str, sides: int) -> dict[str, str]:
    size = PAPERS.get(paper.lower())
    if size is None:
        raise ValueError(f"unknown paper {paper!r}: use A4 or letter")
    orientation = "landscape" if sides > 2 else "portrait"
    before, _, rest = gettext("Page {page} of {pages}").partition("{page}")
    middle, _, after = rest.partition("{pages}")
    content = f"{css_string(before)} counter(page) {css_string(middle)} counter(pages)"
    return {
        "paper": size.lower(),
        "page_size": Markup(f"{size} {orientation}"),
        "page_numbers": Markup(f"{content} {css_string(after)}"),
    }


def css_string(text: str) -> str:
    """``text`` as a CSS string literal that is also safe inside a <style> element."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("<", "\\3c ")
    return f'"{escaped}"'


def render_match_sheet(
    game: rules.Match,
    score: rules.MatchScore,
    *,
    paper: str = "A4",
    lang: str = "es",
    table_result: Sequence[int] | None = None,
) -> bytes:
    """The PDF score sheet of a scored match: one row per hand, the result and a chart;
    ``table_result``: the MP a tournament's director wrote by hand over it, said above the
    totals (they count instead, as the planilla on screen says)."""
    with _rendering(lang) as app:
        context = match_context(game, score)
        context["table_result"] = table_result
        context.update(_page_setup(paper, len(game.sides)))
        return _pdf(app, "sheets/match.html", context)


def render_blank_sheet(
    variant: str, layout: str, target: int | None = None, lang: str = "es", *, paper: str = "A4"
) -> bytes:
    """A one-page sheet to fill in by hand, with the variant's values in a reference box.

    ``rules.InvalidInput`` for an unknown variant, a layout it is not played with, or a
    target out of range; ``ValueError`` for an unknown language or paper.
    """
    if variant not in rules.VARIANTS:
        raise rules.InvalidInput([unknown_variant_problem(variant)])
    options = {} if target is None else {"target": target}
    match_rules = rules.make_rules(variant, layout, options)
    with _rendering(lang) as app:
        context = blank_context(match_rules)
        context.update(_page_setup(paper, match_rules.layout.sides))
        return _pdf(app, "sheets/blank.html", context)


def printout_html(template: str, context: dict[str, Any], *, lang: str = "es") -> str:
    """Another area's printout (a tournament's standings, its table cards) for the same
    machinery to draw (:func:`html_pdf`, in the child process: ``pdf.child``): its template
    under ``templates/``, said in ``lang``."""
    with _rendering(lang) as app:
        return app.jinja_env.get_template(template).render(lang=lang, **context)


# Cache: a sheet depends only on its match's content, the paper, the language and these files


@functools.cache
def _fingerprint() -> str:
    digest = hashlib.sha256()
    files = [STYLESHEET, *sorted(Path(__file__).parent.glob("*.py")), Path(labels.__file__)]
    files += sorted(Path(rules.__file__).parent.glob("*.py"))
    files += sorted((PROJECT_ROOT / "templates" / "sheets").glob("*"))
    files += sorted(TRANSLATIONS.glob("*/LC_MESSAGES/*.mo"))
    for path in files:
        digest.update(str(path).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


@functools.cache
def _template_digest(template: str) -> str:
    return hashlib.sha256((PROJECT_ROOT / "templates" / template).read_bytes()).hexdigest()


def printout_key(template: str, document: object, *settings: str) -> str:
    """The :func:`sheet_key` of a printout of ``template`` (:func:`printout_html`), which
    changes with that file too."""
    return sheet_key({"template": _template_digest(template), "of": document}, *settings)


def sheet_key(document: object, *settings: str) -> str:
    """A key that changes whenever anything shown on the sheet could change."""
    content = json.dumps(document, sort_keys=True, ensure_ascii=False, default=str)
    digest = hashlib.sha256(_fingerprint().encode())
    digest.update("\0".join((content, *settings)).encode())
    return digest.hexdigest()
