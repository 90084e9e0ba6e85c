"""The ``anotador`` command (:mod:`.main`) and serving: the app's commands (matches, accounts, the
demo), ``anotador run`` under waitress, ``anotador serve`` under gunicorn, and the startup banner.
"""
