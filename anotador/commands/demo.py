"""Realistic random matches for demos and benchmarks (``anotador seed-demo``).

Every hand is checked by the rules engine (``read_hand``) and every match is scored by it, so
the stored summary columns are the engine's. Rows go in with bulk inserts
(:mod:`anotador.backup.bulk`), a batch at a time: 100,000 matches take a minute or two, not hours.
"""

from __future__ import annotations

import datetime
import itertools
import random
from collections.abc import Callable
from typing import Any

from anotador import rules
from anotador import services
from anotador.backup import bulk
from anotador.rules import Role
from anotador.services.documents import content_hash
from anotador.storage.database import db
from anotador.storage.models import name_key

FIRST_NAMES = (
    "José", "María", "Ana", "Lucía", "Martín", "Sofía", "Joaquín", "Inés", "Raúl", "Elena",
    "Andrés", "Verónica", "Ramón", "Mónica", "Germán", "Nélida", "Julián", "Rocío", "Héctor",
    "Belén", "Agustín", "Marta", "Tomás", "Florencia", "Sebastián", "Ángela", "Iván", "Noemí",
    "Óscar", "Carmen", "Hugo", "Silvia", "Darío", "Beatriz", "Fabián", "Graciela", "Nicolás",
    "Leticia", "Matías", "Susana",
)  # fmt: skip
SURNAMES = (
    "Pérez", "González", "Rodríguez", "Fernández", "López", "Martínez", "Gómez", "Díaz",
    "Sánchez", "Romero", "Álvarez", "Suárez", "Benítez", "Acosta", "Medina", "Herrera",
    "Aguirre", "Giménez", "Núñez", "Ríos", "Castro", "Peña", "Ibáñez", "Muñoz", "Ledesma",
    "Ortiz", "Méndez", "Silva", "Sosa", "Vázquez", "Ferreyra", "Olivera", "Cabrera", "Godoy",
    "Quiroga", "Luna", "Molina", "Rojas", "Torres", "Vera", "Campos", "Ruiz", "Ramírez",
    "Figueroa", "Bustos", "Morales", "Paz", "Cáceres", "Domínguez", "Maidana",
)  # fmt: skip
GROUP_SIZE = 8  # the regulars of one table: a group plays about MATCHES_PER_GROUP matches
MATCHES_PER_GROUP = 200
BATCH = 1000
# (variant, layout, weight): how often tables play each, from the variants' own data.
SETUPS = tuple(
    (name, layout, weight)
    for name, variant in rules.VARIANTS.items()
    for layout, weight in variant.typical_layouts.items()
)
MAX_HANDS = 60


# One generated match: the rows to insert, already scored by the engine.
Demo = bulk.NewMatch


def player_names(count: int, rng: random.Random) -> list[str]:
    """``count`` distinct realistic names."""
    pairs = list(itertools.product(FIRST_NAMES, SURNAMES))
    rng.shuffle(pairs)
    names = [f"{first} {last}" for first, last in pairs[:count]]
    for index in range(len(names), count):
        first, last = pairs[index % len(pairs)]
        names.append(f"{first} {last} {index // len(pairs) + 1}")
    return names


def ensure_players(names: list[str], owner_id: int | None) -> list[int]:
    """The ids of the account's players with these names, creating the missing ones in one
    insert."""
    known = bulk.player_ids(names, owner_id)
    return [known[name_key(name)] for name in names]


def random_hand(game: rules.Rules, rng: random.Random, closer: int | None) -> dict[str, Any]:
    """One plausible hand: the closer holds canastas; counts and points respect the rules.

    The inputs are found by their roles: the first clean and dirty canasta fields, the points,
    the red threes (when the variant has them) and any side state (the closer keeps its
    default, the others mostly too, else its second choice); a variant with special hands
    sometimes gets one instead."""
    clean_key, dirty_key, table_key, hand_key = (
        game.variant.name_of(role)
        for role in (Role.CLEAN_CANASTAS, Role.DIRTY_CANASTAS, Role.TABLE_POINTS, Role.HAND_POINTS)
    )
    red = game.field_with(Role.RED_THREES)
    states = game.fields_with(Role.STATE)
    red_left = 2 * game.decks
    sides = []
    for index in range(game.layout.sides):
        side: dict[str, Any] = {}
        opened = index == closer or rng.random() < 0.9
        if opened:
            if index == closer:
                # Canastone's closer needs a pure and an impure canasta; two-player games two.
                clean, dirty = 1 + (rng.random() < 0.3), 1
            else:
                clean, dirty = rng.choice((0, 0, 0, 1, 1, 2)), rng.choice((0, 0, 1, 1, 2))
            side[clean_key], side[dirty_key] = clean, dirty
            side[table_key] = 60 * clean + 70 * dirty + 5 * rng.randrange(3, 40)
        holds = 0 if index == closer and game.layout.individual else 1
        if index == closer:
            side[hand_key] = holds * 5 * rng.choice((0, 0, 0, 2, 5, 10, 20))
        else:
            side[hand_key] = 5 * rng.randrange(2, 50 if opened else 80)
        if red is not None and red_left:
            threes = min(red_left, rng.choice((0, 0, 0, 1, 1, 2)))
            side[red.name], red_left = threes, red_left - threes
        for state in states:
            kept = index == closer or rng.random() < 0.8
            side[state.name] = state.default if kept else state.choices[1]
        sides.append(side)
    special = game.field_with(Role.SPECIAL_HAND)
    if special is not None and game.variant.special_end is not None and rng.random() < 0.03:
        # Now and then a side lays down a special hand instead (mac): nobody goes out.
        sides[rng.randrange(len(sides))] = {special.name: rng.choice(special.choices)}
        return {"end": game.variant.special_end, "closer": None, "sides": sides}
    end = "closed" if closer is not None else "stock_out"
    return {"end": end, "closer": closer, "sides": sides}


def random_match(
    rng: random.Random, players: list[int], names: dict[int, str], played_on: datetime.date
) -> Demo:
    """A whole match between some of ``players``, played until the end (or stopped)."""
    setups = [(variant, layout) for variant, layout, _ in SETUPS]
    variant, layout = rng.choices(setups, weights=[weight for *_, weight in SETUPS])[0]
    game = rules.make_rules(variant, layout)
    seated = rng.sample(players, game.layout.sides * game.layout.players_per_side)
    sides = []
    for position in range(game.layout.sides):
        ids = seated[position :: game.layout.sides]
        sides.append((" y ".join(names[i].split()[0] for i in ids), ids))
    recent = played_on >= datetime.date.today() - datetime.timedelta(days=2)
    stopped = rng.random() < (0.5 if recent else 0.04)
    stop_after = rng.randrange(1, 8) if stopped else MAX_HANDS
    hands: list[rules.HandInput] = []
    totals = [0] * game.layout.sides
    finished = False
    while not finished and len(hands) < stop_after:
        closer = None if rng.random() < 0.05 else rng.randrange(game.layout.sides)
        hand, problems = rules.read_hand(game, random_hand(game, rng, closer))
        if hand is None:  # pragma: no cover - the generator's own mistake, never stored
            raise ValueError("; ".join(p.message for p in problems))
        hands.append(hand)
        for index, parts in enumerate(rules.score_hand(game, hand)):
            totals[index] += sum(parts.values())
        at_once = game.variant.wins_at_once
        won_at_once = at_once is not None and at_once(game, hand) is not None
        finished = won_at_once or rules.game_result(game, totals)[0]
    # Unfinished: abandoned, unless it is recent enough to be still on the table.
    abandoned = not finished and not recent
    return build(game, sides, hands, played_on, abandoned=abandoned, names=names)


def build(
    game: rules.Rules,
    sides: list[tuple[str, list[int]]],
    hands: list[rules.HandInput],
    played_on: datetime.date,
    abandoned: bool,
    names: dict[int, str],
) -> Demo:
    infos = tuple(rules.SideInfo(name, tuple(names[i] for i in ids)) for name, ids in sides)
    iso = played_on.isoformat()
    match = rules.Match(game, infos, tuple(hands), played_on=iso, abandoned=abandoned)
    score = rules.score_match(match)
    document = rules.match_to_document(match)
    row = bulk.match_row(match, score, document, content_hash(document), owner_id=None)
    return Demo(row, sides, document["hands"], bulk.figures_of(match, score))


def seed(
    count: int,
    seed_value: int = 0,
    progress: Callable[[int], None] | None = None,
    owner_id: int | None = None,
) -> list[int]:
    """Store ``count`` random matches played over the last three years as matches of the
    account ``owner_id`` (None: the first administrator's); their ids."""
    owner_id = services.accounts.owner_or_default(owner_id)
    rng = random.Random(seed_value)
    groups = max(1, -(-count // MATCHES_PER_GROUP))
    names = player_names(groups * GROUP_SIZE, rng)
    ids = ensure_players(names, owner_id)
    by_id = dict(zip(ids, names, strict=True))
    tables = [ids[g * GROUP_SIZE : (g + 1) * GROUP_SIZE] for g in range(groups)]
    first_day = datetime.date.today() - datetime.timedelta(days=3 * 365)
    created: list[int] = []
    for start in range(0, count, BATCH):
        demos = []
        for number in range(start, min(count, start + BATCH)):
            day = first_day + datetime.timedelta(days=number * 3 * 365 // count)
            demo = random_match(rng, rng.choice(tables), by_id, day)
            demo.match["owner_id"] = owner_id
            demos.append(demo)
        created += bulk.insert_matches(demos)
        db.session.commit()
        if progress is not None:
            progress(len(created))
    return created
