from anotador.cache import LRU


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
