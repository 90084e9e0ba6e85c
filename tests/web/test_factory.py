import stat
from collections.abc import Callable
from pathlib import Path

import pytest
from flask import Flask
from flask import request
from flask.testing import FlaskClient
from flask.testing import FlaskCliRunner
from flask_wtf.csrf import generate_csrf
from sqlalchemy import inspect
from sqlalchemy import text

from anotador import create_app
from anotador.storage.config import PROJECT_ROOT
from anotador.storage.config import database_uri
from anotador.storage.database import db
from anotador.web.errors import CSRF_MESSAGE

AppFactory = Callable[..., Flask]


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    """Hide the developer's (or CI's) own settings from factory tests."""
    for name in ("DATABASE_URL", "SECRET_KEY", "FLASK_MAX_CONTENT_LENGTH"):
        monkeypatch.delenv(name, raising=False)
    return monkeypatch


def test_defaults_use_sqlite_in_instance_folder(clean_env: pytest.MonkeyPatch, tmp_path: Path):
    app = create_app(instance_path=tmp_path)
    assert app.config["SQLALCHEMY_DATABASE_URI"] == f"sqlite:///{tmp_path / 'anotador.sqlite3'}"
    assert not app.testing


def test_instance_folder_is_created(clean_env: pytest.MonkeyPatch, tmp_path: Path):
    instance = tmp_path / "nested" / "instance"
    create_app(instance_path=instance)
    assert instance.is_dir()


def test_environment_overrides_instance_config(clean_env: pytest.MonkeyPatch, tmp_path: Path):
    tmp_path.joinpath("config.py").write_text(
        'SQLALCHEMY_DATABASE_URI = "sqlite:///from-file.sqlite3"\n'
        'SECRET_KEY = "from-file"\n'
        "MAX_CONTENT_LENGTH = 1000\n"
    )
    clean_env.setenv("DATABASE_URL", "postgresql://user@db.example:5432/anotador")
    clean_env.setenv("FLASK_MAX_CONTENT_LENGTH", "2048")

    app = create_app(instance_path=tmp_path)

    assert app.config["SQLALCHEMY_DATABASE_URI"] == (
        "postgresql+psycopg://user@db.example:5432/anotador"
    )
    assert app.config["SECRET_KEY"] == "from-file"
    assert app.config["MAX_CONTENT_LENGTH"] == 2048


def test_test_config_wins(clean_env: pytest.MonkeyPatch, tmp_path: Path):
    tmp_path.joinpath("config.py").write_text('SECRET_KEY = "from-file"\n')
    clean_env.setenv("DATABASE_URL", "postgres://user:secret@db.example/anotador")
    clean_env.setenv("SECRET_KEY", "from-env")
    clean_env.setenv("FLASK_MAX_CONTENT_LENGTH", "2048")

    app = create_app(
        {"SQLALCHEMY_DATABASE_URI": "sqlite://", "SECRET_KEY": "test", "MAX_CONTENT_LENGTH": 5},
        instance_path=tmp_path,
    )

    assert app.config["SQLALCHEMY_DATABASE_URI"] == "sqlite://"
    assert app.config["SECRET_KEY"] == "test"
    assert app.config["MAX_CONTENT_LENGTH"] == 5


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("postgres://u:p@h:5432/d", "postgresql+psycopg://u:p@h:5432/d"),
        ("postgresql://u@h/d", "postgresql+psycopg://u@h/d"),
        ("postgresql+psycopg://u@h/d", "postgresql+psycopg://u@h/d"),
        ("sqlite:////tmp/x.sqlite3", "sqlite:////tmp/x.sqlite3"),
    ],
)
def test_database_url_uses_psycopg(url: str, expected: str):
    assert database_uri(url) == expected


def test_secret_key_is_generated_once_and_persisted(clean_env: pytest.MonkeyPatch, tmp_path: Path):
    key = create_app(instance_path=tmp_path).config["SECRET_KEY"]

    key_file = tmp_path / "secret_key"
    assert len(key) >= 32
    assert key_file.read_text().strip() == key
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    assert create_app(instance_path=tmp_path).config["SECRET_KEY"] == key
    assert create_app(instance_path=tmp_path / "other").config["SECRET_KEY"] != key


def test_secret_key_from_environment_writes_no_file(clean_env: pytest.MonkeyPatch, tmp_path: Path):
    clean_env.setenv("SECRET_KEY", "from-env")
    assert create_app(instance_path=tmp_path).config["SECRET_KEY"] == "from-env"
    assert not (tmp_path / "secret_key").exists()


def test_templates_and_static_come_from_project_root(app: Flask, client: FlaskClient):
    template = app.jinja_env.get_template("base.html")
    assert Path(template.filename or "") == PROJECT_ROOT / "templates" / "base.html"

    response = client.get("/static/css/app.css")
    assert response.status_code == 200
    assert b"prefers-color-scheme: dark" in response.data
    response.close()


def test_index_page(client: FlaskClient):
    response = client.get("/")
    page = response.get_data(as_text=True)
    assert response.status_code == 200
    assert '<html lang="es">' in page
    assert "Anotador de Canasta" in page
    assert "/static/css/app.css" in page


def test_healthz(client: FlaskClient):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.get_json() == {"status": "ok"}


def test_sqlite_enforces_foreign_keys(app: Flask):
    with app.app_context():
        if db.engine.dialect.name != "sqlite":
            pytest.skip("SQLite only")
        assert db.session.execute(text("PRAGMA foreign_keys")).scalar_one() == 1


@pytest.mark.parametrize("run", [1, 2])
def test_each_test_starts_with_a_fresh_database(app: Flask, run: int):
    with app.app_context():
        tables = inspect(db.engine).get_table_names()
        assert "alembic_version" in tables
        assert "leftover" not in tables
        with db.engine.begin() as connection:
            connection.execute(text("CREATE TABLE leftover (id INTEGER)"))


def test_db_upgrade_command_on_migrated_database(runner: FlaskCliRunner):
    result = runner.invoke(args=["db", "upgrade"])
    assert result.exit_code == 0, result.output


def test_not_found_page_is_spanish_html(client: FlaskClient):
    response = client.get("/no-existe")
    page = response.get_data(as_text=True)
    assert response.status_code == 404
    assert response.mimetype == "text/html"
    assert "Página no encontrada" in page
    assert "La página que buscás no existe" in page


def test_method_not_allowed_page(client: FlaskClient):
    response = client.post("/healthz")
    assert response.status_code == 405
    assert "Acción no permitida" in response.get_data(as_text=True)


@pytest.mark.parametrize(
    ("language", "title", "message"),
    [
        ("es", "Página no encontrada", "La página que buscás no existe o fue movida."),
        ("en", "Page not found", "The page you are looking for does not exist or was moved."),
        ("it", "Pagina non trovata", "La pagina che cerchi non esiste o è stata spostata."),
    ],
)
def test_error_pages_speak_the_users_language(
    client: FlaskClient, language: str, title: str, message: str
):
    response = client.get("/no-such-page", headers={"Accept-Language": language})
    assert response.status_code == 404
    page = response.get_data(as_text=True)
    assert f'<html lang="{language}">' in page
    assert title in page
    assert message in page


def test_post_without_csrf_token_gets_friendly_400(app_factory: AppFactory):
    app = app_factory(WTF_CSRF_ENABLED=True)
    app.add_url_rule("/form", "form_get", generate_csrf)
    app.add_url_rule("/form", "form_post", lambda: "accepted", methods=["POST"])
    client = app.test_client()

    refused = client.post("/form", data={"x": "1"})
    assert refused.status_code == 400
    assert refused.mimetype == "text/html"
    assert "La sesión expiró o el formulario no es válido" in refused.get_data(as_text=True)
    english = client.post("/form", data={"x": "1"}, headers={"Accept-Language": "en"})
    assert str(CSRF_MESSAGE) in english.get_data(as_text=True)  # the English msgid

    token = client.get("/form").get_data(as_text=True)
    accepted = client.post("/form", data={"x": "1", "csrf_token": token})
    assert accepted.status_code == 200
    assert accepted.get_data(as_text=True) == "accepted"


def test_request_too_large_page(app_factory: AppFactory):
    app = app_factory(MAX_CONTENT_LENGTH=100)
    app.add_url_rule("/upload", "upload", lambda: str(len(request.form)), methods=["POST"])

    response = app.test_client().post("/upload", data={"notes": "x" * 1000})

    assert response.status_code == 413
    assert "Envío demasiado grande" in response.get_data(as_text=True)


def test_server_error_page_rolls_back(app_factory: AppFactory, monkeypatch: pytest.MonkeyPatch):
    app = app_factory(PROPAGATE_EXCEPTIONS=False)

    def broken() -> str:
        raise RuntimeError("boom")

    app.add_url_rule("/broken", "broken", broken)
    rollbacks: list[bool] = []
    monkeypatch.setattr(db.session, "rollback", lambda: rollbacks.append(True))

    response = app.test_client().get("/broken")

    assert response.status_code == 500
    assert "Algo salió mal" in response.get_data(as_text=True)
    assert rollbacks == [True]
