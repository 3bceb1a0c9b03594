"""The words a player may type for each terminal command: the English ones always, and those of the player's
language (``к``/``бросить`` for Dice 1000's roll …). Each game's words live in the catalogues as
``<game>.cli.words.<command>`` (space-separated); no word means two commands of one game in any language
(``tests/core/test_cli_words.py``), quitting and taking back included."""

from __future__ import annotations

from dicehall.i18n import tr, translator

COMMANDS = {
    "thousand": ("roll", "bank", "board", "help"),
    "clever": ("board", "view", "reroll", "stop", "pass", "help"),
    "wurf": ("throw", "end", "gather", "board", "help"),
}
"""Each game's commands that have words (besides the moves' notation, the quit and undo words and the hints)."""


def command_words(game: str, command: str, lang: str | None = None) -> set[str]:
    """What a player may type for ``command`` of ``game``: the English words and those of ``lang`` (default: the
    language in use)."""
    msgid = {  # written out, so the catalogue check sees each game's ids used
        "thousand": f"thousand.cli.words.{command}",
        "clever": f"clever.cli.words.{command}",
        "wurf": f"wurf.cli.words.{command}",
    }[game]
    said = translator(lang)(msgid) if lang else tr(msgid)
    return set(translator("en")(msgid).split()) | set(said.split())


def is_command(game: str, command: str, text: str) -> bool:
    """Whether ``text`` (as typed) is one of ``command``'s words."""
    return text.strip().lower() in command_words(game, command)
