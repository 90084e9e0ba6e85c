"""A statistics page reads its matches' summaries and figures once per state of those
matches (``caches().summaries`` and ``caches().sections``): a warm page reads no stored figures, and
whatever changes what it shows (a hand, a renamed or merged player, the language, a match
written outside the app) shows at once."""

import re

import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient
from sql_counting import count_statements
from stored import OWNER
from stored import MakeMatch
from stored import create_account
from stored import join_group
from stored import player_id
from stored import rename
from stored import signed_in

from anotador import services
from anotador.services.scope import EVERYTHING
from anotador.statistics import reads as statistics_reads
from anotador.storage import caching
from anotador.storage.database import db
from anotador.storage.models import Group
from anotador.storage.models import Hand
from anotador.storage.models import Match

PAIRS = (
    {"name": "Nosotros", "players": ["Ana", "Carla"]},
    {"name": "Ellos", "players": ["Beto", "Dani"]},
)
HAND = {
    "end": "closed",
    "closer": 0,
    "sides": [{"clean": 1, "table_points": 300}, {"table_points": 100, "hand_points": 30}],
}


def matches_played(page: str) -> int:
    found = re.search(r"Partidas</dt><dd>(\d+)</dd>", page)
    assert found, page
    return int(found.group(1))


def test_a_warm_page_reads_no_sides_and_shows_the_same(
    app: Flask, client: FlaskClient, make_match: MakeMatch
) -> None:
    for _ in range(3):
        make_match(sides=PAIRS, hands=[HAND])
    url = f"/jugadores/{player_id(app, 'Ana')}"
    with count_statements(app) as cold:
        first = client.get(url).get_data(as_text=True)
    with count_statements(app) as warm:
        second = client.get(url).get_data(as_text=True)
    assert any("side.figures" in statement for statement in cold)
    assert not any("side.figures" in statement for statement in warm)
    # Kept under the account's counters: the matches are not even listed.
    assert not any("match.content_hash" in statement for statement in warm)
    # The account (with its ratings version), the player, its club points, the counters.
    assert len(warm) == 4
    assert len(warm) < len(cold)
    # The same figures (the CSRF tokens of the rename and merge forms differ).
    assert re.sub(r'value="[^"]*"', "", first) == re.sub(r'value="[^"]*"', "", second)
    assert matches_played(second) == 3


def test_a_new_hand_shows_at_once(app: Flask, client: FlaskClient, make_match: MakeMatch):
    match_id = make_match(sides=PAIRS, hands=[HAND])
    url = f"/jugadores/{player_id(app, 'Ana')}"
    assert ">900,0<" in client.get(url).get_data(as_text=True)  # points per hand
    with app.app_context():
        match = services.queries.load_match(match_id)
        assert match is not None
        stock_out = {"end": "stock_out", "sides": [{"table_points": 0}, {"table_points": 0}]}
        assert services.hands.record_hand(match, stock_out, match.version, None).ok
    assert ">450,0<" in client.get(url).get_data(as_text=True)  # 900 over 2 hands


def test_a_renamed_partner_shows_under_the_new_name(
    app: Flask, client: FlaskClient, make_match: MakeMatch
) -> None:
    make_match(sides=PAIRS, hands=[HAND])
    url = f"/jugadores/{player_id(app, 'Ana')}"
    assert ">Carla</a>" in client.get(url).get_data(as_text=True)
    rename(app, "Carla", "Carolina")
    page = client.get(url).get_data(as_text=True)
    assert ">Carolina</a>" in page
    assert ">Carla</a>" not in page


def test_a_merged_player_brings_its_matches(
    app: Flask, client: FlaskClient, make_match: MakeMatch
) -> None:
    make_match(sides=PAIRS, hands=[HAND])
    make_match(sides=({"name": "A", "players": ["Anita", "Eva"]}, PAIRS[1]), hands=[HAND])
    ana = player_id(app, "Ana")
    assert matches_played(client.get(f"/jugadores/{ana}").get_data(as_text=True)) == 1
    with app.app_context():
        found = services.queries.players_by_id(EVERYTHING, [ana, player_id(app, "Anita")])
        services.players.merge_players(found[ana], found[player_id(app, "Anita")])
    page = client.get(f"/jugadores/{ana}").get_data(as_text=True)
    assert matches_played(page) == 2
    assert ">Eva</a>" in page


def test_the_figures_are_said_in_the_page_language(
    app: Flask, client: FlaskClient, make_match: MakeMatch
) -> None:
    make_match(sides=PAIRS, hands=[HAND])
    url = f"/jugadores/{player_id(app, 'Ana')}"
    spanish = client.get(url, headers={"Accept-Language": "es"}).get_data(as_text=True)
    english = client.get(url, headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert "Compañeros" in spanish
    assert "Partners" in english
    assert "Compañeros" not in english


def test_a_match_without_a_content_hash_is_read_every_time(
    app: Flask, client: FlaskClient, make_match: MakeMatch
) -> None:
    """A match written outside the app with no content hash cannot be keyed: its figures are
    read (or scored) on every view, so a hand changed in SQL shows at once."""
    match_id = make_match(sides=PAIRS, hands=[HAND])
    url = f"/jugadores/{player_id(app, 'Ana')}"
    assert ">900,0<" in client.get(url).get_data(as_text=True)
    with app.app_context():
        bigger = {**HAND, "sides": [{"clean": 1, "table_points": 500}, HAND["sides"][1]]}
        db.session.execute(sa.update(Hand).where(Hand.match_id == match_id).values(inputs=bigger))
        db.session.execute(sa.update(Match).values(content_hash=None, version=Match.version + 1))
        db.session.commit()
    assert ">1100,0<" in client.get(url).get_data(as_text=True)
    with count_statements(app) as statements:
        client.get(url)
    assert any("side.figures" in statement for statement in statements)


def test_summaries_made_from_a_newer_state_are_kept_under_it(app: Flask, make_match: MakeMatch):
    """A hand saved between the listing of the matches and the reading of their summaries:
    the summary shows it, and is kept under the state it was made from, not the one listed."""
    match_id = make_match(sides=PAIRS, hands=[HAND])
    ana = player_id(app, "Ana")
    with app.test_request_context("/"):
        found = statistics_reads.kept_summaries(EVERYTHING, [ana], all_players=True)
        listed = found.key
    with app.app_context():
        match = services.queries.load_match(match_id)
        assert match is not None
        stock_out = {"end": "stock_out", "sides": [{"table_points": 0}, {"table_points": 0}]}
        assert services.hands.record_hand(match, stock_out, match.version, None).ok
    with app.test_request_context("/"):
        (summary,) = found.found
        assert found.key is not None
        assert listed is not None
        assert found.key != listed
        summaries = caching.caches(app).summaries
        assert summaries.get(found.key[0]) == summary
        assert summaries.get(listed[0]) is None
    assert summary.sides[0].figures.hands == 2


def test_a_groups_matches_show_at_once_on_a_members_page(
    app: Flask, client: FlaskClient, make_match: MakeMatch
) -> None:
    """The page is kept under the member's counter and the group's: a match shared into the
    group, a hand its owner saves, and the member leaving each show on the next view."""
    first, second = make_match(sides=PAIRS, hands=[HAND]), make_match(sides=PAIRS, hands=[HAND])
    create_account(app, "Miembro")
    with app.app_context():
        owner = services.accounts.find_account(OWNER)
        assert owner is not None
        group = services.groups.create_group(owner.id, "Familia")
        member = join_group(group, "Miembro")
        group_id, member_id = group.id, member.id
        db.session.commit()
    share(app, first, group_id)
    phone = signed_in(app, "Miembro")
    url = f"/jugadores/{player_id(app, 'Ana')}"
    assert matches_played(phone.get(url).get_data(as_text=True)) == 1
    assert matches_played(phone.get(url).get_data(as_text=True)) == 1  # kept
    share(app, second, group_id)
    assert matches_played(phone.get(url).get_data(as_text=True)) == 2
    with app.app_context():
        match = services.queries.load_match(second)
        assert match is not None
        stock_out = {"end": "stock_out", "sides": [{"table_points": 0}, {"table_points": 0}]}
        assert services.hands.record_hand(match, stock_out, match.version, None).ok
    assert ">600,0<" in phone.get(url).get_data(as_text=True)  # 1800 over 3 hands
    with app.app_context():
        group = db.session.get(Group, group_id)
        assert group is not None
        assert services.groups.remove_member(group, member_id)
        db.session.commit()
    assert phone.get(url).status_code == 404  # Ana is no longer a player it sees


def share(app: Flask, match_id: int, group_id: int) -> None:
    with app.app_context():
        match = db.session.get(Match, match_id)
        assert match is not None
        assert match.owner_id is not None
        assert services.sharing.set_group(match, match.owner_id, group_id)
        db.session.commit()
