"""What is kept: the database and its migrations (:mod:`.database`), the configuration that says
where (:mod:`.config`), the typed models, the caches of what is derived from them (keyed on
versions), the signals sent after a commit, and SQLite's write turns.
"""
