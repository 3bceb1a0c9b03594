"""Dice 1000 bots: ``random``, the threshold bots ``cautious`` and ``bold``, the DP ``expert`` and ``practical``
(the rule of three numbers a person can play by).

Every bot only returns legal actions. With ``explain = True`` a bot also leaves a one-line reason for its last
decision in ``last_reason`` (terminal play shows it); simulations leave it off so decisions allocate nothing.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from dicehall.core.agents import Agent, RandomAgent, register_bot
from dicehall.core.game import State
from dicehall.core.playout import register_playout
from dicehall.core.rules import RuleSet
from dicehall.i18n.message import Message as M
from dicehall.thousand import dp, fast
from dicehall.thousand.practical import PRACTICAL, Rule
from dicehall.thousand.rules import ThousandRules
from dicehall.thousand.state import BANK, ROLL, ThousandState, keep_options

_STEP = dp.STEP

# -- reading the engine (through its public accessors) ---------------------------------------------------------


def free_rolls(state: ThousandState) -> int:
    """Counted (not forced) rolls made this turn — what ``max_rolls`` limits."""
    return state.free_rolls


def confirming_keep(state: ThousandState) -> bool:
    """With ``free_set_aside``: the roll being kept from is a confirmation roll."""
    return state.keep_is_confirmation


HORIZON = 2000
"""Turn totals the expert's table looks at: above it every bank is worth the same. One turn reaches 2,000 far
less often than once in 10,000 turns, and without the bound a large target or a score deep below zero (failed
opening penalties) made the table ten times larger and rebuilt at every turn."""


def turn_model(state: ThousandState) -> dp.TurnModel:
    """The expert's view of the turn of the player to move: what may be banked and what points are worth."""
    r = state.rules
    seat = state.player
    score = state.score[seat]
    need = state.min_bank()
    cap = state.max_bank()
    if r.barrel == "score" and state.on_barrel[seat]:
        sat = r.target - score  # the win
    elif r.barrel == "score" and r.barrel_cap:
        sat = r.barrel_score - score  # a bank reaching the barrel is recorded as exactly barrel_score
    else:
        sat = r.target - score
    if cap is not None:
        sat = min(sat, cap)
        if cap > HORIZON:  # far below the target (a large target or a deeply negative score): never reached
            cap = None
    sat = max(min(sat, HORIZON), need, dp.STEP)
    special: tuple[tuple[int, int], ...] = ()
    if r.dump_truck:
        onto = r.dump_truck_score - score
        if 0 < onto < sat and onto >= need:
            special = ((onto, -score),)  # banking onto the dump truck loses the whole score
    zero = 0.0
    counts_bolt = r.bolts_everywhere or (
        state.opened[seat] and r.pit_of(score) is None and not state.on_barrel[seat]
    )
    if r.bolts and counts_bolt:
        zero = -r.bolt_penalty / r.bolts_count  # each bolt's share of the penalty for a full set
    return dp.TurnModel(
        zero=zero,
        need=need,
        sat=sat,
        cap=cap,
        special=special,
        max_rolls=r.max_rolls,
        confirm=r.hot_dice == "confirm",
        reconfirm=r.reconfirm_hot,
        pair_reroll=r.pair_reroll,
        golden=r.golden_win,
        free=r.free_set_aside,
        kinds=r.kinds,
    )


def _best_points_keep(state: ThousandState) -> str:
    """The keep option worth the most points (more dice set aside on ties)."""
    info = state.pending_roll
    assert info is not None
    best, best_key = "", (-1, -1)
    for text, (points, dice) in keep_options(info.combos).items():
        key = (points, len(dice))
        if key > best_key:
            best, best_key = text, key
    return best


class ThousandBot(Agent):
    """Shared plumbing: forced moves, keep choices and the optional explanation."""

    explain = False
    last_reason = ""

    def __init__(self, rules: RuleSet) -> None:
        if not isinstance(rules, ThousandRules):
            raise TypeError("Dice 1000 bots need ThousandRules")
        self.rules = rules

    def choose(self, state: State[Any], rng: np.random.Generator) -> Any:
        assert isinstance(state, ThousandState)
        if state.pending_roll is not None:
            return self.keep(state)
        if state.hot_dice:
            if self.explain:
                self.last_reason = M("thousand.bot.hot_forced")
            return ROLL
        if state.turn_total < state.min_bank():
            if self.explain:
                self.last_reason = state.bank_refusal() or M("thousand.bot.must_roll")
            return ROLL
        m = state.rules.max_rolls
        if m and free_rolls(state) >= m:
            if self.explain:
                self.last_reason = M("thousand.bot.no_rolls_left", max=m)
            return BANK
        return ROLL if self.wants_roll(state) else BANK

    def wants_roll(self, state: ThousandState) -> bool:
        raise NotImplementedError

    def keep(self, state: ThousandState) -> str:
        choice = _best_points_keep(state)
        if self.explain:
            self.last_reason = M("thousand.bot.keeps_most", dice=choice[5:])
        return choice


class ThresholdBot(ThousandBot):
    """Banks once the turn total reaches ``threshold`` (or what is needed, or the cap) or few dice are left."""

    threshold = 300
    few_dice = 1

    def __init__(self, rules: RuleSet) -> None:
        super().__init__(rules)
        self._state: ThousandState | None = None
        self._turn = -1
        self._target = 0
        self._need = 0
        self._max_rolls = 0

    def bank_target(self, state: ThousandState) -> int:
        """The turn total this bot banks at in the current turn."""
        if state.rules.barrel == "score" and state.on_barrel[state.player]:
            return state.min_bank()  # the win: take it
        cap = state.max_bank()
        return max(state.min_bank(), self.threshold if cap is None else min(self.threshold, cap))

    def choose(self, state: State[Any], rng: np.random.Generator) -> Any:
        assert isinstance(state, ThousandState)
        if self.explain or state.pending_roll is not None or state.hot_dice:
            return super().choose(state, rng)
        # the bank target and the minimum only change between turns
        if state is not self._state or state.turns != self._turn:
            self._state, self._turn = state, state.turns
            self._target = self.bank_target(state)
            self._need = state.min_bank()
            self._max_rolls = state.rules.max_rolls
        t = state.turn_total
        if t < self._need:
            return ROLL
        m = self._max_rolls
        if m and state.free_rolls >= m:
            return BANK
        return BANK if t >= self._target or state.in_hand <= self.few_dice else ROLL

    def wants_roll(self, state: ThousandState) -> bool:
        t = state.turn_total
        n = state.in_hand
        target = self.bank_target(state)
        if t >= target:
            if self.explain:
                self.last_reason = M("thousand.bot.banks_target", total=t, target=target)
            return False
        if n <= self.few_dice:
            if self.explain:
                self.last_reason = M("thousand.bot.banks_few", n=n)
            return False
        if self.explain:
            self.last_reason = M("thousand.bot.rolls_below", dice=n, total=t, target=target)
        return True


@register_bot("thousand", "cautious", M("bot.thousand.cautious.doc"))
class CautiousBot(ThresholdBot):
    name = "cautious"
    threshold = 200
    few_dice = 2


@register_bot("thousand", "bold", M("bot.thousand.bold.doc"))
class BoldBot(ThresholdBot):
    name = "bold"
    threshold = 400
    few_dice = 1


@register_bot("thousand", "expert", M("bot.thousand.expert.doc"))
class ExpertBot(ThousandBot):
    """Looks up the DP table of the turn's constraints (see :mod:`dicehall.thousand.dp`)."""

    name = "expert"

    def __init__(self, rules: RuleSet) -> None:
        super().__init__(rules)
        self._tables: dict[tuple[int, int | None, int, bool, bool], dp.Table] = {}
        # the table of the turn in progress: constraints only change between turns
        self._state: ThousandState | None = None
        self._turn = -1
        self._tab: dp.Table | None = None

    def choose(self, state: State[Any], rng: np.random.Generator) -> Any:
        assert isinstance(state, ThousandState)
        if self.explain or state.pending_roll is not None:
            return super().choose(state, rng)
        if state.hot_dice:
            return ROLL
        tab = self._tab
        if state is not self._state or state.turns != self._turn or tab is None:
            self._state, self._turn = state, state.turns
            tab = self._tab = self.table_for(state)
        # Table.decide inlined: below the minimum the table always rolls, out of rolls it always banks.
        ti = state.turn_total // _STEP
        if ti > tab.ti_max:
            ti = tab.ti_max
        rr = tab.rr
        r = 0
        if rr > 1:
            r = state.free_rolls
            if r >= rr:
                r = rr - 1
        return ROLL if tab.roll_ok[(ti * 6 + state.in_hand) * rr + r] else BANK

    def table_for(self, state: ThousandState) -> dp.Table:
        seat = state.player
        # everything turn_model reads that varies during a game
        key = (
            state.min_bank(),
            state.max_bank(),
            state.score[seat],
            state.on_barrel[seat],
            state.opened[seat],
        )
        tab = self._tables.get(key)
        if tab is None:
            tab = self._tables[key] = dp.table(turn_model(state))
        return tab

    def wants_roll(self, state: ThousandState) -> bool:
        tab = self.table_for(state)
        t, n, r = state.turn_total, state.in_hand, free_rolls(state)
        roll = tab.decide(t, n, r)
        if self.explain:
            rv, bv = tab.roll_value(t, n, r), tab.bank_value(t)
            verb = "thousand.bot.rolls_worth" if roll else "thousand.bot.banks_worth"
            self.last_reason = M(verb, dice=n, roll_value=round(rv, 1), total=t, bank_value=round(bv))
        return roll

    def keep(self, state: ThousandState) -> str:
        info = state.pending_roll
        assert info is not None
        tab = self.table_for(state)
        t, n, r = state.turn_total, state.in_hand, free_rolls(state)
        confirm = confirming_keep(state)
        best, best_value = "", float("-inf")
        for text, (points, dice) in keep_options(info.combos).items():
            value = tab.after(t + points, n - len(dice), r, confirm)
            if value > best_value:
                best, best_value = text, value
        if self.explain:
            self.last_reason = M("thousand.bot.keeps_worth", dice=best[5:], value=round(best_value, 1))
        return best


@register_bot("thousand", "practical", M("bot.thousand.practical.doc"))
class PracticalBot(ThousandBot):
    """Plays the practical rule (:mod:`dicehall.thousand.practical`): a bank threshold, "few dice: bank", and
    "close to the barrel, bank only onto it"; it takes the win from the barrel and never banks onto the dump
    truck."""

    name = "practical"

    def __init__(self, rules: RuleSet, rule: Rule = PRACTICAL) -> None:
        super().__init__(rules)
        self.rule = rule

    def wants_roll(self, state: ThousandState) -> bool:
        seat, t, n = state.player, state.turn_total, state.in_hand
        r = state.rules
        me = state.score[seat]
        if r.barrel == "score" and state.on_barrel[seat]:
            if self.explain:
                self.last_reason = M("thousand.bot.practical_wins", total=t)
            return False
        cap = state.max_bank()
        if cap is not None and t >= cap:  # exact-landing rules: more would overshoot
            if self.explain:
                self.last_reason = M("thousand.bot.banks_target", total=t, target=cap)
            return False
        if r.dump_truck and me + t == r.dump_truck_score:
            if self.explain:
                self.last_reason = M("thousand.bot.practical_dump", score=r.dump_truck_score)
            return True
        barrel = r.barrel_score if r.barrel == "score" else None
        roll = self.rule.rolls(t, n, me, barrel)
        if self.explain:
            rule = self.rule
            if barrel is not None and rule.climb <= me and roll:
                self.last_reason = M("thousand.bot.practical_climbs", climb=rule.climb, barrel=barrel)
            elif roll:
                self.last_reason = M(
                    "thousand.bot.practical_rolls", dice=n, total=t, threshold=rule.threshold
                )
            elif n <= rule.few:
                self.last_reason = M("thousand.bot.practical_few", dice=n, few=rule.few)
            else:
                self.last_reason = M("thousand.bot.practical_banks", total=t, threshold=rule.threshold)
        return roll


@register_bot("thousand", "random", M("bot.thousand.random.doc"))
class ThousandRandom(RandomAgent):
    name = "random"

    def __init__(self, rules: RuleSet) -> None:
        super().__init__(rules)

    explain = False

    @property
    def last_reason(self) -> str:
        return M("thousand.bot.random")


register_playout(
    ThousandState, fast.play_out
)  # every Dice 1000 bot game: the batched loop with the shortcuts
