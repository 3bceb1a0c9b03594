"""Translations for the terminal, the CLI and (next) the engines' texts: gettext ``.po`` catalogues read at runtime.

Messages are symbolic ids with ``{named}`` parameters (``thousand.refusal.opening`` with ``min=50``); the English
catalogue is the default rendering, so an engine can raise with an id and every front end renders it in its own
language. Plurals follow CLDR through Babel (ru/uk/pl have three forms), numbers are formatted for the locale.

>>> t = translator("ru")
>>> t.plural("unit.points", 21)
'21 очко'
>>> t.plural("unit.points", 25)
'25 очков'
>>> translator("uk").number(1234567)  # grouped with no-break spaces
'1\\xa0234\\xa0567'
"""

from __future__ import annotations

import datetime as dt
import functools
import io
import os
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from typing import TYPE_CHECKING, Any

from dicehall.i18n.message import Message, message_json

if (
    TYPE_CHECKING
):  # Babel is imported when a catalogue is first read, not with the engines that raise messages
    from gettext import GNUTranslations

    from babel.core import Locale
    from babel.messages.catalog import Catalog

__all__ = [
    "BROWSER_PREFIXES",
    "DEFAULT_LANGUAGE",
    "LANGUAGES",
    "Message",
    "Translator",
    "UnknownLanguageError",
    "current",
    "detect_language",
    "load_catalog",
    "localize",
    "message_json",
    "reset_language",
    "set_language",
    "tr",
    "translator",
]

LANGUAGES: tuple[str, ...] = ("en", "ru", "uk", "pl")
DEFAULT_LANGUAGE = "en"
# Ids whose messages the server sends to browsers (refusals, notation and rule-set errors, Dice 1000's narrated
# events, with the words they nest): the browser catalogues carry them with the same wording (tests/i18n checks both ways).
BROWSER_PREFIXES: tuple[str, ...] = (
    "refusal.",
    "correspondence.",  # a correspondence table's refusals and timeouts (web/correspondence.py)
    "narrate.timed_out",
    "notation.",
    "rules.error.",
    "thousand.refusal.",
    "thousand.notation.",
    "thousand.rules_error.",
    "thousand.narrate.",
    "thousand.why.",
    "thousand.move.",  # not sent: the hints' words, said alike by the terminal and the page
    "clever.refusal.",
    "clever.notation.",
    "clever.die",
    "clever.area.",
    "clever.why.",  # a refused die or cell's reason, with the words it nests:
    "clever.ui.die.",
    "clever.ui.area.",
    "clever.bonus.",
    "clever.origin.",
    "wurf.refusal.",
    "wurf.notation.",
    "wurf.rules_error.",
    "names.error.",  # a display name refused (PUT /api/me/name)
    "puzzle.why.",  # a puzzle's reason and refusals (web/puzzles_api.py)
    "puzzle.refusal.",
    "puzzle.clever.why.",  # a Clever puzzle's reason
)
# POSIX order of precedence for the language of messages.
ENV_VARIABLES = ("LC_ALL", "LC_MESSAGES", "LANG")


class UnknownLanguageError(ValueError):
    """A ``--lang`` value that is not one of :data:`LANGUAGES`."""


def _base(tag: str) -> str:
    """``ru_RU.UTF-8`` / ``uk-UA`` / ``pl_PL@euro`` → ``ru`` / ``uk`` / ``pl``; ``C``/``POSIX`` → ``en``."""
    tag = tag.strip().split(".")[0].split("@")[0].replace("-", "_")
    if tag.upper() in ("C", "POSIX"):
        return DEFAULT_LANGUAGE
    return tag.split("_")[0].lower()


def detect_language(option: str | None = None, environ: Mapping[str, str] | None = None) -> str:
    """The language to speak: ``--lang`` if given (an unknown one is an error), else the first of ``LC_ALL``,
    ``LC_MESSAGES``, ``LANG`` that is set, else English. A locale we have no catalogue for means English."""
    if option:
        lang = _base(option)
        if lang not in LANGUAGES:
            raise UnknownLanguageError(f"unknown language {option!r}: use one of {', '.join(LANGUAGES)}")
        return lang
    env = os.environ if environ is None else environ
    for name in ENV_VARIABLES:
        value = env.get(name)
        if value:
            lang = _base(value)
            return lang if lang in LANGUAGES else DEFAULT_LANGUAGE
    return DEFAULT_LANGUAGE


@functools.cache
def load_catalog(lang: str) -> Catalog:
    """The ``.po`` catalogue of ``lang`` as Babel reads it (plural rules from its header, checked against CLDR);
    read once per process (treat it as read-only)."""
    if lang not in LANGUAGES:
        raise UnknownLanguageError(f"unknown language {lang!r}: use one of {', '.join(LANGUAGES)}")
    from babel.messages.pofile import read_po

    text = resources.files(__package__).joinpath("locales", f"{lang}.po").read_bytes()
    return read_po(io.BytesIO(text), locale=lang)


def _params(lang: str, params: Mapping[str, Any]) -> dict[str, Any]:
    # Numbers in the locale's format (1 000 in ru/uk/pl); booleans are not numbers here.
    return {
        k: format_number(v, lang) if isinstance(v, int | float) and not isinstance(v, bool) else v
        for k, v in params.items()
    }


def format_number(value: float, lang: str, places: int | None = None) -> str:
    """``value`` as the locale writes it: grouped with up to three decimals (half to even), or with exactly
    ``places`` decimals and no grouping (half away from zero), as Babel formats them. English is written by
    Python's own formatting, the same text without loading Babel's locale data (a fifth of a short command's
    start; tests/i18n/test_i18n.py compares the two)."""
    import decimal

    # a float as it prints, as Babel reads it
    exact = decimal.Decimal(value if type(value) is int else str(value))
    if lang == DEFAULT_LANGUAGE and exact.is_finite() and abs(exact) < 10**20:
        with decimal.localcontext() as ctx:
            ctx.prec = 48  # room for 20 digits and the decimals
            if places is None:
                text = f"{exact.quantize(decimal.Decimal('0.001'), rounding=decimal.ROUND_HALF_EVEN):,f}"
                return text.rstrip("0").rstrip(".") if "." in text else text
            step = decimal.Decimal(1).scaleb(-places)
            return f"{exact.quantize(step, rounding=decimal.ROUND_HALF_UP):f}"
    from babel.numbers import format_decimal

    if places is None:
        return format_decimal(value, locale=lang)
    with decimal.localcontext() as ctx:
        ctx.rounding = decimal.ROUND_HALF_UP
        return format_decimal(value, format="0." + "0" * places if places > 0 else "0", locale=lang)


@dataclass(frozen=True)
class Translator:
    """Renders message ids in one language (missing ids fall back to English, then to the id itself)."""

    lang: str
    translations: GNUTranslations
    plural_ids: frozenset[str] = frozenset()

    def __call__(self, msgid: str, /, **params: Any) -> str:
        return self.render(msgid, params)

    def render(self, msgid: str, params: Mapping[str, Any]) -> str:
        """``msgid`` with ``params`` (nested :class:`~dicehall.i18n.message.Message` values rendered in this
        language too); an id with plural forms picks its form by the ``n`` parameter. Number parameters are
        formatted for the locale, except in English, which keeps the engines' bare digits (so an English rendering
        is the message's own ``str``)."""
        values = {k: self.message(v) if isinstance(v, str) else v for k, v in params.items()}
        if self.lang != DEFAULT_LANGUAGE:
            values = _params(self.lang, values)
        if msgid in self.plural_ids and "n" in params:
            return self.translations.ngettext(msgid, msgid, int(params["n"])).format(**values)
        return self.translations.gettext(msgid).format(**values)

    def message(self, text: str) -> str:
        """An engine text in this language: a :class:`~dicehall.i18n.message.Message` is rendered from its id,
        any other text is shown as it is."""
        msgid = getattr(text, "msgid", None)
        if msgid is None:
            return text
        return self.render(msgid, getattr(text, "params", {}))

    def plural(self, msgid: str, n: int, /, **params: Any) -> str:
        """A message with plural forms chosen for ``n`` by the language's CLDR rule; ``{n}`` is ``n``."""
        text = self.translations.ngettext(msgid, msgid, n)
        return text.format(**_params(self.lang, {"n": n, **params}))

    def number(self, value: float) -> str:
        return format_number(value, self.lang)

    def fixed(self, value: float, places: int) -> str:
        """``value`` with exactly ``places`` decimals in the locale's way ("0,50" in ru/uk/pl, "0.50" in en); a
        half rounds away from zero (30.25 → "30.3"), as the browser's ``Intl.NumberFormat`` does, so the terminal and
        the page show one figure alike (Babel's default would round it to even)."""
        return format_number(value, self.lang, places)

    def datetime(self, value: dt.datetime, length: str = "medium") -> str:
        """A date and time in the locale's words and order (``length``: short, medium, long)."""
        from babel.dates import format_datetime

        return format_datetime(value, length, locale=self.lang)

    @property
    def locale(self) -> Locale:
        from babel.core import Locale

        return Locale.parse(self.lang)


@functools.cache
def translator(lang: str = DEFAULT_LANGUAGE) -> Translator:
    """The translator for ``lang`` (its catalogue read once per process: :mod:`dicehall.i18n.catalogs`)."""
    from dicehall.i18n import catalogs

    english = catalogs.english()
    translations = english if lang == DEFAULT_LANGUAGE else catalogs.load(lang)
    if lang != DEFAULT_LANGUAGE:
        translations.add_fallback(english)
    return Translator(lang, translations, catalogs.plural_ids(english))


_current: list[str] = []


def set_language(lang: str) -> Translator:
    """Make ``lang`` the language of this process's messages (the CLI calls it once, from ``--lang`` or the
    locale variables); returns its translator."""
    tr = translator(lang)
    _current[:] = [lang]
    return tr


def current() -> Translator:
    """The translator of this process: the one :func:`set_language` chose, else from the locale variables."""
    return translator(_current[0] if _current else detect_language())


def tr(msgid: str, /, **params: Any) -> str:
    """``msgid`` in the process's language (:func:`current`); the terminal views' shorthand."""
    return current().render(msgid, params)


def localize(text: str) -> str:
    """An engine text (a :class:`Message`, or plain text shown as it is) in the process's language."""
    return current().message(text)


def reset_language() -> None:
    """Forget :func:`set_language`'s choice: the locale variables decide again (tests use it between cases)."""
    _current.clear()
