"""``bot:practical`` (dicehall/thousand/practical.py): legal whole games, its decisions are the rule's, and the
rule's numbers are the ones the docs, the bot's description and the strategy page state."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from dicehall.core.agents import Agent, bots_for, make_bot
from dicehall.core.game import State
from dicehall.thousand.bots import PracticalBot, ThresholdBot
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
            state.apply_action(
                make_bot("thousand", "practical", CLASSIC).choose(state, np.random.default_rng(0))
            )
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


def test_practical_banks_only_onto_the_barrel_near_it_and_avoids_the_dump_truck() -> None:
    climb = PRACTICAL.climb
    # 15 with 3 dice: few dice, bank — but not from the climb's score on, where only the barrel (880) may be banked
    near = after([climb, 0], (1, 5, 2, 3, 6))
    assert (near.turn_total, near.in_hand) == (15, 3) and near.can_bank()
    assert choice(near) == ("roll", f"rolls: from {climb} on, banks only onto the barrel (880)")
    assert choice(after([climb - 5, 0], (1, 5, 2, 3, 6)))[0] == "bank"
    onto = after([climb, 0], (1, 1, 1, 2, 3))  # 100 with 2 dice takes it onto the barrel: bank
    assert choice(onto) == ("bank", f"banks: dice in hand 2 ≤ {PRACTICAL.few}")
    # 50 with 2 dice from 505 would land on 555 (the dump truck drops it to 0): roll; from 500 bank
    assert choice(after([505, 0], (5, 5, 5, 2, 3))) == (
        "roll",
        "rolls: banking now would land on the dump truck (555)",
    )
    assert choice(after([500, 0], (5, 5, 5, 2, 3)))[0] == "bank"


@pytest.mark.parametrize(
    ("total", "dice", "me", "rolls"),
    [
        (95, 4, 0, True),
        (100, 4, 0, False),
        (95, 5, 0, True),
        (5, 3, 0, False),
        (25, 3, 850, True),
        (30, 3, 850, False),
        (25, 3, 845, False),
        (95, 4, 870, True),
    ],
)
def test_the_rule_itself(total: int, dice: int, me: int, rolls: bool) -> None:
    assert Rule(100, 3, 850).rolls(total, dice, me, 880) is rolls
    assert Rule(100, 3, 880).rolls(total, dice, me, 880) is (dice > 3 and total < 100)
    assert Rule(100, 3, 850).rolls(total, dice, me, None) is (dice > 3 and total < 100)  # no barrel


def test_the_numbers_in_the_docs_are_the_rules() -> None:
    """docs/strategy.md states the rule in one bold sentence, the bot's description says it in four languages."""
    docs = (ROOT / "docs" / "strategy.md").read_text()
    m = re.search(
        r"\*\*With (\d) or 5 dice in hand roll on until the turn is worth (\d+); with (\d) or fewer, bank\. "
        r"From (\d+) on, bank only a turn that takes you onto the barrel\.\*\*",
        docs,
    )
    assert m, "the rule's sentence in docs/strategy.md"
    assert [int(x) for x in m.groups()] == [
        PRACTICAL.few + 1,
        PRACTICAL.threshold,
        PRACTICAL.few,
        PRACTICAL.climb,
    ]
    for lang in ("en", "ru", "uk", "pl"):
        po = (ROOT / "dicehall" / "i18n" / "locales" / f"{lang}.po").read_text()
        doc = po.split('msgid "bot.thousand.practical.doc"\nmsgstr "', 1)[1].split('"\n', 1)[0]
        numbers = [int(x) for x in re.findall(r"\d+", doc)]
        assert numbers == [PRACTICAL.few + 1, 5, PRACTICAL.threshold, PRACTICAL.few, PRACTICAL.climb], lang


def test_the_shipped_figures_are_of_this_rule_and_add_up() -> None:
    """dicehall/thousand/data/practical.json: measured for ``PRACTICAL``'s numbers; each row's share and Wilson
    interval follow from its counts, both seats played equally, the rule itself over at least 100,000 games."""
    from dicehall.core.stats import wilson_interval
    from dicehall.thousand.practical import measured

    data = measured()
    assert data["rule"] == PRACTICAL._asdict() and data["against"] == "optimal"
    rows = {row["bot"]: row for row in data["rows"]}
    assert rows["practical"]["games"] >= 100_000
    assert any(bot.startswith("single:") for bot in rows) and "expert" in rows
    for row in data["rows"]:
        assert row["first"]["wins"] + row["second"]["wins"] == row["wins"]
        assert row["first"]["games"] == row["second"]["games"] == row["games"] // 2
        lo, hi = wilson_interval(row["wins"], row["games"])
        assert row["ci95"] == [round(lo, 4), round(hi, 4)] and row["share"] == round(
            row["wins"] / row["games"], 4
        )
        assert f"--bots {row['bot']} " in row["command"] and f"--games {row['games']} " in row["command"]


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_terminal_says_the_rule_and_its_cost(lang: str) -> None:
    from typer.testing import CliRunner

    from dicehall.cli import _register_games, app
    from dicehall.thousand.practical import measured

    _register_games()
    out = CliRunner().invoke(
        app, ["--lang", lang, "strategy", "thousand", "--dice", "4"], env={"COLUMNS": "80"}
    )
    assert out.exit_code == 0, out.output
    lines = out.output.splitlines()
    assert max(len(line) for line in lines) <= 80
    text = " ".join(line.strip() for line in lines)
    said = {
        "en": "With 4 or 5 dice in hand roll on until the turn is worth 100",
        "ru": "С 4 или 5 кубиками в руке",
    }
    assert said[lang] in text and ("555" in text)
    sep = "." if lang == "en" else ","
    for row in measured()["rows"]:
        assert f"{100 * row['wins'] / row['games']:.1f} %".replace(".", sep) in text, row["bot"]


class Watch(Agent):
    """Plays ``bot`` and notes each free roll-or-bank decision off the barrel: (total, dice, me, opponent), rolled."""

    def __init__(self, bot: Agent) -> None:
        self.bot = bot
        self.rows: list[tuple[int, int, int, int]] = []
        self.rolled: list[bool] = []

    def choose(self, state: State[Any], rng: np.random.Generator) -> Any:
        assert isinstance(state, ThousandState)
        action = self.bot.choose(state, rng)
        free = state.pending_roll is None and not state.hot_dice and state.turn_total >= state.min_bank()
        if free and not state.on_barrel[state.player]:
            me, opp = state.score[state.player], state.score[1 - state.player]
            self.rows.append((state.turn_total, state.in_hand, me, opp))
            self.rolled.append(action == ROLL)
        return action


def test_the_fit_scores_the_bots_own_choices() -> None:
    """The fitting script's array copy of the rules (``rolls_single``, ``rolls_practical``) equals the bots'
    choices over every free decision of a few games (their own positions, which the grid scores)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("fit", ROOT / "scripts" / "thousand_practical_fit.py")
    assert spec is not None and spec.loader is not None
    fit = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(fit)

    single = ThresholdBot(CLASSIC)
    single.threshold, single.few_dice = 75, 2
    rule = Rule(100, 3, 850)
    for bot, family, params in [
        (single, fit.rolls_single, {"threshold": 75, "few": 2}),
        (PracticalBot(CLASSIC, rule), fit.rolls_practical, rule._asdict()),
    ]:
        watch = Watch(bot)
        for seed in range(8):
            checked_game(CLASSIC, [watch, make_bot("thousand", "expert", CLASSIC)], seed=900 + seed)
        assert len(watch.rows) > 100
        t, n, me, opp = (np.array(c) for c in zip(*watch.rows, strict=True))
        assert family(t, n, me, opp, **params).tolist() == watch.rolled
