"""Variant 2's state model (``solver/variant2.py``) against the engine.

- The turn: for mover states of variant 2 (and of a tiny variant 2), with random values for each bank and for a
  zero roll, the model's best turn equals an expectimax through the engine's own ``ThousandState`` (every roll of
  the dice in hand, every legal decision, the confirmation roll after hot dice as the engine plays it; the way the
  turn ended read from the engine's narration), and so do its clear decisions. Totals above the top are played as
  the top (the test's own top: the barrel's distance, or the win), which the next test justifies.
- Between turns: every end of a turn (a zero roll, every bank, banks past the top) of sampled positions leads
  where the engine goes — both seats, the knock-back to the opening score included —, into a counted position,
  and whole turns valued by the next positions equal the engine's.
- The compiled turn (``variant2_kernel``) equals the model on random tables; the solver (``variant2_solve``)
  equals an independent value iteration over turn graphs explored through the engine on a tiny variant 2 (bounds
  within 1e-8), resumes from its checkpoint, and a player from its table decides as the model and wins first at
  the table's chance in self-play.
"""

from __future__ import annotations

import functools
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
from dicehall.thousand.solver import variant2_kernel
from dicehall.thousand.solver.size import FullState, Seat, table_size
from dicehall.thousand.solver.space import SolveError
from dicehall.thousand.solver.variant2 import FLOOR, NEG, Ends, Position, Positions, Turn, covers
from dicehall.thousand.solver.variant2_bot import Variant2TableBot, Variant2Turn
from dicehall.thousand.solver.variant2_solve import Level, solve
from dicehall.thousand.solver.variant2_space import build_variant2_space, kernel_tables, levels
from dicehall.thousand.state import BANK, ROLL, Action, ThousandState
from dicehall.thousand.tables import DECIDING, OVER, ROLLING

from .exact_tables import RandomValues, graph_value

V2 = ThousandRules.from_preset("variant2")
TINY = ThousandRules.from_preset("variant2", {"target": 100, "open_min": 20, "barrel_score": 60})


def test_the_model_covers_variant2_and_no_other_preset() -> None:
    assert covers(V2) and covers(TINY)
    for preset in ("classic", "classic-open", "classic-nobarrel", "yard"):
        assert not covers(ThousandRules.from_preset(preset))
    assert not covers(ThousandRules.from_preset("variant2", {"bolts": True}))


def engine_position(rules: ThousandRules, mover: FullState, other: FullState) -> ThousandState:
    seats = (mover, other)
    return ThousandState.from_position(
        rules,
        [p.score for p in seats],
        opened=[p.opened for p in seats],
        on_barrel=[p.score >= rules.barrel_score for p in seats],
        opening_scores=[p.opening for p in seats],
    )


def engine_top(s: ThousandState) -> int:
    """The test's own top: totals from which every bank is alike — the win on the barrel, else the climb."""
    r, p = s.rules, s.player
    if s.on_barrel[p]:
        return s.min_bank()
    return max(s.min_bank(), r.barrel_score - s.score[p])


# -- the engine's turn, by expectimax ------------------------------------------------------------------------------
def sorted_rolls(n: int) -> list[tuple[tuple[int, ...], float]]:
    counts = Counter(tuple(sorted(d)) for d in itertools.product(range(1, 7), repeat=n))
    return [(d, k / 6**n) for d, k in sorted(counts.items())]


ROLLS = [sorted_rolls(n) for n in range(6)]


def end_of(after: ThousandState) -> int:
    """How the turn ended, from the engine's narration: the total banked, or 0 for a zero roll."""
    for msgid, params in after._ev:
        if msgid == "thousand.narrate.bank":
            return int(params["total"])
    assert "thousand.narrate.zero" in [m for m, _ in after._ev]
    return 0


Key = tuple[object, ...]


def node_key(s: ThousandState) -> Key:
    return (s.phase, s.turn_total, s.in_hand, s.hot_dice, s._forced, s._confirm)


def step(s: ThousandState, action: Action, top: int) -> ThousandState:
    """The engine's state after ``action``, a turn total past ``top`` played as ``top``."""
    c = s.clone()
    c.apply_action(action)
    if c.phase != OVER and c.turns == s.turns:
        c.turn_total = min(c.turn_total, top)
    return c


def engine_turn(
    start: ThousandState, value_of_end: Callable[[ThousandState], float]
) -> tuple[float, dict[tuple[int, int], bool]]:
    """The best turn from ``start`` through the engine, and its clear decisions ``(t, n) -> roll``;
    ``value_of_end(after)`` values the state after the action that ended the turn."""
    top = engine_top(start)
    memo: dict[Key, float] = {}
    decisions: dict[tuple[int, int], bool] = {}

    def then(s: ThousandState, c: ThousandState) -> float:
        return value_of_end(c) if c.phase == OVER or c.turns != s.turns else value(c)

    def value(s: ThousandState) -> float:
        k = node_key(s)
        if k in memo:
            return memo[k]
        if s.phase == ROLLING:
            v = sum(p * then(s, step(s, dice, top)) for dice, p in ROLLS[s.in_hand])
        else:
            assert s.phase == DECIDING
            options = {a: then(s, step(s, a, top)) for a in s.legal_actions()}
            v = max(options.values())
            if len(options) == 2 and abs(options[ROLL] - options[BANK]) > 1e-9:
                decisions[(s.turn_total, s.in_hand)] = options[ROLL] > options[BANK]
        memo[k] = v
        return v

    return value(start), decisions


TURN_CASES = [
    (V2, FullState(0, False)),  # the opening: at least 75, 850 climbs
    (V2, FullState(700, True, opening=100)),  # 150 to the barrel
    (V2, FullState(845, True, opening=845)),  # anything climbs
    (V2, FullState(850, True, opening=300)),  # on the barrel: 150 wins
    (TINY, FullState(0, False)),
    (TINY, FullState(30, True, opening=25)),
    (TINY, FullState(60, True, opening=20)),
]


@pytest.mark.parametrize("rules, mover", TURN_CASES)
def test_the_turn_equals_the_engines_best_turn(rules: ThousandRules, mover: FullState) -> None:
    rng = random.Random(mover.score + 7 * rules.target)
    start = engine_position(rules, mover, FullState(0, False))
    need, top = start.min_bank(), engine_top(start)
    bank = [rng.random() if t * 5 >= max(need, 5) else NEG for t in range(top // 5 + 1)]
    zero = rng.random()
    turn = Turn(rules, need, top, Ends(bank=bank, zero=zero))

    def value_of_end(after: ThousandState) -> float:
        total = end_of(after)
        return zero if total == 0 else bank[min(total, top) // 5]

    want, decisions = engine_turn(start, value_of_end)
    assert turn.value == pytest.approx(want, abs=1e-12)
    assert decisions
    for (t, n), roll in decisions.items():
        assert turn.decide(t, n) == roll, (t, n)


# -- between turns -------------------------------------------------------------------------------------------------
def engine_seat(seat: Seat, s: ThousandState, p: int) -> FullState:
    return seat.canonical(FullState(s.score[p], s.opened[p], opening=s.opening_score[p]))


def engine_next(seat: Seat, s: ThousandState, value: RandomValues) -> tuple[float, Position]:
    """Seat 0's value of the engine's position after its turn, and that position (the next mover's view)."""
    if s.phase == OVER:
        return (1.0 if s.winner == 0 else 0.0), Position(engine_seat(seat, s, 0), engine_seat(seat, s, 1))
    p = s.player
    pos = Position(engine_seat(seat, s, p), engine_seat(seat, s, 1 - p))
    return (value(pos) if p == 0 else 1.0 - value(pos)), pos


def sampled_positions(model: Positions, count: int, seed: int) -> list[Position]:
    """Random pairs of seats, and pairs with a seat on or near the barrel or unopened, both ways round."""
    rng = random.Random(seed)
    states = model.states
    special = [p for p in states if not p.opened or p.score >= model.rules.barrel_score - 20]
    unopened = FullState(0, False)
    out = [Position(unopened, unopened), Position(unopened, states[-1]), Position(states[-1], unopened)]
    for _ in range(count):
        for m, o in ((rng.choice(states), rng.choice(states)), (rng.choice(special), rng.choice(special))):
            out += [Position(m, o), Position(o, m)]
    return out


@pytest.mark.parametrize("rules", [V2, TINY], ids=["variant2", "tiny"])
def test_each_end_of_a_turn_leads_where_the_engine_goes(rules: ThousandRules) -> None:
    model = Positions(rules)
    value = RandomValues(5)
    seen: Counter[str] = Counter()
    for pos in sampled_positions(model, 50, seed=len(model.states)):
        ends = model.ends(pos, value)
        start = engine_position(rules, pos.mover, pos.opponent)
        s = start.clone()
        s.apply_action((2, 2, 3, 4, 6))
        got, nxt = engine_next(model.seat, s, value)
        assert ends.zero == got and model.holds(nxt) and nxt == (pos.opponent, pos.mover), pos
        top = model.top(pos.mover)
        for total in range(5, top + 60, 5):
            s = start.clone()
            s.phase, s.turn_total, s.in_hand = DECIDING, total, 1
            if total < start.min_bank():
                assert not s.can_bank() and ends.bank[min(total, top) // 5] == NEG, (pos, total)
                continue
            s.apply_action(BANK)
            got, nxt = engine_next(model.seat, s, value)
            assert ends.bank[min(total, top) // 5] == got, (pos, total)  # past the top: as the top
            assert s.phase == OVER or model.holds(nxt), (pos, total)
            if s.phase == OVER:
                seen["win"] += 1
            elif nxt.mover != pos.opponent:
                seen["knocked back"] += 1
                assert nxt.mover.score == (pos.opponent.opening or rules.open_min)
            if not pos.mover.opened:
                seen["opens"] += 1
                assert nxt.opponent.opening == (total if total < rules.barrel_score else rules.open_min)
    assert all(seen[k] for k in ("win", "knocked back", "opens")), seen


@pytest.mark.parametrize(
    "rules, pos",
    [
        (V2, Position(FullState(800, True, opening=400), FullState(850, True, opening=80))),
        (V2, Position(FullState(0, False), FullState(850, True, opening=75))),
        (V2, Position(FullState(850, True, opening=845), FullState(845, True, opening=845))),
        (TINY, Position(FullState(0, False), FullState(0, False))),
        (TINY, Position(FullState(40, True, opening=20), FullState(60, True, opening=35))),
    ],
)
def test_a_whole_turn_valued_by_the_next_positions_equals_the_engines(
    rules: ThousandRules, pos: Position
) -> None:
    model = Positions(rules)
    value = RandomValues(11)
    start = engine_position(rules, pos.mover, pos.opponent)
    want, _ = engine_turn(start, lambda after: engine_next(model.seat, after, value)[0])
    assert model.turn(pos, value).value == pytest.approx(want, abs=1e-12)


# -- the compiled turn against the model ------------------------------------------------------------------------------
@pytest.mark.parametrize("rules", [V2, TINY], ids=["variant2", "tiny"])
def test_the_compiled_turn_equals_the_model(rules: ThousandRules) -> None:
    space = build_variant2_space(rules)
    tables = kernel_tables(space)
    size = space.size
    R = np.random.default_rng(3).random((size, size))
    width = space.bank_next.shape[1]
    B, Z, RV, H, out = (
        np.empty((width, 4)),
        np.empty(4),
        np.empty((width, 6, 4)),
        np.empty((width, 4)),
        np.empty(4),
    )
    RS, HS, slope = np.empty((width, 6, 4)), np.empty((width, 4)), np.empty(4)

    def value(pos: Position) -> float:
        return float(R[space.index[pos.opponent], space.index[pos.mover]])

    for pos in sampled_positions(space.model, 12, seed=size):
        m, o = space.index[pos.mover], space.index[pos.opponent]
        lo = max(0, o - 3)
        variant2_kernel.ends(m, lo, o + 1, R, tables, B, Z)
        variant2_kernel.turn(m, o + 1 - lo, tables, B, Z, RV, H, out, RS, HS, slope)
        turn = space.model.turn(pos, value)
        assert out[o - lo] == pytest.approx(turn.value, abs=1e-12), pos
        # the zero roll's chance under these decisions: the turn's change when a zero roll is worth a little more
        partner = Position(pos.opponent, pos.mover)

        def bumped_value(q: Position, partner: Position = partner) -> float:
            return value(q) - 1e-6 * (q == partner)

        bumped = space.model.turn(pos, bumped_value)
        assert slope[o - lo] == pytest.approx((bumped.value - turn.value) / 1e-6, abs=1e-6), pos


def test_the_model_holds_the_positions_the_size_counts() -> None:
    space = build_variant2_space(TINY)
    counted = table_size(TINY, FLOOR)
    assert space.size == counted.player_states and space.size**2 == counted.positions
    assert len(levels(space)) == counted.levels
    assert sum(space.level_positions(lv) for lv in levels(space)) == counted.positions
    full = table_size(V2, FLOOR)
    assert (full.player_states, full.positions, full.largest_level) == (12_246, 149_964_516, 48_360)


# -- the independent brute force: value iteration over the engine's own turns ---------------------------------------
class TurnGraph:
    """One turn through the engine, for a (need, top): nodes children first; a node is a decision (the best of its
    options) or a roll (the sum over its outcomes); an edge leads to a node or, negative, to an end (−1: a zero
    roll, −1 − t: a bank of ``t`` steps)."""

    def __init__(self, start: ThousandState) -> None:
        self.nodes: list[tuple[bool, list[tuple[float, int]]]] = []
        memo: dict[Key, int] = {}
        top = engine_top(start)

        def target(s: ThousandState, c: ThousandState) -> int:
            if c.phase == OVER or c.turns != s.turns:
                return -1 - min(end_of(c), top) // 5
            return visit(c)

        def visit(s: ThousandState) -> int:
            k = node_key(s)
            if k in memo:
                return memo[k]
            edges: dict[int, float] = {}
            if s.phase == ROLLING:
                for dice, p in ROLLS[s.in_hand]:
                    t = target(s, step(s, dice, top))
                    edges[t] = edges.get(t, 0.0) + p
            else:
                for a in s.legal_actions():
                    edges[target(s, step(s, a, top))] = 1.0
            self.nodes.append((s.phase == ROLLING, [(p, t) for t, p in edges.items()]))
            memo[k] = len(self.nodes) - 1
            return memo[k]

        self.start = visit(start)
        self.top = top


SeatKey = tuple[int, bool, int]
PosKey = tuple[SeatKey, SeatKey]


@functools.cache
def brute_force(rules: ThousandRules, tol: float = 1e-12) -> dict[PosKey, tuple[float, float]]:
    """Both bounds of every position reachable from the start, by value iteration over the engine's turns (Jacobi
    within a class of turns, classes in turn): each end leads to the position the engine goes to."""

    def seat_key(s: ThousandState, p: int) -> SeatKey:
        opening = s.opening_score[p] if s.opened[p] else 0
        if opening >= rules.barrel_score:
            opening = (
                rules.open_min
            )  # the engine knocks such a seat back to the minimum: that is all it keeps
        return (s.score[p], s.opened[p], opening)

    start = ThousandState(rules, 2)
    start_key: PosKey = (seat_key(start, 0), seat_key(start, 1))
    ids = {start_key: 0}
    todo = [start_key]
    classes: dict[tuple[int, int], list[tuple[int, dict[int, int]]]] = {}
    graphs: dict[tuple[int, int], TurnGraph] = {}

    def goes(s: ThousandState) -> int:
        if s.phase == OVER:
            assert s.winner == 0
            return -1
        assert s.player == 1
        k: PosKey = (seat_key(s, 1), seat_key(s, 0))
        if k not in ids:
            ids[k] = len(ids)
            todo.append(k)
        return ids[k]

    while todo:
        k = todo.pop()
        (ms, mo, mopen), (os_, oo, oopen) = k
        s = ThousandState.from_position(
            rules,
            [ms, os_],
            opened=[mo, oo],
            on_barrel=[ms >= rules.barrel_score, os_ >= rules.barrel_score],
            opening_scores=[mopen, oopen],
        )
        top = engine_top(s)
        cls = (s.min_bank(), top)
        if cls not in graphs:
            graphs[cls] = TurnGraph(s)
        ends: dict[int, int] = {}
        c = s.clone()
        c.apply_action((2, 2, 3, 4, 6))
        ends[-1] = goes(c)
        for total in range(max(s.min_bank(), 5), top + 5, 5):
            c = s.clone()
            c.phase, c.turn_total, c.in_hand = DECIDING, total, 1
            c.apply_action(BANK)
            ends[-1 - total // 5] = goes(c)
        classes.setdefault(cls, []).append((ids[k], ends))
    n = len(ids)
    bounds = [np.zeros(n), np.ones(n)]
    plans = []
    for cls, members in classes.items():
        rows = np.array([i for i, _ in members])
        nxt = {e: np.array([m[e] for _, m in members]) for e in members[0][1]}
        plans.append((graphs[cls], rows, nxt))
    for _ in range(20_000):
        change = 0.0
        for graph, rows, nxt in plans:
            for b in (0, 1):
                other = bounds[1 - b]
                end_values = {
                    e: np.where(idx < 0, 1.0, 1.0 - other[np.maximum(idx, 0)]) for e, idx in nxt.items()
                }
                new = graph_value(graph, end_values, len(rows))
                change = max(change, float(np.abs(new - bounds[b][rows]).max()))
                bounds[b][rows] = new
        if change < tol:
            break
    return {k: (float(bounds[0][i]), float(bounds[1][i])) for k, i in ids.items()}


@pytest.mark.parametrize(
    ("ordered", "tile", "columns"),
    [(True, 16, 4), (True, 3, 1), (True, 16, 0), (True, 0, 0), (False, 0, 4)],
    ids=["tiles of 16", "tiles of 3", "barrel one by one", "pair by pair", "sweeps only"],
)
def test_the_solver_equals_value_iteration_over_the_engines_turns(
    ordered: bool, tile: int, columns: int
) -> None:
    expected = brute_force(TINY)
    table = solve(TINY, tol=1e-12, ordered=ordered, tile=tile, columns=columns)
    assert table.complete and all(lv.converged and lv.gap <= 1e-12 for lv in table.levels)
    if (
        ordered
    ):  # the barrel's sweeps and the one ordered pass solved every level: the first plain sweep certified it
        assert all(lv.sweeps == 1 and lv.endless == 0 for lv in table.levels)
    worst = 0.0
    for (mover, other), (lo, hi) in expected.items():
        assert hi - lo < 1e-9
        got = table.bounds(
            FullState(mover[0], mover[1], opening=mover[2]), FullState(other[0], other[1], opening=other[2])
        )
        worst = max(worst, abs(got[0] - lo), abs(got[1] - hi))
    assert worst < 1e-8
    assert len(expected) > 1000


def test_tiles_solve_sampled_levels_of_variant2_as_pair_by_pair() -> None:
    """The ordered pass by tiles and the barrel's movers by 4 (the default) against the first way (pair by pair, one
    by one) on real levels of two opened players (two keys, one key, near the barrel): the same bounds, each level
    certified by its first plain sweep."""
    space = build_variant2_space(V2)
    order = levels(space)
    want = [(700, 705), (600, 600), (800, 845), (780, 790)]
    picks = [i for i, (ka, kb) in enumerate(order) if (space.keys[ka], space.keys[kb]) in want]
    assert len(picks) == len(want)
    tiled = solve(V2, 1e-10, only=picks)
    pairs = solve(V2, 1e-10, only=picks, tile=0, columns=0)
    assert all(lv.converged and lv.sweeps == 1 for lv in tiled.levels)
    rows = np.concatenate([np.arange(space.key_lo[k], space.key_hi[k]) for i in picks for k in order[i]])
    block = np.ix_(rows, rows)
    assert np.abs(tiled.lower[block] - pairs.lower[block]).max() < 1e-10
    assert np.abs(tiled.upper[block] - pairs.upper[block]).max() < 1e-10
    assert tiled.lower[block].max() > 0.5  # solved, not the starting zeros


def test_the_solve_resumes_from_its_checkpoint(tmp_path: Path) -> None:
    whole = solve(TINY, tol=1e-11)
    checkpoint = tmp_path / "variant2.npz"
    part = solve(TINY, tol=1e-11, checkpoint=checkpoint, max_levels=10)
    assert not part.complete and len(part.levels) == 10 and checkpoint.exists()
    table = solve(TINY, tol=1e-11, checkpoint=checkpoint)
    assert table.complete and table.levels[:10] == part.levels  # resumed, not solved again
    assert np.array_equal(table.lower, whole.lower) and np.array_equal(table.upper, whole.upper)
    with pytest.raises(SolveError, match="another precision") as refused:
        solve(TINY, tol=1e-9, checkpoint=checkpoint)
    assert "--fresh" in refused.value.localized("uk") and "точністю" in refused.value.localized("uk")


def test_an_interrupted_solve_keeps_its_finished_levels(tmp_path: Path) -> None:
    checkpoint = tmp_path / "variant2.json"

    def stop_after_three(level: Level, count: int) -> None:
        if level.number == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):  # checkpoints due only every hour: kept by the interruption
        solve(TINY, tol=1e-11, checkpoint=checkpoint, checkpoint_every=3600.0, report=stop_after_three)
    part = solve(TINY, tol=1e-11, checkpoint=checkpoint, max_levels=0)
    assert [lv.number for lv in part.levels] == [0, 1, 2]


# -- playing from the table ----------------------------------------------------------------------------------------
def test_the_tables_player_decides_as_the_model_and_wins_first_at_the_solved_chance() -> None:
    table = solve(TINY, tol=1e-11)
    space = table.space
    start = space.start
    p = table.value(start, start)

    def value(pos: Position) -> float:
        return table.value(space.index[pos.mover], space.index[pos.opponent])

    for pos in sampled_positions(space.model, 4, seed=9):
        turn = space.model.turn(pos, value)
        mine = Variant2Turn(table, space.index[pos.mover], space.index[pos.opponent])
        assert mine.value == pytest.approx(turn.value, abs=1e-12)
        for t, n in itertools.product(range(turn.top + 3), range(1, 6)):
            assert mine.wants_roll(t * 5, n) == turn.decide(t * 5, n), (pos, t, n)
    games = 4000
    bots = [Variant2TableBot(table), Variant2TableBot(table)]
    wins = 0.0
    for i in range(games):
        seed = game_seed(2602, i)
        state = ThousandState(TINY, 2)
        play_game(state, bots, seeded_rng(seed), agent_rng(seed))
        wins += state.returns()[0]
    half_width = 2.576 * math.sqrt(p * (1 - p) / games)
    assert abs(wins / games - p) <= half_width, (wins / games, p, half_width)
