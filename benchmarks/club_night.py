"""A club night on the real server: 32 phones saving hands at once on SQLite.

gunicorn on loopback (``benchmarks.server``: the production settings), 2 workers of 8 threads
each (16 threads), a temporary SQLite database on disk with 32 matches of 40 hands; 32 client
threads each record hands into its own match as fast as the server answers (the hand form's
CSRF token, a fresh request key and the version it was shown, as a phone posts it). Reports
the answers that were server errors (target: none), the saves per second (target: at least
150 on 2 workers) and the median and spread of one save, beside ``/healthz`` measured by the
same generator just before.
"""

from __future__ import annotations

from typing import Any

from anotador import services
from benchmarks import server

CLIENTS = 32
WORKERS, THREADS = 2, 8
SECONDS = 10.0
HANDS = 40
TARGET_SAVES = 150
#: A hand worth nothing to either side: the matches never end however many are saved.
FORM = {
    "closer": "none",
    "s0_table_points": "50",
    "s0_hand_points": "50",
    "s1_table_points": "50",
    "s1_hand_points": "50",
}


def seed(app: Any) -> list[int]:
    hand = {
        "end": "stock_out",
        "sides": [{"table_points": 50, "hand_points": 50}, {"table_points": 50, "hand_points": 50}],
    }
    user = services.accounts.create_account(server.ACCOUNT, server.PASSWORD)
    ids = []
    for table in range(CLIENTS):
        document = {
            "format": "anotador-match/1",
            "variant": "uruguaya",
            "layout": "4p",
            "sides": [
                {"name": f"Mesa {table}", "players": [f"Ana {table}", f"Carla {table}"]},
                {"name": "Ellos", "players": [f"Beto {table}", f"Dani {table}"]},
            ],
            "hands": [hand] * HANDS,
        }
        match, problems = services.matches.create_match(document, 0, owner_id=user.id)
        assert match is not None, problems
        ids.append(match.id)
    return ids


def run() -> list[str]:
    with server.LiveServer(seed, WORKERS, THREADS, in_memory=False) as live:
        ids = live.seeded
        cookie = live.sign_in()
        healthz = server.measure(live.port, [server.getter("/healthz")] * 4, 3.0)
        savers = [server.hand_saver(live.port, match_id, cookie, FORM) for match_id in ids]
        samples = server.load(live.port, savers, SECONDS)
    saves = server.Figure.of([s for s in samples if s[1] == 302], SECONDS)
    errors = sum(status >= 500 for _, status in samples)
    others = sorted({status for _, status in samples if status not in (302,) and status < 500})
    return [
        f"club night on SQLite (gunicorn {WORKERS} workers x {THREADS} threads, {CLIENTS} "
        f"phones saving hands for {SECONDS:.0f} s, {HANDS}+ hands each):",
        f"  server errors: {errors} of {len(samples)} answers "
        f"({'ok' if errors == 0 else 'OVER'}; target 0)"
        + (f"; other answers: {others}" if others else ""),
        f"  saves: {saves.per_second:.0f}/s ({server.verdict(TARGET_SAVES, saves.per_second)}; "
        f"target >= {TARGET_SAVES}/s); one save {saves.text()}",
        f"  /healthz alone (4 clients): {healthz.text()}; a save under load is "
        f"{saves.median / healthz.median:.1f}x its median",
    ]
