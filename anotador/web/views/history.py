"""The history: every match, newest first, filtered and searched; backups to download."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from typing import TypeVar

from flask import Blueprint
from flask import Response
from flask import current_app
from flask import render_template
from flask import request
from flask import stream_with_context
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_babel import ngettext
from werkzeug.datastructures import MultiDict
from werkzeug.exceptions import RequestEntityTooLarge

from anotador import backup
from anotador import services
from anotador import tournaments
from anotador.rules import VARIANTS
from anotador.rules import Problem
from anotador.storage.models import STATUSES
from anotador.web import access
from anotador.web import inputs
from anotador.web.extensions import csrf
from anotador.words.i18n import problem_message
from anotador.words.labels import problem_line

bp = Blueprint("history", __name__)
bp.before_request(access.require_account)

T = TypeVar("T")

STATUS_LABELS = {
    "ongoing": _l("Ongoing"),
    "finished": _l("Finished"),
    "abandoned": _l("Unfinished"),
}


def read_filters(args: MultiDict[str, str]) -> tuple[services.queries.Filters, list[str]]:
    """The filters in the query string, and a message for each one that makes no sense."""
    errors: list[str] = []

    def read(parse: Callable[..., T | None], *arguments: Any, empty: T) -> T:
        try:
            value = parse(*arguments)
        except inputs.BadInput as refused:
            errors.append(refused.message)
            return empty
        return empty if value is None else value

    raw_variant, raw_status = args.get("variante", ""), args.get("estado", "")
    # Said only when refused (most pages filter nothing).
    no_variant = _l("There is no variant called “%(value)s”.", value=inputs.quoted(raw_variant))
    no_status = _l("There is no status called “%(value)s”.", value=inputs.quoted(raw_status))
    variant = read(inputs.choice, raw_variant, VARIANTS, no_variant, empty="")
    status = read(inputs.choice, raw_status, STATUSES, no_status, empty="")
    since = read(inputs.date, args.get("desde"), empty=None)
    until = read(inputs.date, args.get("hasta"), empty=None)
    if since and until and since > until:
        errors.append(_("The start date is after the end date."))
    player = read(inputs.name, args.get("jugador"), empty="")
    search = read(inputs.name, args.get("q"), empty="")
    filters = services.queries.Filters(
        player=player,
        variant=variant,
        status=status,
        since=since,
        until=until,
        search=search,
    )
    return filters, errors


def filter_args(filters: services.queries.Filters) -> dict[str, str]:
    """The query string of ``filters`` (for the next-page link)."""
    values = {
        "jugador": filters.player,
        "variante": filters.variant,
        "estado": filters.status,
        "desde": filters.since.isoformat() if filters.since else "",
        "hasta": filters.until.isoformat() if filters.until else "",
        "q": filters.search,
    }
    return {key: value for key, value in values.items() if value}


@bp.get("/historial")
def index() -> tuple[str, int]:
    """The matches, newest first, a page at a time (keyset: ``despues`` is a cursor)."""
    filters, errors = read_filters(request.args)
    try:
        after = inputs.cursor(request.args.get("despues"))
    except inputs.BadInput as refused:
        after = None
        errors.append(refused.message)
    page = (
        services.queries.Page(services.queries.Listed([]), None)
        if errors
        else services.queries.history_page(access.scope(), filters, after)
    )
    return render_template(
        "history/index.html",
        filters=filters,
        errors=errors,
        page=page,
        first_page=after is None,
        args=filter_args(filters),
        next_cursor=services.queries.encode_cursor(page.next_cursor) if page.next_cursor else None,
        statuses=STATUS_LABELS,
        status_choices=tuple((value, str(label)) for value, label in STATUS_LABELS.items()),
    ), 400 if errors else 200


@bp.get("/historial/copia.jsonl")
def download_backup() -> Response:
    """Every match the account sees as a backup file (JSON lines of match files), streamed."""
    lines = backup.export_lines(access.scope())
    return download(lines, "application/x-ndjson", "anotador-copia.jsonl")


@bp.get("/historial/historial.csv")
def download_csv() -> Response:
    """The history table as CSV, streamed."""
    lines = backup.export_csv(access.scope())
    return download(lines, "text/csv; charset=utf-8", "anotador-historial.csv")


def download(lines: Any, mimetype: str, filename: str) -> Response:
    response = Response(stream_with_context(lines), mimetype=mimetype)
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


# Restore


#: Largest backup the page accepts (``RESTORE_MAX_BYTES`` overrides it); the rest of the app
#: keeps its small MAX_CONTENT_LENGTH.
RESTORE_MAX_BYTES = 64 * 1024 * 1024
#: Invalid lines listed on the report page (the count says how many there are).
SHOWN_INVALID = 50


@bp.post("/historial/restaurar")
@csrf.exempt  # checked below, once the upload may be larger than the app's usual limit
def restore() -> tuple[str, int]:
    """Restore a backup (or one match file) through the same import as ``anotador import``."""
    limit = current_app.config.get("RESTORE_MAX_BYTES", RESTORE_MAX_BYTES)
    request.max_content_length = limit
    try:
        upload = request.files.get("copia")
    except RequestEntityTooLarge:
        message = _("The file is too large: at most %(num)d MB.", num=limit // (1024 * 1024))
        return render_template("history/restore.html", report=None, error=message), 413
    if current_app.config.get("WTF_CSRF_ENABLED", True):
        csrf.protect()
    if upload is None or not upload.filename:
        message = _("Choose a backup file or a match file to restore.")
        return render_template("history/restore.html", report=None, error=message), 400
    try:
        report = backup.import_stream(upload.stream, access.user_id(), keep=SHOWN_INVALID)
    finally:
        upload.close()
    invalid = [
        (number, [restore_problem_line(problem) for problem in problems])
        for number, problems in report.problems
    ]
    error, status = None, 200
    if report.refused_at is not None:
        error = _(
            "The restore stopped at line %(num)d: the database does not take what the file "
            "holds there, so restoring it again would stop there too. What is counted below "
            "was saved.",
            num=report.refused_at,
        )
        status = 422
    elif report.stopped_at is not None:
        error = _(
            "The restore stopped at line %(num)d: the database failed. What is counted below "
            "was saved; restore the same file again to finish (matches already here are "
            "skipped).",
            num=report.stopped_at,
        )
        status = 503
    elif report.tournaments_refused:
        error = _("Nothing was restored: the tournaments in the file are not valid.")
        status = 422
    elif not report.created and not report.skipped:
        if report.invalid:
            error = _("Nothing was restored: the file holds no valid match.")
        else:
            error = _("Nothing was restored: the file holds no match.")
        status = 422
    return render_template(
        "history/restore.html",
        report=report,
        invalid=invalid,
        error=error,
        batch=backup.BATCH,
        counts=[
            ngettext("%(num)d match imported", "%(num)d matches imported", report.created),
            ngettext(
                "%(num)d match was already here",
                "%(num)d matches were already here",
                report.skipped,
            ),
            ngettext("%(num)d invalid", "%(num)d invalid", report.invalid),
            *(
                [ngettext("%(num)d tournament restored", "%(num)d tournaments restored", n)]
                if (n := report.tournaments)
                else []
            ),
            *(
                []
                if report.single
                else [ngettext("%(num)d batch saved", "%(num)d batches saved", report.batches)]
            ),
        ],
    ), status


def restore_problem_line(problem: Problem) -> str:
    """A problem of the restore itself (a line too long to read), of a tournament line
    (located by its JSON path: $.pairs[2].players) or of a match line (by the engine's)."""
    if isinstance(problem, backup.RestoreProblem | tournaments.Problem):
        text = problem_message(problem)
        return text if problem.path == "$" else f"{problem.path}: {text}"
    return problem_line(problem)
