"""``--help`` in the reader's language: the CLI's help texts translated when the command tree is built.

Typer takes help texts from ``help=`` and docstrings, in English. Before ``dicehall`` builds its click commands,
:func:`help_language` reads the language from the command line (``--lang X`` anywhere in it) or the locale
variables, and :func:`localize_help` replaces every command's and option's help text with its translation from
``locales/help/<lang>.po``. Those catalogues are keyed by the English text itself (gettext's classic
convention), so a command module keeps its help readable in place and any command, whichever branch adds it,
is translated by adding catalogue entries; a text without one stays English. ``tests/i18n/test_cli_help.py``
lists the commands whose help must be complete in every language.

A help text may hold ``{key}`` for a value of this machine (a file's path), filled from :data:`HELP_VALUES` after
translation, so the catalogues keep one entry however the value reads.
"""

from __future__ import annotations

import copy
import functools
import inspect
import io
import sys
from collections.abc import Callable, Sequence
from importlib import resources
from typing import Any

from dicehall.i18n import LANGUAGES, UnknownLanguageError, detect_language

HELP_VALUES: dict[str, Callable[[], str]] = {}
"""``{key}`` in a help text → what fills it when the help is drawn (registered by the module of the option)."""

_ENGLISH = "_dicehall_english_help"  # the original text, kept on each object so a second pass starts from it


@functools.cache
def help_catalog(lang: str) -> dict[str, str]:
    """English help text → its translation in ``lang`` (empty for English)."""
    if lang == "en":
        return {}
    from babel.messages.pofile import read_po

    text = resources.files(__package__).joinpath("locales", "help", f"{lang}.po").read_bytes()
    return {str(m.id): str(m.string) for m in read_po(io.BytesIO(text), locale=lang) if m.id and m.string}


def help_language(argv: Sequence[str]) -> str:
    """The language ``--help`` speaks: ``--lang X`` / ``--lang=X`` in ``argv``, else LC_ALL / LC_MESSAGES / LANG.

    An unknown ``--lang`` is left to the option itself to refuse (the help is English then)."""
    option = None
    for i, arg in enumerate(argv):
        if arg == "--lang" and i + 1 < len(argv):
            option = argv[i + 1]
        elif arg.startswith("--lang="):
            option = arg.split("=", 1)[1]
    try:
        return detect_language(option)
    except UnknownLanguageError:
        return detect_language(None)


# typer's own words on a help page (module globals it reads when it draws the page)
_TYPER_WORDS = (
    "ARGUMENTS_PANEL_TITLE",
    "OPTIONS_PANEL_TITLE",
    "COMMANDS_PANEL_TITLE",
    "DEFAULT_STRING",
    "REQUIRED_LONG_STRING",
    "ERRORS_PANEL_TITLE",
    "RICH_HELP",
)
USAGE = (
    "Usage:"  # the word before a usage line: typer's own copy of click writes it in English, not via gettext
)


def localize_help(command: Any, lang: str) -> None:
    """Put ``command`` (a click command or group as typer builds it) and everything under it into ``lang``."""
    if lang not in LANGUAGES:
        raise UnknownLanguageError(lang)
    words = help_catalog(lang)
    if (
        words or "typer.rich_utils" in sys.modules
    ):  # typer's help module (≈ 0.1 s to import) is English as it loads
        from typer import rich_utils

        for name in _TYPER_WORDS:
            _translate(rich_utils, name, words)
    _localize(command, words)


def english_typer_words() -> None:
    """Put typer's own words (module globals, shared by the whole process) back into English: what an invocation
    changed must not outlive it in-process."""
    rich_utils = sys.modules.get("typer.rich_utils")
    if rich_utils is not None:
        for name in _TYPER_WORDS:
            _translate(rich_utils, name, {})


def _localize(command: Any, words: dict[str, str]) -> None:
    base = command.__dict__.setdefault(_ENGLISH, {}).setdefault("context_class", command.context_class)
    command.context_class = _context_saying(base, words.get(USAGE, USAGE))
    _translate(command, "help", words)
    _translate(command, "short_help", words)
    _translate(command, "epilog", words)
    command.help = reflow(command.help)
    ctx = command.context_class(command)
    helper = command.get_help_option(ctx)  # --help itself ("Show this message and exit.")
    for param in [*getattr(command, "params", ()), *([helper] if helper is not None else [])]:
        _translate(param, "help", words)
        readable_metavar(param)
    if hasattr(command, "list_commands"):
        for name in command.list_commands(ctx):
            sub = command.get_command(ctx, name)
            if sub is not None:
                _localize(sub, words)


def reflow(text: str | None) -> str | None:
    """A docstring's paragraphs as one line each (typer keeps the source's line breaks after the first), so the
    page wraps them at its own width; a paragraph starting with ``\\b`` keeps its lines."""
    if not text:
        return text
    paragraphs = inspect.cleandoc(text).split("\n\n")
    return "\n\n".join(p if p.startswith("\b") else " ".join(p.split("\n")) for p in paragraphs)


_METAVARS = {"--set": "KEY=VALUE", "--players": "SEATS", "--preset": "NAME", "--hints": "auto|on|off"}
"""Options whose value reads better named than typed (the others: by their type, or their own name)."""


def readable_metavar(param: Any) -> None:
    """What ``--help`` shows for an option's value: nothing for a flag, ``N`` for a number, ``FILE`` for a path,
    else the option's own name (``--backend BACKEND``) — never typer's type placeholders (``<bool>``,
    ``<list[str]>``); an argument by its name in capitals (``GAME``, not ``{game}``)."""
    if getattr(param, "is_flag", False) and not getattr(param, "count", False):
        param.metavar = ""
        return
    if param.metavar is not None:
        return
    long = next((o for o in param.opts if o.startswith("--")), None)
    kind = getattr(param.type, "name", "")  # click's type names
    if long in _METAVARS:
        param.metavar = _METAVARS[long]
    elif kind in ("int", "int range", "float", "float range"):
        param.metavar = "N" if kind.startswith("int") else "NUMBER"
    elif kind in ("path", "file", "directory"):
        param.metavar = "FILE"
    else:
        param.metavar = (long or param.name or "value").lstrip("-").replace("-", "_").upper()
    if param.param_type_name == "argument":
        param.type = _untyped(param.type)  # the name says it; no type column
        name = param.metavar + ("..." if param.nargs != 1 else "")
        usage = name if param.required else f"[{name}]"  # the usual GAME / [FILE], not typer's {GAME}
        param.get_usage_pieces = lambda ctx: [usage]


def _untyped(kind: Any) -> Any:
    """This argument's own copy of its click type, naming no type in the help table (typer shows ``<str>``)."""
    untyped = copy.copy(kind)
    untyped.get_metavar = lambda *args, **kwargs: ""
    return untyped


def _translate(obj: Any, attr: str, words: dict[str, str]) -> None:
    originals: dict[str, Any] = obj.__dict__.setdefault(_ENGLISH, {})
    english = originals.setdefault(attr, getattr(obj, attr, None))
    if isinstance(english, str):
        said = words.get(english, english)
        for key, value in HELP_VALUES.items():
            if f"{{{key}}}" in said:
                said = said.replace(f"{{{key}}}", value())
        setattr(obj, attr, said)


@functools.cache
def _context_saying(base: Any, usage: str) -> Any:
    """``base`` (a click context class) whose help formatter starts usage lines with ``usage`` instead of
    "Usage:" (the formatter's ``prefix`` argument, so nothing else about the page changes)."""
    if usage == USAGE:
        return base
    formatter: Any = base.formatter_class

    class Formatter(formatter):  # type: ignore[misc]
        def write_usage(self, prog: str, args: str = "", prefix: str | None = None) -> None:
            super().write_usage(prog, args, f"{usage} " if prefix is None else prefix)

    return type(base.__name__, (base,), {"formatter_class": Formatter})
