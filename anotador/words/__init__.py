"""The words: the label of every name the engine uses, the words of each variant's names, the
engine's problems said in the user's language, and the catalogs (``translations/``).
"""
