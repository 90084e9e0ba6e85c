"""The app's own commands: ``anotador export``, ``import``, ``seed-demo`` and ``check``.

They run inside the app (its database), so ``anotador`` finds them through Flask's command
group; each is thin over :mod:`anotador.backup`, :mod:`anotador.services` and
:mod:`anotador.commands.demo` (``check``: :mod:`anotador.backup.integrity`, then
:mod:`anotador.tournaments.operations.integrity`).
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import IO
from typing import TYPE_CHECKING

import click
from flask import Flask
from flask.cli import with_appcontext

from anotador import backup
from anotador import services
from anotador.commands.accounts import owner_option
from anotador.commands.accounts import share_command
from anotador.commands.accounts import users_command
from anotador.commands.ratings import ratings_check
from anotador.commands.ratings import ratings_command
from anotador.services.scope import EVERYTHING
from anotador.storage import signals
from anotador.tournaments.operations import integrity as tournament_integrity

if TYPE_CHECKING:
    from anotador.backup import integrity

INVALID_INPUT = 2


def register_commands(app: Flask) -> None:
    """Add the commands to ``app.cli`` (``flask --app anotador export`` or ``anotador export``)."""
    commands = (
        export_command,
        import_command,
        seed_demo_command,
        check_command,
        users_command,
        share_command,
        ratings_command,
    )
    for command in commands:
        app.cli.add_command(command)


@contextmanager
def output(path: str | None) -> Iterator[IO[str]]:
    if path is None or path == "-":
        yield sys.stdout
        return
    with open(path, "w", encoding="utf-8", newline="") as file:
        yield file


@click.command("export")
@click.argument("match_id", type=int, required=False)
@click.option("--all", "everything", is_flag=True, help="Every match, as a backup (JSON lines).")
@click.option("--csv", "as_csv", is_flag=True, help="With --all: the history table as CSV.")
@click.option("-o", "--output", "path", help="Write to this file instead of standard output.")
@with_appcontext
def export_command(match_id: int | None, everything: bool, as_csv: bool, path: str | None) -> None:
    """Export match MATCH_ID as a match file, or every match of every account with --all."""
    if everything == (match_id is not None):
        raise click.UsageError("give either MATCH_ID or --all")
    if as_csv and not everything:
        raise click.UsageError("--csv goes with --all")
    if match_id is not None:
        match = services.queries.load_match(match_id)
        if match is None:
            click.echo(f"no match with id {match_id}", err=True)
            sys.exit(INVALID_INPUT)
        with output(path) as file:
            json.dump(backup.match_file(match), file, ensure_ascii=False, indent=2)
            file.write("\n")
        return
    with output(path) as file:
        file.writelines(
            backup.export_csv(EVERYTHING) if as_csv else backup.export_lines(EVERYTHING)
        )


@click.command("import")
@click.argument("file", type=click.File("rb"))
@owner_option
@with_appcontext
def import_command(file: IO[bytes], owner: str | None) -> None:
    """Import FILE ('-' for standard input): a match file, or a backup made by export --all,
    as matches of the account --owner (by default the first administrator).

    A single match prints its page's path (like /partidas/12); a backup prints a report
    (the problems of its first invalid lines, and how many there are). Matches already stored
    with the same content are skipped, so an import that stopped midway is finished by
    running it again: each batch of matches was committed as it was read.
    """
    report = backup.import_stream(file, owner_id(owner))
    if report.single and report.stopped_at is None:
        if report.invalid:
            for _, line in report.problem_lines():
                click.echo(line, err=True)
            sys.exit(INVALID_INPUT)
        suffix = "" if report.created else "  (already present)"
        click.echo(f"/partidas/{report.match_id}{suffix}")
        return
    click.echo(report.summary())
    for number, line in report.problem_lines():
        click.echo(f"line {number}: {line}", err=True)
    if report.invalid > len(report.problems):
        click.echo(f"... and {report.invalid - len(report.problems)} more invalid lines", err=True)
    if report.refused_at is not None:
        click.echo(
            f"stopped at line {report.refused_at} (the database refused what it holds): the "
            "matches counted above are stored",
            err=True,
        )
        sys.exit(INVALID_INPUT)
    if report.stopped_at is not None:
        click.echo(
            f"stopped at line {report.stopped_at} (database error): the matches counted above "
            "are stored; run the same import again to finish it",
            err=True,
        )
        sys.exit(1)
    if report.invalid:
        sys.exit(INVALID_INPUT)


@click.command("seed-demo")
@click.option("--matches", "count", type=click.IntRange(1, 1_000_000), default=100, show_default=1)
@click.option("--seed", "seed_value", type=int, default=0, show_default=True)
@owner_option
@with_appcontext
def seed_demo_command(count: int, seed_value: int, owner: str | None) -> None:
    """Fill the database with COUNT realistic random matches (valid by the rules engine)."""
    from anotador.commands import demo

    started = time.perf_counter()

    def progress(done: int) -> None:
        if done % 10_000 == 0 and done < count:
            click.echo(f"{done} matches...", err=True)

    created = demo.seed(count, seed_value, progress, owner_id(owner))
    signals.changed_many("imported", created)
    elapsed = time.perf_counter() - started
    click.echo(f"{len(created)} demo matches stored in {elapsed:.1f} s")


@click.command("check")
@click.option(
    "--fix",
    is_flag=True,
    help="Rewrite the summaries that disagree with their hands (matches that read fine).",
)
@with_appcontext
def check_command(fix: bool) -> None:
    """Read every stored match again by the rules engine and report what no longer agrees.

    Lists each match the engine refuses (``match ID: PATH: MESSAGE``) and each one whose
    summary columns (totals, winner, status, hand count, content hash) disagree with a fresh
    scoring; then each tournament whose rows a restore would refuse or whose tournament file
    the tournament reader refuses (``tournament ID: PATH: MESSAGE``; --fix mends its and its
    clubs' names). Exits 0 when nothing is (or, with --fix, remains) wrong, 1 otherwise.
    """
    from anotador.backup import integrity

    def found(finding: integrity.Finding | tournament_integrity.Finding) -> None:
        for line in finding.lines():
            click.echo(line)

    report = integrity.check(fix=fix, found=found)
    # After the summaries: a fixed status moves the ratings too.
    wrong_ratings = ratings_check(fix)
    matches_left = matches_said(report, bool(wrong_ratings), fix)
    tournaments = tournament_integrity.check(fix=fix, found=found)
    if tournaments_said(tournaments, fix) or matches_left:
        sys.exit(1)


def matches_said(report: integrity.Report, wrong_ratings: bool, fix: bool) -> bool:
    """Say what the matches' check found; whether something is left to do."""
    if report.clean and not wrong_ratings:
        click.echo(f"{counted(report.checked, 'match', 'matches')} checked, all fine")
        return False
    click.echo(
        f"{counted(report.checked, 'match', 'matches')} checked: "
        f"{counted(report.broken, 'fails', 'fail')} the rules, "
        f"{counted(report.stale, 'has', 'have')} a summary that disagrees with its hands"
    )
    if fix:
        click.echo(f"fixed {counted(report.fixed, 'summary', 'summaries')}")
        if report.refreshed:
            click.echo(
                f"refreshed the content hash of {report.refreshed} that fail the rules "
                "(their pages now show them as stored)"
            )
        if report.skipped:
            click.echo(f"{report.skipped} changed while being fixed: run anotador check again")
    elif report.stale or wrong_ratings:
        click.echo("run `anotador check --fix` to rewrite those summaries and ratings")
    if report.broken:
        click.echo(
            "matches that fail the rules cannot be fixed automatically: export each one "
            "(anotador export ID -o match.json, or Export on its page), correct the file "
            "and import it again"
        )
    return bool(report.left or report.skipped or (wrong_ratings and not fix))


def tournaments_said(report: tournament_integrity.Report, fix: bool) -> bool:
    """Say what the tournaments' check found; whether problems are left."""
    checked = counted(report.checked, "tournament", "tournaments")
    if not report.broken and not report.fixed:
        if report.checked:  # an installation without tournaments hears of matches only
            click.echo(f"{checked} checked, all fine")
        return False
    click.echo(f"{checked} checked: {report.broken} with problems")
    if fix:
        click.echo(f"fixed {counted(report.fixed, 'name', 'names')}")
    if report.broken:
        click.echo(
            "tournament names with invisible characters or spaces around can be fixed with "
            "--fix; a player's name is renamed on its page; a pair against itself, a table or a "
            "round out of bounds cannot be fixed automatically: export the tournament's "
            "account, correct its tournament line and restore it into an empty account"
            if not fix
            else "what is left cannot be fixed automatically: rename a player on its page; "
            "for a pair against itself, a table or a round out of bounds, export the account, "
            "correct its tournament line and restore it into an empty account"
        )
    return bool(report.broken)


def owner_id(name: str | None) -> int | None:
    """The account called ``name`` (an error when there is none); None for the default
    owner (the first administrator)."""
    if name is None:
        return None
    user = services.accounts.find_account(name)
    if user is None:
        raise click.BadParameter(f"no account called {name!r}", param_hint="--owner")
    return user.id


def counted(number: int, one: str, many: str) -> str:
    return f"{number} {one if number == 1 else many}"
