"""Every engine under junk: any text a client can send, any object a caller can pass.

Whatever arrives, ``string_to_action`` either returns an action or raises the game's ``NotationError``, and
``apply_action`` either plays it or raises ``IllegalActionError`` and changes nothing (the state's public view and
rendering are compared before and after). Texts come from hypothesis and from a seeded list of near misses built
from the real legal moves of many random positions.
"""

from __future__ import annotations

import functools
import json
import math
import random
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dicehall.core.agents import make_bot
from dicehall.core.errors import IllegalActionError, NotationError
from dicehall.core.game import State, game_names, get_game

GAMES = game_names()


@functools.cache
def positions(game: str, count: int = 40) -> tuple[State[Any], ...]:
    """``count`` positions met in seeded random-bot games (2 and 3 players), the ends of the games included."""
    g = get_game(game)
    rules = g.rules_type.from_preset(None)
    pick = random.Random(7)
    out: list[State[Any]] = []
    k = 0
    while len(out) < count:
        state = g.new_initial_state(rules, max(g.min_players, 2 + k % 2))
        bots = [make_bot(game, "random", rules) for _ in range(state.num_players)]
        rng = np.random.default_rng(k)
        k += 1
        while not state.is_terminal():
            if pick.random() < 0.1:
                out.append(state.clone())
            if state.is_chance_node():
                state.apply_action(state.sample_chance(rng))
            else:
                state.apply_action(bots[state.current_player()].choose(state, rng))
        out.append(state)
    return tuple(out[:count])


def snapshot(state: State[Any]) -> str:
    return json.dumps(state.public_view(), sort_keys=True, default=str) + "\n" + state.render()


def legal_texts(state: State[Any], rng: np.random.Generator) -> list[str]:
    if state.is_terminal():
        return []
    if state.is_chance_node():
        return [state.action_to_string(state.sample_chance(rng))]
    return [state.action_to_string(a) for a in state.legal_actions()]


def try_text(state: State[Any], text: Any) -> str:
    """Feed ``text`` to a copy of ``state``: 'notation', 'illegal' (nothing changed) or 'played'."""
    before = snapshot(state)
    try:
        action = state.string_to_action(text)
    except NotationError:
        assert snapshot(state) == before
        return "notation"
    return try_action(state, action, before)


def try_action(state: State[Any], action: Any, before: str | None = None) -> str:
    before = snapshot(state) if before is None else before
    copy = state.clone()
    try:
        copy.apply_action(action)
    except IllegalActionError as exc:
        assert snapshot(copy) == before, f"{action!r} was refused ({exc}) but changed the state"
        return "illegal"
    return "played"


MUTATIONS = [
    "99",
    "-1",
    "nan",
    "inf",
    "1e999",
    " ",
    ",",
    "0",
    "7",
    "²",
    "٣",
    "\x00",
    "@",
    ">",
    ".",
    "X",
    "+1",
]


def near_misses(text: str, pick: random.Random) -> list[str]:
    """Texts one small edit away from a real move."""
    out = [text.upper(), f"{text} {text}", text.replace("1", "7"), text + "x", " " + text + "\t", text[:-1]]
    for _ in range(8):
        chars = list(text)
        at = pick.randrange(len(chars) + 1)
        if pick.random() < 0.5 and chars:
            chars[min(at, len(chars) - 1)] = pick.choice(MUTATIONS)
        else:
            chars.insert(at, pick.choice(MUTATIONS))
        out.append("".join(chars))
    return out


FIXED_JUNK = [
    "",
    " ",
    "\x00",
    "\ufeffroll",
    "x" * 5000,
    "nan",
    "1e309",
    "-0",
    "²",
    "٣٣٣٣٣",
    "keep",
    "keep ²",
    "Y6",
    "W7",
    "y:y.r9c9",
    "x y.r1c1",
    "black o",
    "platter",
    "W3 Y5 B2 G1 O6 P4 platter W,W,W,W",
    "throw nan,nan p0.5",
    "throw 1e400,3 p2",
    "throw -1,-1 p-1 s2",
    "throw c3 pnan",
    "move 0>nan,1",
    "move 99999999999999999999>1,1",
    "move 0>1,1 0>2,2",
    "lands",
    "lands 9@1,1,1",
    "lands 3@1e999,1,0",
    "start 9",
    "start X",
    "start 3@-50,0,0",
]


def near_miss_sweep(game: str, states: int) -> dict[str, int]:
    pick = random.Random(game)
    rng = np.random.default_rng(1)
    outcomes: dict[str, int] = {}
    for state in positions(game)[:states]:
        texts = list(FIXED_JUNK)
        legal = legal_texts(state, rng)
        for text in pick.sample(legal, k=min(3, len(legal))):
            texts.append(text)
            texts += near_misses(text, pick)
        for text in texts:
            verdict = try_text(state, text)
            outcomes[verdict] = outcomes.get(verdict, 0) + 1
    return outcomes


@pytest.mark.parametrize("game", GAMES)
def test_near_misses_of_real_moves_and_fixed_junk(game: str) -> None:
    outcomes = near_miss_sweep(game, 8)
    assert outcomes.get("notation", 0) > 100 and outcomes.get("played", 0) > 5, outcomes


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_near_misses_in_many_positions(game: str) -> None:
    near_miss_sweep(game, 40)


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(index=st.integers(0, 39), text=st.text(max_size=60))
def test_any_text_is_read_or_refused_and_changes_nothing(game: str, index: int, text: str) -> None:
    try_text(positions(game)[index], text)


TEXTLIKE = st.text(alphabet="0123456789,. -+>@:xXrcwybgopWYBGOPkeplandsthrowmvrtq²", max_size=30)


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(index=st.integers(0, 39), text=TEXTLIKE)
def test_notation_like_text_is_read_or_refused_and_changes_nothing(game: str, index: int, text: str) -> None:
    try_text(positions(game)[index], text)


NOT_TEXT: list[Any] = [
    None,
    5,
    5.0,
    True,
    [1, 2],
    ("roll",),
    {"move": "roll"},
    b"roll",
    object(),
    float("nan"),
]


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("junk", NOT_TEXT, ids=lambda v: type(v).__name__)
def test_string_to_action_refuses_what_is_not_text(game: str, junk: Any) -> None:
    state = positions(game)[3]
    with pytest.raises(NotationError):
        state.string_to_action(junk)


NOT_ACTIONS: list[Any] = [
    None,
    1.0,
    True,
    [],
    [1, 1, 1, 5, 2],
    -1,
    2**70,
    float("nan"),
    object(),
    {"a": 1},
    b"x",
]


@pytest.mark.parametrize("game", GAMES)
def test_objects_that_are_no_action_are_refused(game: str) -> None:
    for state in positions(game)[:6]:
        for junk in NOT_ACTIONS:
            assert try_action(state, junk) == "illegal", junk


# -- Dice 1000 ---------------------------------------------------------------------------------------------------
def thousand_at_roll() -> Any:
    g = get_game("thousand")
    state = g.new_initial_state(g.rules_type.from_preset(None), 2)
    assert state.is_chance_node()
    return state


@pytest.mark.parametrize(
    "dice",
    [
        (1.0, 1, 1, 5, 2),
        (True, 1, 1, 5, 2),
        (np.float64(1.0), 1, 1, 5, 2),
        (1, 1, 1, 5, 2.5),
        (np.bool_(True),) * 5,
    ],
    ids=repr,
)
def test_thousand_refuses_dice_that_are_not_whole_numbers(dice: tuple[Any, ...]) -> None:
    state = thousand_at_roll()
    before = snapshot(state)
    with pytest.raises(IllegalActionError, match=r"whole numbers|shows 1\.\.6") as info:
        state.apply_action(dice)
    assert info.value.rule == "dice-values" and snapshot(state) == before


def test_thousand_takes_numpy_integers_as_plain_dice() -> None:
    state = thousand_at_roll()
    state.apply_action(tuple(np.int64(v) for v in (1, 1, 1, 5, 2)))
    assert state.last_roll == (1, 1, 1, 5, 2) and all(type(v) is int for v in state.last_roll)
    assert state.action_to_string(state.last_roll) == "1,1,1,5,2"


@pytest.mark.parametrize("u", [-0.1, 1.0, 1.5, float("nan"), float("inf"), -float("inf"), "0.5", None, True])
def test_thousand_apply_chance_uniform_refuses_draws_outside_0_1(u: Any) -> None:
    state = thousand_at_roll()
    before = snapshot(state)
    with pytest.raises(IllegalActionError) as info:
        state.apply_chance_uniform(u)
    assert info.value.rule == "chance-uniform" and snapshot(state) == before
    assert state.apply_chance_uniform(0.0) == (1, 1, 1, 1, 1)
    assert thousand_at_roll().apply_chance_uniform(math.nextafter(1.0, 0.0)) == (6, 6, 6, 6, 6)


def test_thousand_notation_reads_only_whole_dice() -> None:
    state = thousand_at_roll()
    for text in ("1.0,1,1,5,2", "1,1,1,5,²", "1,1,1,5,٣", "True,1,1,5,2"):
        with pytest.raises(NotationError):
            state.string_to_action(text)
    assert state.string_to_action("11152") == (1, 1, 1, 5, 2)


# -- Ganz schön clever ----------------------------------------------------------------------------------------
def clever_code_sweep(states: int, codes: list[int]) -> None:
    for state in positions("clever")[:states]:
        assert try_text(state, "Y6") in ("illegal", "played")
        for code in codes:
            try_action(state, code)


def test_clever_y6_and_sampled_codes_end_in_illegal_action() -> None:
    pick = random.Random(3)
    codes = pick.sample(range(1 << 16), 150) + [1 << 24 | pick.randrange(1 << 24) for _ in range(50)]
    clever_code_sweep(3, [*codes, 2**40 + 5, (1 << 12) | (5 << 5), (1 << 12) | (7 << 8), 31, 1 << 25])


@pytest.mark.slow
def test_clever_every_well_formed_decision_code_ends_in_illegal_action() -> None:
    from dicehall.clever.actions import is_valid_code

    pick = random.Random(4)
    codes = [c for c in range(1 << 16) if is_valid_code(c)] + pick.sample(range(1 << 26), 1000)
    clever_code_sweep(3, codes)  # ≈45 s of CPU


def test_clever_refuses_an_outcome_code_with_bits_above_the_chance_flag() -> None:
    from dicehall.clever import actions as A

    g = get_game("clever")
    state = g.new_initial_state(g.rules_type.from_preset(None), 2)
    roll = state.sample_chance(np.random.default_rng(0))
    for extra in (1 << 25, 1 << 30, 1 << 70):
        before = snapshot(state)
        with pytest.raises(IllegalActionError) as info:
            state.apply_action(roll | extra)
        assert info.value.rule == "chance" and snapshot(state) == before
    assert roll & A.CHANCE_FLAG and state.string_to_action(state.action_to_string(roll)) == roll


# -- Der große Wurf -----------------------------------------------------------------------------------------------
def wurf_at_throw(arena_dice: int = 1) -> Any:
    """A 2-player Der große Wurf position where a player is to throw with at least ``arena_dice`` in the arena."""
    from dicehall.wurf.actions import Throw

    g = get_game("wurf")
    rules = g.rules_type.from_preset(None)
    for seed in range(200):
        rng = np.random.default_rng(seed)
        state = g.new_initial_state(rules, 2)
        state.apply_action(state.sample_chance(rng))  # the first die into the arena
        if arena_dice <= 1:
            return state
        state.apply_action(Throw(100, 100, 0.2))  # a gentle throw next to it
        state.apply_action(state.sample_chance(rng))
        if state.phase == "choice" and len(state.arena) >= arena_dice:
            return state
    raise AssertionError("no position with enough arena dice")


def test_wurf_throw_space_bounds() -> None:
    from dicehall.core.game import CHANCE
    from dicehall.wurf.actions import Throw
    from dicehall.wurf.arena.base import ARENA_MM

    state = wurf_at_throw()
    nan, inf = float("nan"), float("inf")
    for throw in [
        Throw(100, 100, 1.01),
        Throw(100, 100, -0.01),
        Throw(100, 100, nan),
        Throw(100, 100, inf),
        Throw(nan, 100, 0.5),
        Throw(-0.1, 100, 0.5),
        Throw(100, ARENA_MM + 0.1, 0.5),
        Throw(100, 100, 0.5, 1.5),
        Throw(100, 100, 0.5, nan),
        Throw("100", 100, 0.5),  # type: ignore[arg-type]
        Throw(True, 100, 0.5),
    ]:
        assert try_action(state, throw) == "illegal", throw
    for throw in [Throw(0, 0, 0), Throw(ARENA_MM, ARENA_MM, 1.0, 1.0), Throw(37.5, 180.25, 0.33, 0.0)]:
        copy = state.clone()
        copy.apply_action(throw)
        assert copy.current_player() == CHANCE


def test_wurf_rearrangement_bounds() -> None:
    from dicehall.wurf.actions import Rearrange
    from dicehall.wurf.arena.base import ARENA_MM

    state = wurf_at_throw(arena_dice=2)
    assert len(state.arena) >= 2
    d0, d1 = state.arena[0], state.arena[1]
    for moves in [
        ((0, -5.0, 100.0),),  # out of the arena
        ((0, ARENA_MM, ARENA_MM),),  # on the wall: not lying flat inside
        ((0, float("nan"), 100.0),),
        ((0, float("inf"), 100.0),),
        ((len(state.arena), 100.0, 100.0),),  # no such die
        ((-1, 100.0, 100.0),),
        ((1.0, 100.0, 100.0),),
        ((True, 100.0, 100.0),),
        ((0, d1.x, d1.y),),  # onto another die
        ((0, 100.0, 100.0), (0, 120.0, 120.0)),  # the same die twice
        (),
        ((0, 100.0),),
        ((0, "a", 100.0),),
    ]:
        assert try_action(state, Rearrange(moves)) == "illegal", moves  # type: ignore[arg-type]
    assert d0.x is not None


def test_wurf_malformed_outcomes_and_setups() -> None:
    from dicehall.wurf.actions import Landed, Outcome, Setup, Throw

    g = get_game("wurf")
    fresh = g.new_initial_state(g.rules_type.from_preset(None), 2)
    for setup in [Setup(9), Setup(2.5), Setup(True), Setup(3, float("nan"), 5.0), Setup(3, 100.0, None)]:  # type: ignore[arg-type]
        assert try_action(fresh, setup) == "illegal", setup
    state = wurf_at_throw()
    state.apply_action(Throw(100, 100, 0.5))
    n = len(state.arena) + state.pending_count
    for die in [
        Landed("arena", 2.5, 10.0, 10.0),  # type: ignore[arg-type]
        Landed("arena", True, 10.0, 10.0),
        Landed("arena", 3, float("nan"), 10.0),
        Landed("arena", 3, 10.0, 10.0, float("inf")),
        Landed("arena", 3, 10.0, None),
        Landed("arena", 9, 10.0, 10.0),
        Landed("flying", 3),
        Landed("arena", 3, -500.0, 10.0),
    ]:
        assert try_action(state, Outcome((die,) * n)) == "illegal", die
    assert try_action(state, Outcome((1, 2))) == "illegal"  # type: ignore[arg-type]
    assert try_action(state, Outcome("lands")) == "illegal"  # type: ignore[arg-type]


# -- records: a refused move in the middle of a record leaves the replay as it was ---------------------------------
@pytest.mark.parametrize("game", GAMES)
def test_records_replay_after_refused_junk(game: str) -> None:
    g = get_game(game)
    rules = g.rules_type.from_preset(None)
    state = g.new_initial_state(rules, max(2, g.min_players))
    bots = [make_bot(game, "random", rules) for _ in range(state.num_players)]
    rng = np.random.default_rng(11)
    moves: list[tuple[Any, str]] = []
    pick = random.Random(5)
    while not state.is_terminal() and len(moves) < 300:
        for text in near_misses(pick.choice(FIXED_JUNK) or "x", pick)[:3]:
            try_text(state, text)
        chance = state.is_chance_node()
        action = state.sample_chance(rng) if chance else bots[state.current_player()].choose(state, rng)
        moves.append(("chance" if chance else state.current_player(), state.action_to_string(action)))
        state.apply_action(action)
    again = g.new_initial_state(rules, state.num_players)
    for _, text in moves:
        again.apply_action(again.string_to_action(text))
    assert snapshot(again) == snapshot(state)
