"""Der große Wurf hints: a map of the arena with what aiming at each point is worth, by ``bot:expert``'s own
evaluation of a throw (:meth:`ExpertBot.candidates`, sampled landings from the fast arena model).

Values are in dice: the dice the throw is expected to win (taken minus thrown) with the expert's estimate of what
the turn then leaves the next player, and −8 for throwing away the last die (``docs/wurf.md``, Hints). Each grid
point is weighed at each of the expert's powers and shows the better one. The expert's own candidates are weighed
the same way, with the same sampled landings (one seed for the whole position), so where the best throw is one of
them it is exactly the throw the bot plays; the grid may find a better one.
"""

from __future__ import annotations

import dataclasses
import hashlib
import math
from collections import OrderedDict
from typing import Any

from dicehall.core.analysis import Hint, Hints
from dicehall.core.errors import DicehallError
from dicehall.i18n import current, tr
from dicehall.i18n.message import Message
from dicehall.wurf.actions import Action, EndTurn, Rearrange, Throw, cell_of
from dicehall.wurf.arena.base import ARENA_MM
from dicehall.wurf.bots import ELIMINATION_COST, ExpertBot
from dicehall.wurf.state import CHOICE, THROW, WurfState

GRID = 10
"""Aim points per side: 20 mm apart, two per cell of the a–e × 1–5 notation grid."""
TIE = 0.005
"""A lattice point must beat the expert's throw by more than this (half the 0.01 dice the hint shows) to be marked
best instead: smaller leads are float noise or a single sampled landing, and would move the mark for nothing."""
KEEP = 64
"""Maps kept per process (asked again for the same position: free)."""


class NoThrowHint(DicehallError):
    """The position has no throw to weigh (the dice are in the air, the game is over)."""


@dataclasses.dataclass(frozen=True)
class ThrowMap:
    """What aiming at each point of a ``grid`` × ``grid`` lattice over the arena is worth to ``seat``."""

    seat: int
    grid: int
    values: tuple[tuple[float, ...], ...]
    """``values[row][col]``: the aim point ((col + 0.5), (row + 0.5)) × ``step`` mm; row 0 is the thrower's edge."""
    powers: tuple[tuple[float, ...], ...]
    """The power each point's value is for (the better of the expert's powers)."""
    best: Throw
    best_value: float
    gather: Rearrange | None
    gather_value: float | None
    """The best of the expert's throws after gathering the dice (when gathering is allowed)."""
    stop_value: float | None
    """Ending the turn (when allowed)."""
    expert: Action
    """The action ``bot:expert`` takes here with this seed."""

    @property
    def step(self) -> float:
        return ARENA_MM / self.grid if self.grid else ARENA_MM

    @property
    def low(self) -> float:
        return min((v for row in self.values for v in row), default=self.best_value)

    def to_json(self) -> dict[str, Any]:
        return {
            "grid": self.grid,
            "step_mm": self.step,
            "arena_mm": ARENA_MM,
            "values": [[round(v, 3) for v in row] for row in self.values],
            "powers": [list(row) for row in self.powers],
            "best": {
                "x": self.best.x,
                "y": self.best.y,
                "power": self.best.power,
                "value": round(self.best_value, 3),
            },
            "low": round(self.low, 3),
        }


def position_seed(state: WurfState) -> int:
    """A seed fixed by the position (the same hint every time it is asked)."""
    arena = tuple((d.face, d.x, d.y, d.yaw) for d in state.arena)
    key = (state.phase, state.current, tuple(state.supply), tuple(state.alive), state.rearranged, arena)
    return int.from_bytes(hashlib.blake2b(repr(key).encode(), digest_size=8).digest(), "big") >> 2


_EXPERT: list[ExpertBot] = []
_MAPS: OrderedDict[tuple[int, int, int], ThrowMap] = OrderedDict()


def _expert() -> ExpertBot:
    if not _EXPERT:
        _EXPERT.append(ExpertBot())
    return _EXPERT[0]


def throw_map(state: WurfState, seed: int | None = None, grid: int = GRID) -> ThrowMap:
    """The map of the seat to throw at ``state`` (a decision node); the same position, seed and grid give the same
    map (kept: asked again, it is not weighed again). ``grid=0`` weighs only the expert's own candidates."""
    if state.phase not in (THROW, CHOICE):
        raise NoThrowHint(Message("analysis.error.not_a_decision", where=Message("analysis.error.chance")))
    seed = position_seed(state) if seed is None else seed
    key = (position_seed(state), seed, grid)
    found = _MAPS.get(key)
    if found is None:
        found = _weigh(state, seed, grid)
        _MAPS[key] = found
        if len(_MAPS) > KEEP:
            _MAPS.popitem(last=False)
    return found


def _weigh(state: WurfState, seed: int, grid: int) -> ThrowMap:
    bot = _expert()
    scored = bot.candidates(state, seed)
    here = [(t, v) for first, t, v in scored if first is None]
    gathered = [v for first, _, v in scored if first is not None]
    gather = next((first for first, _, _ in scored if first is not None), None)
    arena, n = list(state.arena), state.throw_count()
    step = ARENA_MM / grid if grid else ARENA_MM
    values: list[tuple[float, ...]] = []
    powers: list[tuple[float, ...]] = []
    grid_points: list[tuple[Throw, float]] = []
    for row in range(grid):
        vals, pows = [], []
        for col in range(grid):
            x, y = round((col + 0.5) * step, 1), round((row + 0.5) * step, 1)
            weighed = [
                (Throw(x, y, p, 0.5), bot._value(state, arena, n, Throw(x, y, p, 0.5), seed))
                for p in bot.powers
            ]
            t, v = max(weighed, key=lambda tv: tv[1])  # ties: the first (softer) power
            vals.append(v)
            pows.append(t.power)
            grid_points.append((t, v))
        values.append(tuple(vals))
        powers.append(tuple(pows))
    # the expert's own candidates first: where one of them is best, the hint's throw is the bot's
    best, best_value = here[0]
    for t, v in here:
        if v > best_value + 1e-9:  # as the bot compares them
            best, best_value = t, v
    for t, v in grid_points:
        if v > best_value + TIE:
            best, best_value = t, v
    gather_value = max(gathered) if gathered else None
    stop_value = bot.stop_value(state) if state.phase == CHOICE else None
    # the bot's own choice (``ExpertBot.choose`` with this seed): the first candidate of the top value, or the end
    expert: Action | None = None
    top = -math.inf
    for first, t, v in scored:
        if v > top + 1e-9:
            top, expert = v, (first if first is not None else t)
    if stop_value is not None and top <= stop_value:
        expert = EndTurn()
    assert expert is not None
    return ThrowMap(
        state.current,
        grid,
        tuple(values),
        tuple(powers),
        best,
        best_value,
        gather,
        gather_value,
        stop_value,
        expert,
    )


NOTE = Message("wurf.hint.note", cost=int(ELIMINATION_COST))


@dataclasses.dataclass(frozen=True)
class WurfHints(Hints):
    """The hints list (the best throw, gathering first, ending the turn) with the map beside it."""

    map: ThrowMap | None = None

    def to_json(self) -> dict[str, Any]:
        out = super().to_json()
        if self.map is not None:
            out["map"] = self.map.to_json()
        return out


def wurf_hints(state: WurfState, seed: int | None = None) -> WurfHints:
    """The hints of the seat to throw: the best throw on the map, gathering first, ending the turn, best first."""
    # real dice: where the dice lie is not known, so there is no map, only the expert's own throws and the end
    placed = all(d.x is not None and d.y is not None for d in state.arena)
    m = throw_map(state, seed, GRID if placed else 0)
    scored: list[tuple[Action, float]] = [(m.best, m.best_value)]
    if m.gather is not None and m.gather_value is not None and placed:  # real dice are pushed by hand
        scored.append((m.gather, m.gather_value))
    if m.stop_value is not None:
        scored.append((EndTurn(), m.stop_value))
    top = max(v for _, v in scored)
    ranked = sorted(scored, key=lambda av: -av[1])
    options = [
        Hint(state.action_to_string(a), v, 0.0 if top - v < 1e-9 else top - v, i == 0)
        for i, (a, v) in enumerate(ranked)
    ]
    return WurfHints(state.current, "dice", NOTE, options, m if placed else None)


def move_words(state: WurfState, move: str) -> str:
    """A hint's move as an instruction: where to aim (cell and millimetres) and how hard, gather, end the turn."""
    action = state.string_to_action(move)
    if isinstance(action, Throw):
        return tr(
            "wurf.hint.throw",
            cell=cell_of(action.x, action.y),
            x=current().fixed(action.x, 0),
            y=current().fixed(action.y, 0),
            power=current().fixed(action.power, 2),
        )
    if isinstance(action, Rearrange):
        return tr("wurf.hint.gather")
    if isinstance(action, EndTurn):
        return tr("wurf.hint.end")
    return move
