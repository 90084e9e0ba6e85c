"""One hand as the table declares it: reading it and the checks every variant shares (§1.3)."""

from __future__ import annotations

from typing import Any

from anotador.rules.paths import join
from anotador.rules.problems import Problem
from anotador.rules.reading import Reader
from anotador.rules.variant import MAX_COUNT
from anotador.rules.variant import MAX_POINTS
from anotador.rules.variant import HandInput
from anotador.rules.variant import InputField
from anotador.rules.variant import Role
from anotador.rules.variant import Rules
from anotador.rules.variant import SideInput

HAND_KEYS = ("end", "closer", "sides", "note")
MIN_MELD_POINTS = 15  # three cards worth at least 5 each


def read_inputs(
    reader: Reader, rules: Rules, specs: tuple[InputField, ...], raw: dict[str, Any], path: str
) -> dict[str, Any]:
    """Every field of ``specs``: its value from ``raw`` or its default; a field whose option
    is off may only be absent or hold its default."""
    values: dict[str, Any] = {}
    for spec in specs:
        if spec.name not in raw:
            values[spec.name] = spec.default
            continue
        value = raw[spec.name]
        # Paths are built only for a value that needs a closer look: most are plainly fine.
        if not plainly_valid(spec, value):
            value = reader.field(spec, value, join(path, spec.name))
        values[spec.name] = value
        if value != spec.default and not spec.is_enabled(rules.options):
            field_path = join(path, spec.name)
            if spec.enabled_by is not None:
                reader.error(field_path, "option_off_field", option=spec.enabled_by)
            else:
                reader.error(field_path, "not_for_preset", preset=rules.options.get("preset"))
    return values


def plainly_valid(spec: InputField, value: object) -> bool:
    """A whole number or flag that passes its field's checks at a glance."""
    if type(value) is bool:
        return spec.kind == "flag"
    if type(value) is not int:
        return False
    if spec.kind == "count":
        return 0 <= value <= MAX_COUNT
    if spec.kind == "points":
        return 0 <= value <= MAX_POINTS and value % 5 == 0
    if spec.kind == "signed_points":
        return -MAX_POINTS <= value <= MAX_POINTS and value % 5 == 0
    return False


def read_hand(rules: Rules, raw: object, path: str = "") -> tuple[HandInput | None, list[Problem]]:
    """Check one hand (a match file's hand object) against ``rules``.

    Returns the hand with defaults filled in, or None when it has errors, and every problem
    (errors and warnings) with paths under ``path``.
    """
    variant = rules.variant
    reader = Reader()
    hand_specs = variant.hand_fields
    allowed = (*HAND_KEYS, *(spec.name for spec in hand_specs))
    hand = reader.mapping(raw, path, allowed)
    if hand is None:
        return None, reader.problems
    end = closer = None
    if "end" not in hand:
        reader.error(join(path, "end"), "required")
    else:
        end = reader.choice(hand["end"], join(path, "end"), variant.end_reasons)
    if hand.get("closer") is not None:
        closer = reader.integer(hand["closer"], join(path, "closer"))
        if closer is not None and not 0 <= closer < rules.layout.sides:
            reader.error(join(path, "closer"), "closer_out_of_range", closer=closer)
            closer = None
    details = read_inputs(reader, rules, hand_specs, hand, path)
    note = reader.text(hand.get("note", ""), join(path, "note")) or ""
    sides = read_sides(reader, rules, hand.get("sides"), join(path, "sides"))
    # An unknown key leaves every known value readable: the rules can still be checked.
    malformed = any(problem.code != "unknown_key" for problem in reader.problems)
    if malformed or sides is None or end is None:
        return None, reader.problems
    result = HandInput(end=end, closer=closer, sides=sides, details=details, note=note)
    problems = reader.problems + [
        problem.within(path) if path else problem for problem in check_hand(rules, result)
    ]
    if any(problem.severity == "error" for problem in problems):
        return None, problems
    return result, problems


def read_sides(
    reader: Reader, rules: Rules, raw: object, path: str
) -> tuple[SideInput, ...] | None:
    if raw is None:
        reader.error(path, "required")
        return None
    if not isinstance(raw, list):
        reader.error(path, "wrong_type", expected="a list")
        return None
    if len(raw) != rules.layout.sides:
        reader.error(path, "wrong_count", expected=rules.layout.sides, found=len(raw))
        return None
    specs = rules.variant.side_fields
    names = [spec.name for spec in specs]
    sides = []
    for index, entry in enumerate(raw):
        side_path = join(path, index)
        side = reader.mapping(entry, side_path, names)
        if side is not None:
            sides.append(read_inputs(reader, rules, specs, side, side_path))
    return tuple(sides)


def check_hand(rules: Rules, hand: HandInput) -> list[Problem]:
    """V2-V7 for a hand whose fields are each well formed, then the variant's own checks."""
    problems = check_closer(rules, hand)
    problems += check_openings(rules, hand)
    if rules.variant.has_red_threes:
        problems += check_red_threes(rules, hand)
    problems += rules.variant.check_hand(rules, hand)
    cheapest = rules.variant.cheapest_canastas
    table = rules.variant.name_of(Role.TABLE_POINTS)
    for index, side in enumerate(hand.sides):
        minimum = sum(points * side[kind] for kind, points in cheapest.items())
        if side[table] < minimum:
            path = f"sides[{index}].{table}"
            params = {"minimum": minimum}
            problems.append(Problem(path, "table_points_low_for_canastas", params, "warning"))
    return problems


def check_closer(rules: Rules, hand: HandInput) -> list[Problem]:
    """V2 (closed if and only if one closer) and V5 (an individual closer holds no cards)."""
    if hand.end == "closed" and hand.closer is None:
        return [Problem("closer", "closer_required")]
    if hand.end != "closed" and hand.closer is not None:
        code = "closer_not_allowed" if hand.end == "stock_out" else "closer_not_for_end"
        return [Problem("closer", code)]
    closer = hand.closer
    held = rules.variant.name_of(Role.HAND_POINTS)
    if closer is not None and rules.layout.individual and hand.sides[closer][held]:
        return [Problem(f"sides[{hand.closer}].{held}", "closer_holds_cards")]
    return []


def check_openings(rules: Rules, hand: HandInput) -> list[Problem]:
    """V3: no canasta and no going out without melding; a meld is worth at least 15."""
    problems = []
    table = rules.variant.name_of(Role.TABLE_POINTS)
    for index, side in enumerate(hand.sides):
        table_points = side[table]
        if 0 < table_points < MIN_MELD_POINTS:
            problems.append(Problem(f"sides[{index}].{table}", "table_points_below_meld"))
        if table_points:
            continue
        for kind in rules.variant.canasta_fields:
            if side[kind]:
                problems.append(Problem(f"sides[{index}].{kind}", "not_opened_has_canastas"))
        if index == hand.closer:
            problems.append(Problem("closer", "not_opened_cannot_close"))
    return problems


def check_red_threes(rules: Rules, hand: HandInput) -> list[Problem]:
    """V6: at most two red threes per deck, for each side and for the whole table."""
    maximum = 2 * rules.decks
    params = {"maximum": maximum, "decks": rules.decks}
    red = rules.variant.name_of(Role.RED_THREES)
    problems = [
        Problem(f"sides[{index}].{red}", "too_many_red_threes", params)
        for index, side in enumerate(hand.sides)
        if side[red] > maximum
    ]
    found = sum(side[red] for side in hand.sides)
    if not problems and found > maximum:
        params = {"found": found, "maximum": maximum}
        problems.append(Problem("sides", "too_many_red_threes_total", params))
    return problems
