"""The build steps pyproject.toml cannot declare.

The app's templates, static files and migrations live beside the package in the checkout
(``templates/``, ``static/``, ``migrations/``), where the developers edit them. A wheel must
carry them inside the package, so ``build_py`` copies them to ``anotador/templates``,
``anotador/static`` and ``anotador/migrations`` of the build; ``anotador.storage.config`` finds them
there when the package is installed, and beside it in a checkout.

The translation catalogs are compiled here too (``.po`` to ``.mo``), so a clean checkout holds
no generated file and a built package still speaks Spanish: into the build for a wheel, into
the release tree for an sdist, and in place for an editable install (where ``make`` would
compile them too).
"""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.command.sdist import sdist

HERE = Path(__file__).resolve().parent
#: Folders beside the package that the app needs at run time.
RESOURCES = ("templates", "static", "migrations")
TRANSLATIONS = Path("anotador", "words", "translations")
IGNORED = shutil.ignore_patterns("__pycache__", "*.py[co]", ".*")


def compile_catalogs(translations: Path) -> list[Path]:
    """Write ``messages.mo`` beside every ``messages.po`` under ``translations``.

    Fuzzy entries are left out, as ``pybabel compile`` does. An existing ``.mo`` is unlinked
    first: a release tree holds hard links to the checkout's files, which must not change.
    """
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    written = []
    for po in sorted(translations.glob("*/LC_MESSAGES/*.po")):
        with po.open("rb") as source:
            catalog = read_po(source, locale=po.parent.parent.name)
        mo = po.with_suffix(".mo")
        mo.unlink(missing_ok=True)
        with mo.open("wb") as target:
            write_mo(target, catalog)
        written.append(mo)
    if not written:
        raise SystemExit(f"no translation catalogs under {translations}")
    return written


class BuildPy(build_py):
    """Also copy the run-time folders into the package and compile its catalogs."""

    def run(self) -> None:
        super().run()
        if self.editable_mode:
            # The checkout's own folders are used as they are; only the catalogs are missing.
            compile_catalogs(HERE / TRANSLATIONS)
            return
        package = Path(self.build_lib, "anotador")
        for name in RESOURCES:
            target = package / name
            # A fresh copy: a file deleted from the checkout must not linger in build/.
            shutil.rmtree(target, ignore_errors=True)
            shutil.copytree(HERE / name, target, ignore=IGNORED)
        compile_catalogs(package / "words" / "translations")


class Sdist(sdist):
    """Put compiled catalogs in the release tree, beside their sources."""

    def make_release_tree(self, base_dir: str, files: list[str]) -> None:
        super().make_release_tree(base_dir, files)
        compile_catalogs(Path(base_dir) / TRANSLATIONS)


setup(cmdclass={"build_py": BuildPy, "sdist": Sdist})
