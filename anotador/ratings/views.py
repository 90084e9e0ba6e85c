"""The ratings' pages: the account's leaderboard (``/ranking``), and the pieces other pages
show (the factory hands them to the templates): a player's rating with its history, the
ratings at a match's table with each side's chance to win before the first hand, and the
ratings of the names the new-match form suggests."""

from __future__ import annotations

from collections.abc import Hashable
from collections.abc import Iterable

from flask import Blueprint
from flask import render_template
from flask import request
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from markupsafe import Markup

from anotador import rules
from anotador.ratings import compute
from anotador.ratings import points_reads
from anotador.ratings import reads
from anotador.statistics import charts
from anotador.storage.caching import caches
from anotador.storage.caching import kept
from anotador.storage.database import db
from anotador.web import access
from anotador.web import inputs
from anotador.web.templating import match_url
from anotador.web.views.history import read_filters
from anotador.words import labels
from anotador.words.i18n import locale_name
from anotador.words.i18n import points

bp = Blueprint("ratings", __name__, url_prefix="/ranking")
bp.before_request(access.require_account)


@bp.get("/")
def index() -> tuple[str, int]:
    """Every rated player of the account, best first (of one game, ``?juego=canasta``, or
    one variant, ``?variante=``)."""
    filters, errors = read_filters(request.args)
    variant = "" if errors else filters.variant
    family, variants = read_game(variant, errors)
    owner_id = access.user_id()
    club_points = points_reads.points_by_player(owner_id)

    def board() -> Markup:
        rows = reads.leaderboard(owner_id, variants)
        return Markup(
            render_template(
                "ratings/_board.html",
                rows=rows,
                club_points=club_points,
                settled=compute.SETTLED,
            )
        )

    key = kept_key("board", variants, tuple(sorted(club_points.items())))
    page = render_template(
        "ratings/index.html",
        board=Markup() if errors else kept(caches().sections, key, board),
        variant=variant,
        family=family,
        errors=errors,
        variant_labels=labels.VARIANTS,
        family_labels=labels.FAMILIES,
    )
    return page, 400 if errors else 200


def read_game(variant: str, errors: list[str]) -> tuple[str, tuple[str, ...]]:
    """The game asked for (``?juego=``) and the variants the board counts: the one asked
    for, else the game's; a message in ``errors`` for a game that is none, or a variant that
    is not of it (the board counts nothing then)."""
    raw = request.args.get("juego", "")
    refusal = _l("There is no game called “%(value)s”.", value=inputs.quoted(raw))
    try:
        family = inputs.choice(raw, rules.FAMILIES, refusal) or ""
    except inputs.BadInput as refused:
        errors.append(refused.message)
        return "", ()
    if variant and family and variant not in rules.FAMILIES[family]:
        variant_label = labels.label(labels.VARIANTS, variant)
        game = labels.label(labels.FAMILIES, family)
        errors.append(
            _("%(variant)s is not a variant of %(game)s.", variant=variant_label, game=game)
        )
    if errors:
        return family, ()
    return family, (variant,) if variant else rules.FAMILIES.get(family, ())


def kept_key(*view: Hashable) -> tuple[Hashable, ...] | None:
    """The key of what a ratings page draws from the signed-in account's ratings and names
    (its ratings version, :func:`anotador.ratings.store.touch`) and ``view``, in the page's
    language and mount point."""
    version = access.ratings_version()
    if version is None:
        return None
    place = (db.engine.url.render_as_string(), access.user_id(), version)
    return ("ratings", *place, *view, locale_name(), request.script_root)


def club_points_of(player_id: int) -> int:
    """The club points of one of the signed-in account's players."""
    return points_reads.points_by_player(access.user_id()).get(player_id, 0)


def player_rating(player_id: int, club_points: int) -> Markup:
    """A player's rating and its history, with its ``club_points``, for the player's page (its
    account's players): the rating is drawn once per ratings version."""
    rating = kept(caches().sections, kept_key("player", player_id), lambda: rating_of(player_id))
    return Markup(render_template("ratings/_player.html", club_points=club_points, rating=rating))


def rating_of(player_id: int) -> Markup:
    """A player's rating and its history, as drawn."""
    standing = reads.rating_of(player_id)
    if standing is None:
        return Markup(render_template("ratings/_rating.html", standing=None))
    history = reads.history(player_id)
    results: dict[tuple[int, int, bool], str] = {}  # each place's words, said once
    # The match page's address ends with its id: built once, not once per row.
    page = match_url(1).removesuffix("/1") + "/{}"
    chart = charts.line_chart(
        _("Rating over time"), [charts.Series(_("Rating"), [row.shown for row in history])]
    )
    return Markup(
        render_template(
            "ratings/_rating.html",
            standing=standing,
            rows=[shown_row(row, results, page) for row in reversed(history)],
            chart=chart,
            settled=compute.SETTLED,
        )
    )


def shown_row(
    row: reads.Played, results: dict[tuple[int, int, bool], str], page: str
) -> dict[str, str]:
    """A history row as the page writes it (a player's page has hundreds: worded here)."""
    key = (row.place, row.sides, row.shared)
    if key not in results:
        results[key] = (
            _("Shared place %(place)d of %(sides)d", place=row.place, sides=row.sides)
            if row.shared
            else _("Place %(place)d of %(sides)d", place=row.place, sides=row.sides)
        )
    return {
        "url": page.format(row.match_id),
        "date": row.played_on.isoformat(),
        "result": results[key],
        "shown": points(row.shown),
        "change": points(row.change, signed=True),
    }


def match_ratings(match_id: int) -> Markup:
    """Each side's chance to win (openskill's prediction) before the first hand of a match.
    The ratings beside the players' names are the planilla's own (``views.matches.show``,
    kept under the account's ratings version)."""
    sides = reads.table_of(match_id)
    if not any(sides):
        return Markup()
    chances = compute.chances([[s for _, s in side] for side in sides])
    return Markup(render_template("ratings/_table.html", sides=sides, chances=chances))


def rating_labels(names: Iterable[str]) -> dict[str, int]:
    """The shown rating of each of ``names`` that is a rated player of the signed-in account."""
    found = reads.ratings_by_name(access.user_id(), names)
    return {name: standing.shown for name, standing in found.items()}


#: What the ratings hand the templates (``templating.register_template_helpers``).
TEMPLATE_GLOBALS = (player_rating, match_ratings, rating_labels)
