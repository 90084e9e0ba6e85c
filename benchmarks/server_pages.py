"""The real server's pages as ratios to ``/healthz`` in the same run (issue 14's targets).

gunicorn on loopback (``benchmarks.server``: the production settings, 2 workers of 4 threads)
on a temporary SQLite database (``BENCH_DATABASE_URL`` for PostgreSQL) seeded with a player
who played 100 finished matches, 12 more finished matches whose sheets nobody drew yet and a
40-hand match. Each route is loaded by 4 client threads for a second right after a second
of ``/healthz``, the routes one after the other, in 5 rounds; every ratio is the median over
the rounds of the route's median over the median of the ``/healthz`` second just before it
(a slow phase of this shared machine moves both), with each round's ratio and the target
beside it. The phone is signed
in through the sign-in form, as a person is. The sheet is asked for by the link its match
page gives (signed for this browser, one state of the match) and, without a target, by the
match's own address, which reads access and state like the live poll's 304 beside it (the
least any signed-in request that reads a match row costs). Then 10 cold
PDFs are asked for at once while 2 clients keep asking for ``/healthz``: its p99 (target
under 50 ms) and how the PDFs were answered (200 drawn, 503 "preparing"; never a 500).
"""

from __future__ import annotations

import dataclasses
import html as html_module
import re
import statistics
import threading
from typing import Any

from anotador import services
from benchmarks import server

ROUNDS = 5
SECONDS = 1.0
CLIENTS = 4
STATS_MATCHES = 100
COLD_PDFS = 10
#: (label, target ratio to /healthz; None: shown only)
TARGETS = {
    "404 page": None,
    "home": 5.0,
    "history": 5.0,
    "match page, 40 hands, warm": None,
    "player statistics, 100 matches": 5.0,
    # The sheet by the link the match page gives (signed for this browser, one state).
    "cached PDF": 1.5,
    "PDF 304": 1.5,
    # The sheet by the match's own address (bookmarks, programs): access and state read.
    "cached PDF, the match's address": None,
    "PDF 304, the match's address": None,
    # What any signed-in request that reads one match row costs (the session, the account,
    # the row): the least a sheet's 304 can cost while it checks who asks.
    "live poll 304 (the floor)": None,
}
WON = {
    "end": "closed",
    "closer": 0,
    "sides": [{"clean": 1, "table_points": 900, "hand_points": 0, "adjustment": 5000}, {}],
}


def hand(number: int) -> dict[str, Any]:
    table = 50 + 5 * (number % 7)
    return {
        "end": "stock_out",
        "sides": [
            {"table_points": table, "hand_points": 40},
            {"table_points": 60, "hand_points": 45},
        ],
    }


def document(hands: list[dict[str, Any]], rival: str) -> dict[str, Any]:
    return {
        "format": "anotador-match/1",
        "variant": "uruguaya",
        "layout": "4p",
        "sides": [
            {"name": "Nosotros", "players": ["Ana", "Carla"]},
            {"name": "Ellos", "players": [rival, "Dani"]},
        ],
        "hands": hands,
    }


def seed(app: Any) -> dict[str, Any]:
    user = services.accounts.create_account(server.ACCOUNT, server.PASSWORD)

    def store(hands: list[dict[str, Any]], rival: str) -> int:
        match, problems = services.matches.create_match(document(hands, rival), 0, owner_id=user.id)
        assert match is not None, problems
        return match.id

    finished = [
        store([hand(n) for n in range(8)] + [WON], f"Beto {n % 9}") for n in range(STATS_MATCHES)
    ]
    cold = [store([hand(n) for n in range(12)] + [WON], "Eva") for _ in range(COLD_PDFS + 2)]
    long = store([hand(n) for n in range(40)], "Beto")
    ongoing, _finished = services.queries.home_lists(services.scope.Scope(user.id))
    assert [match.id for match in ongoing.matches] == [long], "the seeded matches are finished"
    ana = services.queries.find_player(services.scope.Scope(user.id), "Ana")
    assert ana is not None
    return {"ana": ana.id, "long": long, "pdf": finished[0], "cold": cold}


def run() -> list[str]:
    with server.LiveServer(seed, workers=2, threads=4) as live:
        seeded = live.seeded
        cookie = live.sign_in()
        pdf = f"/partidas/{seeded['pdf']}/planilla.pdf"
        link = sheet_link(live.port, seeded["pdf"], cookie)
        status, headers, _ = server.request(live.port, "GET", link, headers={"Cookie": cookie})
        etag = headers.get("etag", "")
        poll = f"/partidas/{seeded['pdf']}/version"
        version = server.request(live.port, "GET", poll, headers={"Cookie": cookie})[1]["etag"]
        routes = {
            "404 page": server.getter("/no-such-page", cookie, 404),
            "home": server.getter("/", cookie),
            "history": server.getter("/historial", cookie),
            "match page, 40 hands, warm": server.getter(f"/partidas/{seeded['long']}", cookie),
            "player statistics, 100 matches": server.getter(f"/jugadores/{seeded['ana']}", cookie),
            "cached PDF": server.getter(link, cookie),
            "PDF 304": server.getter(link, cookie, 304, If_None_Match=etag),
            "cached PDF, the match's address": server.getter(pdf, cookie),
            "PDF 304, the match's address": server.getter(pdf, cookie, 304, If_None_Match=etag),
            "live poll 304 (the floor)": server.getter(poll, cookie, 304, If_None_Match=version),
        }
        rounds = measure_rounds(live.port, routes)
        storm = cold_storm(live.port, cookie, seeded["cold"])
    healthz = rounds.healthz()
    lines = [
        f"real server (gunicorn 2 workers x 4 threads, {CLIENTS} clients per route, "
        f"{ROUNDS} rounds of {SECONDS:.0f} s each; PDF first drawn: {status}):",
        f"  /healthz: {healthz.text()}",
        *rounds.target_lines(TARGETS),
    ]
    ratio, spread = rounds.ratio("match page, 40 hands, warm", "404 page")
    lines.append(
        f"  match page vs 404 page: {ratio:.2f}x (rounds {spread}; "
        f"{server.verdict(ratio, 1.5)}; target <= 1.5x)"
    )
    lines.append(storm)
    errors = sum(rounds.figure(name).errors for name in rounds.samples) + rounds.healthz().errors
    lines.append(
        f"  server errors in the run: {errors} ({'ok' if errors == 0 else 'OVER'}; target 0)"
    )
    return lines


def sheet_link(port: int, match_id: int, cookie: str) -> str:
    """The link to the sheet that the match's page gives this browser."""
    status, _, html = server.request(
        port, "GET", f"/partidas/{match_id}", headers={"Cookie": cookie}
    )
    assert status == 200, status
    found = re.search(rb'href="([^"]*/planillas/[^"]*)"', html)
    assert found, "the match page links to its sheet"
    return html_module.unescape(found.group(1).decode())


@dataclasses.dataclass
class Rounds:
    """Each route's samples per round, and those of ``/healthz`` measured just before it."""

    samples: dict[str, list[list[server.Sample]]]
    #: Per route, the ``/healthz`` samples of the second before it, in each round.
    baselines: dict[str, list[list[server.Sample]]]

    def figure(self, name: str) -> server.Figure:
        joined = [sample for round_samples in self.samples[name] for sample in round_samples]
        return server.Figure.of(joined, ROUNDS * SECONDS)

    def healthz(self) -> server.Figure:
        joined = [sample for rounds in self.baselines.values() for one in rounds for sample in one]
        return server.Figure.of(joined, ROUNDS * SECONDS * len(self.baselines))

    def ratio(self, name: str, base: str | None = None) -> tuple[float, str]:
        """The median over the rounds of ``name``'s median over ``base``'s in the same round
        (None: the ``/healthz`` of the second just before: a slow phase of the machine
        moves both), and the rounds' ratios."""
        theirs = self.baselines[name] if base is None else self.samples[base]
        ratios = sorted(
            server.Figure.of(mine, SECONDS).median / server.Figure.of(other, SECONDS).median
            for mine, other in zip(self.samples[name], theirs, strict=True)
        )
        return statistics.median(ratios), "/".join(f"{ratio:.1f}" for ratio in ratios)

    def target_lines(self, targets: dict[str, float | None]) -> list[str]:
        """A line per route of ``targets``: its figure, its ratio to ``/healthz`` with each
        round's, and its verdict against its target (None: shown only)."""
        lines = []
        for name, target in targets.items():
            ratio, spread = self.ratio(name)
            aim = f"{server.verdict(ratio, target)}; target <= {target}x" if target else "no target"
            lines.append(
                f"  {name}: {self.figure(name).text()}; {ratio:.1f}x /healthz "
                f"(rounds {spread}; {aim})"
            )
        return lines


def measure_rounds(port: int, routes: dict[str, server.Client]) -> Rounds:
    """:data:`ROUNDS` rounds of every route, each for :data:`SECONDS` right after as long of
    ``/healthz``."""
    healthz = server.getter("/healthz")
    samples: dict[str, list[list[server.Sample]]] = {name: [] for name in routes}
    baselines: dict[str, list[list[server.Sample]]] = {name: [] for name in routes}
    for _ in range(ROUNDS):
        for name, client in routes.items():
            baselines[name].append(server.load(port, [healthz] * CLIENTS, SECONDS))
            samples[name].append(server.load(port, [client] * CLIENTS, SECONDS))
    return Rounds(samples, baselines)


def cold_storm(port: int, cookie: str, match_ids: list[int]) -> str:
    """10 cold PDFs at once, /healthz asked meanwhile by 2 clients."""
    answers: list[int] = []
    lock = threading.Lock()

    def ask(match_id: int) -> None:
        got = server.request(
            port, "GET", f"/partidas/{match_id}/planilla.pdf", headers={"Cookie": cookie}
        )[0]
        with lock:
            answers.append(got)

    threads = [threading.Thread(target=ask, args=(match_id,)) for match_id in match_ids[:COLD_PDFS]]
    for thread in threads:
        thread.start()
    during = server.measure(port, [server.getter("/healthz")] * 2, 3.0)
    for thread in threads:
        thread.join()
    counts = {status: answers.count(status) for status in sorted(set(answers))}
    return (
        f"  {COLD_PDFS} cold PDFs at once: answered {counts}; /healthz meanwhile {during.text()} "
        f"(p99 {server.verdict(during.p99, 50)}; target < 50 ms)"
    )
