"""The installable package: what the wheel and the sdist carry, where an installed app keeps
its data, and what ``anotador run`` does on a new database.

scripts/smoke-installed (run by CI) installs the wheel into a fresh virtual environment and
uses the app through HTTP; these tests check the pieces without a server.
"""

from __future__ import annotations

import importlib.metadata
import io
import os
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path
from typing import Any

import flask_migrate
import pytest
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po
from click.testing import CliRunner
from flask import Flask

from anotador import create_app
from anotador.commands import startup
from anotador.commands.main import main
from anotador.services.accounts import create_account
from anotador.services.accounts import setup_code
from anotador.storage import config

CHECKOUT = Path(__file__).resolve().parent.parent
RESOURCES = ("templates", "static", "migrations")
LANGUAGES = ("es", "en", "it")
FIRST_REVISION = "6535c513ee05"


# Where the app's files are


def fake_checkout(root: Path) -> Path:
    (root / "anotador").mkdir(parents=True)
    (root / "pyproject.toml").write_text("[project]\n")
    for name in RESOURCES:
        (root / name).mkdir()
    return root / "anotador"


def fake_installed(site_packages: Path) -> Path:
    package = site_packages / "anotador"
    for name in RESOURCES:
        (package / name).mkdir(parents=True)
    return package


def test_checkout_keeps_the_files_beside_the_package(tmp_path: Path):
    package = fake_checkout(tmp_path)
    assert config.find_project_root(package) == tmp_path
    assert config.is_checkout(package)


def test_installed_package_is_its_own_root(tmp_path: Path):
    package = fake_installed(tmp_path / "site-packages")
    assert config.find_project_root(package) == package
    assert not config.is_checkout(package)


def test_this_checkout_is_seen_as_one():
    assert config.PROJECT_ROOT == CHECKOUT
    assert config.is_checkout(config.PACKAGE_DIR)
    assert config.MIGRATIONS == CHECKOUT / "migrations"
    assert config.TRANSLATIONS == CHECKOUT / "anotador" / "words" / "translations"


# The data folder


def no_user_folder() -> str:
    raise AssertionError("the user data folder must not be asked for")


def test_anotador_data_wins_everywhere(tmp_path: Path):
    environ = {"ANOTADOR_DATA": str(tmp_path / "mine")}
    for package in (fake_checkout(tmp_path / "co"), fake_installed(tmp_path / "site")):
        folder = config.data_folder(environ, package_dir=package, user_data_dir=no_user_folder)
        assert folder == tmp_path / "mine"


def test_anotador_data_may_be_relative_or_start_with_a_tilde(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    package = fake_installed(tmp_path / "site")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    relative = config.data_folder({"ANOTADOR_DATA": "data"}, package_dir=package)
    assert relative == tmp_path / "data"
    home = config.data_folder({"ANOTADOR_DATA": "~/anotador"}, package_dir=package)
    assert home == tmp_path / "home" / "anotador"


def test_checkout_keeps_its_instance_folder(tmp_path: Path):
    package = fake_checkout(tmp_path)
    for environ in ({}, {"DATABASE_URL": "postgresql://u@h/d"}, {"ANOTADOR_DATA": ""}):
        folder = config.data_folder(environ, package_dir=package, user_data_dir=no_user_folder)
        assert folder == tmp_path / "instance"


def test_installed_package_uses_the_user_data_folder(tmp_path: Path):
    package = fake_installed(tmp_path / "site-packages")
    user = str(tmp_path / "user" / "anotador")
    for environ in ({}, {"DATABASE_URL": "postgresql://u@h/d"}):
        folder = config.data_folder(environ, package_dir=package, user_data_dir=lambda: user)
        assert folder == Path(user)


@pytest.mark.skipif(sys.platform != "linux", reason="XDG_DATA_HOME is the Linux convention")
def test_user_data_folder_is_platformdirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    package = fake_installed(tmp_path / "site-packages")
    assert config.data_folder({}, package_dir=package) == tmp_path / "xdg" / "anotador"


def test_factory_creates_the_data_folder_and_keeps_the_key_there(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    data = tmp_path / "new" / "data"
    monkeypatch.setenv("ANOTADOR_DATA", str(data))
    monkeypatch.delenv("SECRET_KEY", raising=False)
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'elsewhere.sqlite3'}")

    app = create_app()

    assert Path(app.instance_path) == data
    assert data.is_dir()
    assert (data / "secret_key").read_text().strip() == app.config["SECRET_KEY"]
    assert app.config["SQLALCHEMY_DATABASE_URI"] == f"sqlite:///{tmp_path / 'elsewhere.sqlite3'}"

    monkeypatch.delenv("DATABASE_URL")
    again = create_app()
    assert again.config["SQLALCHEMY_DATABASE_URI"] == f"sqlite:///{data / 'anotador.sqlite3'}"
    assert again.config["SECRET_KEY"] == app.config["SECRET_KEY"]


# anotador run and --version


@pytest.fixture
def english_machine(monkeypatch: pytest.MonkeyPatch) -> None:
    """A machine whose user reads English (what the commands print follows ``LANG``)."""
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "en_US.UTF-8")


class FakeServer:
    """What ``waitress_server.listen`` returns, serving nothing: the test records where."""

    def __init__(self, served: list[tuple[str, int]], host: str, port: int) -> None:
        served.append((host, port))

    def run(self) -> None:
        pass

    def close(self) -> None:
        pass


def faking_waitress(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, int]]:
    served: list[tuple[str, int]] = []
    monkeypatch.setattr(
        "anotador.commands.waitress_server.listen",
        lambda app, host, port: FakeServer(served, host, port),
    )
    return served


def sqlite_app(tmp_path: Path) -> Flask:
    return create_app(
        {"SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'run.sqlite3'}"},
        instance_path=tmp_path / "data",
    )


def test_prepare_migrates_a_new_database_once(tmp_path: Path, english_machine: None):
    app = sqlite_app(tmp_path)
    said: list[str] = []

    assert startup.prepare(app, said.append)
    assert said[0] == f"Data folder: {tmp_path / 'data'}"
    assert said[1] == f"Database: sqlite:///{tmp_path / 'run.sqlite3'}"
    assert "New database: applying the migrations." in said
    assert startup.current_revision(app) in startup.head_revisions()

    said.clear()
    assert not startup.prepare(app, said.append)
    assert len(said) == 2


def test_the_banner_ends_with_the_setup_code_until_an_account_exists(
    tmp_path: Path, english_machine: None
):
    app = sqlite_app(tmp_path)
    startup.prepare(app, lambda line: None)
    code = setup_code(app.config["SECRET_KEY"])
    assert startup.banner_lines(app, "127.0.0.1", 5000)[-2:] == [
        f"No account yet. Setup code for the first account (the administrator): {code}",
        "Or make it here: anotador users add NAME",
    ]
    with app.app_context():
        create_account("Ana", "una clave larga")
    assert not any("Setup code" in line for line in startup.banner_lines(app, "127.0.0.1", 5000))


def test_prepare_leaves_an_old_database_alone_and_says_what_to_do(
    tmp_path: Path, english_machine: None
):
    app = sqlite_app(tmp_path)
    with app.app_context():
        flask_migrate.upgrade(revision=FIRST_REVISION)
    said: list[str] = []

    assert not startup.prepare(app, said.append)

    assert startup.current_revision(app) == FIRST_REVISION
    assert any("anotador db upgrade" in line and FIRST_REVISION in line for line in said)


def test_run_migrates_a_new_database_and_names_the_data_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, english_machine: None
):
    served = faking_waitress(monkeypatch)
    for name in ("DATABASE_URL", "SECRET_KEY", "HOST", "PORT"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr("anotador.web.addresses.lan_ipv4", lambda: "192.168.1.23")
    data = tmp_path / "data"

    result = CliRunner().invoke(
        main, ["run", "--port", "5123"], env={"ANOTADOR_DATA": str(data)}, catch_exceptions=False
    )

    assert result.exit_code == 0, result.output
    assert f"Data folder: {data}" in result.output
    assert "New database: applying the migrations." in result.output
    assert (data / "anotador.sqlite3").is_file()
    assert len(served) == 1
    assert served == [("0.0.0.0", 5123)]  # every address: the phones at the table
    assert "http://192.168.1.23:5123/" in result.output


def test_run_listens_on_host_and_port_from_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, english_machine: None
):
    served = faking_waitress(monkeypatch)
    for name in ("DATABASE_URL", "SECRET_KEY"):
        monkeypatch.delenv(name, raising=False)
    env = {"ANOTADOR_DATA": str(tmp_path / "data"), "HOST": "127.0.0.1", "PORT": "8123"}

    result = CliRunner().invoke(main, ["run"], env=env, catch_exceptions=False)

    assert result.exit_code == 0, result.output
    assert served == [("127.0.0.1", 8123)]
    assert "Only this machine can open it, at http://127.0.0.1:8123/" in result.output

    refused = CliRunner().invoke(main, ["run"], env={**env, "PORT": "80000"})
    assert refused.exit_code == 2
    assert "PORT" in refused.output
    assert len(served) == 1


def test_version_is_the_package_version():
    result = CliRunner().invoke(main, ["--version"])
    assert result.exit_code == 0
    assert result.output == f"anotador {importlib.metadata.version('anotador')}\n"


# What the built sdist and wheel carry


IGNORED = shutil.ignore_patterns(
    ".git",
    ".venv",
    "build",
    "dist",
    "instance",
    "artifacts",
    "node_modules",
    "test-results",
    "__pycache__",
    ".*_cache",
    ".hypothesis",
    "*.egg-info",
    "*.mo",
)


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The sdist and the wheel (built from the sdist) of a copy of the checkout without any
    generated file, as a clean clone is."""
    folder = tmp_path_factory.mktemp("build")
    source = folder / "source"
    shutil.copytree(CHECKOUT, source, ignore=IGNORED)
    assert not list(source.rglob("*.mo"))
    subprocess.run(
        [sys.executable, "-m", "build", "--outdir", str(folder / "dist"), str(source)],
        check=True,
        capture_output=True,
        env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"},
    )
    (sdist,) = (folder / "dist").glob("anotador-*.tar.gz")
    (wheel,) = (folder / "dist").glob("anotador-*.whl")
    return {"sdist": sdist, "wheel": wheel, "folder": folder}


def resource_files() -> list[str]:
    """Every file of the checkout's templates/, static/ and migrations/, relative to it."""
    files = []
    for name in RESOURCES:
        for path in sorted((CHECKOUT / name).rglob("*")):
            relative = path.relative_to(CHECKOUT)
            if path.is_file() and not any(
                part.startswith(".") or part == "__pycache__" for part in relative.parts
            ):
                files.append(relative.as_posix())
    return files


def plain(value: Any) -> Any:
    """A message id or string; plural forms (a list or a tuple) as a tuple."""
    return tuple(value) if isinstance(value, list | tuple) else value


def meaning(pairs: Any) -> dict[Any, Any]:
    """What gettext will answer for each message id that it does not answer with the id itself
    (babel writes untranslated plural forms as their ids; gettext falls back to the id)."""
    return {plain(i): plain(s) for i, s in pairs if i and s and plain(s) != plain(i)}


def translations(po: Path) -> dict[Any, Any]:
    """The translated, non-fuzzy messages of a catalog source: what its .mo must say."""
    with po.open("rb") as source:
        catalog = read_po(source)
    pairs: list[tuple[Any, Any]] = []
    for m in catalog:
        if m.fuzzy:
            continue
        if m.pluralizable:  # an empty plural form falls back to the id's singular or plural
            forms = [s or m.id[min(n, 1)] for n, s in enumerate(m.string or ())]
            pairs.append((m.id, forms))
        else:
            pairs.append((m.id, m.string))
    return meaning(pairs)


def compiled(mo: bytes) -> dict[Any, Any]:
    return meaning((m.id, m.string) for m in read_mo(io.BytesIO(mo)))


@pytest.mark.slow
def test_wheel_carries_templates_static_migrations_and_compiled_catalogs(built: dict[str, Path]):
    with zipfile.ZipFile(built["wheel"]) as wheel:
        names = set(wheel.namelist())
        expected = {f"anotador/{file}" for file in resource_files()}
        assert expected <= names, sorted(expected - names)
        assert "anotador/templates/base.html" in names
        assert "anotador/migrations/alembic.ini" in names
        assert "anotador/static/css/app.css" in names
        for language in LANGUAGES:
            po = CHECKOUT / f"anotador/words/translations/{language}/LC_MESSAGES/messages.po"
            mo = wheel.read(f"anotador/words/translations/{language}/LC_MESSAGES/messages.mo")
            assert compiled(mo) == translations(po), language
        assert compiled(wheel.read("anotador/words/translations/es/LC_MESSAGES/messages.mo"))[
            "New match"
        ] == ("Nueva partida")

    top = {name.split("/")[0] for name in names}
    assert top == {"anotador", f"anotador-{importlib.metadata.version('anotador')}.dist-info"}
    assert not [n for n in names if "__pycache__" in n or n.endswith(".pyc")]
    assert not [n for n in names if n.startswith(("anotador/instance", "anotador/anotador"))]


@pytest.mark.slow
def test_installed_layout_is_found(built: dict[str, Path]):
    """Unpacked as pip installs it, the package is its own root and not a checkout."""
    site = built["folder"] / "site-packages"
    with zipfile.ZipFile(built["wheel"]) as wheel:
        wheel.extractall(site)
    package = site / "anotador"
    assert config.find_project_root(package) == package
    assert not config.is_checkout(package)
    assert (package / "migrations" / "env.py").is_file()


@pytest.mark.slow
def test_sdist_carries_the_sources_and_compiled_catalogs(built: dict[str, Path]):
    with tarfile.open(built["sdist"]) as sdist:
        names = {name.split("/", 1)[1] for name in sdist.getnames() if "/" in name}
    assert set(resource_files()) <= names, sorted(set(resource_files()) - names)
    for file in ("setup.py", "MANIFEST.in", "pyproject.toml", "babel.cfg", "README.md"):
        assert file in names
    for language in LANGUAGES:
        assert f"anotador/words/translations/{language}/LC_MESSAGES/messages.po" in names
        assert f"anotador/words/translations/{language}/LC_MESSAGES/messages.mo" in names
    assert not [n for n in names if n.startswith(("instance/", ".venv/", "build/"))]
