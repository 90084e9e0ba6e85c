"""The ``anotador`` command (:mod:`.main`) and serving: ``anotador run`` under waitress,
``anotador serve`` under gunicorn, and the startup banner, above the app's factory; below it, the
app's commands it registers (matches, accounts, the demo, the ratings).
"""
