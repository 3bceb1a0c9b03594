"""The ``--lang`` option for every command: define it once here, apply it at the start of a command."""

from __future__ import annotations

import typer

from dicehall.i18n import LANGUAGES, Translator, UnknownLanguageError, detect_language, set_language

LangOpt = typer.Option(
    None,
    "--lang",
    help=f"Language of the messages: {', '.join(LANGUAGES)} (default: from LC_ALL / LC_MESSAGES / LANG, else en).",
    show_default=False,
)


def apply_lang(option: str | None) -> Translator:
    """Choose the process's language from ``--lang`` (an unknown value is a usage error) or the environment."""
    try:
        lang = detect_language(option)
    except UnknownLanguageError as exc:
        raise typer.BadParameter(str(exc), param_hint="--lang") from None
    return set_language(lang)
