"""``bot:optimal``: plays from the solved two-player table (exactly, for two players).

The table: the one solved on this machine (``dicehall solve thousand``, cached), else for classic the compact one
shipped in the package (values within ±7.6e-6 of the exact ones; 99.97 % of the decisions met in play are the
exact table's, the others near-ties: docs/thousand-solved.md), else small rule sets are solved on first use.

For three or more players it uses an approximation built on the two-player values: it plays as if the only
opponent were the one with the highest score (ties: the one who moves next), ignoring what its banks do to
the others. Its strength there is measured separately (docs/thousand-solved.md).
"""

from __future__ import annotations

from typing import Any, Generic, TypeVar

import numpy as np

from dicehall.core.agents import register_bot
from dicehall.core.game import State
from dicehall.core.playout import register_playout
from dicehall.core.rules import RuleSet
from dicehall.i18n.message import Message
from dicehall.thousand.bots import ThousandBot
from dicehall.thousand.dp import STEP
from dicehall.thousand.rules import ThousandRules
from dicehall.thousand.solver import playout
from dicehall.thousand.solver.decide import decisions_of
from dicehall.thousand.solver.policy import TurnValues, player_index
from dicehall.thousand.solver.solve import (
    Table,
    checkpoint_path,
    find_table,
    load_table,
    save_table,
)
from dicehall.thousand.solver.space import (
    DEFAULT_FLOOR,
    DEFAULT_MAX_SWEEPS,
    DEFAULT_TOL,
    SolveError,
    build_space,
)
from dicehall.thousand.state import BANK, ROLL, ThousandState

AUTO_SOLVE_POSITIONS = 400_000
"""Rule sets up to this many positions are solved on first use when no cached table exists."""


def table_for(rules: ThousandRules) -> Table:
    """The cached table of ``rules`` (solved on this machine), else the compact one shipped in the package
    (classic: values within ±7.6e-6 of the exact ones); small rule sets are solved (and cached) on first use."""
    tab = find_table(rules)
    if tab is not None:
        return tab
    space = build_space(rules)
    if space.positions > AUTO_SOLVE_POSITIONS:
        raise SolveError(
            f"bot:optimal needs the solved table of these rules ({space.positions:,} positions); "
            "run `dicehall solve thousand` with the same --preset/--set options first"
        )
    from dicehall.thousand.solver.cli import run_with_progress

    save_table(
        run_with_progress(
            rules, DEFAULT_FLOOR, DEFAULT_TOL, DEFAULT_MAX_SWEEPS, checkpoint_path(rules), transient=True
        )
    )
    found = load_table(rules)
    assert found is not None
    return found


# -- what bot:optimal does alike on every exact table (classic's here, yard_bot, variant2_bot): with three or
# more players it plays against the leader only, and explains a choice by the win chances of rolling and banking
def leader(state: ThousandState) -> int:
    """The opponent the table plays against: the only one, else the leader (ties: who moves next)."""
    me = state.player
    seats = [(me + k) % state.n for k in range(1, state.n) if not state.out[(me + k) % state.n]]
    return max(seats, key=lambda s: (state.score[s], -seats.index(s)))


def reason(roll: bool, rolling: float, bank: float | None) -> Message:
    """Why the bot rolls or banks: the win chances of both (``bank`` None: banking is refused)."""
    rolled = round(100 * rolling, 1)
    if bank is None:
        return Message("thousand.bot.optimal_no_bank", rolling=rolled)
    msgid = "thousand.bot.optimal_rolls" if roll else "thousand.bot.optimal_banks"
    return Message(msgid, rolling=rolled, banking=round(100 * bank, 1))


Turn = TypeVar("Turn")


class TableBot(ThousandBot, Generic[Turn]):
    """Plays from a stored table against the leader: :meth:`turn` is the turn of this position (made by
    :meth:`make_turn` from :meth:`position`'s key), kept while the position stays the same."""

    name = "optimal"

    def __init__(self, table: Any) -> None:
        super().__init__(table.space.rules)
        self.table = table
        self._key: tuple[Any, ...] | None = None
        self._turn: Turn | None = None

    def position(self, state: ThousandState) -> tuple[Any, ...]:
        raise NotImplementedError

    def make_turn(self, key: tuple[Any, ...]) -> Turn:
        raise NotImplementedError

    def turn(self, state: ThousandState) -> Turn:
        key = self.position(state)
        if key != self._key or self._turn is None:
            self._turn = self.make_turn(key)
            self._key = key
        return self._turn


class OptimalBot(ThousandBot):
    name = "optimal"

    def __init__(self, rules: RuleSet, table: Table | None = None) -> None:
        """``table``: play from this solved table (another floor, say) instead of the cached one of ``rules``."""
        super().__init__(rules)
        assert isinstance(rules, ThousandRules)
        self.table = table if table is not None else table_for(rules)
        self._key: tuple[Any, ...] | None = None
        self._turn: TurnValues | None = None
        self._row_key: tuple[int, int] | None = None
        self._row: list[int] = []

    def opponent(self, state: ThousandState) -> int:
        return leader(state)

    def position(self, state: ThousandState) -> tuple[int, int]:
        """The table's (mover, opponent) of this turn."""
        space = self.table.space
        return player_index(space, state, state.player), player_index(space, state, self.opponent(state))

    def turn_values(self, state: ThousandState) -> TurnValues:
        key = self.position(state)
        if key != self._key or self._turn is None:
            self._turn = TurnValues(self.table.space, self.table.values, *key)
            self._key = key
        return self._turn

    def choose(self, state: State[Any], rng: np.random.Generator) -> Any:
        assert isinstance(state, ThousandState)
        if state.hot_dice or state.turn_total < state.min_bank():
            return super().choose(state, rng)
        return ROLL if self.wants_roll(state) else BANK

    def wants_roll(self, state: ThousandState) -> bool:
        # the decisions kept for the table (decide.Decisions), which the fast simulation path reads too
        key = self.position(state)
        if key != self._row_key:
            self._row = decisions_of(self.table).row(*key).tolist()
            self._row_key = key
        row = self._row
        roll = bool(row[min(state.turn_total // STEP, len(row) - 1)] >> state.in_hand & 1)
        if self.explain:
            tv = self.turn_values(state)
            self.last_reason = reason(
                roll, tv.roll(state.turn_total, state.in_hand), tv.bank(state.turn_total)
            )
        return roll


register_playout(
    ThousandState, playout.play_out, agent_type=OptimalBot
)  # against itself: the compiled kernel


@register_bot("thousand", "optimal", Message("bot.thousand.optimal.doc"))
def optimal_bot(rules: RuleSet) -> ThousandBot:
    """``bot:optimal``: rules an exact model of their own covers (:func:`exact.model_for`: yard's, variant 2's)
    play from its stored table, made by ``dicehall solve thousand``; every other rule set from the classic
    model's table."""
    assert isinstance(rules, ThousandRules)
    from dicehall.thousand.solver.exact import model_for

    model = model_for(rules)
    if model is None:
        return OptimalBot(rules)
    stored = model.load(rules)
    if stored is None:
        raise model.missing(rules)
    return model.bot(stored)
