"""``anotador ratings``: an account's ratings as docs/ratings.md says, computed from
scratch from its matches (the stored ones must equal that: ``anotador check``), and
``--rebuild``, which rewrites every account's stored ratings."""

from __future__ import annotations

import json
import sys

import click
import sqlalchemy as sa
from flask.cli import with_appcontext

from anotador import services
from anotador.ratings import store
from anotador.ratings.compute import Standing
from anotador.storage.database import db
from anotador.storage.models import Player
from anotador.storage.models import name_key

INVALID_INPUT = 2


def ranked(standings: dict[int, Standing]) -> list[tuple[Player, Standing]]:
    """The rated players with their standings, highest mu − 3σ first, ties by folded name."""
    players = db.session.scalars(sa.select(Player).where(Player.id.in_(list(standings))))
    found = [(player, standings[player.id]) for player in players]
    found.sort(key=lambda item: (-(item[1].mu - 3 * item[1].sigma), name_key(item[0].name)))
    return found


@click.command("ratings")
@click.option("--owner", metavar="NAME", help="The account (default: the first administrator).")
@click.option("--json", "as_json", is_flag=True, help="One JSON object on standard output.")
@click.option("--rebuild", is_flag=True, help="Recompute every account's stored ratings.")
@with_appcontext
def ratings_command(owner: str | None, as_json: bool, rebuild: bool) -> None:
    """The players' ratings of an account, from its finished matches (openskill)."""
    if rebuild:
        accounts = store.rebuild_all()
        click.echo(f"ratings rebuilt for {accounts} account{'' if accounts == 1 else 's'}")
        return
    owner_id = services.accounts.owner_or_default(account_id(owner))
    rows = ranked(store.fresh(owner_id))
    if as_json:
        entries = [
            {"player": p.name, "mu": s.mu, "sigma": s.sigma, "matches": s.matches} for p, s in rows
        ]
        click.echo(json.dumps({"ratings": entries}, ensure_ascii=False))
        return
    click.echo(f"{'#':>4}  {'player':<30} {'rating':>7} {'mu':>7} {'sigma':>6} {'matches':>7}")
    for position, (player, standing) in enumerate(rows, start=1):
        click.echo(
            f"{position:>4}  {player.name:<30} {standing.shown:>7} {standing.mu:>7.2f} "
            f"{standing.sigma:>6.2f} {standing.matches:>7}"
        )


def account_id(name: str | None) -> int | None:
    """The account called ``name``; an unknown one ends the command (message on standard
    error, nothing on standard output)."""
    if name is None:
        return None
    user = services.accounts.find_account(name)
    if user is None:
        click.echo(f"no account called {name!r}", err=True)
        sys.exit(INVALID_INPUT)
    return user.id


def ratings_check(fix: bool) -> bool:
    """``anotador check``'s part: says which accounts' stored ratings differ from a fresh
    computation and, with ``fix``, rebuilds them; whether any differed."""
    wrong = store.disagreeing_accounts()
    for owner_id in wrong:
        done = " (rebuilt)" if fix else ""
        click.echo(f"account {owner_id}: stored ratings differ from a fresh computation{done}")
        if fix:
            store.rebuild(owner_id)
    db.session.commit()
    return bool(wrong)
