"""The words: the label of every name the engine uses, the words of each variant's names, the
engine's problems said in the user's language, and the catalogs (``translations/``).
"""

from pathlib import Path

#: The catalogs (``<language>/LC_MESSAGES/messages.po`` and their compiled ``.mo``): in the
#: package, in a checkout and once installed alike.
TRANSLATIONS = Path(__file__).resolve().parent / "translations"
