from flask import Flask
from markupsafe import Markup

from anotador import rules
from anotador import services
from anotador.storage import caching
from anotador.storage.caching import LRU


def test_the_least_recently_used_entry_goes_first():
    cache: LRU[str] = LRU(2)
    cache.put("a", "1")
    cache.put("b", "2")
    assert cache.get("a") == "1"  # "b" is now the least recently used
    cache.put("c", "3")
    assert (cache.get("a"), cache.get("b"), cache.get("c")) == ("1", None, "3")


def test_a_byte_bound_evicts_old_entries_but_keeps_the_newest():
    cache: LRU[bytes] = LRU(10, max_bytes=10)
    cache.put("a", b"x" * 6)
    cache.put("b", b"y" * 6)
    assert (cache.get("a"), len(cache)) == (None, 1)
    cache.put("big", b"z" * 50)  # alone over the bound, but the newest is always kept
    assert cache.get("big") == b"z" * 50
    assert len(cache) == 1


def test_the_weight_follows_what_is_kept_replaced_and_evicted():
    cache: LRU[str] = LRU(3, max_bytes=100)
    cache.put("a", "x" * 30)
    cache.put("b", "y" * 30)
    cache.put("a", "z" * 10)  # replaced: its old weight goes
    assert cache.weight == 40
    cache.put("c", "w" * 80)  # "b" goes: the least recently used
    assert (cache.get("b"), cache.weight) == (None, 90)
    cache.put("d", "v" * 20)  # then "a"
    assert (cache.get("a"), cache.weight) == (None, 100)
    cache.clear()
    assert (len(cache), cache.weight) == (0, 0)


def test_entries_are_weighed_by_the_caches_own_measure():
    cache: LRU[list[int]] = LRU(100, max_bytes=10, weigh=lambda value: 4 * len(value))
    for n in range(5):
        cache.put(n, [n, n])  # 8 "bytes" each: one at a time fits
    assert (len(cache), cache.weight, cache.get(4)) == (1, 8, [4, 4])


def test_without_a_byte_bound_nothing_is_weighed():
    cache: LRU[object] = LRU(2, weigh=lambda value: 1 // 0)  # never called
    cache.put("a", object())
    assert cache.weight == 0


def test_huge_matches_fill_the_score_and_page_caches_only_up_to_their_bytes(app: Flask, make_match):
    hands = [{"end": "stock_out", "sides": [{}, {}]}] * rules.MAX_HANDS
    with app.app_context():
        kept = caching.caches(app)
        page = Markup("x" * (3 * caching.MB))  # a planilla of 2,000 hands is some 3 MB
        for n in range(40):
            kept.pages.put(("page", n), page)
        assert kept.pages.weight <= caching.PAGES_MAX_BYTES
        match = services.queries.load_match(make_match(hands=hands))
        assert match is not None
        entry = services.matches.score(match)
        scored = kept.scores.get(caching.match_key(match))
        assert scored is not None
        assert caching.score_weight(scored) >= rules.MAX_HANDS * 2 * 1024
        for n in range(40):
            kept.scores.put(("score", n), scored)
        assert kept.scores.weight <= caching.SCORES_MAX_BYTES
        assert len(kept.scores) < 40
        assert entry.game.hands == scored[0].hands
