"""The project's own rule pages (docs/rules/) stay in step with the engine.

Every rule set has a page that names its module, and every opening table printed there is the
one the engine applies with the variant's default options; a game without an opening minimum
says so.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from anotador import rules
from anotador.rules import make_rules
from anotador.rules import opening_minimum

ROOT = Path(__file__).resolve().parent.parent.parent
RULES = ROOT / "docs" / "rules"
ROW = re.compile(r"^\|\s*(?P<scores>[^|]+?)\s*\|\s*(?P<minimum>[\d,]+)\s*\|$")
# How a row names the totals it covers: "below 0", "0 to 1,495", "7,000 or more".
BELOW = re.compile(r"^below (-?[\d,]+)$")
BETWEEN = re.compile(r"^(-?[\d,]+) to (-?[\d,]+)$")
FROM = re.compile(r"^(-?[\d,]+) or more$")


def number(text: str) -> int:
    return int(text.replace(",", ""))


def section(page: str, heading: str) -> str:
    start = page.index(f"## {heading}")
    end = page.find("\n## ", start + 1)
    return page[start : end if end >= 0 else None]


def printed_table(text: str) -> list[tuple[list[int], int]]:
    """Each row's totals to check (its ends) with the minimum printed beside them."""
    rows = []
    for line in text.splitlines():
        match = ROW.match(line.strip())
        if not match:
            continue
        scores, minimum = match["scores"], number(match["minimum"])
        if found := BELOW.match(scores):
            bound = number(found[1])
            rows.append(([bound - 5, bound - 5_000], minimum))
        elif found := BETWEEN.match(scores):
            rows.append(([number(found[1]), number(found[2])], minimum))
        elif found := FROM.match(scores):
            rows.append(([number(found[1]), number(found[1]) + 5_000], minimum))
        else:
            raise AssertionError(f"an opening row the test cannot read: {line!r}")
    return rows


def default_rules(variant: str) -> rules.Rules:
    layouts = rules.VARIANTS[variant].layouts
    return make_rules(variant, "4p" if "4p" in layouts else next(iter(layouts)))


def test_every_rule_set_has_a_page_and_the_index_links_it():
    index = (RULES / "README.md").read_text(encoding="utf-8")
    pages = {path.stem for path in RULES.glob("*.md")} - {"README"}

    assert pages == set(rules.VARIANTS)
    for name in rules.VARIANTS:
        assert f"]({name}.md)" in index


@pytest.mark.parametrize("variant", sorted(rules.VARIANTS))
def test_the_page_names_its_module(variant: str):
    page = (RULES / f"{variant}.md").read_text(encoding="utf-8")

    assert f"`anotador/rules/{variant}.py`" in page
    assert (ROOT / "anotador" / "rules" / f"{variant}.py").is_file()


@pytest.mark.parametrize("variant", sorted(rules.VARIANTS))
def test_the_printed_opening_table_is_the_engines(variant: str):
    page = (RULES / f"{variant}.md").read_text(encoding="utf-8")
    text = section(page, "Opening minimum")
    game_rules = default_rules(variant)

    if rules.VARIANTS[variant].opening_brackets is None:
        assert "there is no opening minimum" in text
        assert opening_minimum(game_rules, 0) is None
        return
    rows = printed_table(text)
    assert len(rows) >= 3
    for totals, minimum in rows:
        for total in totals:
            assert opening_minimum(game_rules, total) == minimum, (variant, total)
