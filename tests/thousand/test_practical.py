"""``bot:practical`` (dicehall/thousand/practical.py): legal whole games, its decisions are the rule's, and the
rule's numbers are the ones the docs, the bot's description and the strategy page state."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from dicehall.core.agents import bots_for, make_bot
from dicehall.thousand.bots import PracticalBot
from dicehall.thousand.practical import PRACTICAL, Rule
from dicehall.thousand.rules import ThousandRules
from dicehall.thousand.state import BANK, ROLL, ThousandState
from .test_bots import checked_game

ROOT = Path(__file__).resolve().parents[2]
CLASSIC = ThousandRules.from_preset("classic")


def choice(state: ThousandState) -> tuple[str, str]:
    bot = make_bot("thousand", "practical", state.rules)
    assert isinstance(bot, PracticalBot)
    bot.explain = True
    action = bot.choose(state, np.random.default_rng(0))
    return ("roll" if action == ROLL else "bank" if action == BANK else str(action)), str(bot.last_reason)


def after(scores: list[int], *rolls: tuple[int, ...]) -> ThousandState:
    """Seat 0 to move at ``scores`` (both opened), having rolled ``rolls`` (each a roll of the dice in hand)."""
    state = ThousandState.from_position(CLASSIC, scores, opened=[True, True])
    for k, dice in enumerate(rolls):
        if k:
            state.apply_action(ROLL)
        state.apply_action(dice)
        if state.pending_roll is not None:
            state.apply_action(make_bot("thousand", "practical", CLASSIC).choose(state, np.random.default_rng(0)))
    return state


def test_practical_is_registered_and_plays_legal_games_to_the_end() -> None:
    assert "practical" in bots_for("thousand")
    for preset in ("classic", "classic-open", "variant2", "yard"):
        rules = ThousandRules.from_preset(preset)
        for seed in range(6):
            agents = [make_bot("thousand", "practical", rules), make_bot("thousand", "expert", rules)]
            state = checked_game(rules, agents[:: 1 if seed % 2 else -1], seed=500 + seed)
            assert state.winner is not None


def test_practical_decides_by_the_rule() -> None:
    rule = PRACTICAL
    # 10 with 4 dice: below the threshold, roll on
    state = after([300, 300], (1, 2, 3, 6, 6))
    assert (state.turn_total, state.in_hand) == (10, 4) and state.can_bank()
    assert choice(state) == ("roll", f"rolls 4: turn total 10 < {rule.threshold}")
    # a straight (hot dice, 125), then 10 more: 135 with 4 dice reaches the threshold, bank
    state = after([300, 300], (1, 5, 2, 3, 4), (1, 2, 3, 6, 6))
    assert (state.turn_total, state.in_hand) == (135, 4)
    assert choice(state) == ("bank", f"banks: turn total 135 ≥ {rule.threshold}")
    # 15 with 3 dice: few dice, bank whatever the total
    state = after([300, 300], (1, 5, 2, 3, 6))
    assert (state.turn_total, state.in_hand) == (15, 3)
    assert choice(state) == ("bank", f"banks: dice in hand 3 ≤ {rule.few}")


def test_practical_waits_below_the_barrel_and_avoids_the_dump_truck() -> None:
    guard = PRACTICAL.guard
    # 100 with 2 dice from 850 climbs onto the barrel (880): with the opponent just below it, roll on instead
    close = after([850, 880 - guard], (1, 1, 1, 2, 3))
    assert (close.turn_total, close.in_hand) == (100, 2)
    assert choice(close)[0] == "roll" and str(guard) in choice(close)[1]
    far = after([850, 880 - guard - 5], (1, 1, 1, 2, 3))
    assert choice(far)[0] == "bank"
    # 50 with 2 dice from 505 would land on 555 (the dump truck drops it to 0): roll; from 500 bank
    assert choice(after([505, 0], (5, 5, 5, 2, 3))) == ("roll", "rolls: banking now would land on the dump truck (555)")
    assert choice(after([500, 0], (5, 5, 5, 2, 3)))[0] == "bank"


@pytest.mark.parametrize(
    ("total", "dice", "me", "opponent", "rolls"),
    [
        (95, 4, 0, 0, True),
        (100, 4, 0, 0, False),
        (95, 5, 0, 0, True),
        (5, 3, 0, 0, False),
        (200, 2, 850, 900, False),  # the opponent on the barrel: climbing knocks them off
        (30, 2, 850, 830, True),
        (30, 2, 850, 829, False),
    ],
)
def test_the_rule_itself(total: int, dice: int, me: int, opponent: int, rolls: bool) -> None:
    assert Rule(100, 3, 50).rolls(total, dice, me, opponent, 880) is rolls


def test_the_numbers_in_the_docs_are_the_rules() -> None:
    """docs/strategy.md states the rule in one bold sentence, the bot's description says it in four languages."""
    docs = (ROOT / "docs" / "strategy.md").read_text()
    m = re.search(
        r"\*\*With (\d) or 5 dice in hand roll on until the turn is worth (\d+); with (\d) or fewer, bank\. "
        r"Do not climb onto the barrel while your opponent is (\d+) or less below it\.\*\*",
        docs,
    )
    assert m, "the rule's sentence in docs/strategy.md"
    assert [int(x) for x in m.groups()] == [PRACTICAL.few + 1, PRACTICAL.threshold, PRACTICAL.few, PRACTICAL.guard]
    for lang in ("en", "ru", "uk", "pl"):
        po = (ROOT / "dicehall" / "i18n" / "locales" / f"{lang}.po").read_text()
        doc = po.split('msgid "bot.thousand.practical.doc"\nmsgstr "', 1)[1].split('"\n', 1)[0]
        numbers = [int(x) for x in re.findall(r"\d+", doc)]
        assert numbers == [PRACTICAL.few + 1, 5, PRACTICAL.threshold, PRACTICAL.few, PRACTICAL.guard], lang
