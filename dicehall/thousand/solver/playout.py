"""The fast simulation path of ``bot:optimal`` against itself: whole games in the compiled kernel.

:mod:`dicehall.thousand.solver.bot` registers :func:`play_out` for games of ``bot:optimal`` alone
(:mod:`dicehall.core.playout`); it takes the game when both seats play from the same table. The game goes on in
:mod:`playout_kernel` with the same dice (one ``chance_rng.random()`` per roll, as the engine draws them) and the
same decisions (:mod:`decide`, which the bot reads too); the kernel stops before the winning bank, the position
is written back into the state and the engine applies that bank, so the finished state (scores, statistics, the
last narration) is the engine's. A position the table does not hold goes on through :mod:`dicehall.thousand.fast`
with the bots. ``tests/thousand/test_playout.py`` checks game by game that both
paths reach the same final position from the same seeds.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from dicehall.core.simulate import MAX_STEPS
from dicehall.thousand import fast
from dicehall.thousand.rules import ThousandRules
from dicehall.thousand.solver import playout_kernel as K
from dicehall.thousand.solver.decide import Decisions, decisions_of
from dicehall.thousand.state import BANK, ThousandState
from dicehall.thousand.tables import DECIDING, ROLL_OFF, ROLLING, roll_lists

if TYPE_CHECKING:
    from dicehall.thousand.solver.bot import OptimalBot

_SEAT_LISTS = ("score", "opened", "opening_score", "open_fails", "bolts", "on_barrel", "attempts", "falls")


class GameTables:
    """What the kernel reads besides the game: rule options, pits, the rolls' points and kept dice, the index of
    each player state of the table."""

    def __init__(self, decisions: Decisions) -> None:
        space = decisions.space
        r = space.rules
        R = np.zeros(K.R_SIZE, dtype=np.int64)
        R[K.TARGET] = r.target
        R[K.BARREL] = r.barrel == "score"
        R[K.BARREL_SCORE] = r.barrel_score
        R[K.BARREL_ATTEMPTS] = r.barrel_attempts
        R[K.FALL_PENALTY] = r.barrel_fall_penalty
        R[K.FALLS_TO_ZERO] = r.barrel_falls_to_zero
        R[K.KNOCK_FALL] = r.barrel_knock == "fall"
        R[K.OPEN_MIN] = r.open_min
        R[K.BOLTS_ON] = r.bolts
        R[K.BOLTS_COUNT] = r.bolts_count
        R[K.BOLT_PENALTY] = r.bolt_penalty
        R[K.BOLTS_EVERYWHERE] = r.bolts_everywhere
        R[K.OVERTAKE] = r.overtake_penalty
        R[K.DUMP] = r.dump_truck
        R[K.DUMP_SCORE] = r.dump_truck_score
        R[K.FLOOR] = space.floor
        R[K.FALL_STATES] = len(space.fall_lo) - 1
        R[K.STEP] = 5
        self.R = R
        self.pits = np.array(r.pits, dtype=np.int64).reshape(-1, 2)
        self.rolls = roll_lists(r.kinds)
        self.points = np.zeros((6, 6**5), dtype=np.int64)
        self.kept = np.zeros((6, 6**5), dtype=np.int64)
        for k in range(1, 6):
            for i, (_, info) in enumerate(self.rolls[k]):
                self.points[k, i] = info.points
                self.kept[k, i] = len(info.kept)
        self.sizes = np.array([6**k for k in range(6)], dtype=np.int64)
        states = space.states
        top = max(p.score for p in states)
        shape = (
            (top - space.floor) // 5 + 1,
            2,
            max(p.bolts for p in states) + 1,
            max(p.falls for p in states) + 1,
            max(p.attempts for p in states) + 1,
        )
        self.index = np.full(shape, -1, dtype=np.int64)
        for i, p in enumerate(states):
            self.index[(p.score - space.floor) // 5, int(p.opened), p.bolts, p.falls, p.attempts] = i


def _tables(decisions: Decisions) -> GameTables:
    if decisions.game_tables is None:
        decisions.game_tables = GameTables(decisions)
    found: GameTables = decisions.game_tables
    return found


def shared_table(agents: Sequence[Any]) -> Any:
    """The table every agent plays from, when every seat is a plain ``bot:optimal`` on the same one; else None."""
    from dicehall.thousand.solver.bot import OptimalBot

    if not agents or any(type(a) is not OptimalBot or a.explain for a in agents):
        return None
    table = agents[0].table
    return table if all(a.table is table for a in agents) else None


def play_out(
    state: ThousandState,
    agents: Sequence[OptimalBot],
    chance_rng: np.random.Generator,
    bot_rng: np.random.Generator,
) -> bool:
    """Finish a two-player game of ``bot:optimal`` against itself (same table) in the kernel; False (nothing done)
    where this path does not apply: other bots or seats, or a position mid-way through what it does not model."""
    table = shared_table(agents)
    if (
        table is None
        or state.n != 2
        or not _same_rules(state.rules, table.space.rules)
        or state.phase not in (ROLLING, DECIDING, ROLL_OFF)
        or state._confirm
        or state._limit is not None
        or any(state.skip_next)
        or any(state.out)
        or state.lead_watch is not None  # the kernel does not follow the lead: the engine's own path does
    ):
        return False
    while state.phase == ROLL_OFF:
        state.apply_chance_uniform(chance_rng.random())
    decisions = decisions_of(table)
    game_tables = _tables(decisions)
    g, seat = _to_arrays(state)
    status = K.play(
        g,
        seat,
        game_tables.R,
        game_tables.pits,
        game_tables.points,
        game_tables.kept,
        game_tables.sizes,
        game_tables.index,
        MAX_STEPS,
        chance_rng,
        *decisions.args(),
    )
    if status == K.TOO_LONG:
        raise RuntimeError(f"game did not end within {MAX_STEPS} steps")
    _write_back(g, seat, state, game_tables)
    if status == K.WIN:
        state.apply_action(BANK)
        return True
    return fast.play_out(state, agents, chance_rng, bot_rng)


def _same_rules(a: ThousandRules, b: ThousandRules) -> bool:
    """The same game (who starts and the preset's name aside: the table does not depend on them)."""
    from dicehall.thousand.solver.compact import rules_dict

    return a == b or rules_dict(a) == rules_dict(b)


def _to_arrays(state: ThousandState) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    g = np.zeros(K.G_SIZE, dtype=np.int64)
    g[K.PLAYER] = state.player
    g[K.PHASE] = K.ROLLING if state.phase == ROLLING else K.DECIDING
    g[K.TOTAL] = state.turn_total
    g[K.IN_HAND] = state.in_hand
    g[K.HOT] = state.hot_dice
    g[K.FORCED] = state._forced
    g[K.ROLLS] = state.rolls
    g[K.FREE] = state._free_rolls
    g[K.TURNS] = state.turns
    g[K.TOTAL_ROLLS] = state.total_rolls
    g[K.BOLT_TOTAL] = state._bolt_total
    g[K.FALL_TOTAL] = state._fall_total
    g[K.OVERTAKES] = state._overtakes
    g[K.DUMPS] = state._dumps
    g[K.ANYONE] = state.anyone_banked
    g[K.NEED] = state._need
    g[K.NEED_RULE] = K.NEED_RULES.index(state._need_rule)
    g[K.MOVER] = -2
    seat = np.array([[int(v) for v in getattr(state, name)] for name in _SEAT_LISTS], dtype=np.int64)
    return g, seat


def _write_back(
    g: npt.NDArray[np.int64], seat: npt.NDArray[np.int64], state: ThousandState, game_tables: GameTables
) -> None:
    """The kernel's position (at a decision) into ``state``, as the engine would have left it."""
    if not g[K.NEW_ROLLS]:
        return  # stopped at the decision it began with: nothing moved
    for row, name in enumerate(_SEAT_LISTS):
        values = seat[row].tolist()
        setattr(state, name, [bool(v) for v in values] if name in ("opened", "on_barrel") else values)
    state.player = int(g[K.PLAYER])
    state.phase = DECIDING
    state.turn_total = total = int(g[K.TOTAL])
    state.in_hand = int(g[K.IN_HAND])
    state.hot_dice = hot = bool(g[K.HOT])
    state._forced = False
    state.rolls = int(g[K.ROLLS])
    state._free_rolls = int(g[K.FREE])
    state.turns = int(g[K.TURNS])
    state.total_rolls = int(g[K.TOTAL_ROLLS])
    state._bolt_total = int(g[K.BOLT_TOTAL])
    state._fall_total = int(g[K.FALL_TOTAL])
    state._overtakes = int(g[K.OVERTAKES])
    state._dumps = int(g[K.DUMPS])
    state.anyone_banked = bool(g[K.ANYONE])
    state._need = int(g[K.NEED])
    state._need_rule = K.NEED_RULES[int(g[K.NEED_RULE])]
    rolls = game_tables.rolls
    kept = tuple(d for j in range(int(g[K.NKEPT])) for d in rolls[g[K.KEPT_K + j]][g[K.KEPT_I + j]][1].kept)
    state.set_aside_dice = kept if g[K.CLEARED] else state.set_aside_dice + kept
    dice, info = rolls[g[K.LAST_K]][g[K.LAST_I]]
    state.last_roll = dice
    state.last_combos = info.combos
    state._ev = [("thousand.narrate.hot", {"total": total})] if hot else []
    state.pending_roll = None
