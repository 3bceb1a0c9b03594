"""typer's own parse errors ("No such option: --x", "Invalid value for '--games': ...") in the reader's language.

typer's copy of click writes these in English and not through gettext, but each error is an exception of a known
kind holding its parts (the option's name, the parameter, the value its type refused), so
:func:`localized_usage_error` words it again from our catalogues (``cli.usage.*``). The few errors click raises
with nothing but text (``ctx.fail``: no such command, missing command, extra arguments) are matched against
click's fixed wording; ``tests/i18n/test_cli_usage_errors.py`` makes every kind fail loudly should a typer
upgrade change it. An error of a kind not listed here keeps its English text.

:class:`DicehallGroup` is the root command's class: each invocation starts from the language of its own command
line (``--lang`` anywhere in it, else the locale), with its help texts in that language, and re-words any usage
error raised while the line is read or the command runs.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from typer import _click
from typer._click.exceptions import (
    BadArgumentUsage,
    BadOptionUsage,
    BadParameter,
    MissingParameter,
    NoArgsIsHelpError,
    NoSuchOption,
    UsageError,
)
from typer.core import TyperGroup

from dicehall.i18n import Translator

# click's refusal of a value by its type ("'x' is not a valid integer.") → our reason's id
_NOT_VALID = re.compile(r"(?P<value>'.*') is not a valid (?P<kind>int|float|boolean)\b", re.S)
_REASONS = {
    "int": "cli.usage.not_integer",
    "float": "cli.usage.not_number",
    "boolean": "cli.usage.not_boolean",
}
_NO_SUCH_COMMAND = re.compile(
    r"No such command (?P<name>'.*?'|\".*?\")\.(?: Did you mean (?P<maybe>.+)\?)?$", re.S
)
_EXTRA = re.compile(r"Got unexpected extra argument(?:\(s\)|s)? \((?P<args>.*)\)$", re.S)
_MISSING_COMMAND = "Missing command."


def _hint(param_hint: Sequence[str] | str | None) -> str | None:
    if param_hint is not None and not isinstance(param_hint, str):
        return " / ".join(repr(x) for x in param_hint)
    return param_hint


def _param_hint(exc: BadParameter) -> str | None:
    if exc.param_hint is not None:
        return _hint(exc.param_hint)
    if exc.param is None or exc.ctx is None:
        return None
    return _hint(exc.param.get_error_hint(exc.ctx))


def _reason(exc: BadParameter, tr: Translator) -> str:
    """Why the value was refused: click's refusal of a number or a yes/no worded by its kind, else the text as it
    came (our own option callbacks raise their reasons already in the reader's language)."""
    found = _NOT_VALID.match(str(exc.message))
    if found:
        return tr(_REASONS[found["kind"]], value=found["value"])
    return str(exc.message)


def localized_usage_text(exc: UsageError, tr: Translator) -> str | None:
    """The error's message (what the error panel shows) in ``tr``'s language, or None for a kind we do not know."""
    if isinstance(exc, MissingParameter):
        hint = _param_hint(exc)
        kind = exc.param_type or (exc.param.param_type_name if exc.param is not None else "parameter")
        msgid = {"argument": "cli.usage.missing_argument", "option": "cli.usage.missing_option"}
        return tr(msgid.get(kind, "cli.usage.missing_parameter"), name=hint or "")
    if isinstance(exc, BadParameter):
        hint = _param_hint(exc)
        reason = _reason(exc, tr)
        if hint is None:
            return tr("cli.usage.invalid_value", reason=reason)
        return tr("cli.usage.invalid_value_for", param=hint, reason=reason)
    if isinstance(exc, NoSuchOption):
        said = tr("cli.usage.no_such_option", option=exc.option_name)
        if exc.possibilities:
            said += " " + tr("cli.usage.possible_options", options=", ".join(sorted(exc.possibilities)))
        return said
    if isinstance(exc, BadOptionUsage):
        if "does not take a value" in exc.message:
            return tr("cli.usage.option_takes_no_value", option=repr(exc.option_name))
        wanted = re.search(r"requires (\d+) arguments", exc.message)
        return tr.plural(
            "cli.usage.option_requires", int(wanted.group(1)) if wanted else 1, option=repr(exc.option_name)
        )
    if isinstance(exc, BadArgumentUsage):
        found = re.match(r"Argument (?P<name>.+) takes (?P<n>\d+) values\.$", exc.message)
        if found:
            return tr.plural("cli.usage.argument_takes", int(found["n"]), argument=found["name"])
        return None
    message = str(exc.message)
    if message == _MISSING_COMMAND:
        return tr("cli.usage.missing_command")
    if found := _NO_SUCH_COMMAND.match(message):
        said = tr("cli.usage.no_such_command", name=found["name"])
        if found["maybe"]:
            said += " " + tr("cli.usage.did_you_mean", names=found["maybe"])
        return said
    if found := _EXTRA.match(message):
        extra = found["args"]
        return tr.plural("cli.usage.extra_arguments", max(1, len(extra.split())), args=extra)
    return None


def localize_usage_error(exc: UsageError, tr: Translator) -> None:
    """Word ``exc`` in ``tr``'s language in place (its kind, context and exit code unchanged)."""
    if isinstance(exc, NoArgsIsHelpError) or getattr(exc, "_dicehall_localized", False):
        return
    text = localized_usage_text(exc, tr)
    if text is None:
        return
    exc.message = text
    exc.format_message = lambda: text  # type: ignore[method-assign]
    exc._dicehall_localized = True  # type: ignore[attr-defined]


class DicehallGroup(TyperGroup):
    """The root ``dicehall`` group: per invocation, the language of its command line, help texts in it, usage
    errors worded in it."""

    def make_context(
        self, info_name: str | None, args: list[str], parent: _click.Context | None = None, **extra: Any
    ) -> _click.Context:
        from dicehall.i18n import translator
        from dicehall.i18n.cli import start_invocation
        from dicehall.i18n.helptext import help_language, localize_help

        lang = help_language(args)
        start_invocation()  # nothing of a previous invocation in this process (the root --lang) carries over
        localize_help(self, lang)
        self._dicehall_tr: Translator = translator(lang)
        try:
            return super().make_context(info_name, args, parent, **extra)
        except UsageError as exc:
            localize_usage_error(exc, self._dicehall_tr)
            raise

    def main(self, *args: Any, **kwargs: Any) -> Any:
        from dicehall.i18n.helptext import english_typer_words

        try:
            return super().main(*args, **kwargs)
        finally:
            english_typer_words()  # typer's panel words are the process's: the next run starts from English

    def invoke(self, ctx: _click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except UsageError as exc:
            localize_usage_error(exc, self._dicehall_tr)
            raise
