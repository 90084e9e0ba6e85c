"""The registry of rule sets, and the settings of a match resolved from them."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from anotador.rules import burako
from anotador.rules import burraco
from anotador.rules import canastone
from anotador.rules import classic
from anotador.rules import mac
from anotador.rules import real
from anotador.rules import uruguaya
from anotador.rules.paths import join
from anotador.rules.problems import InvalidInput
from anotador.rules.problems import Problem
from anotador.rules.reading import Reader
from anotador.rules.variant import LAYOUTS
from anotador.rules.variant import MAX_TARGET
from anotador.rules.variant import TIE_POLICIES
from anotador.rules.variant import Rules
from anotador.rules.variant import Variant

VARIANTS: dict[str, Variant] = {
    variant.name: variant
    for variant in (
        uruguaya.VARIANT,
        classic.VARIANT,
        canastone.VARIANT,
        real.VARIANT,
        mac.VARIANT,
        burako.VARIANT,
        burraco.VARIANT,
    )
}
#: Each family's variants, in the registry's order.
FAMILIES: dict[str, tuple[str, ...]] = {
    family: tuple(name for name, variant in VARIANTS.items() if variant.family == family)
    for family in dict.fromkeys(variant.family for variant in VARIANTS.values())
}
# Named by the match format but not scored yet; reading a file of it says so plainly.
PLANNED_VARIANTS: tuple[str, ...] = ()
DEFAULT_VARIANT = "uruguaya"
DEFAULT_LAYOUT = "4p"
MAX_CANASTAS_TO_CLOSE = 10


def get_variant(name: str) -> Variant:
    """The rule set called ``name``; KeyError for an unknown one."""
    return VARIANTS[name]


def variant_defaults(variant: str, layout: str = DEFAULT_LAYOUT) -> dict[str, Any]:
    """Every setting a new match of ``variant`` and ``layout`` starts with (for forms)."""
    return make_rules(variant, layout).settings()


def make_rules(variant: str, layout: str = DEFAULT_LAYOUT, options: object = None) -> Rules:
    """The settings of a match from already-trusted input; InvalidInput if they are wrong."""
    reader = Reader()
    rules = read_rules(reader, variant, layout, {} if options is None else options, "options")
    if rules is None:
        raise InvalidInput(reader.problems)
    return rules


def read_rules(
    reader: Reader, variant_name: str, layout_name: str, raw: object, path: str
) -> Rules | None:
    """Resolve a match's settings: the variant and layout defaults overridden by ``raw``."""
    variant = VARIANTS[variant_name]
    if layout_name not in variant.layouts:
        reader.error("layout", "layout_not_available", layout=layout_name)
        return None
    defaults = variant.layouts[layout_name]
    common = ["target", "decks", "tie"]
    if variant.has_canastas_to_close:
        common.append("canastas_to_close")
    options = reader.mapping(raw, path, (*common, *(spec.name for spec in variant.options)))
    if options is None:
        return None
    before = len(reader.problems)
    target = reader.integer(
        options.get("target", defaults.target), join(path, "target"), 5, MAX_TARGET
    )
    decks = read_decks(reader, variant, options.get("decks", defaults.decks), join(path, "decks"))
    to_close = None
    if variant.has_canastas_to_close:
        to_close = reader.integer(
            options.get("canastas_to_close", defaults.canastas_to_close),
            join(path, "canastas_to_close"),
            0,
            MAX_CANASTAS_TO_CLOSE,
        )
    tie = reader.choice(options.get("tie", TIE_POLICIES[0]), join(path, "tie"), TIE_POLICIES)
    values = {spec.name: options.get(spec.name, spec.default) for spec in variant.options}
    for spec in variant.options:
        spec_path = join(path, spec.name)
        if spec.kind == "bool":
            reader.boolean(values[spec.name], spec_path)
        elif spec.kind == "choice":
            reader.choice(values[spec.name], spec_path, spec.choices)
        else:
            reader.integer(values[spec.name], spec_path, 0, MAX_TARGET, multiple_of_5=True)
    if len(reader.problems) > before:
        return None
    assert target is not None
    assert decks is not None
    assert tie is not None
    rules = Rules(variant, LAYOUTS[layout_name], target, decks, to_close, tie, values)
    if variant.opening_brackets is None:
        return rules
    brackets = variant.opening_brackets(rules)
    bounds = tuple(bound for bound, _ in brackets[:-1])
    return replace(rules, brackets=(bounds, tuple(minimum for _, minimum in brackets)))


def read_decks(reader: Reader, variant: Variant, value: object, path: str) -> int | None:
    decks = reader.choice(value, path, (2, 3))
    if decks is not None and variant.fixed_decks is not None and decks != variant.fixed_decks:
        reader.error(path, "fixed_decks", decks=variant.fixed_decks)
        return None
    return decks


def describe_variants() -> list[dict[str, Any]]:
    """Each variant's layouts with their defaults, options and per-hand inputs (plain data)."""
    return [
        {
            "name": variant.name,
            "layouts": {name: variant_defaults(variant.name, name) for name in variant.layouts},
            "options": [
                {"name": spec.name, "default": spec.default, "choices": list(spec.choices)}
                for spec in variant.options
            ],
            "end_reasons": list(variant.end_reasons),
            "hand_fields": [spec.name for spec in variant.hand_fields],
            "side_fields": [spec.name for spec in variant.side_fields],
            "card_values": dict(variant.card_values),
            "opening_minimum": variant.opening_brackets is not None,
        }
        for variant in VARIANTS.values()
    ]


def unknown_variant_problem(name: object) -> Problem:
    if name in PLANNED_VARIANTS:
        return Problem("variant", "variant_not_supported", {"variant": name})
    return Problem("variant", "not_in_choices", {"choices": ", ".join(VARIANTS)})
