"""Clever bots: ``random``, ``greedy`` (best immediate value by a positional estimate) and ``expert``
(greedy's estimate plus a sampled look-ahead over the rest of the turn's rolls).

The estimate :func:`evaluate` guesses a sheet's final score from its present state and the number of dice the
player can still expect to enter. Its parameters are in :class:`Params` (tuned values in ``docs/clever.md``).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from dicehall.clever import actions as A
from dicehall.clever import sheet as S
from dicehall.clever.state import PH_PASSIVE_ROLL, PH_PICK, PH_PLUS, PH_ROLL, CleverState, Sheet
from dicehall.clever.tables import (
    B_COLS,
    B_POINTS,
    B_ROWS,
    G_BONUS,
    G_POINTS,
    O_BONUS,
    O_MULT,
    P_BONUS,
    Y_COLS,
    Y_DIAGONALS,
    Y_ROWS,
)
from dicehall.core.agents import Agent, RandomAgent, register_bot
from dicehall.core.game import CHANCE, State
from dicehall.core.playout import register_block, register_playout
from dicehall.core.rules import RuleSet
from dicehall.i18n.message import Message

BONUS_VALUE = {
    S.YELLOW_X: 4.0,
    S.BLUE_X: 4.0,
    S.GREEN_X: 4.0,
    S.ORANGE_4: 5.0,
    S.ORANGE_5: 6.0,
    S.ORANGE_6: 7.0,
    S.PURPLE_6: 6.0,
    S.REROLL: 2.5,
    S.PLUS_ONE: 4.0,
    S.FOX: 12.0,
}
# Chance that a roll of k dice still offers a usable die (rough; sets the cost of emptying the roll).
ROLL_FACTOR = (0.0, 0.55, 0.8, 0.9, 0.95, 1.0, 1.0)


@dataclasses.dataclass(frozen=True)
class Params:
    passive_rate: float = 1.2  # dice entered per passive turn (tuned; includes the +1 they bring)
    entries_per_area: float = 0.2  # share of future entries each area gets
    orange_expect: float = 4.5  # value a future orange cell is expected to receive
    purple_expect: float = 4.1
    reroll_value: float = 3.5
    plus_value: float = 8.5
    reroll_gain: float = 3.0  # greedy: what a fresh roll is assumed to be worth
    purple_penalty: tuple[float, ...] = (0.0, 0.0, 0.5, 1.5, 3.0, 5.0, 0.0)
    area_share: tuple[float, ...] = (0.75, 1.25, 1.25, 1.25, 0.85)  # per-area factor on entries_per_area
    bonus_scale: float = 1.25  # weight of bonuses not yet reached
    q_cap: float = 0.9  # highest chance that an open grid cell still gets crossed


DEFAULT = Params()


def future_entries(state: CleverState, p: int, prm: Params = DEFAULT) -> float:
    """How many more dice player ``p`` can expect to enter before the game ends."""
    n = state.n
    per_round = 3.0 + prm.passive_rate * (1 if n == 1 else n - 1)
    rounds_after = state.rounds - state.round
    e = rounds_after * per_round
    ph = state.phase
    active = state.active
    if ph in (PH_ROLL, PH_PICK) and not state.is_terminal():
        if p == active:
            k = state.roll_mask.bit_count()
            e += max(0, 3 - state.rolls) * ROLL_FACTOR[min(k, 6)] if k else 0.0
        elif n > 1 and p < active:
            e += 0.0
        elif n > 1:
            e += 3.0
        # passive chances still to come this round
        if n == 1:
            e += prm.passive_rate
        else:
            e += prm.passive_rate * sum(1 for a in range(active, n) if a != p)
    elif n > 1 and ph != PH_PASSIVE_ROLL:
        if p > active:
            e += 3.0
        e += prm.passive_rate * sum(1 for a in range(active + 1, n) if a != p)
    elif n == 1 and ph == PH_PASSIVE_ROLL:
        e += prm.passive_rate
    return e


def _interp(table: tuple[int, ...], x: float) -> float:
    top = len(table) - 1
    if x >= top:
        return float(table[top])
    i = int(x)
    frac = x - i
    return table[i] + frac * (table[i + 1] - table[i])


_Y_COL_POINTS = tuple(zip(Y_COLS, S.YELLOW_AREA.column_points or (), strict=True))
_Y_GROUPS = tuple((m, b) for m, b in zip(Y_ROWS, S.YELLOW_AREA.row_bonuses, strict=True) if b) + tuple(
    (m, b) for m, (_, b) in zip(Y_DIAGONALS, S.YELLOW_AREA.diagonals, strict=True)
)
_B_GROUPS = tuple(
    (m, b)
    for masks, bonuses in ((B_ROWS, S.BLUE_AREA.row_bonuses), (B_COLS, S.BLUE_AREA.column_bonuses))
    for m, b in zip(masks, bonuses, strict=True)
    if b
)
_TRACK_LEN = len(O_MULT)


def _estimate(sh: Sheet, e: float, prm: Params) -> tuple[list[float], float, float]:
    """(expected final points per area, value of bonuses within reach, expected extra foxes)."""
    base = e * prm.entries_per_area
    share = prm.area_share
    ny, nb, ng, no, np_ = base * share[0], base * share[1], base * share[2], base * share[3], base * share[4]
    bonus = 0.0
    foxes = 0.0
    # yellow: each open cell gets crossed with chance q
    ym = sh.ymask
    open_y = 16 - ym.bit_count()
    q = min(prm.q_cap, ny / open_y) if open_y else 1.0
    yellow = 0.0
    for mask, pts in _Y_COL_POINTS:
        yellow += pts * q ** (mask & ~ym).bit_count()
    for mask, b in _Y_GROUPS:
        missing = (mask & ~ym).bit_count()
        if missing:
            if b == S.FOX:
                foxes += q**missing
            else:
                bonus += BONUS_VALUE[b] * q**missing
    bm = sh.bmask
    crossed_b = bm.bit_count()
    open_b = 11 - crossed_b
    qb = min(prm.q_cap, nb / open_b) if open_b else 1.0
    for mask, b in _B_GROUPS:
        missing = (mask & ~bm).bit_count()
        if missing:
            if b == S.FOX:
                foxes += qb**missing
            else:
                bonus += BONUS_VALUE[b] * qb**missing
    blue = _interp(B_POINTS, crossed_b + nb)
    green = _interp(G_POINTS, sh.gcount + ng)
    # tracks: the k-th next cell is reached with chance reach - k (capped at 1)
    for bonuses, start, reach in (
        (G_BONUS, sh.gcount, ng),
        (O_BONUS, len(sh.ovals), no),
        (P_BONUS, len(sh.pvals), np_),
    ):
        k = 0
        while k < reach and start + k < _TRACK_LEN:
            b = bonuses[start + k]
            if b:
                chance = reach - k if reach - k < 1.0 else 1.0
                if b == S.FOX:
                    foxes += chance
                else:
                    bonus += BONUS_VALUE[b] * chance
            k += 1
    orange = float(sh.osum)
    rest = no
    j = len(sh.ovals)
    while rest > 0 and j < _TRACK_LEN:
        orange += O_MULT[j] * prm.orange_expect * (rest if rest < 1.0 else 1.0)
        rest -= 1
        j += 1
    slots = min(np_, 11 - len(sh.pvals))
    purple = sh.psum + slots * prm.purple_expect
    if slots > 0:
        purple -= prm.purple_penalty[sh.plast] * min(1.0, slots)
    return [yellow, blue, green, orange, purple], bonus * prm.bonus_scale, foxes * prm.bonus_scale


def area_estimates(sh: Sheet, e: float, prm: Params = DEFAULT) -> list[float]:
    """Expected final points of each area given ``e`` future entries."""
    return _estimate(sh, e, prm)[0]


def evaluate(state: CleverState, p: int, prm: Params = DEFAULT) -> float:
    """Estimated final score of player ``p`` (exactly the score once the game is over)."""
    sh = state.sheets[p]
    if state.is_terminal():
        return float(sh.total())
    e = future_entries(state, p, prm)
    est, bonus, more_foxes = _estimate(sh, e, prm)
    fox = min(est)
    horizon = min(1.0, e / 4.0)
    plus_h = horizon
    if state.phase == PH_PLUS and state.actor == p:
        plus_h = max(horizon, 0.25)  # unused +1 can still go on the dice in front of us
    actions = horizon * prm.reroll_value * sh.rerolls + plus_h * prm.plus_value * sh.plus_ones
    return sum(est) + (sh.foxes + more_foxes) * fox + bonus + actions


def _after(state: CleverState, action: int) -> CleverState:
    child = state.clone()
    child.apply_action(action)
    return child


class GreedyAgent(Agent):
    """Best immediate value: the action whose result has the highest :func:`evaluate` for the mover."""

    name = "greedy"

    def __init__(self, rules: RuleSet | None = None, params: Params = DEFAULT) -> None:
        self.params = params

    def score_action(self, state: CleverState, action: int, me: int) -> float:
        if action == A.REROLL:
            return evaluate(state, me, self.params) - self.params.reroll_value + self.params.reroll_gain
        return evaluate(_after(state, action), me, self.params)

    def choose(self, state: State[Any], rng: np.random.Generator) -> Any:
        assert isinstance(state, CleverState)
        me = state.current_player()
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        best = -math.inf
        choice = legal[0]
        for a in legal:
            v = self.score_action(state, a, me)
            if v > best + 1e-9:
                best, choice = v, a
        return choice


class ExpertAgent(GreedyAgent):
    """Greedy's estimate plus look-ahead: each candidate pick (and a re-roll) is scored by sampling the
    following rolls of the turn and playing them greedily; ``samples`` rolls per candidate."""

    name = "expert"

    def __init__(
        self, rules: RuleSet | None = None, params: Params = DEFAULT, samples: int = 32, top: int = 10
    ) -> None:
        super().__init__(rules, params)
        self.samples = samples
        self.top = top

    def choose(self, state: State[Any], rng: np.random.Generator) -> Any:
        assert isinstance(state, CleverState)
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        me = state.current_player()
        if state.phase != PH_PICK or state.choice_pending:
            return super().choose(state, rng)
        scored = sorted(((self.score_action(state, a, me), a) for a in legal if a != A.REROLL), reverse=True)
        candidates = [a for _, a in scored[: self.top]]
        best = -math.inf
        choice = candidates[0] if candidates else legal[0]
        for a in candidates:
            v = self._lookahead(_after(state, a), me, rng)
            if v > best:
                best, choice = v, a
        if A.REROLL in legal:
            child = _after(state, A.REROLL)
            v = self._lookahead(child, me, rng)
            if v > best:
                choice = A.REROLL
        return choice

    def _lookahead(self, state: CleverState, me: int, rng: np.random.Generator) -> float:
        """Average value after greedily finishing this player's part of the turn over sampled rolls."""
        if not self._in_my_turn(state, me):
            return evaluate(state, me, self.params)
        total = 0.0
        for _ in range(self.samples):
            s = state.clone()
            self._finish_turn(s, me, rng)
            total += evaluate(s, me, self.params)
        return total / self.samples

    def _in_my_turn(self, state: CleverState, me: int) -> bool:
        return (
            not state.is_terminal()
            and state.active == me
            and (state.phase in (PH_ROLL, PH_PICK) or state.choice_pending)
        )

    def _finish_turn(self, s: CleverState, me: int, rng: np.random.Generator) -> None:
        greedy = GreedyAgent(None, self.params)
        while self._in_my_turn(s, me):
            if s.current_player() == CHANCE:
                s.apply_action(s.sample_chance(rng))
            else:
                s.apply_action(greedy.choose(s, rng))


@register_bot("clever", "random", Message("bot.clever.random.doc"))
def _random(rules: RuleSet) -> Agent:
    return RandomAgent(rules)


def _random_play_out(
    state: CleverState, agents: Sequence[Agent], chance_rng: np.random.Generator, bot_rng: np.random.Generator
) -> bool:
    """Random bots in every seat: the compiled kernel plays the same game (the same draws) much faster."""
    if True in state.resigned:  # the kernel knows nothing of resigned seats
        return False
    from dicehall.clever.kernel.bridge import finish_random  # Numba: loaded when a random game is played

    finish_random(state, chance_rng, bot_rng)
    return True


register_playout(CleverState, _random_play_out, agent_type=RandomAgent)


def _random_block(job: Any, agents: Sequence[Agent], indices: range) -> Any:
    """Random bots in every seat of a simulation: whole blocks of games in the kernel (the same games)."""
    from dicehall.clever import blocks

    return blocks.play(job, indices)


register_block("clever", _random_block, agent_type=RandomAgent)


@register_bot("clever", "greedy", Message("bot.clever.greedy.doc"))
def _greedy(rules: RuleSet) -> Agent:
    return GreedyAgent(rules)


@register_bot("clever", "expert", Message("bot.clever.expert.doc"))
def _expert(rules: RuleSet) -> Agent:
    return ExpertAgent(rules)


@register_bot("clever", "master", Message("bot.clever.master.doc"))
def _master(rules: RuleSet) -> Agent:
    from dicehall.clever.master import MasterAgent

    return MasterAgent(rules)
