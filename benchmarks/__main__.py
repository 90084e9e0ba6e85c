"""Run every benchmark and print its figures: ``make bench``."""

import importlib
import sys

# Each module has run() -> list[str]; add yours here.
MODULES = [
    "benchmarks.rules",
    "benchmarks.hand_page",
    "benchmarks.hand_save",
    "benchmarks.auth",
    "benchmarks.web",
    "benchmarks.sheets",
    "benchmarks.history",
    "benchmarks.restore",
    "benchmarks.huge_matches",
    "benchmarks.live",
    "benchmarks.offline_cache",
    "benchmarks.offline_engine",
    "benchmarks.club_night",
    "benchmarks.server_pages",
    "benchmarks.slow_clients",
    "benchmarks.tournament_draw",
    "benchmarks.tournament_pages",
    "benchmarks.tournament_board",
    "benchmarks.tournament_printouts",
    "benchmarks.ratings",
]

for name in sys.argv[1:] or MODULES:
    for line in importlib.import_module(name).run():
        print(line, flush=True)
