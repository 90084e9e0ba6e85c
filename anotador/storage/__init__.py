"""What is kept: the typed models, the caches of what is derived from them (keyed on versions),
the signals sent after a commit, and SQLite's write turns.
"""
