"""Knowledge in one place (issue 9): the variants live in ``anotador/rules``, their words in the
label table (``anotador/words/labels.py``, the variants' words in
``anotador/words/variant_words.py``) and the catalogs, and problem paths are read by one parser.

* No variant name or variant field/option name is written anywhere else in ``anotador/`` or in
  ``templates/``.
* Every name the engine uses has a label in every language.
* A variant registered only here (a toy, built from uruguaya with other field names and
  values) goes through every page: the new-match form, the hand form, the match page, both
  PDFs and the player statistics.
"""

from __future__ import annotations

import ast
import dataclasses
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jinja2
import pytest
from babel.messages.pofile import read_po
from flask import Flask
from flask.testing import FlaskClient
from printed import pdf_text

from anotador import rules
from anotador import services
from anotador.rules import InputField
from anotador.rules import Reference
from anotador.rules import Role
from anotador.rules import hand_index
from anotador.rules import parse_path
from anotador.rules import side_field
from anotador.rules.hands import HAND_KEYS
from anotador.rules.matchfile import DOCUMENT_KEYS
from anotador.rules.matchfile import SIDE_KEYS
from anotador.rules.paths import join
from anotador.rules.variant import LAYOUTS
from anotador.rules.variant import TIE_POLICIES
from anotador.services.scope import EVERYTHING
from anotador.statistics import reads as statistics_reads
from anotador.statistics import summaries as stats
from anotador.words import labels

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "anotador"
LANGUAGES = ("es", "en", "it")


def engine_words() -> set[str]:
    """Every variant's name and the names of its fields and options."""
    words = set(rules.VARIANTS)
    for variant in rules.VARIANTS.values():
        words |= {spec.name for spec in (*variant.side_fields, *variant.hand_fields)}
        words |= {spec.name for spec in variant.options}
    return words


# Nothing about a variant outside rules/ and the label table

LABEL_TABLE = (Path("words", "labels.py"), Path("words", "variant_words.py"))


def python_literals() -> Iterator[tuple[str, int, str]]:
    """(file, line, text) of every string constant in anotador/ but rules/ and the label
    table (words/labels.py, words/variant_words.py)."""
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(PACKAGE)
        if relative.parts[0] == "rules" or relative in LABEL_TABLE:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                yield str(relative), node.lineno, node.value


TRANSLATING = {"_", "gettext", "ngettext", "pgettext", "npgettext"}


def template_literals() -> Iterator[tuple[str, int, str]]:
    """(file, line, text) of every string constant in the templates' expressions, but the
    messages given to ``_()``/``gettext``/``ngettext`` (English words for people)."""
    env = jinja2.Environment(extensions=["jinja2.ext.i18n"])
    for path in sorted((ROOT / "templates").rglob("*.html")):
        tree = env.parse(path.read_text(encoding="utf-8"))
        messages = {
            id(argument)
            for call in tree.find_all(jinja2.nodes.Call)
            if isinstance(call.node, jinja2.nodes.Name) and call.node.name in TRANSLATING
            for argument in call.args
        }
        for node in tree.find_all(jinja2.nodes.Const):
            if isinstance(node.value, str) and id(node) not in messages:
                yield str(path.relative_to(ROOT)), node.lineno, node.value


def names_in(text: str, words: set[str]) -> set[str]:
    """The engine words ``text`` holds: the whole text, or a token of it (``s%d_<field>``
    holds ``<field>``)."""
    found = {text} & words
    for token in re.split(r"[^A-Za-z0-9_-]+", text):
        found |= {word for word in words if token == word or token.endswith("_" + word)}
    return found


def test_no_variant_or_field_name_is_written_outside_rules_and_the_label_table() -> None:
    words = engine_words()
    found = [
        f"{path}:{line}: {value!r}" for path, line, value in python_literals() if value in words
    ]
    assert found == []


def test_no_variant_or_field_name_is_written_in_the_templates() -> None:
    words = engine_words()
    found = [
        f"{path}:{line}: {value!r} ({', '.join(sorted(names_in(value, words)))})"
        for path, line, value in template_literals()
        if names_in(value, words)
    ]
    assert found == []


def test_the_scan_sees_what_it_looks_for() -> None:
    """The two scans above would find a field name (they are not vacuous)."""
    words = engine_words()
    assert names_in("s%d_adjustment", words) == {"adjustment"}
    assert names_in("red_threes", words) == {"red_threes"}
    assert not names_in("Clean canastas per hand", words)
    assert any(value == "sheets/match.html" for _, _, value in python_literals())
    assert any(value == "count" for _, _, value in template_literals())


# Every engine name has a label in every language


def catalog(lang: str) -> dict[str, Any]:
    path = PACKAGE / "words" / "translations" / lang / "LC_MESSAGES" / "messages.po"
    with path.open("rb") as source:
        # A line babel cannot read (a msgid without its msgstr, two entries run together,
        # as a hand-merged catalog may leave) fails the test instead of a compile warning.
        read = read_po(source, locale=lang, abort_invalid=True)
        return {message.id: message.string for message in read}


def engine_names() -> dict[str, set[Any]]:
    """Every name the engine uses that the interface says, by kind of label."""
    names: dict[str, set[Any]] = {kind: set() for kind in labels.WORDS}
    names["layout"] |= set(LAYOUTS)
    names["tie"] |= set(TIE_POLICIES)
    names["setting"] |= {"target", "decks", "canastas_to_close", "tie"}
    names["path"] |= {"$", *DOCUMENT_KEYS, *SIDE_KEYS, *HAND_KEYS}
    names["path_item"] |= {"hands", "sides", "players", "start_scores"}
    for name, variant in rules.VARIANTS.items():
        names["variant"].add(name)
        names["layout"] |= set(variant.layouts)
        names["option"] |= {spec.name for spec in variant.options}
        names["option_choice"] |= {
            choice
            for spec in variant.options
            for choice in spec.choices
            if not isinstance(choice, int)
        }
        for spec in (*variant.side_fields, *variant.hand_fields):
            names["field"].add(spec.name)
            names["field_choice"] |= set(spec.choices)
        names["card"] |= set(variant.card_values)
        names["part"] |= set(variant.parts)
        names["penalty"] |= set(variant.adjustment_presets)
        for layout in variant.layouts:
            box = variant.reference(rules.make_rules(name, layout))
            names["field"] |= {kind for kind, _ in box.canastas}
            names["reference"] |= {key for key, _ in (*box.closing, *box.notes, *box.penalties)}
            names["reference"] |= {box.threes_title, box.cards_title} - {None}
            names["field_choice"] |= {kind for kind, _ in box.special_hands}
    return names


def test_every_engine_name_has_a_label_in_every_language() -> None:
    catalogs = {lang: catalog(lang) for lang in LANGUAGES}
    missing = []
    for kind, keys in engine_names().items():
        for key in keys:
            word = labels.word(kind, key)
            if word is None:
                missing.append(f"{kind} {key!r}: no label")
                continue
            for message in (word.label, word.sheet):
                if message is None or isinstance(message, labels.Verbatim):
                    continue
                for lang, messages in catalogs.items():
                    if message not in messages:
                        missing.append(f"{kind} {key!r}: {message!r} not in the {lang} catalog")
                    elif lang != "en" and not messages[message]:
                        missing.append(f"{kind} {key!r}: {message!r} untranslated ({lang})")
    assert missing == []


def test_every_label_in_the_table_is_a_catalog_message() -> None:
    """A word of the table that no engine name uses any more is dead; every word is in the
    catalogs (the extraction test sees them only through N_)."""
    messages = catalog("es")
    for kind, words in labels.WORDS.items():
        for key, word in words.items():
            for message in (word.label, word.sheet):
                if message is not None and not isinstance(message, labels.Verbatim):
                    assert message in messages, (kind, key, message)


def test_every_variant_declares_the_roles_the_engine_and_the_app_rely_on() -> None:
    for variant in rules.VARIANTS.values():
        for role in (Role.TABLE_POINTS, Role.HAND_POINTS, Role.ADJUSTMENT, Role.ADJUSTMENT_NOTE):
            assert len(variant.roles.get(role, ())) == 1, (variant.name, role)
        assert variant.roles.get(Role.CLEAN_CANASTAS), variant.name
        assert variant.roles.get(Role.DIRTY_CANASTAS), variant.name
        for spec in variant.roles.get(Role.CARDS_IN_HAND, ()):
            assert spec.card in variant.card_values, (variant.name, spec.name)
        assert "adjustment" in variant.parts
        assert sum(variant.typical_layouts.values()) > 0
        assert set(variant.typical_layouts) <= set(variant.layouts)


# One parser of problem paths


@pytest.mark.parametrize(
    ("path", "segments"),
    [
        ("hands[2].sides[1].red_threes", (("hands", 2), ("sides", 1), ("red_threes", None))),
        ("sides[1].red_threes", (("sides", 1), ("red_threes", None))),
        ("closer", (("closer", None),)),
        ("$", (("$", None),)),
        ("options.target", (("options", None), ("target", None))),
        ('options."a.b"', (("options", None), ("a.b", None))),
        ('hands[0]."\\u00f1"', (("hands", 0), ("ñ", None))),
        ("start_scores[2]", (("start_scores", 2),)),
        ("x[1][2]", (("x", 1), ("", 2))),
        ("a kind of card", (("a kind of card", None),)),
        ("", (("", None),)),
    ],
)
def test_parse_path(path: str, segments: tuple[tuple[str, int | None], ...]) -> None:
    assert parse_path(path) == segments


@pytest.mark.parametrize(
    "steps",
    [["hands", 3, "sides", 0, "table_points"], ["options", "a b"], ["sides", 1, "players", 0]],
)
def test_parse_path_reads_what_join_writes(steps: list[str | int]) -> None:
    path = ""
    for step in steps:
        path = join(path, step)
    flat: list[str | int] = []
    for key, index in parse_path(path):
        flat += [key] if index is None else [key, index]
    assert flat == steps


def test_path_helpers() -> None:
    assert hand_index("hands[4].sides[0].clean") == 4
    assert hand_index("hands[4]") == 4
    assert hand_index("sides[0].clean") is None
    assert side_field("sides[1].red_threes") == (1, "red_threes")
    assert side_field("hands[1].red_threes") is None
    assert side_field("sides[1]") is None
    assert side_field("sides[1].players[0]") is None


def test_path_text_says_each_step(app: Flask) -> None:
    with app.test_request_context(headers={"Accept-Language": "es"}):
        spoken = labels.path_text("hands[2].sides[1].red_threes")
        assert spoken == "Mano 3 › Equipo 2 › Treses rojos"
        assert labels.path_text("options.decks") == "Reglas › Mazos"
        assert labels.path_text('hands[0]."a b"') == "Mano 1 › a b"


# A variant registered only in this test


TOY_FIELDS = (
    InputField("toy_clean", "count", role=Role.CLEAN_CANASTAS),
    InputField("toy_dirty", "count", role=Role.DIRTY_CANASTAS),
    InputField("toy_table", "points", role=Role.TABLE_POINTS),
    InputField("toy_hand", "points", role=Role.HAND_POINTS),
    InputField("toy_threes", "count", role=Role.RED_THREES),
    InputField("toy_state", "choice", "toy_up", ("toy_up", "toy_down"), role=Role.STATE),
    InputField("toy_fix", "signed_points", role=Role.ADJUSTMENT),
    InputField("toy_why", "text", "", role=Role.ADJUSTMENT_NOTE),
)
TOY_HAND_FIELDS = (InputField("toy_sneaky", "flag", False, role=Role.CONCEALED),)


def toy_score(rules_: rules.Rules, side: Any, is_closer: bool, details: Any) -> dict[str, int]:
    closing = (250 if details.get("toy_sneaky") else 120) if is_closer else 0
    parts = {
        "canastas": 600 * side["toy_clean"] + 250 * side["toy_dirty"],
        "table": side["toy_table"],
        "red_threes": 100 * side["toy_threes"],
        "closing": closing,
        "hand": -side["toy_hand"],
    }
    if side["toy_state"] == "toy_down":
        parts["toy_bonus"] = 35
    return parts


def toy_reference(rules_: rules.Rules) -> Reference:
    return Reference(
        canastas=(("toy_clean", 600), ("toy_dirty", 250)),
        closing=(("toy_close", 120), ("toy_sneaky_close", 250)),
        red_threes=(100, 200, 300, 400),
        notes=(("toy_note", {"count": 7}),),
    )


TOY_WORDS = {
    "variant": {"toy": labels.Word("Toyish", "Toy canasta for print")},
    "field": {
        "toy_clean": labels.Word("Toy clean canastas", "Toy clean one"),
        "toy_dirty": labels.Word("Toy dirty canastas", "Toy dirty one"),
        "toy_table": labels.Word("Toy points melded"),
        "toy_hand": labels.Word("Toy points held"),
        "toy_threes": labels.Word("Toy red threes"),
        "toy_state": labels.Word("Toy state"),
        "toy_fix": labels.Word("Toy adjustment"),
        "toy_why": labels.Word("Toy reason"),
        "toy_sneaky": labels.Word("Toy went out sneakily", "sneakily"),
    },
    "field_choice": {
        "toy_up": labels.Word("Toy face up"),
        "toy_down": labels.Word("Toy face down"),
    },
    "card": {
        "toy_card": labels.Word("Toy cards", "Toy card"),
        "toy_low": labels.Word("Toy low cards", labels.Verbatim("T–L")),
    },
    "part": {"toy_bonus": labels.Word("Toy bonus part", "Toy bonus col")},
    "penalty": {"toy_fine": labels.Word("Toy fine for dawdling")},
    "reference": {
        "toy_close": labels.Word("Toy close"),
        "toy_sneaky_close": labels.Word("Toy sneaky close"),
        "toy_note": labels.Word("Toy note: {count} rules"),
    },
}


@pytest.fixture
def toy(monkeypatch: pytest.MonkeyPatch) -> rules.Variant:
    """A variant (and its words) known only while the test runs."""
    base = rules.get_variant("uruguaya")
    variant = dataclasses.replace(
        base,
        name="toy",
        options=(),
        side_fields=TOY_FIELDS,
        hand_fields=TOY_HAND_FIELDS,
        canasta_fields=("toy_clean", "toy_dirty"),
        card_values={"toy_card": 30, "toy_low": 5},
        score_side=toy_score,
        check_hand=lambda rules_, hand: [],
        cheapest_canastas={"toy_clean": 35, "toy_dirty": 50},
        opening_brackets=lambda rules_: ((0, 15), (2000, 70), (float("inf"), 110)),
        parts=("canastas", "toy_bonus", "table", "red_threes", "closing", "hand", "adjustment"),
        reference=toy_reference,
        typical_layouts={"4p": 1},
        adjustment_presets={"toy_fine": -45},
    )
    monkeypatch.setitem(rules.VARIANTS, "toy", variant)
    for kind, words in TOY_WORDS.items():
        for key, word in words.items():
            monkeypatch.setitem(labels.WORDS[kind], key, word)
    return variant


def test_a_new_variant_goes_through_every_page(
    toy: rules.Variant, app: Flask, client: FlaskClient
) -> None:
    english = {"Accept-Language": "en"}
    # The new-match form knows it and starts a match of it.
    page = client.get("/partidas/nueva", headers=english)
    assert page.status_code == 200
    assert "House rules: Toyish" in page.get_data(as_text=True)
    created = client.post(
        "/partidas/nueva",
        data={
            "variant": "toy",
            "layout": "4p",
            "target": "3000",
            "decks": "2",
            "canastas_to_close": "1",
            "tie": "extra_hand",
            "side_0": "Norte",
            "side_1": "Sur",
            "player_0_0": "Ana",
            "player_0_1": "Beto",
            "player_1_0": "Carla",
            "player_1_1": "Dani",
            "start": "1",
        },
    )
    assert created.status_code == 303, created.get_data(as_text=True)
    match_id = int(created.headers["Location"].rsplit("/", 1)[1])

    # The hand form: its fields, choices, card kinds, concealed flag and penalty preset.
    form = client.get(f"/partidas/{match_id}/manos/nueva", headers=english)
    assert form.status_code == 200
    text = form.get_data(as_text=True)
    for word in (
        "Toy clean canastas",
        "Toy points melded",
        "Toy red threes",
        "Toy face down",
        "Toy cards (30)",
        "Toy low cards (5)",
        "Toy went out sneakily",
        "Toy fine for dawdling",
        "Toy adjustment",
        "Toy reason",
    ):
        assert word in text, word
    key = re.search(r'name="request_key" type="hidden" value="([0-9a-f]+)"', text)
    version = re.search(r'name="version" type="hidden" value="(\d+)"', text)
    assert key
    assert version
    hand = {
        "request_key": key.group(1),
        "version": version.group(1),
        "closer": "0",
        "toy_sneaky": "y",
        "s0_toy_clean": "1",
        "s0_toy_table": "150",
        "s0_toy_threes": "1",
        "s0_toy_state": "toy_down",
        "s0_toy_fix": "-10",
        "s0_toy_why": "late again",
        "s1_toy_dirty": "1",
        "s1_toy_table": "90",
        "s1_toy_hand": "40",
        "s1_toy_state": "toy_up",
    }
    # The calculator fills the points from the toy's card kinds; a preset adds its penalty.
    calculated = client.post(
        f"/partidas/{match_id}/manos/nueva",
        data={**hand, "action": "calc:s1", "s1_t_toy_card": "3", "s1_t_toy_low": "2"},
        headers=english,
    )
    assert calculated.status_code == 200
    assert 'id="s1_toy_table" inputmode="numeric"' in calculated.get_data(as_text=True)
    assert 'value="100"' in calculated.get_data(as_text=True)
    fined = client.post(
        f"/partidas/{match_id}/manos/nueva",
        data={**hand, "action": "penalty:s1:toy_fine"},
        headers=english,
    )
    assert "Toy fine for dawdling (-45)" in fined.get_data(as_text=True)
    # A problem lands next to the toy's field.
    wrong = client.post(
        f"/partidas/{match_id}/manos/nueva", data={**hand, "s0_toy_table": "7"}, headers=english
    )
    assert wrong.status_code == 422
    assert re.search(r'id="f-s0_toy_table">.*?msg error', wrong.get_data(as_text=True), re.S)
    saved = client.post(f"/partidas/{match_id}/manos/nueva", data=hand)
    assert saved.status_code in (302, 303), saved.get_data(as_text=True)

    # The match page: the toy's own part, the adjustment's reason, the concealed close.
    sheet = client.get(f"/partidas/{match_id}", headers=english)
    assert sheet.status_code == 200
    text = sheet.get_data(as_text=True)
    for word in ("Toyish", "Toy bonus part", "Norte: late again", "Went out concealed: Norte."):
        assert word in text, word

    # The match's PDF: the title, the toy's column and how the closer went out.
    pdf = client.get(f"/partidas/{match_id}/planilla.pdf?idioma=en")
    assert pdf.status_code == 200
    text = pdf_text(pdf.data)
    for word in ("Toy canasta for print", "Toy bonus col", "Norte (sneakily)"):
        assert word in text, word

    # A blank sheet: the toy's reference box.
    blank = client.get("/planillas/en-blanco?variante=toy&disposicion=4p&idioma=en")
    assert blank.status_code == 200
    text = pdf_text(blank.data)
    for word in (
        "Toy canasta for print",
        "Toy clean one 600",
        "Toy dirty one 250",
        "Toy close 120",
        "Toy sneaky close 250",
        "Toy note: 7 rules",
        "Toy card 30",
        "T–L 5",
        "1 2 3 4 100 200 300 400",
    ):
        assert word in text, word
    assert "Toy canasta for print" in client.get("/planillas/en-blanco").get_data(as_text=True)

    # The player statistics count the toy's clean and dirty canastas and red threes.
    with app.app_context():
        player = services.queries.find_player(EVERYTHING, "Ana")
        assert player is not None
        player_id = player.id
        summaries = statistics_reads.summaries(EVERYTHING, frozenset({player_id}), all_players=True)
        record = stats.team_stats(summaries, frozenset({player_id})).overall
        assert (record.clean, record.dirty, record.red_threes, record.closed) == (1, 0, 1, 1)
    page = client.get(f"/jugadores/{player_id}", headers=english)
    assert page.status_code == 200
    assert "Toyish" in page.get_data(as_text=True)
    history = client.get("/historial?variante=toy", headers=english)
    assert history.status_code == 200
    assert "Toyish" in history.get_data(as_text=True)


def test_the_toy_is_gone_after_its_test() -> None:
    assert "toy" not in rules.VARIANTS
    assert "toy" not in labels.WORDS["variant"]
    assert "toy" not in labels.VARIANTS


#: What adds to every template: a blueprint's ``app_template_*``/``app_context_processor``
#: and the app's own ``add_template_*``/``context_processor``/``template_*``.
TEMPLATE_HOOKS = frozenset(
    {
        "app_template_global",
        "app_template_filter",
        "app_template_test",
        "app_context_processor",
        "add_template_global",
        "add_template_filter",
        "add_template_test",
        "context_processor",
        "template_global",
        "template_filter",
        "template_test",
    }
)
#: The one way in (the factory hands it the areas' helpers), and the command line's own app
#: for printing sheets without the web app.
TEMPLATE_HOOK_OWNERS = {PACKAGE / "web" / "templating.py", PACKAGE / "sheets" / "render.py"}


def template_hooks(source: str) -> list[str]:
    """The template hooks ``source`` calls or decorates with."""
    return [
        node.attr
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Attribute) and node.attr in TEMPLATE_HOOKS
    ]


def test_only_the_factory_registers_template_helpers() -> None:
    offenders = {
        str(path.relative_to(ROOT)): hooks
        for path in sorted(PACKAGE.rglob("*.py"))
        if path not in TEMPLATE_HOOK_OWNERS
        and (hooks := template_hooks(path.read_text(encoding="utf-8")))
    }

    assert offenders == {}


def test_the_template_hook_scan_sees_a_blueprint_that_registers_one() -> None:
    blueprint = (
        "from flask import Blueprint\n"
        "bp = Blueprint('x', __name__)\n"
        "@bp.app_template_global()\n"
        "def helper(): ...\n"
        "@bp.app_context_processor\n"
        "def words(): ...\n"
    )

    assert sorted(template_hooks(blueprint)) == ["app_context_processor", "app_template_global"]


# The top level reads like the design's table of contents (issue 27)

MAX_TOP_LEVEL = 12


def top_level() -> list[str]:
    return sorted(p.name for p in PACKAGE.iterdir() if p.name not in ("__pycache__", ".mypy_cache"))


def test_the_top_level_has_at_most_a_dozen_entries() -> None:
    assert len(top_level()) <= MAX_TOP_LEVEL, top_level()


def test_the_top_level_holds_packages_only() -> None:
    """A new module goes into the package of its concept, not beside them."""
    assert [name for name in top_level() if name.endswith(".py")] == ["__init__.py"]


def test_every_package_says_what_it_holds_and_is_on_the_map() -> None:
    architecture = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    for name in top_level():
        if name == "__init__.py":
            continue
        init = PACKAGE / name / "__init__.py"
        assert ast.get_docstring(ast.parse(init.read_text(encoding="utf-8"))), name
        assert f"`{name}/`" in architecture, f"{name}/ is not on docs/architecture.md's map"


def test_the_readme_links_only_docs_the_project_carries() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "../shared" not in readme
    for target in re.findall(r"\]\((docs/[^)#]+)", readme):
        assert (ROOT / target).exists(), target
