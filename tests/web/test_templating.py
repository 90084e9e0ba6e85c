"""The app-wide template helpers come from the factory (anotador.web.templating), not from a
blueprint: a template renders them whatever blueprint served the request."""

from flask import Flask
from flask import render_template_string
from flask.testing import FlaskClient
from flask_babel import force_locale
from stored import OWNER
from stored import create_account
from stored import signed_in

from anotador.web import templating


def test_the_factory_registers_every_helper(app: Flask) -> None:
    source = (
        "{{ 3460|points }} {{ -85|points(signed=true) }} {{ 1.5|num(1) }} {{ none|num }} "
        "{{ 0.25|pct }} {{ variant_label('uruguaya') }} {{ match_url(3) }} "
        "{{ current_language }} {{ languages|join(',') }} {{ labels.VARIANTS is mapping }} "
        "{{ problem_message is callable }}"
    )
    with app.test_request_context("/healthz", headers={"Accept-Language": "es"}):
        text = render_template_string(source)
    assert text.split(" ") == [
        "3.460",
        "\u221285",
        "1,5",
        "–",
        "25\u00a0%",
        "Uruguaya",
        "/partidas/3",
        "es",
        "es,en,it",
        "True",
        "True",
    ]


def test_helpers_need_no_blueprint() -> None:
    bare = Flask("bare")
    templating.register_template_helpers(bare)
    bare.add_url_rule("/partidas/<int:match_id>", "matches.show", lambda match_id: "")
    from flask_babel import Babel

    Babel(bare)
    with bare.test_request_context("/"):
        assert render_template_string("{{ 1234|points }} {{ match_url(7) }}") == "1,234 /partidas/7"


def test_a_forced_language_is_said_inside_and_the_page_language_after(app: Flask) -> None:
    # The page's catalog is looked up once per request; a sheet drawn in another language
    # (force_locale) must not get it, nor leave its own behind.
    source = "{{ _('Matches') }} {{ 3460|points }} {{ current_language }}"
    with app.test_request_context("/", headers={"Accept-Language": "es"}):
        before = render_template_string(source)
        with force_locale("en"):
            inside = render_template_string(source)
        after = render_template_string(source)
    assert before == after == "Partidas 3.460 es"
    assert inside == "Matches 3,460 en"


def test_the_shared_head_follows_the_language_and_the_mount_point(app: Flask) -> None:
    """Every page's head is drawn once per language and mount point (templating.shared_fragment),
    never another language's words or another mount point's links."""
    client = app.test_client()

    def head(language: str, root: str = "") -> str:
        page = client.get(
            "/cuenta/entrar",
            headers={"Accept-Language": language},
            base_url=f"http://localhost{root}",
        )
        assert page.status_code == 200
        text = page.get_data(as_text=True)
        return text[text.index("<head>") : text.index("</head>")]

    spanish, english = head("es"), head("en")
    assert "Pendiente" in spanish
    assert "Pending" not in spanish
    assert "Pending" in english
    assert head("es") == spanish
    mounted = head("es", "/club")
    assert 'href="/club/static/css/app.css' in mounted
    assert 'href="/static/css/app.css' in spanish


def test_the_shared_header_follows_the_account_and_the_page(app: Flask) -> None:
    """Every page's header is drawn once per account, language, mount point and address
    (templating.shared_fragment): never another account's name, nor a language switch that
    leads back to another page."""

    def header(client: FlaskClient, path: str, language: str = "es") -> str:
        page = client.get(path, headers={"Accept-Language": language})
        text = page.get_data(as_text=True)
        assert "</header>" in text, (path, page.status_code, text[:200])
        return text[text.index("<header") : text.index("</header>")]

    create_account(app, "Otra")
    owner, other, nobody = signed_in(app, OWNER), signed_in(app, "Otra"), app.test_client()
    mine = header(owner, "/historial")
    assert f">{OWNER}</a>" in mine
    assert header(owner, "/historial") == mine
    theirs = header(other, "/historial")
    assert ">Otra</a>" in theirs
    assert OWNER not in theirs
    assert "Entrar" in header(nobody, "/cuenta/entrar")
    assert "Otra" not in header(nobody, "/cuenta/entrar")
    assert "next=/historial" in mine
    assert "next=/jugadores/" in header(owner, "/jugadores/")
    assert "Sections" in header(owner, "/historial", "en")
    assert "Secciones" in mine
