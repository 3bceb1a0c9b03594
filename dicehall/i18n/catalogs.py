"""The message catalogues as gettext reads them: each ``.po`` compiled to a ``.mo`` table at install (``make
catalogs``: ``python -m dicehall.i18n.catalogs``), so that a command opens a ready table instead of parsing the
``.po`` (2,500 messages, most of a short command's language set-up).

A ``.mo`` is named after a digest of the ``.po`` it was compiled from (``en.<digest>.mo``) and is used only while
that ``.po`` is unchanged; otherwise (or where it was never built) the ``.po`` is compiled in memory, the same
table, as before.
"""

from __future__ import annotations

import functools
import gettext
import hashlib
import io
from importlib import resources
from pathlib import Path

_LOCALES = Path(str(resources.files(__package__).joinpath("locales")))


def po_bytes(lang: str) -> bytes:
    return (_LOCALES / f"{lang}.po").read_bytes()


def mo_path(lang: str, po: bytes) -> Path:
    return _LOCALES / f"{lang}.{hashlib.sha256(po).hexdigest()[:16]}.mo"


def compile_po(lang: str, po: bytes) -> bytes:
    """The ``.mo`` table of a ``.po`` text, as Babel reads and writes it (plural rules from its header, checked
    against CLDR)."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    buf = io.BytesIO()
    write_mo(buf, read_po(io.BytesIO(po), locale=lang))
    return buf.getvalue()


def load(lang: str) -> gettext.GNUTranslations:
    """The translations of ``lang``: from its compiled table while that matches the ``.po``, else compiled now."""
    po = po_bytes(lang)
    try:
        data = mo_path(lang, po).read_bytes()
    except OSError:
        data = compile_po(lang, po)
    return gettext.GNUTranslations(io.BytesIO(data))


@functools.cache
def english() -> gettext.GNUTranslations:
    """English's translations, read once per process: every translator's fallback and the messages' own English
    (read-only: nothing may add a fallback to it)."""
    return load("en")


def entries(translations: gettext.GNUTranslations) -> dict[str | tuple[str, int], str]:
    """The table itself: an id's text, a plural id's forms keyed by ``(id, form)``, the header under ``""``."""
    catalog: dict[str | tuple[str, int], str] = translations._catalog  # type: ignore[attr-defined]  # stable since Python 2
    return catalog


def plural_ids(translations: gettext.GNUTranslations) -> frozenset[str]:
    """The message ids that have plural forms."""
    return frozenset(key[0] for key in entries(translations) if isinstance(key, tuple))


def build(languages: tuple[str, ...]) -> list[Path]:
    """Compile every language's table next to its ``.po``, removing the tables of older texts; their paths."""
    written = []
    for lang in languages:
        po = po_bytes(lang)
        path = mo_path(lang, po)
        for old in _LOCALES.glob(f"{lang}.*.mo"):
            if old != path:
                old.unlink()
        path.write_bytes(compile_po(lang, po))
        written.append(path)
    return written


if __name__ == "__main__":
    from dicehall.i18n import LANGUAGES

    for written in build(LANGUAGES):
        print(f"compiled {written.name}")
