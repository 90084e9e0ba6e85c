"""Commands for administrators: ``anotador users add|list|reset-password|remove`` and
``anotador share MATCH_ID [--table]``. Passwords are read from standard input (asked twice,
hidden, at a terminal), never from the command line where ``ps`` would show them."""

from __future__ import annotations

import os
import sys
from typing import Any
from typing import NoReturn

import click
from flask import current_app
from flask.cli import with_appcontext

from anotador import services
from anotador.services.accounts import AccountRefused
from anotador.services.sharing import LinkKind

INVALID_INPUT = 2

owner_option = click.option(
    "--owner",
    metavar="NAME",
    help="The account that owns what is stored (default: the first administrator).",
)


def read_password() -> str:
    if sys.stdin.isatty():
        return str(click.prompt("Password", hide_input=True, confirmation_prompt=True))
    return sys.stdin.readline().rstrip("\r\n")


def fail(message: str) -> NoReturn:
    click.echo(message, err=True)
    sys.exit(INVALID_INPUT)


def account_named(name: str) -> Any:
    user = services.accounts.find_account(name)
    if user is None:
        fail(f"no account called {name!r}")
    return user


@click.group("users")
def users_command() -> None:
    """Manage the accounts of this installation."""


@users_command.command("add")
@click.argument("name")
@click.option("--admin", is_flag=True, help="Make it an administrator (the first account is).")
@with_appcontext
def add_user(name: str, admin: bool) -> None:
    """Create the account NAME; its password is read from standard input."""
    try:
        user = services.accounts.create_account(name, read_password(), admin=admin)
    except AccountRefused as refused:
        fail(f"{refused.field}: {refused.message}")
    role = "administrator" if user.is_admin else "account"
    click.echo(f"{role} {user.name} created")


@users_command.command("list")
@with_appcontext
def list_users() -> None:
    """Every account: name, role, matches, created."""
    for user, matches in services.accounts.accounts_with_counts():
        role = "admin" if user.is_admin else "user"
        created = user.created_at.date().isoformat()
        click.echo(f"{user.name}\t{role}\t{matches} matches\tsince {created}")


@users_command.command("reset-password")
@click.argument("name")
@with_appcontext
def reset_password(name: str) -> None:
    """Give NAME a new password (read from standard input); its sessions end."""
    user = account_named(name)
    password = read_password()
    try:
        services.accounts.check_new_password(password)
    except AccountRefused as refused:
        fail(refused.message)
    services.accounts.set_password(user, password)
    click.echo(f"password of {user.name} replaced; its devices must sign in again")


@users_command.command("remove")
@click.argument("name")
@click.option("--yes", is_flag=True, help="Do not ask for confirmation.")
@with_appcontext
def remove_user(name: str, yes: bool) -> None:
    """Delete the account NAME with its matches, players and groups."""
    user = account_named(name)
    if not yes:
        click.confirm(f"Delete {user.name} and all of its matches?", abort=True)
    try:
        count = services.accounts.remove_account(user)
    except AccountRefused as refused:
        fail(refused.message)
    click.echo(f"{name} removed, with {count} matches")


@click.command("share")
@click.argument("match_id", type=int)
@click.option("--table", is_flag=True, help="The table link (score without an account).")
@click.option(
    "--base-url",
    envvar="ANOTADOR_URL",
    help="The address the phones open (default: this machine on the local network).",
)
@with_appcontext
def share_command(match_id: int, table: bool, base_url: str | None) -> None:
    """Print match MATCH_ID's spectator link (or its table link), making it if needed."""
    match = services.queries.load_match(match_id)
    if match is None:
        fail(f"no match with id {match_id}")
    kind: LinkKind = "table" if table else "spectator"
    token = match.table_token if table else match.spectator_token
    if token is None:
        if table and match.status != "ongoing":
            fail("the match is over: a table link would not let anyone score")
        token = services.sharing.set_link(match, kind, True)
    base = (base_url or default_base_url()).rstrip("/")
    click.echo(f"{base}/enlace/{token}")


def default_base_url() -> str:
    """The address the phones open: this machine on the local network (HOST, PORT)."""
    from anotador.web import addresses as serving

    url, _reachable = serving.phone_address(*serving.listen_address(os.environ))
    root = current_app.config.get("APPLICATION_ROOT", "/").strip("/")
    return url + root
