"""The browser's message catalogues (web/src/locales/*.json), checked without a browser: every language has
every id with every plural form its CLDR rules need, the same parameters, nothing left in English by accident,
every id used by the code, and a message for every rule option, preset, bot and error code the server has."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path
from typing import Any

import pytest
from babel.core import Locale

from dicehall.clever.puzzles import THEMES as CLEVER_THEMES
from dicehall.core.agents import bots_for
from dicehall.core.game import game_names, get_game
from dicehall.i18n import BROWSER_PREFIXES, load_catalog
from dicehall.thousand.puzzles import THEMES
from dicehall.thousand.solver.strategy import SITUATIONS
from dicehall.web.limits import MESSAGE_IDS as LIMIT_MESSAGE_IDS
from dicehall.web.protocol import ERROR_CODES

WEB = Path(__file__).resolve().parents[2] / "web" / "src"
LANGS = ("en", "ru", "uk", "pl")
PLACEHOLDER = re.compile(r"\{(\w+)\}")
# Messages that are rightly the same as in English in some language: names, notation, the brand.
SAME_AS_ENGLISH = {
    "site.name",
    "game.clever.title",  # the Polish edition keeps the German title
    "seat.bot",  # "Bot ({level})" is Polish too
    "lobby.bot",
    "created.badge_bot",
    "log.move",
    "thousand.event.score",
    "howto.wurf.part.arena",
    "home.clever.length",
    "home.wurf.length",
    "home.thousand.length",
    # Clever's messages made only of parameters and signs
    "clever.ui.die_label",
    "clever.log.entry",
    "clever.over.fox_points",
    "clever.over.tie_entry",
    "clever.die_showing",  # "{die} ({value})"
    "clever.refusal.move_reason",  # "{move}: {reason}"
}


def catalogue(lang: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((WEB / "locales" / f"{lang}.json").read_text(encoding="utf-8"))
    return data


def strings(msg: Any) -> list[str]:
    return list(msg.values()) if isinstance(msg, dict) else [msg]


def games_with_a_view() -> list[str]:
    index = (WEB / "views" / "index.ts").read_text(encoding="utf-8")
    return re.findall(r"^\s*(\w+): \(root, ctx\) =>", index, flags=re.M)


def source_text() -> str:
    return "\n".join(p.read_text(encoding="utf-8") for p in WEB.rglob("*.ts"))


def dynamic_ids() -> set[str]:
    """Ids the code builds from server data: each must exist (the test fails on a missing translation)."""
    ids = {f"game.{g}.title" for g in game_names()}
    # every installed game's presets are named (a table of a game without a board still shows its preset)
    ids |= {f"preset.{g}.{p}" for g in game_names() for p in get_game(g).rules_type.PRESETS}
    ids |= {f"error.{code}" for code in ERROR_CODES}
    # engine messages the server sends as msgid/params (refusals, rule-set errors and the words they nest)
    ids |= {m.id if isinstance(m.id, str) else m.id[0] for m in load_catalog("en") if m.id} & {
        k for k in catalogue("en") if k.startswith(BROWSER_PREFIXES)
    }
    ids |= set(LIMIT_MESSAGE_IDS)  # the quota refusals' msgid
    ids.add("solve.thousand.shipped_note")  # the note_id of hints and analysis from the shipped table
    ids.add("wurf.hint.note")  # the note_id of Der große Wurf's hints (what the map's values are)
    # the puzzle pages' theme names (puzzles-*.ts themeName), their filters the same themes as the puzzles'
    for board, name, themes, prefix in (
        ("puzzles-thousand.ts", "THOUSAND_THEMES", THEMES, "puzzle.theme"),
        ("puzzles-clever.ts", "CLEVER_THEMES", CLEVER_THEMES, "puzzle.clever.theme"),
    ):
        page_themes = re.search(rf"const {name} = \[(.*?)\];", (WEB / board).read_text(encoding="utf-8"))
        assert page_themes and re.findall(r'"([a-z0-9 ]+)"', page_themes.group(1)) == list(themes)
        ids |= {f"{prefix}.{theme.replace(' ', '_')}" for theme in themes}
    # a Clever puzzle's plain moves in words (puzzles-clever.ts choiceWords)
    ids |= {f"puzzle.clever.choice.{kind}" for kind in ("reroll", "forfeit", "pass", "stop")}
    # the strategy page's situations (strategy.ts situationWords), the same as the maps'
    page_situations = re.search(
        r"const SITUATIONS = \[(.*?)\]", (WEB / "strategy.ts").read_text(encoding="utf-8")
    )
    assert page_situations and tuple(re.findall(r'"(\w+)"', page_situations.group(1))) == SITUATIONS
    ids |= {f"strategy.page.situation.{s}" for s in SITUATIONS}
    topics = re.findall(r'\[\s*"(\w+)",\s*(?:\[|rest\])', (WEB / "rulesform.ts").read_text(encoding="utf-8"))
    ids |= {f"rules.group.{t}" for t in topics}
    for name in games_with_a_view():
        game = get_game(name)
        rules = game.rules_type
        for preset in rules.PRESETS:
            ids |= {f"preset.{name}.{preset}", f"preset.{name}.{preset}.doc"}
        for bot in bots_for(name):
            ids |= {f"bot.{bot}", f"bot.{name}.{bot}.doc", f"lobby.bot.{name}.{bot}"}
            if name != "wurf":  # the lobby's fallback when a game's own line is missing
                ids.add(f"bot.{bot}.doc")
        fields = {f.name: f for f in dataclasses.fields(rules)}
        for key, _value, _doc in rules.from_preset(None).describe():
            ids |= {f"rule.{name}.{key}.name", f"rule.{name}.{key}.doc"}
            for choice in fields[key].metadata.get("choices") or ():
                ids.add(f"rule.{name}.{key}.choice.{choice}")
    return ids


def test_the_view_registry_is_found() -> None:
    assert games_with_a_view() == ["thousand", "clever", "wurf"]


@pytest.mark.parametrize("lang", LANGS[1:])
def test_every_language_has_every_id_and_plural_form(lang: str) -> None:
    english, other = catalogue("en"), catalogue(lang)
    assert sorted(set(english) - set(other)) == [], f"{lang} lacks translations"
    assert sorted(set(other) - set(english)) == [], f"{lang} has ids English does not"
    needed = set(Locale.parse(lang).plural_form.tags) | {"other"}
    for key, msg in other.items():
        if isinstance(english[key], dict):
            assert isinstance(msg, dict) and needed <= set(msg), f"{lang}: {key} needs plural forms {needed}"
        for text in strings(msg):
            assert text.strip(), f"{lang}: {key} is empty"
            wanted = {p for s in strings(english[key]) for p in PLACEHOLDER.findall(s)}
            assert set(PLACEHOLDER.findall(text)) <= wanted, f"{lang}: {key} has unknown parameters"


@pytest.mark.parametrize("lang", LANGS[1:])
def test_nothing_is_left_in_english_by_accident(lang: str) -> None:
    english, other = catalogue("en"), catalogue(lang)
    # words, not placeholders: "{first}; {rest}" is the same in every language
    same = {
        k
        for k in english
        if other.get(k) == english[k] and re.search(r"[A-Za-z]{3}", re.sub(r"\{\w+\}", "", str(english[k])))
    }
    assert same <= SAME_AS_ENGLISH, f"{lang}: untranslated {sorted(same - SAME_AS_ENGLISH)}"


def test_english_plurals_have_one_and_other() -> None:
    for key, msg in catalogue("en").items():
        if isinstance(msg, dict):
            assert set(msg) == {"one", "other"}, key


def test_every_id_is_used_and_every_server_name_has_a_message() -> None:
    english = catalogue("en")
    source = source_text()
    dynamic = dynamic_ids()
    missing = sorted(dynamic - set(english))
    assert not missing, f"no message for {missing}"
    unused = sorted(k for k in english if k not in dynamic and f'"{k}"' not in source)
    assert not unused, f"messages no code uses: {unused}"


def test_ids_used_in_the_code_exist() -> None:
    english = catalogue("en")
    used = set(re.findall(r'\bt\("([a-z0-9_.]+)"', source_text()))
    assert used, "the scan found no t() calls"
    assert sorted(used - set(english)) == []
