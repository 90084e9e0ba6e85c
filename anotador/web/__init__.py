"""The web layer: the app factory (:mod:`.app`, above every area), one blueprint per area
(:mod:`.views`), and below them the toolkit: its extensions, who may do what (access), the input
parsers, the forms, the templates' helpers, error pages, the LAN address and signed sheet links.
Thin over :mod:`anotador.services` and the rules engine (docs/architecture.md: the layers).
"""
