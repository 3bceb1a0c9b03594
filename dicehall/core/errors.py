"""The error hierarchy. Every error a user can cause is a ``ValueError`` subclass.

An error raised with a :class:`~dicehall.i18n.message.Message` (or ``msgid=``/``params=``) carries the message id
and parameters, so a front end can say it in its reader's language (:meth:`DicehallError.localized`, the web's
error payload); ``str(err)`` stays the English text.

>>> issubclass(IllegalActionError, ValueError)
True
>>> err = IllegalActionError(msgid="thousand.refusal.max_rolls", params={"max": 3}, rule="max-rolls")
>>> str(err), err.msgid, err.localized("ru")
('at most 3 rolls per turn: bank now', 'thousand.refusal.max_rolls', 'не больше 3 бросков за ход: запишите очки')
"""

from __future__ import annotations

from typing import Any

from dicehall.i18n.message import Message


class DicehallError(ValueError):
    """Base class of every error caused by bad input (a move, a rule, a record).

    ``msgid``/``params`` are the message id and parameters of the text when it has one (``None``/``{}`` for a
    text that exists only in English).
    """

    msgid: str | None = None
    params: dict[str, Any] = {}  # noqa: RUF012 - replaced per instance; read-only default for a subclass skipping __init__
    text: str = ""

    def __init__(
        self, message: str = "", *, msgid: str | None = None, params: dict[str, Any] | None = None
    ) -> None:
        if msgid is not None:
            message = Message(msgid, **(params or {}))
        super().__init__(message)
        self.text = message
        self.msgid = message.msgid if isinstance(message, Message) else None
        self.params = dict(message.params) if isinstance(message, Message) else {}

    def localized(self, lang: str | None = None) -> str:
        """The error in ``lang`` (default: the process's language, ``dicehall.i18n.current()``)."""
        from dicehall.i18n import current, translator

        return (translator(lang) if lang else current()).message(self.text or str(self))

    def message_json(self) -> dict[str, Any] | None:
        """``{"id", "params"}`` of the error's text, or ``None`` when it exists only in English."""
        return self.text.to_json() if isinstance(self.text, Message) else None


class IllegalActionError(DicehallError):
    """An action that the rules do not allow in this state.

    ``rule`` names the rule that forbids it, so that front ends can show it and records can cite it.
    """

    def __init__(
        self,
        message: str = "",
        *,
        rule: str = "",
        msgid: str | None = None,
        params: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(message, msgid=msgid, params=params)
        self.rule = rule


class NotationError(DicehallError):
    """Text that is not a valid move or dice outcome in the game's notation."""


class RuleConfigError(DicehallError):
    """An unknown rule option, an impossible value, or an unknown preset.

    ``option`` names the rule option the error is about (so that a form can show it next to that field), or is
    ``None`` for a problem with the rule set as a whole (an unknown preset, a TOML file that cannot be read).
    """

    def __init__(
        self,
        message: str = "",
        *,
        option: str | None = None,
        msgid: str | None = None,
        params: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(message, msgid=msgid, params=params)
        self.option = option
        self.problems: list[RuleConfigError] = [self]
        """Each problem of a refusal that names several (``self`` alone for one)."""

    @classmethod
    def every(cls, problems: list[RuleConfigError]) -> RuleConfigError:
        """One refusal naming every problem (the first's option is the one a form points at)."""
        if len(problems) == 1:
            return problems[0]
        text = problems[-1].text
        for p in reversed(problems[:-1]):
            text = Message("rules.error.and", first=p.text, rest=text)
        combined = cls(text, option=problems[0].option)
        combined.problems = list(problems)
        return combined


class RecordError(DicehallError):
    """A game record that is malformed or does not replay.

    ``event`` is the 1-based number of the offending event, or ``None`` for a problem with the record as a whole.
    """

    def __init__(self, message: str, *, event: int | None = None) -> None:
        super().__init__(
            message if event is None else Message("record.error.event", event=event, reason=message)
        )
        self.event = event


class UnknownGameError(DicehallError):
    """A game name that dicehall does not know."""


class PlayerSpecError(DicehallError):
    """A malformed ``--players`` list or an unknown bot name."""
