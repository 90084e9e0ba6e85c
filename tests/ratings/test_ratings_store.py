"""Stored ratings and ``anotador ratings``: equal to an independent openskill computation of
the account's finished matches, after imports out of date order, corrections of old matches
through the hand form, deletions and undos (RATINGS.md §1–5)."""

from __future__ import annotations

import datetime
import json
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient
from flask.testing import FlaskCliRunner
from openskill.models import PlackettLuce
from stored import OWNER
from stored import create_account
from stored import create_stored_match
from test_hands import record

from anotador import rules
from anotador import services
from anotador.ratings import store
from anotador.ratings.models import PlayerRating
from anotador.storage.database import db
from anotador.storage.models import Match
from anotador.storage.models import name_key

SIDE_COUNT = {"2p": 2, "3p": 3, "4p": 2, "6p-3x2": 3, "6p-2x3": 2}


def finished(
    layout: str, sides: list[list[str]], played_on: str | None, winner: int = 0, **keys: Any
) -> dict[str, Any]:
    """A uruguaya match to 5000 that one hand ends: side ``winner`` goes past 5000, the others
    stay below (two of them tied when there are three)."""
    count = SIDE_COUNT[layout]
    hand = {
        "end": "stock_out",
        "sides": [{"table_points": 200 if i == winner else 100} for i in range(count)],
    }
    document: dict[str, Any] = {
        "format": "anotador-match/1",
        "variant": "uruguaya",
        "layout": layout,
        "options": {"target": 5000},
        "sides": [{"name": f"Lado {i + 1}", "players": players} for i, players in enumerate(sides)],
        "start_scores": [4900] * count,
        "hands": [hand],
        **keys,
    }
    if played_on is not None:
        document["played_on"] = played_on
    return document


#: An account's matches across layouts, recurring players written differently, dates out of
#: order, an abandoned and an unfinished one.
MATCHES = [
    finished("2p", [["Ana"], ["Beto"]], "2026-03-05"),
    finished("4p", [["ana", "Caro"], [" Beto ", "Dani"]], "2026-01-10", winner=1),
    finished("3p", [["Eli"], ["ANA"], ["Caro"]], "2026-03-05", winner=2),
    finished("6p-3x2", [["Ana", "Fede"], ["Beto", "Caro"], ["Dani", "Eli"]], "2026-02-01", 1),
    finished("6p-2x3", [["Ana", "Beto", "Caro"], ["Dani", "Eli", "Fede"]], "2026-01-10"),
    {**finished("2p", [["Ana"], ["Gabi"]], "2026-01-01"), "hands": [], "abandoned": True},
    {**finished("2p", [["Gabi"], ["Beto"]], "2026-01-02"), "hands": []},
]


def independent(documents: list[dict[str, Any]]) -> dict[str, tuple[float, float, int]]:
    """openskill by hand: finished matches by date then import order, teams in seating order,
    ranks by total (the winner first), players by folded name."""
    model = PlackettLuce()
    ratings: dict[str, Any] = {}
    counts: dict[str, int] = {}
    shown: dict[str, str] = {}
    order = sorted(range(len(documents)), key=lambda i: (documents[i]["played_on"], i))
    for index in order:
        game, problems = rules.read_match(documents[index])
        assert game is not None, problems
        score = rules.score_match(game)
        if not score.finished:
            continue
        teams = [[name_key(p) for p in side.players] for side in game.sides]
        for side in game.sides:
            for player in side.players:
                shown.setdefault(name_key(player), player.strip())
        totals, winner = score.totals, score.winner
        ranks = [
            0
            if i == winner
            else (winner is not None)
            + sum(1 for j, t in enumerate(totals) if j not in (i, winner) and t > total)
            for i, total in enumerate(totals)
        ]
        playing = [[ratings.get(p, model.rating()) for p in t] for t in teams]
        rated = model.rate(playing, ranks=ranks)
        for team, news in zip(teams, rated, strict=True):
            for player, new in zip(team, news, strict=True):
                ratings[player] = new
                counts[player] = counts.get(player, 0) + 1
    return {key: (r.mu, r.sigma, counts[key]) for key, r in ratings.items()}


def import_lines(runner: FlaskCliRunner, tmp_path: Path, documents: list[dict[str, Any]]) -> None:
    lines = tmp_path / "matches.jsonl"
    lines.write_text("".join(json.dumps(d) + "\n" for d in documents), encoding="utf-8")
    result = runner.invoke(args=["import", str(lines), "--owner", OWNER])
    assert result.exit_code == 0, result.output


def cli_ratings(runner: FlaskCliRunner, owner: str = OWNER) -> dict[str, tuple[float, float, int]]:
    result = runner.invoke(args=["ratings", "--owner", owner, "--json"])
    assert result.exit_code == 0, result.output
    entries = json.loads(result.stdout)["ratings"]
    ordered = [e["mu"] - 3 * e["sigma"] for e in entries]
    assert ordered == sorted(ordered, reverse=True)
    return {name_key(e["player"]): (e["mu"], e["sigma"], e["matches"]) for e in entries}


def assert_stored_is_fresh(app: Flask, owner: str = OWNER) -> None:
    with app.app_context():
        account = services.accounts.find_account(owner)
        assert account is not None
        assert store.stored(account.id) == store.fresh(account.id)


def match_id_on(app: Flask, played_on: str, layout: str) -> int:
    """The id of the one stored match of ``layout`` played on ``played_on``."""
    with app.app_context():
        statement = sa.select(Match.id).where(
            Match.layout == layout, Match.played_on == datetime.date.fromisoformat(played_on)
        )
        (found,) = db.session.scalars(statement).all()
        return found


def test_an_import_out_of_date_order_rates_as_openskill_does(
    app: Flask, runner: FlaskCliRunner, tmp_path: Path
) -> None:
    import_lines(runner, tmp_path, MATCHES)
    want = independent(MATCHES)
    assert cli_ratings(runner) == want
    assert "gabi" not in want  # only in matches that do not count
    assert_stored_is_fresh(app)


def test_the_contracts_example_and_the_table(runner: FlaskCliRunner, app: Flask) -> None:
    create_stored_match(app, finished("2p", [["Ana"], ["Beto"]], "2026-05-01"))
    result = runner.invoke(args=["ratings", "--json"])
    assert json.loads(result.stdout) == {
        "ratings": [
            {"player": "Ana", "mu": 27.635389493140497, "sigma": 8.06590141354368, "matches": 1},
            {"player": "Beto", "mu": 22.364610506859503, "sigma": 8.06590141354368, "matches": 1},
        ]
    }
    table = runner.invoke(args=["ratings"]).stdout.splitlines()
    assert table[1].split() == ["1", "Ana", "344", "27.64", "8.07", "1"]
    assert table[2].split() == ["2", "Beto", "-183", "22.36", "8.07", "1"]


def test_an_unknown_account_is_an_error_with_nothing_on_stdout(runner: FlaskCliRunner) -> None:
    result = runner.invoke(args=["ratings", "--owner", "Nadie", "--json"])
    assert result.exit_code != 0
    assert result.stdout == ""
    assert "Nadie" in result.stderr


def test_a_corrected_hand_of_an_old_match_recomputes_what_follows(
    app: Flask, client: FlaskClient, runner: FlaskCliRunner, tmp_path: Path
) -> None:
    import_lines(runner, tmp_path, MATCHES)
    old = match_id_on(app, "2026-01-10", "4p")
    # Through the hand form: the other side wins now.
    data = {"closer": "none", "s0_table_points": "200", "s1_table_points": "100", "version": "0"}
    response = client.post(f"/partidas/{old}/manos/1", data=data)
    assert response.status_code == 302, response.get_data(as_text=True)
    changed = [dict(d) for d in MATCHES]
    changed[1] = finished("4p", [["ana", "Caro"], [" Beto ", "Dani"]], "2026-01-10", winner=0)
    assert cli_ratings(runner) == independent(changed)
    assert_stored_is_fresh(app)

    # A correction that leaves it unfinished takes it out.
    data = {"closer": "none", "s0_table_points": "0", "s1_table_points": "0", "version": "1"}
    assert client.post(f"/partidas/{old}/manos/1", data=data).status_code == 302
    assert cli_ratings(runner) == independent([d for i, d in enumerate(MATCHES) if i != 1])
    assert_stored_is_fresh(app)


def test_undoing_the_finishing_hand_takes_the_match_out(
    app: Flask, client: FlaskClient, runner: FlaskCliRunner, tmp_path: Path
) -> None:
    import_lines(runner, tmp_path, MATCHES)
    old = match_id_on(app, "2026-02-01", "6p-3x2")
    response = client.post(f"/partidas/{old}/manos/1/borrar", data={"version": "0", "confirm": "1"})
    assert response.status_code in (302, 303), response.get_data(as_text=True)
    assert cli_ratings(runner) == independent([d for i, d in enumerate(MATCHES) if i != 3])
    assert_stored_is_fresh(app)


def test_two_accounts_never_see_each_others_ratings(
    app: Flask, runner: FlaskCliRunner, tmp_path: Path
) -> None:
    create_account(app, "Otra")
    create_stored_match(app, finished("2p", [["Ana"], ["Beto"]], "2026-05-01"))
    create_stored_match(app, finished("2p", [["Ana"], ["Beto"]], "2026-05-01", 1), owner="Otra")
    create_stored_match(app, finished("2p", [["Ana"], ["Zoe"]], "2026-05-02", 1), owner="Otra")
    mine, theirs = cli_ratings(runner), cli_ratings(runner, "Otra")
    assert set(mine) == {"ana", "beto"}
    assert set(theirs) == {"ana", "beto", "zoe"}
    assert mine["ana"] == theirs["beto"]  # the same one match, seen from each account
    assert_stored_is_fresh(app)
    assert_stored_is_fresh(app, "Otra")


def test_rebuild_rewrites_lost_ratings(app: Flask, runner: FlaskCliRunner, tmp_path: Path) -> None:
    import_lines(runner, tmp_path, MATCHES)
    with app.app_context():
        db.session.execute(sa.delete(PlayerRating))
        db.session.commit()
    result = runner.invoke(args=["ratings", "--rebuild"])
    assert result.exit_code == 0, result.output
    assert_stored_is_fresh(app)


def test_merged_players_are_one_rated_person(app: Flask, runner: FlaskCliRunner) -> None:
    create_stored_match(app, finished("2p", [["Ana"], ["Beto"]], "2026-05-01"))
    create_stored_match(app, finished("2p", [["Anita"], ["Caro"]], "2026-05-02"))
    with app.app_context():
        owner = services.accounts.first_administrator_id()
        keep, gone = (services.players.find_or_create_player(n, owner) for n in ("Ana", "Anita"))
        services.players.merge_players(keep, gone)
    merged = [finished("2p", [["Ana"], ["Beto"]], "2026-05-01")]
    merged.append(finished("2p", [["Ana"], ["Caro"]], "2026-05-02"))
    assert cli_ratings(runner) == independent(merged)
    assert_stored_is_fresh(app)


def test_check_reports_and_fixes_stored_ratings_that_differ(
    app: Flask, runner: FlaskCliRunner, tmp_path: Path
) -> None:
    import_lines(runner, tmp_path, MATCHES)
    assert runner.invoke(args=["check"]).exit_code == 0
    with app.app_context():
        db.session.execute(sa.update(PlayerRating).values(mu=PlayerRating.mu + 1))
        db.session.commit()
    result = runner.invoke(args=["check"])
    assert result.exit_code == 1
    assert "stored ratings differ from a fresh computation" in result.output
    assert runner.invoke(args=["check", "--fix"]).exit_code == 0
    assert_stored_is_fresh(app)
    assert runner.invoke(args=["check"]).output.endswith("all fine\n")


def test_a_restored_backup_gives_the_same_ratings(
    app: Flask, runner: FlaskCliRunner, tmp_path: Path
) -> None:
    import_lines(runner, tmp_path, MATCHES)
    dump = tmp_path / "backup.jsonl"
    assert runner.invoke(args=["export", "--all", "-o", str(dump)]).exit_code == 0
    create_account(app, "Otra")
    restored = runner.invoke(args=["import", str(dump), "--owner", "Otra"])
    assert restored.exit_code == 0, restored.output
    assert cli_ratings(runner, "Otra") == cli_ratings(runner) == independent(MATCHES)
    assert_stored_is_fresh(app, "Otra")


def test_the_first_account_takes_the_ratings_from_before_accounts(app_factory: Any) -> None:
    app = app_factory(account=False)
    create_stored_match(app, finished("2p", [["Ana"], ["Beto"]], "2026-05-01"))
    with app.app_context():
        assert store.stored(None) == store.fresh(None) != {}
        services.accounts.create_account("Primera", "una clave larga", admin=True)
    assert_stored_is_fresh(app, "Primera")
    with app.app_context():
        assert store.stored(None) == {}


def test_finishing_a_match_through_the_form_rates_it_whatever_its_date(
    app: Flask, client: FlaskClient, runner: FlaskCliRunner, tmp_path: Path
) -> None:
    import_lines(runner, tmp_path, MATCHES)
    documents = list(MATCHES)
    for played_on in ("2027-01-01", "2025-12-31"):  # after every match, then before them all
        ongoing = {**finished("2p", [["Ana"], ["Zoe"]], played_on), "hands": []}
        match_id = create_stored_match(app, ongoing)
        data = {"closer": "none", "s0_table_points": "100", "s1_table_points": "200"}
        response = record(client, match_id, data)
        assert response.status_code == 302, response.get_data(as_text=True)
        documents.append(finished("2p", [["Ana"], ["Zoe"]], played_on, winner=1))
        assert cli_ratings(runner) == independent(documents)
        assert_stored_is_fresh(app)
