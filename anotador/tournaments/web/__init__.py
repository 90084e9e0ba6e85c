"""Tournaments on the web: their rows, use cases, the director's screens and the standings
pages, over the pure core of :mod:`anotador.tournaments` (which imports nothing of this)."""
