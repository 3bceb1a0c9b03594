"""Dice 1000's evaluators for hints and analysis (:mod:`dicehall.core.analysis`).

- :class:`WinEvaluator`: two players and a solved table (``dicehall solve thousand``; classic without one reads the
  compact table shipped in the package, its note says so; small rule sets are solved on first use, as for
  ``bot:optimal``): the chance to win under optimal play, in win %.
- :class:`YardWinEvaluator`: the same from yard's stored table (yard-like rules, two players; the table is made by
  ``dicehall solve thousand``, and until then the turn's points below, the note saying how to make it).
- :class:`Variant2WinEvaluator`: the same from variant 2's stored table (variant-2-like rules, two players; made
  by ``dicehall solve thousand`` too, and until then the turn's points, the note saying how to make it).
- :class:`TurnPointsEvaluator`: every other case (classic until it is solved, rule sets the solver does not
  cover, one or 3+ players): the expert's turn DP (:mod:`dicehall.thousand.dp`). A seat's value is its score plus,
  for the seat whose turn it is, the expected useful points of the rest of the turn — points, not win %, and the
  note says so. A roll's expectation is exact for the roller (whose luck it measures); the other seats keep
  their scores until their own turn starts.
"""

from __future__ import annotations

import itertools
import math
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from dicehall.core.analysis import WIN_THRESHOLDS, Thresholds, Unit
from dicehall.core.errors import DicehallError
from dicehall.core.game import State
from dicehall.core.rules import RuleSet
from dicehall.i18n.message import Message
from dicehall.thousand import dp
from dicehall.thousand.bots import turn_model
from dicehall.thousand.rules import ThousandRules
from dicehall.thousand.solver.policy import TurnValues, player_index
from dicehall.thousand.solver.solve import Table
from dicehall.thousand.solver.variant2_bot import Variant2Turn
from dicehall.thousand.solver.variant2_bot import position_of as variant2_position
from dicehall.thousand.solver.yard_bot import YardTurn, position_of
from dicehall.thousand.state import BANK, ROLL, ThousandState, keep_options

if TYPE_CHECKING:
    from dicehall.thousand.solver.exact import ExactModel

Turn = TypeVar("Turn")
POINT_THRESHOLDS = Thresholds(10.0, 25.0, 50.0)
"""Turn-points bands: a tenth, a quarter and a half of the 100 points a classic turn is worth on average."""
ROLL_OFF_ENUMERATED = 4
"""Roll-off chances are exact while at most this many contenders still have to roll (6**4 cases)."""


def make_evaluator(rules: RuleSet, num_players: int) -> WinEvaluator | TurnPointsEvaluator:
    """The win-% evaluator where a table can be had (the stored table of the exact model that covers the rules,
    :func:`solver.exact.model_for`, else classic's), else the turn-points one with the reason in its note."""
    assert isinstance(rules, ThousandRules)
    if num_players != 2:
        why: str = Message("analysis.why.players", n=num_players)
        return TurnPointsEvaluator(rules, why)
    from dicehall.thousand.solver.bot import table_for
    from dicehall.thousand.solver.exact import model_for
    from dicehall.thousand.solver.space import SolveError

    model = model_for(rules)
    if model is not None:
        return _exact_evaluator(model, rules)
    try:
        table = table_for(rules)
    except SolveError:
        why = Message("analysis.why.unsolved")
        return TurnPointsEvaluator(rules, why)
    except DicehallError as exc:
        return TurnPointsEvaluator(rules, exc.text)
    return WinEvaluator(rules, table)


def _exact_evaluator(model: ExactModel, rules: ThousandRules) -> WinEvaluator | TurnPointsEvaluator:
    """Rules of an exact model of their own (:mod:`solver.exact`): win % from its stored table, else the turn's
    points with how to make the table."""
    try:
        stored = model.load(rules)
    except DicehallError as exc:
        return TurnPointsEvaluator(rules, exc.text)
    if stored is None:
        _, hours, _ = model.cost(rules)
        return TurnPointsEvaluator(rules, Message("analysis.why.yard_unsolved", hours=round(hours, 1)))
    return model.evaluator(rules, stored)


def _state(state: State[Any]) -> ThousandState:
    if not isinstance(state, ThousandState):
        raise TypeError(f"a Dice 1000 evaluator needs a ThousandState, got {type(state).__name__}")
    return state


def roll_off_chances(state: ThousandState) -> dict[int, float]:
    """Each contender's chance to start, from the dice already rolled in this round of the roll-off.

    Ties roll again among the tied, which is symmetric: each of them then starts with the same chance.
    """
    contenders = state.roll_off_contenders
    rolled = contenders[: contenders.index(state.player)]
    waiting = contenders[len(rolled) :]
    if len(waiting) > ROLL_OFF_ENUMERATED:  # six or more players: equal shares (exact when no one has rolled)
        return {c: 1.0 / len(contenders) for c in contenders}
    dice = state.roll_off_dice
    known = {c: dice[c] or 0 for c in rolled}
    chances = dict.fromkeys(contenders, 0.0)
    cases = 6 ** len(waiting)
    for faces in itertools.product(range(1, 7), repeat=len(waiting)):
        shown = {**known, **dict(zip(waiting, faces, strict=True))}
        top = max(shown.values())
        tied = [c for c, d in shown.items() if d == top]
        for c in tied:
            chances[c] += 1.0 / len(tied) / cases
    return chances


class WinEvaluator:
    """The chance to win (percent) from the solved two-player table."""

    unit: Unit = "win%"
    thresholds = WIN_THRESHOLDS

    def __init__(self, rules: ThousandRules, table: Table) -> None:
        self.rules = rules
        self.table = table
        self.note = table.note() or ""
        self._turns: dict[tuple[int, int], TurnValues] = {}

    def turn(self, state: ThousandState, seat: int) -> TurnValues:
        """The turn values of ``seat`` as the mover against the other seat."""
        space = self.table.space
        key = (player_index(space, state, seat), player_index(space, state, 1 - seat))
        tv = self._turns.get(key)
        if tv is None:
            if len(self._turns) > 256:
                self._turns.clear()
            tv = self._turns[key] = TurnValues(space, self.table.values, *key)
        return tv

    def _split(self, seat: int, win: float) -> list[float]:
        out = [0.0, 0.0]
        out[seat] = 100.0 * win
        out[1 - seat] = 100.0 * (1.0 - win)
        return out

    def values(self, state: State[Any]) -> list[float]:
        s = _state(state)
        if s.is_terminal():
            return [100.0 * r for r in s.returns()]
        if s.roll_off_contenders:
            out = [0.0, 0.0]
            for seat, p in roll_off_chances(s).items():
                v = self._split(seat, self.turn(s, seat).start())
                out = [a + p * b for a, b in zip(out, v, strict=True)]
            return out
        if s.is_chance_node():
            return self.chance_value(s)
        return self._split(s.player, max(v for _, v in self.decision_values(s)) / 100.0)

    def roll_win(self, tv: Any, s: ThousandState) -> float:
        """The mover's win chance of rolling now (at a decision), from the turn ``tv``."""
        return float(tv.roll(s.turn_total, s.in_hand))

    def bank_win(self, tv: Any, s: ThousandState) -> float | None:
        """The mover's win chance of banking now (None: banking is refused)."""
        bank: float | None = tv.bank(s.turn_total)
        return bank

    def chance_win(self, tv: Any, s: ThousandState) -> float:
        """The mover's win chance at this roll of the dice (before it is seen)."""
        return float(tv.roll(s.turn_total, s.in_hand))

    def decision_values(self, state: State[Any]) -> list[tuple[Any, float]]:
        s = _state(state)
        tv = self.turn(s, s.player)
        out: list[tuple[Any, float]] = []
        for action in s.legal_actions():
            if action == ROLL:
                out.append((action, 100.0 * self.roll_win(tv, s)))
            elif action == BANK:
                bank = self.bank_win(tv, s)
                out.append((action, 100.0 * (bank if bank is not None else 0.0)))
            else:
                raise DicehallError(f"the solved table has no value for {action!r}")
        return out

    def chance_value(self, state: State[Any]) -> list[float]:
        s = _state(state)
        if s.roll_off_contenders:
            return self.values(s)
        return self._split(s.player, self.chance_win(self.turn(s, s.player), s))

    def roller(self, state: State[Any]) -> int:
        return _state(state).player


class _StoredWinEvaluator(WinEvaluator, Generic[Turn]):
    """The chance to win (percent) from an exact model's stored table (:mod:`solver.exact`): the turn of
    :meth:`position`'s key made by :meth:`make_turn` (the last 256 kept), valued as ``bot:optimal`` plays it."""

    def __init__(self, rules: ThousandRules, table: Any) -> None:
        self.rules = rules
        self.stored = table
        self.note = ""
        self._stored_turns: dict[tuple[Any, ...], Turn] = {}

    def position(self, state: ThousandState, seat: int) -> tuple[Any, ...]:
        raise NotImplementedError

    def make_turn(self, key: tuple[Any, ...]) -> Turn:
        raise NotImplementedError

    def turn(self, state: ThousandState, seat: int) -> Turn:  # type: ignore[override]
        key = self.position(state, seat)
        tv = self._stored_turns.get(key)
        if tv is None:
            if len(self._stored_turns) > 256:
                self._stored_turns.clear()
            tv = self._stored_turns[key] = self.make_turn(key)
        return tv

    def bank_win(self, tv: Any, s: ThousandState) -> float | None:
        bank: float | None = tv.bank_value(s.turn_total)
        return bank


class YardWinEvaluator(_StoredWinEvaluator[YardTurn]):
    """From yard's stored table (:mod:`solver.yard_table`): the turn of (mover, opponent, the opponent flagged to
    skip) played by :class:`yard_bot.YardTurn`."""

    def position(self, state: ThousandState, seat: int) -> tuple[int, int, bool]:
        return position_of(self.stored, state, seat, 1 - seat)

    def make_turn(self, key: tuple[Any, ...]) -> YardTurn:
        return YardTurn(self.stored, *key)

    def roll_win(self, tv: YardTurn, s: ThousandState) -> float:
        t, r = s.turn_total, s.free_rolls
        return tv.hot_value(t, r) if s.hot_dice else tv.roll_value(t, s.in_hand, r)

    def chance_win(self, tv: YardTurn, s: ThousandState) -> float:
        t, n, r = s.turn_total, s.in_hand, s.free_rolls
        if s.rolls_this_turn == 0:
            return tv.start()
        if n == 5:  # hot dice or a pair re-roll: the forced roll of five
            return tv.hot_value(t, r)
        return tv.roll_value(t, n, r)


class Variant2WinEvaluator(_StoredWinEvaluator[Variant2Turn]):
    """From variant 2's stored table (:mod:`solver.variant2_table`): the turn of (mover, opponent) played by
    :class:`variant2_bot.Variant2Turn`; after hot dice the forced roll of five is the confirmation roll."""

    def position(self, state: ThousandState, seat: int) -> tuple[int, int]:
        return variant2_position(self.stored, state, seat, 1 - seat)

    def make_turn(self, key: tuple[Any, ...]) -> Variant2Turn:
        return Variant2Turn(self.stored, *key)

    def roll_win(self, tv: Variant2Turn, s: ThousandState) -> float:
        return tv.hot_value(s.turn_total) if s.hot_dice else tv.roll_value(s.turn_total, s.in_hand)

    def chance_win(self, tv: Variant2Turn, s: ThousandState) -> float:
        return tv.hot_value(s.turn_total) if s.confirming else tv.roll_value(s.turn_total, s.in_hand)


class TurnPointsEvaluator:
    """Score plus the expected useful points of the turn in progress (the expert's exact turn DP)."""

    unit: Unit = "points"
    thresholds = POINT_THRESHOLDS

    def __init__(self, rules: ThousandRules, why: str) -> None:
        self.rules = rules
        self.note: str = Message("analysis.note.turn_points", why=why)
        self._tables: dict[tuple[Any, ...], dp.Table] = {}

    def table(self, s: ThousandState) -> dp.Table:
        seat = s.player
        key = (s.min_bank(), s.max_bank(), s.score[seat], s.on_barrel[seat], s.opened[seat])
        tab = self._tables.get(key)
        if tab is None:
            tab = self._tables[key] = dp.table(turn_model(s))
        return tab

    def _with_turn(self, s: ThousandState, turn: float) -> list[float]:
        out = [float(x) for x in s.score]
        out[s.player] += turn
        return out

    def _turn_value(self, s: ThousandState) -> float:
        """Expected useful points of the rest of the mover's turn (at a decision: played best)."""
        if s.is_chance_node():
            tab = self.table(s)
            t, r = s.turn_total, s.free_rolls
            forced = s.in_hand == 5 and s.rolls_this_turn > 0  # hot dice or a pair re-roll: not counted
            v = tab.value(t, 0, r) if forced else tab.roll_value(t, s.in_hand, r)
            return v if math.isfinite(v) else tab.value(t, s.in_hand, r)
        return max(v for _, v in self._decisions(s))

    def _decisions(self, s: ThousandState) -> list[tuple[Any, float]]:
        tab = self.table(s)
        t, n, r = s.turn_total, s.in_hand, s.free_rolls
        out: list[tuple[Any, float]] = []
        if s.pending_roll is not None:
            confirm = s.keep_is_confirmation
            options = keep_options(s.pending_roll.combos)
            for action in s.legal_actions():
                points, kept = options[str(action)]
                out.append((action, tab.after(t + points, n - len(kept), r, confirm)))
            return out
        for action in s.legal_actions():
            if action == ROLL:
                v = tab.value(t, 0, r) if s.hot_dice else tab.roll_value(t, n, r)
                out.append((action, v if math.isfinite(v) else 0.0))
            elif action == BANK:
                out.append((action, tab.bank_value(t)))
            else:
                raise DicehallError(f"the turn DP has no value for {action!r}")
        return out

    def values(self, state: State[Any]) -> list[float]:
        s = _state(state)
        if s.is_terminal():
            return [float(x) for x in s.scores()]
        if s.roll_off_contenders:
            out = [float(x) for x in s.score]
            for seat, p in roll_off_chances(s).items():
                start = ThousandState.from_position(
                    s.rules, s.score, to_move=seat, opened=s.opened, bolts=s.bolts
                )
                out[seat] += p * self._turn_value(start)
            return out
        return self._with_turn(s, self._turn_value(s))

    def decision_values(self, state: State[Any]) -> list[tuple[Any, float]]:
        s = _state(state)
        score = float(s.score[s.player])
        return [(a, score + v) for a, v in self._decisions(s)]

    def chance_value(self, state: State[Any]) -> list[float]:
        return self.values(state)

    def roller(self, state: State[Any]) -> int:
        return _state(state).player
