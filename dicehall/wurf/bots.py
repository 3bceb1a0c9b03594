"""Wurf bots: ``random``, ``cautious`` and ``expert`` (Monte Carlo over the fast arena model)."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from typing import Any

import numpy as np

from dicehall.core.agents import Agent, RandomAgent, register_bot
from dicehall.core.game import State
from dicehall.core.rules import RuleSet
from dicehall.i18n.message import Message
from dicehall.wurf.actions import Action, EndTurn, Rearrange, Throw
from dicehall.wurf.arena.base import ARENA_MM, DieRest, ThrowParams, X
from dicehall.wurf.arena.fast import FastArena
from dicehall.wurf.layout import centroid
from dicehall.wurf.state import CHOICE, WurfState

ELIMINATION_COST = 8.0
AIM_SOUTH_MM = 18.0
"""Aiming a little short of the dice lets the thrown die roll into them instead of landing on top."""


def _distinct(arena: Sequence[DieRest]) -> int:
    return len({d.face for d in arena})


def default_throw(state: WurfState, power: float = 0.45) -> Throw:
    pts = [(d.x, d.y) for d in state.arena if d.x is not None and d.y is not None]
    cx, cy = centroid(pts)
    return Throw(round(cx, 1), round(max(5.0, cy - AIM_SOUTH_MM), 1), power, 0.5)


@register_bot("wurf", "random", Message("bot.wurf.random.doc"))
def _random(rules: RuleSet) -> Agent:
    return RandomAgent(rules)


def resolve(arena_faces: Sequence[int | None]) -> tuple[int, int]:
    """(dice taken, dice left in the arena) for the faces after a throw (``None`` = left the arena)."""
    faces = [f for f in arena_faces if f is not None and f != X]
    counts = Counter(faces)
    taken = sum(c for c in counts.values() if c >= 2)
    return taken, len(faces) - taken


@register_bot("wurf", "cautious", Message("bot.wurf.cautious.doc"))
class CautiousBot(Agent):
    """Throws at the dice with moderate power; continues only when the thrown die alone matches with ≥ 2/3
    chance (4 or 5 different numbers in the arena), and never risks its last die on less than 5/6."""

    name = "cautious"

    def __init__(self, rules: RuleSet | None = None) -> None:
        self.rules = rules

    def choose(self, state: State[Any], rng: np.random.Generator) -> Action:
        assert isinstance(state, WurfState)
        if state.phase == CHOICE:
            k = _distinct(state.arena)
            need = 5 if state.supply[state.current] == 1 else 4
            if k < need:
                return EndTurn()
        return default_throw(state)


@register_bot("wurf", "expert", Message("bot.wurf.expert.doc"))
class ExpertBot(Agent):
    """Scores each candidate (gather first or not, a few aim points, powers) by sampling throw outcomes from the
    fast arena model: the expected change of its own supply, minus the chance that the next player finds a
    repeated number easy to make, with elimination costly. It ends the turn when no throw is worth more."""

    name = "expert"
    samples = 16
    powers = (0.3, 0.7)

    def __init__(self, rules: RuleSet | None = None) -> None:
        self.rules = rules
        self.model = FastArena.default()
        self._big: dict[int, float] = {}

    def _aims(self, arena: Sequence[DieRest]) -> list[tuple[float, float]]:
        pts = [(d.x, d.y) for d in arena if d.x is not None and d.y is not None]
        if not pts:
            return [(ARENA_MM / 2, ARENA_MM / 2)]
        cx, cy = centroid(pts)
        aims = [(cx, max(5.0, cy - AIM_SOUTH_MM)), (cx, cy)]
        # The most crowded die: hitting it disturbs the most dice.
        best = max(pts, key=lambda p: sum((p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2 < 900 for q in pts))
        aims.append((best[0], max(5.0, best[1] - AIM_SOUTH_MM)))
        return aims

    def _leave_value(self, state: WurfState, faces: Sequence[int], my_supply: int) -> float:
        """What leaving ``faces`` in the arena at the end of our turn is worth to us (opponents' prospects)."""
        me = state.current
        opp = [s for i, s in enumerate(state.supply) if i != me and state.alive[i]]
        if not opp:
            return 0.0
        # The next player's dice count relative to ours; in bigger games one opponent's loss matters less.
        w = 1.0 / len(opp)
        nxt = opp[0]
        if not faces:
            return w * self.big_loss(nxt)
        k = len(set(faces))
        value = -w * (k / 6 * 2.0 - 1.0)
        if k == 1:
            # If the next player matches the lone die, we may face the big throw.
            value -= (1 / 6) * self.big_loss(my_supply) * 0.5
        return value

    def big_loss(self, n: int) -> float:
        """Expected dice lost by a big throw of ``n`` dice under the fast model (computed once per count)."""
        if n <= 0:
            return 0.0
        if n not in self._big:
            rng = np.random.default_rng(n)
            plan = self.model.plan((), n, ThrowParams(100.0, 100.0, 0.4, 0.5))
            lost = 0
            for _ in range(300):
                kept = [f for f in self.model.sample_faces(plan, n, rng) if f > X]
                counts = Counter(kept)
                lost += n - sum(c for c in counts.values() if c >= 2)
            self._big[n] = lost / 300
        return self._big[n]

    def _value(self, state: WurfState, arena: Sequence[DieRest], n_thrown: int, t: Throw, seed: int) -> float:
        me = state.current
        supply = state.supply[me]
        rng = np.random.default_rng(seed)
        plan = self.model.plan(tuple(arena), n_thrown, ThrowParams(t.x, t.y, t.power, t.spin))
        total = 0.0
        for _ in range(self.samples):
            faces = self.model.sample_faces(plan, n_thrown, rng)
            kept = [f for f in faces if f > X]
            counts = Counter(kept)
            taken = sum(c for c in counts.values() if c >= 2)
            rest = [f for f in kept if counts[f] == 1]
            after = supply - n_thrown + taken
            v = float(taken - n_thrown)
            if after == 0:
                v -= ELIMINATION_COST
            elif taken == 0:
                # The turn may go on: the better of stopping here and (roughly) one more throw.
                stop = self._leave_value(state, rest, after)
                go_on = (min(len(rest), 5) / 6) * 2.0 - 1.0 + 0.5 * stop if after > 1 else -math.inf
                v += max(stop, go_on)
            else:
                v += self._leave_value(state, rest, after)
            total += v
        return total / self.samples

    def layouts(self, state: WurfState) -> list[tuple[Rearrange | None, list[DieRest]]]:
        """The arenas the next throw may go into: as it lies, and gathered first (where gathering is allowed)."""
        layouts: list[tuple[Rearrange | None, list[DieRest]]] = [(None, list(state.arena))]
        if not state.rearranged and len(state.arena) >= 2:
            gather = state.gather_action()
            if gather is not None:
                layouts.append((gather, _rearranged(state.arena, gather)))
        return layouts

    def candidates(self, state: WurfState, seed: int) -> list[tuple[Rearrange | None, Throw, float]]:
        """Every candidate (gather first or not, the throw) with its value, in the order the bot weighs them;
        ``seed`` gives every candidate the same sampled outcomes (common random numbers)."""
        n_thrown = state.throw_count()
        out: list[tuple[Rearrange | None, Throw, float]] = []
        for first, arena in self.layouts(state):
            for ax, ay in self._aims(arena):
                for p in self.powers:
                    t = Throw(round(ax, 1), round(ay, 1), p, 0.5)
                    out.append((first, t, self._value(state, arena, n_thrown, t, seed)))
        return out

    def stop_value(self, state: WurfState) -> float:
        """What ending the turn now is worth (the bot ends it when no throw is worth more)."""
        return self._leave_value(state, [d.face for d in state.arena], state.supply[state.current])

    def choose(self, state: State[Any], rng: np.random.Generator) -> Action:
        assert isinstance(state, WurfState)
        seed = int(rng.integers(1 << 62))  # common random numbers for every candidate
        best_action: Action | None = None
        best_value = -math.inf
        for first, t, v in self.candidates(state, seed):
            if v > best_value + 1e-9:
                best_value, best_action = v, (first if first is not None else t)
        if state.phase == CHOICE and best_value <= self.stop_value(state):
            return EndTurn()
        assert best_action is not None
        return best_action


def _rearranged(arena: Sequence[DieRest], r: Rearrange) -> list[DieRest]:
    new = list(arena)
    for i, x, y in r.moves:
        new[i] = DieRest(new[i].face, x, y, 0.0)
    return new
