"""Backup and restore, the export/import/seed-demo commands."""

import datetime
import io
import json
import random
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient
from flask.testing import FlaskCliRunner
from hypothesis import HealthCheck
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st
from stored import create_stored_match
from stored import owner_id
from stored import signed_in
from werkzeug.datastructures import FileStorage
from werkzeug.datastructures import MultiDict
from werkzeug.test import encode_multipart

from anotador import backup
from anotador import rules
from anotador import services
from anotador.backup import bulk
from anotador.commands import demo
from anotador.services.scope import EVERYTHING
from anotador.storage.database import db
from anotador.storage.models import Hand
from anotador.storage.models import Match
from anotador.storage.models import Player
from anotador.storage.models import Seat
from anotador.storage.models import Side

E01 = Path(__file__).parent.parent / "fixtures" / "examples" / "E01.json"

LAST_DAY = datetime.date(2030, 1, 1)
NAME_CHARS = "abcdefghijklmnopqrstuvwxyzáéíóúñüABCDEJOSÉÑ -'"
names = st.text(alphabet=NAME_CHARS, min_size=1, max_size=14).filter(lambda n: n.strip())


@st.composite
def match_documents(draw: st.DrawFn) -> dict[str, Any]:
    """A valid match file: any setup of the demo, free texts, a few plausible hands."""
    variant, layout = draw(st.sampled_from([(v, layout) for v, layout, _ in demo.SETUPS]))
    game = rules.make_rules(variant, layout)
    rng = draw(st.randoms(use_true_random=False))
    document: dict[str, Any] = {
        "format": "anotador-match/1",
        "variant": variant,
        "layout": layout,
        "sides": [
            {"name": draw(names), "players": draw(side_players(game))}
            for _ in range(game.layout.sides)
        ],
        "hands": [],
        "played_on": draw(
            st.dates(datetime.date(2000, 1, 1), datetime.date(2030, 1, 1))
        ).isoformat(),
        "abandoned": draw(st.booleans()),
    }
    if draw(st.booleans()):
        document["title"] = draw(names)
    if draw(st.booleans()):
        document["notes"] = draw(
            # Cn holds the noncharacters (U+FFFE...), which the engine refuses as it should.
            st.text(st.characters(blacklist_categories=("Cc", "Cs", "Cn")), max_size=40)
        )
    for _ in range(draw(st.integers(0, 6))):
        closer = rng.choice([None, *range(game.layout.sides)])
        attempt = {**document, "hands": [*document["hands"], demo.random_hand(game, rng, closer)]}
        if rules.read_match(attempt)[0] is None:
            break  # the game ended with the previous hand
        document = attempt
    return document


def side_players(game: rules.Rules) -> st.SearchStrategy[list[str]]:
    return st.lists(names, min_size=0, max_size=game.layout.players_per_side)


def clear_database() -> None:
    for model in (Hand, Seat, Side, Match, Player):
        db.session.execute(sa.delete(model))
    db.session.commit()


def export_all() -> list[dict[str, Any]]:
    lines = "".join(backup.export_lines(EVERYTHING)).splitlines()
    assert json.loads(lines[0])["format"] == backup.BACKUP_FORMAT
    return [json.loads(line) for line in lines[1:]]


def assert_summaries_are_the_engines() -> None:
    """Every stored match's summary columns and content hash are what the engine gives."""
    for match in services.queries.iter_matches():
        scored = services.matches.score(match)  # raises if the engine refuses a stored match
        assert match.totals == list(scored.score.totals)
        assert match.winner == scored.score.winner
        assert match.hand_count == len(match.hands)
        unfinished = "abandoned" if match.abandoned else "ongoing"
        assert match.status == ("finished" if scored.score.finished else unfinished)
        assert match.content_hash == services.documents.content_hash(
            services.documents.match_document(match)
        )
        assert match.created_at is not None
        assert match.version == 0


def import_text(text: str) -> backup.ImportReport:
    return backup.import_stream(io.BytesIO(text.encode()))


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(documents=st.lists(match_documents(), max_size=5))
def test_round_trip_loses_nothing_and_import_twice_adds_nothing(
    app: Flask, documents: list[dict[str, Any]]
):
    with app.app_context():
        clear_database()
        for document in documents:
            create_stored_match(app, document)
        before = export_all()
        dump = "".join(backup.export_lines(EVERYTHING))

        clear_database()
        report = import_text(dump)
        assert (report.created, report.skipped, report.invalid) == (len(documents), 0, 0)
        assert export_all() == before
        assert_summaries_are_the_engines()

        again = import_text(dump)
        assert again.created == 0
        assert again.skipped == len(documents)
        assert export_all() == before


def test_export_of_each_match_equals_its_match_file(app: Flask):
    with app.app_context():
        match_id = create_stored_match(app, json.loads(E01.read_text()))
        (line,) = export_all()
        assert line == services.matches.export_document(services.queries.load_match(match_id))


def test_same_match_twice_in_a_backup_is_restored_twice(app: Flask):
    document = json.loads(E01.read_text())
    with app.app_context():
        create_stored_match(app, document)
        create_stored_match(app, document)
        dump = "".join(backup.export_lines(EVERYTHING))
        clear_database()
        assert import_text(dump).created == 2
        assert import_text(dump).skipped == 2


def test_names_differing_only_in_accents_or_case_are_the_same_content(app: Flask):
    document = json.loads(E01.read_text())
    document["sides"][0]["players"] = ["José Pérez", "Ana"]
    with app.app_context():
        first = import_text(json.dumps(document))
        document["sides"][0]["players"] = ["jose perez", "ANA"]
        second = import_text(json.dumps(document))
        assert second.created == 0
        assert second.skipped_ids == first.created_ids


def test_hash_follows_the_hands(app: Flask):
    document = json.loads(E01.read_text())
    document["hands"] = []
    with app.app_context():
        match = services.queries.load_match(create_stored_match(app, document))
        assert match is not None
        empty = match.content_hash
        hand = json.loads(E01.read_text())["hands"][0]
        assert services.hands.record_hand(match, hand, match.version, None).ok
        assert match.content_hash not in (None, empty)
        assert match.content_hash == services.documents.content_hash(
            services.documents.match_document(match)
        )


def test_import_reports_bad_lines_and_keeps_the_good_ones(app: Flask):
    good = json.dumps(json.loads(E01.read_text()))
    bad = json.dumps({"format": "anotador-match/1", "variant": "uruguaya", "sides": []})
    header = json.dumps({"format": backup.BACKUP_FORMAT})
    with app.app_context():
        report = import_text("\n".join([header, good, "{not json", bad, ""]) + "\n")
    assert (report.created, report.invalid) == (1, 2)
    assert [number for number, _ in report.problems] == [3, 4]
    assert report.problems[0][1][0].path == "$"
    problem = report.problems[0][1][0]
    assert next(report.problem_lines()) == (3, f"$: {problem.message}")


def test_plain_json_lines_without_header_and_a_json_list_are_accepted(app: Flask):
    document = json.loads(E01.read_text())
    other = {**document, "title": "otra"}
    with app.app_context():
        assert import_text(json.dumps(document) + "\n" + json.dumps(other)).created == 2
        clear_database()
        assert import_text(json.dumps([document, other])).created == 2


def test_import_backfills_hashes_of_older_matches(app: Flask):
    document = json.loads(E01.read_text())
    with app.app_context():
        match_id = create_stored_match(app, document)
        db.session.execute(sa.update(Match).values(content_hash=None))
        db.session.commit()
        report = import_text(json.dumps(document))
        assert report.created == 0
        assert report.skipped_ids == [match_id]


# Commands


def test_export_and_import_one_match_from_the_command_line(
    app: Flask, runner: FlaskCliRunner, tmp_path: Path
):
    result = runner.invoke(args=["import", str(E01)])
    assert result.exit_code == 0, result.output
    path = result.output.strip()
    assert path.startswith("/partidas/")
    match_id = int(path.rsplit("/", 1)[1])

    out = tmp_path / "one.json"
    assert runner.invoke(args=["export", str(match_id), "-o", str(out)]).exit_code == 0
    exported = json.loads(out.read_text())
    with app.app_context():
        assert exported == services.matches.export_document(services.queries.load_match(match_id))
    # Equal to the imported file once defaults are filled in (an undated match is dated today).
    original = {**json.loads(E01.read_text()), "played_on": datetime.date.today().isoformat()}
    assert rules.read_match(exported)[0] == rules.read_match(original)[0]

    again = runner.invoke(args=["import", str(out)])
    assert again.output.strip() == f"/partidas/{match_id}  (already present)"


def test_import_of_an_invalid_file_says_why_and_exits_2(runner: FlaskCliRunner, tmp_path: Path):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"format": "anotador-match/1", "variant": "poker"}))
    result = runner.invoke(args=["import", str(bad)])
    assert result.exit_code == 2
    assert "variant" in result.stderr
    assert "Traceback" not in result.output


@pytest.mark.parametrize(
    ("args", "message"),
    [(["export"], "either MATCH_ID or --all"), (["export", "1", "--all"], "either"),
     (["export", "1", "--csv"], "--csv goes with --all")],
)  # fmt: skip
def test_export_usage_errors(runner: FlaskCliRunner, args: list[str], message: str):
    result = runner.invoke(args=args)
    assert result.exit_code == 2
    assert message in result.output


def test_export_of_a_missing_match(runner: FlaskCliRunner):
    result = runner.invoke(args=["export", "999"])
    assert result.exit_code == 2
    assert "no match with id 999" in result.stderr


def test_seed_demo_then_backup_and_csv(app: Flask, runner: FlaskCliRunner, tmp_path: Path):
    result = runner.invoke(args=["seed-demo", "--matches", "40"])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("40 demo matches stored")
    with app.app_context():
        assert_summaries_are_the_engines()

    dump = tmp_path / "backup.jsonl"
    assert runner.invoke(args=["export", "--all", "-o", str(dump)]).exit_code == 0
    assert len(dump.read_text().splitlines()) == 41
    report = runner.invoke(args=["import", str(dump)])
    assert report.output.strip() == "0 imported, 40 already present, 0 invalid"

    table = tmp_path / "history.csv"
    assert runner.invoke(args=["export", "--all", "--csv", "-o", str(table)]).exit_code == 0
    rows = table.read_text().splitlines()
    assert rows[0].startswith("id,played_on,variant,layout,status,hands,winner,side_1_name")
    assert len(rows) == 41


def test_demo_matches_are_reproducible():
    first = demo.random_match(random.Random(3), [1, 2, 3, 4], dict.fromkeys(range(1, 5), "A B"),
                              datetime.date(2024, 1, 1))  # fmt: skip
    again = demo.random_match(random.Random(3), [1, 2, 3, 4], dict.fromkeys(range(1, 5), "A B"),
                              datetime.date(2024, 1, 1))  # fmt: skip
    assert first == again


# Restoring from the history page


def upload(client: FlaskClient, content: bytes, name: str = "copia.jsonl") -> Any:
    # Encoded here: the test client would spool a large body to a file it never closes.
    files = MultiDict({"copia": FileStorage(io.BytesIO(content), name)})
    boundary, body = encode_multipart(files)
    content_type = f"multipart/form-data; boundary={boundary}"
    return client.post("/historial/restaurar", data=body, content_type=content_type)


def match_count() -> int:
    return db.session.scalar(sa.select(sa.func.count()).select_from(Match)) or 0


def test_history_page_offers_the_restore_form(client: FlaskClient):
    page = client.get("/historial").get_data(as_text=True)
    assert 'action="/historial/restaurar"' in page
    assert 'enctype="multipart/form-data"' in page
    assert "Restaurar copia" in page


def test_restore_a_backup_reports_and_skips_what_is_here(app: Flask, client: FlaskClient):
    document = json.loads(E01.read_text())
    with app.app_context():
        create_stored_match(app, document)
        create_stored_match(app, {**document, "title": "otra"})
        dump = "".join(backup.export_lines(EVERYTHING)).encode()
        clear_database()
    response = upload(client, dump)
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    assert "2 partidas importadas" in page
    with app.app_context():
        assert match_count() == 2
    again = upload(client, dump).get_data(as_text=True)
    assert "0 partidas importadas" in again
    assert "2 partidas ya estaban" in again
    with app.app_context():
        assert match_count() == 2


def test_restore_reports_invalid_lines_with_translated_paths(app: Flask, client: FlaskClient):
    good = json.loads(E01.read_text())
    bad = json.loads(E01.read_text())
    bad["hands"][0]["sides"][1]["red_threes"] = 9
    header = json.dumps({"format": backup.BACKUP_FORMAT})
    text = "\n".join([header, json.dumps(good), json.dumps(bad), "{roto"]) + "\n"
    response = upload(client, text.encode())
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    assert "1 partida importada" in page
    assert "Línea 3" in page
    assert "Línea 4" in page
    assert "Mano 1 › Equipo 2 › Treses rojos" in page
    assert "El archivo" in page  # the broken JSON of line 4
    with app.app_context():
        assert match_count() == 1


def test_restore_a_single_invalid_match_stores_nothing(app: Flask, client: FlaskClient):
    bad = json.loads(E01.read_text())
    bad["hands"][0]["closer"] = 7
    response = upload(client, json.dumps(bad, indent=2).encode(), "partida.json")
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert "Nada se restauró" in page
    assert "Mano 1 › Quién cerró" in page
    with app.app_context():
        assert match_count() == 0


def test_restore_a_single_match_links_to_it(app: Flask, client: FlaskClient):
    response = upload(client, E01.read_bytes(), "E01.json")
    assert response.status_code == 200
    with app.app_context():
        match_id = db.session.scalar(sa.select(Match.id))
    assert f'href="/partidas/{match_id}"' in response.get_data(as_text=True)


@pytest.mark.parametrize(
    ("content", "status"),
    [(b"", 422), (b"\xff\xfe\x00garbage", 422), (b"PK\x03\x04zip", 422), (b"[1, 2]", 422),
     (b'{"format": "anotador-backup/1"}\n', 422), (b'"texto"', 422)],
)  # fmt: skip
def test_restore_bad_uploads_are_4xx_never_500(
    app: Flask, client: FlaskClient, content: bytes, status: int
):
    response = upload(client, content)
    assert response.status_code == status
    assert "Nada se restauró" in response.get_data(as_text=True)
    with app.app_context():
        assert match_count() == 0


def test_restore_without_a_file_is_400(client: FlaskClient):
    response = client.post("/historial/restaurar", data={}, content_type="multipart/form-data")
    assert response.status_code == 400
    assert "Elegí un archivo" in response.get_data(as_text=True)


def test_restore_larger_than_the_limit_is_413(app_factory: Any):
    app = app_factory(RESTORE_MAX_BYTES=1024 * 1024)
    response = upload(signed_in(app), b" " * (1024 * 1024 + 1) + E01.read_bytes())
    assert response.status_code == 413
    assert "demasiado grande" in response.get_data(as_text=True)


def test_restore_accepts_more_than_the_apps_usual_limit(app: Flask, client: FlaskClient):
    padding = b"\n" * (2 * 1024 * 1024)  # blank lines: larger than MAX_CONTENT_LENGTH
    response = upload(client, E01.read_bytes().replace(b"\n", b" ") + b"\n" + padding)
    assert response.status_code == 200
    with app.app_context():
        assert match_count() == 1


def test_restore_needs_the_csrf_token(app_factory: Any):
    app = app_factory(WTF_CSRF_ENABLED=True)
    response = upload(signed_in(app), E01.read_bytes())
    assert response.status_code == 400
    with app.app_context():
        assert match_count() == 0


def test_bulk_players_reuse_the_registry_and_the_first_spelling_wins(app: Flask):
    with app.app_context():
        ana = services.players.find_or_create_player("Ana", owner_id())
        db.session.commit()
        ids = bulk.player_ids(["ana", "José  Pérez", "jose perez", "ANA"], owner_id())
        db.session.commit()
        assert set(ids) == {"ana", "jose perez"}
        assert ids["ana"] == ana.id
        assert db.session.get(Player, ids["jose perez"]).name == "José Pérez"
        assert bulk.player_ids(["Jose Perez"], owner_id()) == {"jose perez": ids["jose perez"]}


def test_a_restore_says_its_own_problem_in_the_users_language(app: Flask, client: FlaskClient):
    """A line too long to read is the restore's problem, not the engine's: said in Spanish,
    beside the match restored from the file."""
    with app.app_context():
        create_stored_match(app, json.loads(E01.read_text()))
        lines = list(backup.export_lines(EVERYTHING))
        clear_database()
    huge = "x" * (backup.MAX_LINE + 10) + "\n"
    page = upload(client, ("".join(lines) + huge).encode()).get_data(as_text=True)
    assert "Tiene más de 2 MB: no se leyó." in page
    with app.app_context():
        assert match_count() == 1
