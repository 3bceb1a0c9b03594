"""The error hierarchy. Every error a user can cause is a ``ValueError`` subclass.

>>> issubclass(IllegalActionError, ValueError)
True
"""

from __future__ import annotations


class DicehallError(ValueError):
    """Base class of every error caused by bad input (a move, a rule, a record)."""


class IllegalActionError(DicehallError):
    """An action that the rules do not allow in this state.

    ``rule`` names the rule that forbids it, so that front ends can show it and records can cite it.
    """

    def __init__(self, message: str, *, rule: str = "") -> None:
        super().__init__(message)
        self.rule = rule


class NotationError(DicehallError):
    """Text that is not a valid move or dice outcome in the game's notation."""


class RuleConfigError(DicehallError):
    """An unknown rule option, an impossible value, or an unknown preset.

    ``option`` names the rule option the error is about (so that a form can show it next to that field), or is
    ``None`` for a problem with the rule set as a whole (an unknown preset, a TOML file that cannot be read).
    """

    def __init__(self, message: str, *, option: str | None = None) -> None:
        super().__init__(message)
        self.option = option


class RecordError(DicehallError):
    """A game record that is malformed or does not replay.

    ``event`` is the 1-based number of the offending event, or ``None`` for a problem with the record as a whole.
    """

    def __init__(self, message: str, *, event: int | None = None) -> None:
        super().__init__(message if event is None else f"event {event}: {message}")
        self.event = event


class UnknownGameError(DicehallError):
    """A game name that dicehall does not know."""


class PlayerSpecError(DicehallError):
    """A malformed ``--players`` list or an unknown bot name."""
