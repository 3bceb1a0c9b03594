"""The words of the terminal commands (``dicehall.core.cli_words``): each language has its own, and no word means
two things in one game in any language (the English words always work too, so they are checked together), the
words that quit, take back and ask for hints included."""

from __future__ import annotations

import itertools
import re

import pytest

from dicehall.core.cli_options import HINT_WORDS
from dicehall.core.cli_words import COMMANDS, command_words
from dicehall.i18n import LANGUAGES, translator
from dicehall.wurf.cli import WURF_HINT_WORDS


def _both(msgid: str, lang: str) -> set[str]:
    return set(translator("en")(msgid).split()) | set(translator(lang)(msgid).split())


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", sorted(COMMANDS))
def test_no_word_means_two_commands(game: str, lang: str) -> None:
    meanings = {command: command_words(game, command, lang) for command in COMMANDS[game]}
    meanings["quit"] = _both("cli.words.quit", lang)
    meanings["undo"] = _both("cli.words.undo", lang)
    meanings["hints"] = set(WURF_HINT_WORDS if game == "wurf" else HINT_WORDS)
    for (a, words_a), (b, words_b) in itertools.combinations(meanings.items(), 2):
        assert not words_a & words_b, f"{game} ({lang}): {sorted(words_a & words_b)} means both {a} and {b}"
    for command, words in meanings.items():
        assert words, f"{game} ({lang}): no word for {command}"
        for word in words:
            assert word == word.lower() and not any(ch.isdigit() for ch in word), (game, lang, word)
            assert not re.fullmatch(r"[a-e][1-5]", word), f"{word} reads as an arena cell"


@pytest.mark.parametrize("lang", [x for x in LANGUAGES if x != "en"])
def test_every_language_has_its_own_words(lang: str) -> None:
    english = translator("en")
    said = translator(lang)
    for game, commands in COMMANDS.items():
        for command in commands:
            msgid = f"{game}.cli.words.{command}"
            assert said(msgid) != msgid and said(msgid).split(), msgid
            if command not in ("stop",):  # 'stop' is the Polish word too
                assert set(said(msgid).split()) - set(english(msgid).split()), f"{msgid}: no {lang} word"
