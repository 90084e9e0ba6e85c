"""The web layer: the app factory, its configuration and extensions, who may do what (access),
the input parsers, the forms, the templates' helpers, error pages and one blueprint per area
(:mod:`.views`). Thin over :mod:`anotador.services` and the rules engine.
"""
