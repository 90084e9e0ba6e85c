"""The ``anotador`` command.

``score`` and ``variants`` need only the rules engine: they never import Flask, WeasyPrint or
a database driver, so scoring a file starts in a blink. ``run`` and ``serve`` are the
servers (waitress, gunicorn). Every other command (``db``, ``routes``, ``shell`` and the
app's own) is Flask's, loaded only when it is asked for.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING
from typing import Any

import click

from anotador.rules.variant import LAYOUTS
from anotador.rules.variants import VARIANTS
from anotador.tournaments.commands import tournament_command

if TYPE_CHECKING:
    from anotador.rules import Match

INVALID_INPUT = 2


class AnotadorGroup(click.Group):
    """Own commands first; anything else is looked up in Flask's command group."""

    def flask_group(self, ctx: click.Context) -> click.Group:
        from flask.cli import FlaskGroup
        from flask.cli import ScriptInfo

        from anotador import create_app

        # Subcommand contexts inherit ``obj``: Flask's commands find the app through it.
        if not isinstance(ctx.obj, ScriptInfo):
            ctx.obj = ScriptInfo(create_app=create_app)
        return FlaskGroup(create_app=create_app, add_version_option=False, load_dotenv=False)

    def list_commands(self, ctx: click.Context) -> list[str]:
        own = super().list_commands(ctx)
        return sorted({*own, *self.flask_group(ctx).list_commands(ctx)})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        command = super().get_command(ctx, cmd_name)
        if command is not None:
            return command
        return self.flask_group(ctx).get_command(ctx, cmd_name)


@click.group(cls=AnotadorGroup)
@click.version_option(package_name="anotador", prog_name="anotador", message="%(prog)s %(version)s")
def main() -> None:
    """Anotador de Canasta: score matches, run the web app, manage its database."""


main.add_command(tournament_command)


HOST_OPTION = click.option(
    "--host",
    "-h",
    envvar="HOST",
    default="0.0.0.0",
    show_default=True,
    show_envvar=True,
    help="The address to listen on (0.0.0.0: every one).",
)
PORT_OPTION = click.option(
    "--port",
    "-p",
    envvar="PORT",
    type=click.IntRange(1, 65535),
    default=5000,
    show_default=True,
    show_envvar=True,
    help="The port to listen on.",
)


@main.command()
@HOST_OPTION
@PORT_OPTION
def run(host: str, port: int) -> None:
    """Serve the app with waitress (Linux, macOS, Windows): for the phones at a table or a
    club night, one process. A new database is migrated first; the data folder is
    ANOTADOR_DATA, else the user's data folder (instance/ in a checkout). It listens on HOST
    and PORT (0.0.0.0 and 5000: every address, so that phones on the network can open it)."""
    from anotador import create_app
    from anotador.commands import waitress_server

    waitress_server.serve(create_app(), host, port, click.echo)


@main.command()
@HOST_OPTION
@PORT_OPTION
@click.option(
    "--workers",
    "-w",
    type=click.IntRange(1, 64),
    default=None,
    help="Worker processes (default: WEB_CONCURRENCY, else one per core plus one).",
)
def serve(host: str, port: int, workers: int | None) -> None:
    """Serve the app with gunicorn, several worker processes: for a club's server or a
    Raspberry Pi (behind an HTTPS proxy: ANOTADOR_BEHIND_PROXY=1). A new database is
    migrated first."""
    import os

    try:
        from anotador.commands import serve as production
    except ImportError as error:  # gunicorn: not on Windows
        fail([f"anotador serve needs gunicorn ({error}); `anotador run` serves without it."])
        raise  # unreachable: fail() exits
    from anotador import create_app

    try:
        count = workers or production.default_workers(os.environ, os.cpu_count())
    except ValueError as error:
        fail([str(error)])
        raise  # unreachable: fail() exits
    production.serve(create_app(), host, port, count, click.echo)


def fail(lines: list[str]) -> None:
    for line in lines:
        click.echo(line, err=True)
    sys.exit(INVALID_INPUT)


def read_input(file: str) -> bytes:
    if file == "-":
        return sys.stdin.buffer.read()
    try:
        return Path(file).read_bytes()
    except OSError as error:
        fail([f"$: cannot read {file}: {error.strerror or error}"])
        raise  # unreachable: fail() exits


def read_match_file(file: str) -> Match:
    """The match in FILE, or exit 2 with one ``PATH: message`` line per problem."""
    from anotador.rules import parse_json
    from anotador.rules import read_match

    document, problems = parse_json(read_input(file))
    game = None
    if not problems:
        game, problems = read_match(document)
    if game is None:
        fail([f"{p.path}: {p.message}" for p in problems if p.severity == "error"])
    assert game is not None
    return game


@main.command()
@click.argument("file")
def score(file: str) -> None:
    """Score the match file FILE ('-' for standard input) and print the result as JSON."""
    from anotador.rules.api import score_document

    scored = score_document(read_input(file))
    if scored["result"] is None:
        errors = [p for p in scored["problems"] if p["severity"] == "error"]
        fail([f"{p['path']}: {p['message']}" for p in errors])
    click.echo(json.dumps(scored["result"], ensure_ascii=False, indent=2))


@main.command()
@click.argument("file")
@click.option("-o", "--output", required=True, help="Where to write the PDF.")
@click.option("--paper", type=click.Choice(["a4", "letter"]), default="a4", show_default=True)
@click.option("--lang", type=click.Choice(["es", "en", "it"]), default="es", show_default=True)
def sheet(file: str, output: str, paper: str, lang: str) -> None:
    """Print the match file FILE ('-' for standard input) as a PDF score sheet."""
    from anotador.rules import score_match
    from anotador.sheets import render_match_sheet

    game = read_match_file(file)
    write_pdf(output, render_match_sheet(game, score_match(game), paper=paper, lang=lang))


def either(names: Any) -> str:
    """``a, b or c.``: the names a help text offers."""
    *first, last = [str(name) for name in names]
    return f"{', '.join(first)} or {last}." if first else f"{last}."


@main.command()
@click.option("--variant", required=True, help=either(VARIANTS))
@click.option("--layout", required=True, help=either(LAYOUTS))
@click.option("--target", type=int, help="Points to play to (default: the variant's).")
@click.option("--lang", type=click.Choice(["es", "en", "it"]), default="es", show_default=True)
@click.option("--paper", type=click.Choice(["a4", "letter"]), default="a4", show_default=True)
@click.option("-o", "--output", required=True, help="Where to write the PDF.")
def blank(
    variant: str, layout: str, target: int | None, lang: str, paper: str, output: str
) -> None:
    """Print a blank score sheet for VARIANT and LAYOUT, with its values for reference."""
    from anotador.rules import InvalidInput
    from anotador.sheets import render_blank_sheet

    try:
        pdf = render_blank_sheet(variant, layout, target, lang, paper=paper)
    except InvalidInput as error:
        fail([f"{p.path}: {p.message}" for p in error.problems])
        raise  # unreachable: fail() exits
    write_pdf(output, pdf)


def write_pdf(output: str, pdf: bytes) -> None:
    try:
        Path(output).write_bytes(pdf)
    except OSError as error:
        fail([f"$: cannot write {output}: {error.strerror or error}"])
    click.echo(f"{output}: {len(pdf)} bytes")


@main.command()
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def variants(as_json: bool) -> None:
    """List the variants with their layouts, defaults and options."""
    from anotador.rules import describe_variants

    described = describe_variants()
    if as_json:
        click.echo(json.dumps(described, indent=2))
        return
    for variant in described:
        click.echo(describe_variant(variant))


def describe_variant(variant: dict[str, Any]) -> str:
    lines = [variant["name"]]
    lines.append("  layouts (target, decks, canastas to close):")
    for layout, settings in variant["layouts"].items():
        to_close = settings.get("canastas_to_close", "-")
        lines.append(f"    {layout:7} {settings['target']:>6} {settings['decks']:>3} {to_close:>3}")
    lines.append("  options (default; choices):")
    for option in variant["options"]:
        choices = ", ".join(json.dumps(c) for c in option["choices"])
        suffix = f"; {choices}" if choices else ""
        lines.append(f"    {option['name']} ({json.dumps(option['default'])}{suffix})")
    lines.append("  per side: " + ", ".join(variant["side_fields"]))
    if variant["hand_fields"]:
        lines.append("  per hand: " + ", ".join(variant["hand_fields"]))
    lines.append("  hand ends: " + ", ".join(variant["end_reasons"]))
    values = ", ".join(f"{kind} {value}" for kind, value in variant["card_values"].items())
    lines.append(f"  card values: {values}")
    if not variant["opening_minimum"]:
        lines.append("  opening minimum: none (libre)")
    return "\n".join(lines)
