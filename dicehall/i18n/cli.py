"""The ``--lang`` option for every command: defined once here and added to each command of the CLI.

:func:`add_lang_option` gives every registered command (games' ``play``/``simulate``/``solve``/``train``/...
included) a ``--lang`` option that is applied before the command runs, so no command has to declare it.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any

import typer

from dicehall.i18n import LANGUAGES, Translator, UnknownLanguageError, current, detect_language, set_language


def _lang_now(value: str | None) -> str | None:
    # eager: the language is set before the other options' checks run, so their errors are said in it too
    apply_lang(value)
    return value


LangOpt = typer.Option(
    None,
    "--lang",
    callback=_lang_now,
    is_eager=True,
    help=f"Language of the messages: {', '.join(LANGUAGES)} (default: from LC_ALL / LC_MESSAGES / LANG, else en).",
    show_default=False,
    metavar="LANG",
)


_root_choice: list[str] = []
"""``dicehall --lang X COMMAND``: the language given before the command (a command's own --lang wins)."""


def start_invocation() -> None:
    """Forget the ``--lang`` given before the command by a previous invocation in this process (the root group
    calls it as each command line is read, so two in-process runs cannot leak a language into each other)."""
    _root_choice.clear()


def _root_lang_now(value: str | None) -> str | None:
    # an eager callback runs for a group that was not given --lang too: that must not forget the root's choice
    if value:
        _root_choice[:] = [value]
    apply_lang(value)
    return value


RootLangOpt = typer.Option(
    None,
    "--lang",
    callback=_root_lang_now,
    is_eager=True,
    help=LangOpt.help,
    show_default=False,
    metavar="LANG",
)


def apply_lang(option: str | None) -> Translator:
    """Choose the process's language from ``--lang`` (an unknown value is a usage error), the ``--lang`` given
    before the command, or the environment."""
    try:
        lang = detect_language(option or (_root_choice[0] if _root_choice else None))
    except UnknownLanguageError:
        tr = current()
        message = tr("cli.error.unknown_language", value=repr(option), choices=", ".join(LANGUAGES))
        raise typer.BadParameter(message, param_hint="--lang") from None
    return set_language(lang)


def with_lang(callback: Callable[..., Any]) -> Callable[..., Any]:
    """``callback`` with a ``--lang`` option that is applied first (a command that has one is left alone)."""
    signature = inspect.signature(callback)
    if "lang" in signature.parameters:
        return callback

    @functools.wraps(callback)
    def run(*args: Any, lang: str | None = None, **kwargs: Any) -> Any:
        apply_lang(lang)
        return callback(*args, **kwargs)

    parameter = inspect.Parameter(
        "lang", inspect.Parameter.KEYWORD_ONLY, default=LangOpt, annotation=str | None
    )
    run.__signature__ = signature.replace(parameters=[*signature.parameters.values(), parameter])  # type: ignore[attr-defined]
    return run


def add_lang_option(app: typer.Typer) -> None:
    """Give every command of ``app`` and of its sub-apps ``--lang`` (idempotent)."""
    for command in app.registered_commands:
        if command.callback is not None:
            command.callback = with_lang(command.callback)
    for group in app.registered_groups:
        if group.typer_instance is not None:
            if group.typer_instance.registered_callback is None:  # `dicehall play --lang pl thousand` too
                group.typer_instance.callback()(_group_lang)
            add_lang_option(group.typer_instance)


def _group_lang(lang: str | None = RootLangOpt) -> None:
    # a group's --lang holds for the command after it, as the root's does (its callback records the choice)
    pass
