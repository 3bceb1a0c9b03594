"""The exact table sizes of every preset (``solver/size.py``): the search against the solver's model and the engine.

- On the rules the model covers, the search finds exactly the player states reachable through the model's own
  transition tables from the start, and the model's other states are the unopened scores no play reaches.
- The presets the model refuses: their counts, against closed forms worked out by hand from the rules.
- The search's effects on one seat equal the engine's (``ThousandState``) for sampled states of every preset, and
  every turn start of random engine games lies in the counted positions (yard's skip flag included).
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from dicehall.core.errors import RuleConfigError
from dicehall.core.game import CHANCE
from dicehall.thousand.rules import ThousandRules
from dicehall.thousand.solver.size import FullState, Seat, needs, player_states, table_size
from dicehall.thousand.solver.space import MAX_POSITIONS, PlayerState, build_space
from dicehall.thousand.state import BANK, ROLL, ThousandState

FLOOR = -300
PRESETS = {name: ThousandRules.from_preset(name) for name in ("classic", "classic-open", "variant2", "yard")}
NOBARREL = ThousandRules.from_preset("classic-nobarrel")


def model_reachable(rules: ThousandRules) -> set[PlayerState]:
    """The model's player states reachable from the start through its own tables (banks, burns, overtaking,
    knock-offs): written without the search."""
    space = build_space(rules, FLOOR)
    seen = {space.start}
    todo = [space.start]
    while todo:
        i = todo.pop()
        nxt = [int(space.burn_next[i]), int(space.ovt_next[i])]
        if space.knock_next[i] >= 0:
            nxt.append(int(space.knock_next[i]))
        nxt += [int(j) for j in space.bank_next[i] if j >= 0]
        for j in nxt:
            if j not in seen:
                seen.add(j)
                todo.append(j)
    return {space.states[i] for i in seen}


@pytest.mark.parametrize("rules", [PRESETS["classic"], NOBARREL], ids=["classic", "classic-nobarrel"])
def test_the_search_finds_the_models_reachable_states(rules: ThousandRules) -> None:
    found = {
        PlayerState(p.score, p.opened, p.bolts, p.falls, p.attempts) for p in player_states(rules, FLOOR)
    }
    assert all(p.points == 0 and p.opening == 0 for p in player_states(rules, FLOOR))
    assert found == model_reachable(rules)
    space = build_space(rules, FLOOR)
    extra = set(space.states) - found
    # the model keeps every unopened score from the floor to 0; only overtaking (-50 at a time) moves one
    assert extra == {p for p in space.states if not p.opened and p.score % rules.overtake_penalty}
    size = table_size(rules, FLOOR)
    assert size.player_states == len(found) and size.positions == len(found) ** 2
    assert space.positions == space.size**2 == (len(found) + len(extra)) ** 2


def test_classic_sizes_and_levels() -> None:
    size = table_size(PRESETS["classic"], FLOOR)
    assert (size.player_states, size.positions) == (2_149, 4_618_201)
    assert build_space(PRESETS["classic"], FLOOR).positions == 4_853_209  # 54 unreachable unopened states
    # levels by falls: {0,2} holds 2 x (7 unopened + 714 opened) x 714 positions
    assert (size.levels, size.largest_level) == (6, 2 * 721 * 714)


def test_the_refused_presets_sizes_against_closed_forms() -> None:
    nobarrel = table_size(NOBARREL, FLOOR).player_states
    # open barrel: the no-barrel states (scores to 995) times the points 0..5 (any score can pass the target)
    open_ = table_size(PRESETS["classic-open"], FLOOR)
    assert open_.player_states == 6 * nobarrel == 4_704
    assert (open_.positions, open_.levels) == (4_704**2, 1)  # points go back to 0 at a fall: one level
    # variant 2: scores never fall but to the opening score o; opened states are o <= s <= 850, o in 75..845
    v2 = table_size(PRESETS["variant2"], FLOOR)
    opened = sum((850 - o) // 5 + 1 for o in range(75, 850, 5))
    assert v2.player_states == opened + 1 == 12_246 and v2.positions == 12_246**2 == 149_964_516
    # levels: one per pair of opening scores (unopened: its own), the largest o = 75 against o = 80
    assert v2.levels == 156 * 157 // 2 and v2.largest_level == 2 * 156 * 155
    # yard: 259 opened scores from -300 to 995 (not 555) x 3 bolts x 3 falls, x 3 attempts on 905..995,
    # and 7 unopened scores (0, -50, ..., -300)
    yard = table_size(PRESETS["yard"], FLOOR)
    assert yard.player_states == 240 * 9 + 19 * 27 + 7 == 2_680
    assert yard.positions == 13_525_911 and yard.levels == 6
    for size in (open_, v2, yard):
        assert size.positions > MAX_POSITIONS


@pytest.mark.parametrize("name", ["classic", "variant2", "yard"])
def test_levels_are_never_left_for_an_earlier_one(name: str) -> None:
    """The levels counted are real: a seat's falls never go down, and variant 2's opening score is set once."""
    rules = PRESETS[name]
    seat = Seat(rules, FLOOR)
    for p in player_states(rules, FLOOR):
        for q in map(seat.canonical, seat.after_turn(p)):
            assert q.falls >= p.falls, (p, q)
            if name == "variant2" and p.opened:
                assert q.opened and q.opening == p.opening, (p, q)


def test_the_yard_skip_flag_doubles_only_positions_after_a_zero_roll() -> None:
    rules = PRESETS["yard"]
    states = player_states(rules, FLOOR)
    seat = Seat(rules, FLOOR)
    after_zero = {seat.canonical(seat.fail(p, zero=True)) for p in states}
    unopened = sum(1 for p in states if not p.opened)
    both_unopened = unopened * sum(1 for p in after_zero if not p.opened)
    expected = len(states) ** 2 + len(states) * len(after_zero) - both_unopened
    assert table_size(rules, FLOOR).positions == expected
    # a zero roll on the barrel always uses an attempt: no flagged opponent sits there with none used
    assert not any(p.score >= rules.barrel_score and p.attempts == 0 for p in after_zero)


def test_needs_scale_from_classic() -> None:
    classic = needs(table_size(PRESETS["classic"], FLOOR))
    assert 1.5 < classic.memory_gb < 3 and 0.08 < classic.cpu_hours < 0.2  # measured: 2.25 GB, 489 CPU-s
    assert needs(table_size(PRESETS["classic-open"], FLOOR)).memory_gb > 23  # one level: past this machine
    assert needs(table_size(PRESETS["variant2"], FLOOR)).memory_gb < 3  # small levels, one value a position


# -- the search's effects against the engine -----------------------------------------------------------------------
def engine_seat(s: ThousandState, seat: int) -> FullState:
    return FullState(
        s.score[seat],
        s.opened[seat],
        s.bolts[seat],
        s.falls[seat],
        s.attempts[seat],
        s.points[seat],
        s.opening_score[seat],
        s.open_fails[seat],
    )


def engine_position(rules: ThousandRules, mover: FullState, other: FullState) -> ThousandState:
    seats = (mover, other)
    return ThousandState.from_position(
        rules,
        [p.score for p in seats],
        opened=[p.opened for p in seats],
        on_barrel=[rules.barrel == "score" and p.score >= rules.barrel_score for p in seats],
        barrel_attempts=[p.attempts for p in seats],
        barrel_falls=[p.falls for p in seats],
        bolts=[p.bolts for p in seats],
        open_points=[p.points for p in seats],
        opening_scores=[p.opening if p.opened else 0 for p in seats],
        anyone_banked=mover.opened or other.opened,
    )


@pytest.mark.parametrize("name", list(PRESETS))
def test_the_searchs_effects_equal_the_engine(name: str) -> None:
    rules = PRESETS[name]
    seat = Seat(rules, FLOOR)
    states = player_states(rules, FLOOR)
    index = set(states)
    rng = random.Random(26)
    special = [p for p in states if p.attempts or p.falls or p.points or p.score >= 850 or not p.opened]
    pairs = [(rng.choice(states), rng.choice(states)) for _ in range(150)]
    pairs += [(rng.choice(special), rng.choice(states)) for _ in range(100)]
    pairs += [(rng.choice(states), rng.choice(special)) for _ in range(100)]
    for mover, other in pairs:
        if min(mover.score, other.score) < FLOOR + 200:
            continue  # the floor is the search's own rule; the engine goes lower
        start = engine_position(rules, mover, other)
        # a zero first roll
        s = start.clone()
        s.apply_action((2, 2, 3, 4, 6))
        assert seat.canonical(engine_seat(s, 0)) == seat.canonical(seat.fail(mover, zero=True)) in index
        if rules.skip_on_zero_first:
            assert s.skip_next[0] == (mover.opened or other.opened)
        # a turn ended by passing the target (one die showing 1 on top of the largest total allowed)
        limit = seat.limit(mover)
        if limit is not None and limit >= max(seat.need(mover), 5):
            s = start.clone()
            s.phase, s.turn_total, s.in_hand = 1, limit, 1
            s.apply_action(ROLL)
            s.apply_action((1,))
            assert s.player == 1 and s.winner is None
            got = seat.canonical(engine_seat(s, 0))
            assert got == seat.canonical(seat.fail(mover, zero=False)) in index
        # every bank
        hits = {seat.canonical(p) for p in seat.hit(other)} | {other}
        for total in range(5, seat.top(mover) + 5, 5):
            s = start.clone()
            s.phase, s.turn_total, s.in_hand = 1, total, 1
            if total not in seat.bank_totals(mover):
                assert not s.can_bank(), (mover, total)
                continue
            s.apply_action(BANK)
            after = seat.bank(mover, total)
            if after is None:
                assert s.winner == 0
                continue
            assert s.winner is None
            assert seat.canonical(engine_seat(s, 0)) == seat.canonical(after) in index, (mover, total)
            assert seat.canonical(engine_seat(s, 1)) in hits, (mover, other, total)


def turn_starts(rules: ThousandRules, games: int, seed: int) -> list[tuple[FullState, FullState, bool]]:
    """(mover, opponent, opponent skips its next turn) at every turn start of random two-player games: bank
    with chance 0.3 wherever allowed (which plays long games that reach the barrel)."""
    seat = Seat(rules, FLOOR)
    rng = random.Random(seed)
    out = []
    for _ in range(games):
        s = ThousandState(rules, 2)
        turns = -1
        for _ in range(4000):
            if s.is_terminal():
                break
            if s.turns != turns:
                turns, p = s.turns, s.player
                out.append(
                    (
                        seat.canonical(engine_seat(s, p)),
                        seat.canonical(engine_seat(s, 1 - p)),
                        s.skip_next[1 - p],
                    )
                )
                assert not s.skip_next[p]
            if s.current_player() == CHANCE:
                s.apply_chance_uniform(rng.random())
            else:
                actions = s.legal_actions()
                s.apply_action(BANK if BANK in actions and rng.random() < 0.3 else rng.choice(actions))
    return out


@pytest.mark.parametrize("name", list(PRESETS))
def test_engine_games_stay_in_the_counted_positions(name: str) -> None:
    rules = PRESETS[name]
    states = set(player_states(rules, FLOOR))
    seat = Seat(rules, FLOOR)
    after_zero = {seat.canonical(seat.fail(p, zero=True)) for p in states}
    seen = turn_starts(rules, 40, seed=len(name))
    kinds = Counter()
    for mover, other, flagged in seen:
        assert mover in states and other in states, (mover, other)
        if flagged:
            assert other in after_zero and (mover.opened or other.opened)
            kinds["flagged"] += 1
        kinds["barrel" if max(mover.score, other.score) >= 850 else "below"] += 1
    assert kinds["barrel"] > 0
    if rules.skip_on_zero_first:
        assert kinds["flagged"] > 0


def test_the_refusal_names_the_rules_the_size_and_the_need() -> None:
    with pytest.raises(RuleConfigError) as err:
        build_space(PRESETS["variant2"])
    text = str(err.value)
    assert "barrel_knock = opening" in text and "hot_dice = confirm" in text
    assert "149964516 positions (12246 situations of each player)" in text and "GB of memory" in text
    ru = err.value.localized("ru").replace("\u00a0", " ")  # Russian groups digits with no-break spaces
    assert "149 964 516 позиций" in ru and "barrel_knock = opening" in ru
