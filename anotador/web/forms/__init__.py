"""The forms (Flask-WTF, CSRF on): they read what was typed; the rules engine judges it."""
