"""Yard's state model (``solver/yard.py``) against the engine.

- The turn: for mover states of yard (and of a small yard), with random values for each way a turn can end, the
  model's best turn equals an expectimax through the engine's own ``ThousandState`` (every roll of the dice in
  hand, every legal decision; the way the turn ended read from the engine's narration), and so do its decisions.
- Between turns: every end of a turn (each bank, a zero first roll, a later zero, an overshoot) of sampled
  positions leads where the engine goes — both seats and the skip flags, the next mover included —, every such
  position is one the model counts, and whole turns valued by the next positions equal the engine's.
- The compiled turn (``yard_kernel``) equals the model's on random values, and the small-rules solver
  (``yard_solve``) equals an independent value iteration over the engine's own turns on a tiny yard (target 40):
  turn graphs explored through ``ThousandState``, each end leading where the engine goes; policy iteration on
  the compiled exits (where a turn played by fixed decisions ends) reaches the same values.
- Playing from the table (``yard_bot``): its decisions are the model's over the table's values, and against
  itself the first player wins at the table's chance (within the 99 % interval, 4,000 games of the tiny yard).
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from dicehall.core.rng import agent_rng, game_seed, seeded_rng
from dicehall.core.simulate import play_game
from dicehall.thousand.rules import ThousandRules
from dicehall.thousand.solver import yard_kernel
from dicehall.thousand.solver.size import FullState, Seat, table_size
from dicehall.thousand.solver.yard import NEG, Ends, Position, Positions, Turn
from dicehall.thousand.solver.yard_bot import YardTableBot, YardTurn
from dicehall.thousand.solver.yard_pi import solve_levels, yard_levels
from dicehall.thousand.solver.yard_solve import policy_iteration_small, solve_small
from dicehall.thousand.solver.yard_space import build_yard_space, kernel_tables
from dicehall.thousand.state import BANK, ROLL, ThousandState
from dicehall.thousand.tables import DECIDING, OVER, ROLLING

from .exact_tables import RandomValues, graph_value

YARD = ThousandRules.from_preset("yard")
SMALL = ThousandRules.from_preset("yard", {"target": 200, "open_min": 20})
FLOOR = -300


def engine_position(
    rules: ThousandRules, mover: FullState, other: FullState, flagged: bool = False
) -> ThousandState:
    seats = (mover, other)
    s = ThousandState.from_position(
        rules,
        [p.score for p in seats],
        opened=[p.opened for p in seats],
        on_barrel=[p.score >= rules.barrel_score for p in seats],
        barrel_attempts=[p.attempts for p in seats],
        barrel_falls=[p.falls for p in seats],
        bolts=[p.bolts for p in seats],
        anyone_banked=mover.opened or other.opened,
    )
    s.skip_next[1] = flagged
    return s


# -- the engine's turn, by expectimax ------------------------------------------------------------------------------
def sorted_rolls(n: int) -> list[tuple[tuple[int, ...], float]]:
    """One roll of each multiset of ``n`` dice with its probability (the engine scores a roll in any order)."""
    counts = Counter(tuple(sorted(d)) for d in itertools.product(range(1, 7), repeat=n))
    return [(d, k / 6**n) for d, k in sorted(counts.items())]


ROLLS = [sorted_rolls(n) for n in range(6)]


def end_of(before: ThousandState, after: ThousandState) -> tuple[str, int]:
    """How the turn ended, from the engine's narration of the action that ended it."""
    ids = [msgid for msgid, _ in after._ev]
    if "thousand.narrate.golden" in ids:
        return ("win", 0)
    for msgid, params in after._ev:
        if msgid == "thousand.narrate.bank":
            return ("bank", params["total"])
    if "thousand.narrate.zero" in ids:
        return ("zero_first" if before.rolls == 0 else "zero", 0)
    assert "thousand.narrate.overshoot" in ids or "thousand.narrate.out_of_rolls" in ids, ids
    return ("fail", 0)


def engine_turn(
    start: ThousandState, value_of_end: Callable[[ThousandState, ThousandState], float]
) -> tuple[float, dict[tuple[int, int, int], bool]]:
    """The best turn from ``start`` through the engine, and its clear decisions ``(t, n, counted rolls) -> roll``;
    ``value_of_end(before, after)`` values the action from ``before`` that ended the turn in ``after``."""
    memo: dict[tuple[object, ...], float] = {}
    decisions: dict[tuple[int, int, int], bool] = {}

    def key(s: ThousandState) -> tuple[object, ...]:
        return (
            s.phase,
            s.turn_total,
            s.in_hand,
            s.free_rolls,
            min(s.rolls, 2),
            s.hot_dice,
            s._forced,
            s._confirm,
            len(s.set_aside_dice),
        )

    def then(s: ThousandState, c: ThousandState) -> float:
        if c.phase == OVER or c.turns != s.turns:
            return value_of_end(s, c)
        return value(c)

    def value(s: ThousandState) -> float:
        k = key(s)
        if k in memo:
            return memo[k]
        if s.phase == ROLLING:
            v = 0.0
            for dice, p in ROLLS[s.in_hand]:
                c = s.clone()
                c.apply_action(dice)
                v += p * then(s, c)
        else:
            assert s.phase == DECIDING
            options = {}
            for a in s.legal_actions():
                c = s.clone()
                c.apply_action(a)
                options[a] = then(s, c)
            v = max(options.values())
            if len(options) == 2 and abs(options[ROLL] - options[BANK]) > 1e-9:
                decisions[(s.turn_total, s.in_hand, s.free_rolls)] = options[ROLL] > options[BANK]
        memo[k] = v
        return v

    return value(start), decisions


TURN_CASES = [
    (YARD, FullState(700, True)),  # opened, free to bank, 300 to the exact target
    (YARD, FullState(640, True, bolts=2)),  # in the pit 600..700: bank at least 60
    (YARD, FullState(905, True, attempts=1)),  # on the barrel: exactly 95
    (YARD, FullState(960, True, falls=2, attempts=2)),
    (SMALL, FullState(0, False)),  # the opening, 200 to the target
    (SMALL, FullState(130, True)),  # a pit
    (SMALL, FullState(185, True)),  # the barrel
]


@pytest.mark.parametrize("rules, mover", TURN_CASES)
def test_the_turn_equals_the_engines_best_turn(rules: ThousandRules, mover: FullState) -> None:
    rng = random.Random(mover.score)
    other = FullState(50, True)
    start = engine_position(rules, mover, other)
    limit = rules.target - mover.score
    ends = Ends(
        bank=[rng.random() for _ in range(limit // 5 + 1)],
        zero_first=rng.random(),
        zero=rng.random(),
        fail=rng.random(),
        win=rng.random(),
    )
    need = start.min_bank()
    assert start.max_bank() == limit
    turn = Turn(
        rules, need, limit, ends._replace(bank=[b if t * 5 >= need else NEG for t, b in enumerate(ends.bank)])
    )

    def value_of_end(before: ThousandState, after: ThousandState) -> float:
        kind, total = end_of(before, after)
        if kind == "bank":
            assert need <= total <= limit
            return ends.bank[total // 5]
        return float(getattr(ends, kind))

    want, decisions = engine_turn(start, value_of_end)
    assert turn.value == pytest.approx(want, abs=1e-12)
    assert decisions
    for (t, n, r), roll in decisions.items():
        assert turn.decide(t, n, r) == roll, (t, n, r)


# -- between turns -------------------------------------------------------------------------------------------------
def engine_seat(s: ThousandState, seat: int) -> FullState:
    return FullState(s.score[seat], s.opened[seat], s.bolts[seat], s.falls[seat], s.attempts[seat])


def engine_next(seat: Seat, s: ThousandState, value: RandomValues) -> tuple[float, Position]:
    """The mover's (seat 0's) value of the engine's position after a turn, and that position (its next mover's
    view: the next mover's flag is always spent)."""
    if s.phase == OVER:
        return (1.0 if s.winner == 0 else 0.0), Position(engine_seat(s, 0), engine_seat(s, 1))
    p = s.player
    assert not s.skip_next[p]
    pos = Position(
        seat.canonical(engine_seat(s, p)), seat.canonical(engine_seat(s, 1 - p)), s.skip_next[1 - p]
    )
    return (value(pos) if p == 0 else 1.0 - value(pos)), pos


def sampled_positions(model: Positions, count: int, seed: int) -> list[Position]:
    """Positions of the model: random seats, and seats on or near the barrel, with the flag wherever it can be."""
    rng = random.Random(seed)
    states = [p for p in model.states if p.score >= FLOOR + 200]  # the floor is the model's own rule
    special = [
        p for p in states if p.attempts or p.falls or not p.opened or p.score >= model.rules.barrel_score - 60
    ]
    out = []
    for _ in range(count):
        for m, o in ((rng.choice(states), rng.choice(states)), (rng.choice(special), rng.choice(states))):
            for pos in (Position(m, o), Position(o, m), Position(m, o, True), Position(o, m, True)):
                if model.holds(pos):
                    out.append(pos)
    return out


@pytest.mark.parametrize("rules", [YARD, SMALL], ids=["yard", "small"])
def test_each_end_of_a_turn_leads_where_the_engine_goes(rules: ThousandRules) -> None:
    model = Positions(rules, FLOOR)
    value = RandomValues(5)
    seen: Counter[str] = Counter()
    for pos in sampled_positions(model, 60, seed=len(model.states)):
        ends = model.ends(pos, value)
        start = engine_position(rules, pos.mover, pos.opponent, pos.flagged)
        # a zero first roll
        s = start.clone()
        s.apply_action((2, 2, 3, 4, 6))
        got, nxt = engine_next(model.seat, s, value)
        assert ends.zero_first == got and model.holds(nxt), pos
        seen["flag" if s.skip_next[0] else "no flag"] += 1
        seen["both spent" if pos.flagged else "passes"] += s.player == 1
        # a zero after a scoring first roll (one 1 kept)
        if rules.target - pos.mover.score >= 10:
            s = start.clone()
            s.apply_action((1, 2, 3, 4, 6))
            s.apply_action(ROLL)
            s.apply_action((2, 2, 3, 4))
            got, nxt = engine_next(model.seat, s, value)
            assert ends.zero == got and model.holds(nxt), pos
        # the exact target passed: a one on top of the largest total allowed
        s = start.clone()
        s.phase, s.turn_total, s.in_hand = DECIDING, model.limit(pos.mover), 1
        s.apply_action(ROLL)
        s.apply_action((1,))
        got, nxt = engine_next(model.seat, s, value)
        assert ends.fail == got and model.holds(nxt), pos
        # every bank
        for ti in range(1, len(ends.bank)):
            s = start.clone()
            s.phase, s.turn_total, s.in_hand = DECIDING, ti * 5, 1
            if ends.bank[ti] == NEG:
                assert not s.can_bank(), (pos, ti)
                continue
            s.apply_action(BANK)
            got, nxt = engine_next(model.seat, s, value)
            assert ends.bank[ti] == got, (pos, ti)
            seen["again"] += s.phase != OVER and s.player == 0
            assert s.phase == OVER or model.holds(nxt), (pos, ti)
            if s.phase != OVER and nxt.opponent.score == 0 and pos.opponent.score == ti * 5 + pos.mover.score:
                seen["reset"] += 1
    assert all(seen[k] for k in ("flag", "no flag", "both spent", "passes", "again", "reset")), seen


@pytest.mark.parametrize(
    "rules, pos",
    [
        (YARD, Position(FullState(905, True, attempts=2), FullState(935, True, falls=1), True)),
        (YARD, Position(FullState(700, True, bolts=2), FullState(905, True, attempts=1))),
        (YARD, Position(FullState(860, True, falls=2), FullState(900, True), True)),
        (SMALL, Position(FullState(0, False), FullState(0, False))),
        (SMALL, Position(FullState(100, True, bolts=2), FullState(185, True, attempts=2), True)),
    ],
)
def test_a_whole_turn_valued_by_the_next_positions_equals_the_engines(
    rules: ThousandRules, pos: Position
) -> None:
    model = Positions(rules, FLOOR)
    value = RandomValues(11)
    start = engine_position(rules, pos.mover, pos.opponent, pos.flagged)
    want, _ = engine_turn(start, lambda before, after: engine_next(model.seat, after, value)[0])
    assert model.turn(pos, value).value == pytest.approx(want, abs=1e-12)


# -- the compiled turn against the model ------------------------------------------------------------------------------
@pytest.mark.parametrize("rules", [YARD, SMALL], ids=["yard", "small"])
def test_the_compiled_turn_equals_the_model(rules: ThousandRules) -> None:
    space = build_yard_space(rules, FLOOR)
    tables = kernel_tables(space)
    rng = np.random.default_rng(3)
    size = space.size
    W, F = rng.random((size, size)), rng.random((size, size))
    out = np.zeros((size, size))

    def value(pos: Position) -> float:
        a, b = space.index[pos.mover], space.index[pos.opponent]
        return float((F if pos.flagged else W)[b, a])

    for pos in sampled_positions(space.model, 15, seed=size):
        m, o = space.index[pos.mover], space.index[pos.opponent]
        lo = max(0, o - 3)
        yard_kernel.row(m, lo, o + 1, int(pos.flagged), W, F, W, out, tables)
        assert out[o, m] == pytest.approx(space.model.turn(pos, value).value, abs=1e-12), pos


# -- the independent brute force: value iteration over the engine's own turns ---------------------------------------
TINY = ThousandRules.from_preset(
    "yard",
    {
        "target": 40,
        "open_min": 10,
        "pits": [[15, 20]],
        "dump_truck_score": 25,
        "overtake_penalty": 5,
        "bolts_count": 2,
        "bolt_penalty": 10,
        "barrel_score": 30,
        "barrel_fall_penalty": 10,
        "barrel_attempts": 2,
        "barrel_falls_to_zero": 2,
    },
)
TINY_FLOOR = -10
Key = tuple[object, ...]
END_IDS = {"zero_first": 0, "zero": 1, "fail": 2, "win": 3}  # banks: 4 + total / 5


def seat_key(s: ThousandState, seat: int, floor: int) -> Key:
    """A seat as the brute force keys it: the engine's counts, the score floored, the counts that no longer matter
    dropped (bolts while unopened, falls past the one that zeroes, attempts off the barrel)."""
    r = s.rules
    falls = min(s.falls[seat], r.barrel_falls_to_zero - 1)
    return (
        max(s.score[seat], floor),
        s.opened[seat],
        s.bolts[seat] if s.opened[seat] else 0,
        falls,
        s.attempts[seat] if s.on_barrel[seat] else 0,
    )


def key_position(rules: ThousandRules, key: Key) -> ThousandState:
    mover, other, flagged = key
    return engine_position(rules, FullState(*mover), FullState(*other), bool(flagged))  # type: ignore[misc]


class TurnGraph:
    """One turn of a (need, limit) through the engine: nodes children first; a node is a decision (the best of
    its options) or a roll (the sum over its outcomes); an edge leads to a node or, negative, to an end."""

    def __init__(self, start: ThousandState) -> None:
        self.nodes: list[tuple[bool, list[tuple[float, int]]]] = []
        memo: dict[Key, int] = {}

        def key(s: ThousandState) -> Key:
            return (s.phase, s.turn_total, s.in_hand, s.free_rolls, min(s.rolls, 2), s.hot_dice, s._forced,
                    s._confirm, len(s.set_aside_dice))  # fmt: skip

        def target(s: ThousandState, c: ThousandState) -> int:
            if c.phase == OVER or c.turns != s.turns:
                kind, total = end_of(s, c)
                return -1 - (4 + total // 5 if kind == "bank" else END_IDS[kind])
            return visit(c)

        def visit(s: ThousandState) -> int:
            k = key(s)
            if k in memo:
                return memo[k]
            edges: dict[int, float] = {}
            if s.phase == ROLLING:
                for dice, p in ROLLS[s.in_hand]:
                    c = s.clone()
                    c.apply_action(dice)
                    t = target(s, c)
                    edges[t] = edges.get(t, 0.0) + p
            else:
                for a in s.legal_actions():
                    c = s.clone()
                    c.apply_action(a)
                    edges[target(s, c)] = 1.0
            self.nodes.append((s.phase == ROLLING, [(p, t) for t, p in edges.items()]))
            memo[k] = len(self.nodes) - 1
            return memo[k]

        self.start = visit(start)


def brute_force(rules: ThousandRules, floor: int, tol: float = 1e-10) -> dict[Key, tuple[float, float]]:
    """Both bounds of every position reachable from the start, by value iteration over the engine's turns: each
    end of a turn leads to the position the engine goes to (``value`` for the same mover, ``1 - value`` for the
    other, 1 for a win), positions sharing a turn graph solved together."""
    graphs: dict[tuple[int, int | None], TurnGraph] = {}
    start = ThousandState(rules, 2)
    start_key: Key = (seat_key(start, 0, floor), seat_key(start, 1, floor), False)
    ids = {start_key: 0}
    todo = [start_key]
    classes: dict[tuple[int, int | None], list[tuple[int, dict[int, tuple[int, bool]]]]] = {}

    def goes(s: ThousandState) -> tuple[int, bool]:
        """Where the engine went: (position id or -1 for a win, the same mover)."""
        if s.phase == OVER:
            return -1, True
        p = s.player
        k: Key = (seat_key(s, p, floor), seat_key(s, 1 - p, floor), s.skip_next[1 - p])
        if k not in ids:
            ids[k] = len(ids)
            todo.append(k)
        return ids[k], p == 0

    while todo:
        k = todo.pop()
        s = key_position(rules, k)
        cls = (s.min_bank(), s.max_bank())
        if cls not in graphs:
            graphs[cls] = TurnGraph(s)
        ends: dict[int, tuple[int, bool]] = {}
        c = s.clone()
        c.apply_action((2, 2, 3, 4, 6))
        ends[END_IDS["zero_first"]] = goes(c)
        c = s.clone()
        c.apply_action((5, 2, 3, 4, 4))
        c.apply_action(ROLL)
        c.apply_action((2, 2, 3, 4))
        ends[END_IDS["zero"]] = goes(c)
        limit = s.max_bank()
        assert limit is not None  # yard's exact target
        c = s.clone()
        c.phase, c.turn_total, c.in_hand = DECIDING, limit, 1
        c.apply_action(ROLL)
        c.apply_action((1,))
        ends[END_IDS["fail"]] = goes(c)
        for total in range(s.min_bank() or 5, limit + 5, 5):
            c = s.clone()
            c.phase, c.turn_total, c.in_hand = DECIDING, total, 1
            c.apply_action(BANK)
            ends[4 + total // 5] = goes(c)
        classes.setdefault(cls, []).append((ids[k], ends))
    n = len(ids)
    bounds = [np.zeros(n), np.ones(n)]
    plans = []
    for cls, members in classes.items():
        rows = np.array([i for i, _ in members])
        # per end id: the next position of each member and whether it is the same mover's
        nxt = {e: np.array([m[e][0] for _, m in members]) for e in members[0][1]}
        same = {e: np.array([m[e][1] for _, m in members]) for e in members[0][1]}
        plans.append((graphs[cls], rows, nxt, same))
    for _ in range(3000):
        change = 0.0
        for graph, rows, nxt, same in plans:
            for b in (0, 1):
                other = bounds[1 - b]
                end_values = {}
                for e, idx in nxt.items():
                    at = np.maximum(idx, 0)
                    v = np.where(same[e], bounds[b][at], 1.0 - other[at])
                    end_values[e] = np.where(idx < 0, 1.0, v)
                end_values[END_IDS["win"]] = np.ones(len(rows))
                new = graph_value(graph, {-1 - e: v for e, v in end_values.items()}, len(rows))
                change = max(change, float(np.abs(new - bounds[b][rows]).max()))
                bounds[b][rows] = new
        if change < tol:
            break
    return {k: (float(bounds[0][i]), float(bounds[1][i])) for k, i in ids.items()}


def test_the_solver_equals_value_iteration_over_the_engines_turns() -> None:
    expected = brute_force(TINY, TINY_FLOOR)
    solution = solve_small(TINY, TINY_FLOOR, tol=1e-11)
    assert solution.converged and solution.gap < 1e-9
    worst = 0.0
    flagged = 0
    for (mover, other, flag), (lo, hi) in expected.items():
        assert hi - lo < 1e-8
        got = solution.bounds(FullState(*mover), FullState(*other), bool(flag))  # type: ignore[misc]
        worst = max(worst, abs(got[0] - lo), abs(got[1] - hi))
        flagged += bool(flag)
    assert worst < 1e-8
    assert len(expected) > 1000 and flagged > 100


def test_policy_iteration_reaches_the_value_iterations_values() -> None:
    bounds = solve_small(TINY, TINY_FLOOR, tol=1e-12)
    pi = policy_iteration_small(TINY, TINY_FLOOR, tol=1e-11)
    assert pi.residual <= 1e-11 and 1 < pi.steps < 30
    flaggable = bounds.space.flaggable.astype(bool)
    for got, lo, hi in (
        (pi.values, bounds.lower, bounds.upper),
        (pi.flagged, bounds.lower_flagged, bounds.upper_flagged),
    ):
        rows = slice(None) if got is pi.values else flaggable
        assert np.abs(got - lo)[rows].max() < 1e-9 and np.abs(got - hi)[rows].max() < 1e-9


def test_policy_iteration_by_levels_equals_value_iteration_and_resumes(tmp_path: Path) -> None:
    bounds = solve_small(TINY, TINY_FLOOR, tol=1e-12)
    size = bounds.space.size
    checkpoint = tmp_path / "yard.npz"
    part = solve_levels(TINY, TINY_FLOOR, tol=1e-11, checkpoint=checkpoint, max_levels=1)
    assert not part.complete and len(part.levels) == 1 and checkpoint.exists()
    table = solve_levels(TINY, TINY_FLOOR, tol=1e-11, checkpoint=checkpoint)
    assert table.complete and len(table.levels) == len(yard_levels(table.space)) == 3
    assert table.levels[0] == part.levels[0]  # resumed, not solved again
    W = table.values[: size * size].reshape(size, size)
    F = table.values[size * size :].reshape(size, size)
    flaggable = bounds.space.flaggable.astype(bool)
    assert np.abs(W - bounds.lower).max() < 1e-9 and np.abs(W - bounds.upper).max() < 1e-9
    assert np.abs(F - bounds.lower_flagged)[flaggable].max() < 1e-9
    assert all(lv.residual <= 1e-11 for lv in table.levels)


# -- playing from the table ----------------------------------------------------------------------------------------
def test_the_tables_player_decides_as_the_model_and_wins_first_at_the_solved_chance() -> None:
    table = solve_levels(TINY, -60, tol=1e-11)  # a floor the games seldom reach
    space = table.space
    start = space.start
    p = table.value(start, start)
    size = space.size
    half = size * size

    def value(pos: Position) -> float:
        a, b = space.index[pos.mover], space.index[pos.opponent]
        return float(table.values[pos.flagged * half + b * size + a])

    # its decisions are the model's turn over the table's values, at every decision of a few positions
    for pos in sampled_positions(space.model, 4, seed=9):
        turn = space.model.turn(pos, value)
        mine = YardTurn(table, space.index[pos.mover], space.index[pos.opponent], pos.flagged)
        assert mine.value == pytest.approx(turn.value, abs=1e-12)
        for t, n, r in itertools.product(range(turn.top + 1), range(1, 6), range(turn.rr)):
            assert mine.wants_roll(t * 5, n, r) == turn.roll_ok[t][n][r], (pos, t, n, r)
    # self-play: the first player's share of the wins within the 99 % interval of the table's chance
    games = 4000
    bots = [YardTableBot(table), YardTableBot(table)]
    wins = 0.0
    for i in range(games):
        seed = game_seed(26, i)
        state = ThousandState(TINY, 2)
        play_game(state, bots, seeded_rng(seed), agent_rng(seed))
        wins += state.returns()[0]
    half_width = 2.576 * math.sqrt(p * (1 - p) / games)
    assert abs(wins / games - p) <= half_width, (wins / games, p, half_width)


@pytest.mark.parametrize("rules", [YARD, SMALL], ids=["yard", "small"])
def test_the_model_holds_the_positions_the_size_counts(rules: ThousandRules) -> None:
    model = Positions(rules, FLOOR)
    opened = sum(p.opened for p in model.states)
    unopened = len(model.states) - opened
    flagged = 0
    for o in model.flaggable:
        flagged += len(model.states) if o.opened else opened  # someone has banked
        assert model.holds(Position(model.states[0], o, True)) == (o.opened or model.states[0].opened)
    assert len(model.states) ** 2 + flagged == table_size(rules, FLOOR).positions
    assert unopened and not model.holds(Position(FullState(0, False), FullState(0, False), True))
