"""One conformance suite for every registered game, in the spirit of OpenSpiel's random-simulation test.

The games come from the registry (:func:`~dicehall.core.game.game_names`), so a game is covered the moment it
registers. Seeded random games are played under the default rules, every preset the game offers and the default
rules with each yes/no option turned the other way, and the positions met are held to the protocol of
:mod:`dicehall.core.game` (actions are taken to be hashable, as they are in every game so far):

* a clone equals its original and is independent of it both ways; positions are compared through a full
  snapshot (every attribute of the state, deep, and its public view, legal moves, scores, returns and stats);
* every legal action and every chance outcome survives its notation (``action_to_string`` then
  ``string_to_action``) and the parsed action plays exactly like the original; chance that cannot be enumerated
  (Der große Wurf's throws) is sampled;
* enumerable chance outcomes are distinct, each has a probability above 0, together 1, and they are the chance
  node's legal actions; a sampled outcome is one of them; the fast paths (``sample_and_apply_chance``,
  ``apply_chance_uniform``) give what ``sample_chance`` + ``apply_action`` give, and the same seeds the same game;
* every listed decision is taken; ``public_view`` is JSON, holds the keys core and the web server read, keeps
  them in every position and agrees with the state;
* a refused move (no action at all, a chance outcome at a decision, a decision at a chance node, anything once
  the game is over; ``sample_chance`` away from a chance node) raises :class:`IllegalActionError` naming a rule
  and changes nothing; moves seen in other positions and near misses of the move played are refused so, or
  taken and then play as their notation read back;
* a finished game has ``TERMINAL`` to move, no legal actions, one return per seat (together 1), and replays from
  its record (after a JSON round trip), also part of the way.

What the web views read of each game is held by tests/browser/test_*view_contract.py, junk text and junk objects
in many positions by tests/core/test_engine_junk.py.
"""

from __future__ import annotations

import dataclasses
import enum
import json
import math
import random
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from dicehall.core.agents import RandomAgent
from dicehall.core.errors import IllegalActionError, RuleConfigError
from dicehall.core.game import CHANCE, TERMINAL, ChanceNotEnumerable, Game, State, game_names, get_game
from dicehall.core.record import GameRecord, replay
from dicehall.core.rules import RuleSet

GAMES = game_names()

NOT_POSITION = {
    "_model": "Der große Wurf's arena model: built on a state's first sampled throw, a replay never builds it",
}
"""State attributes that are no part of the position, by name (the snapshot leaves them out)."""

NO_ACTIONS: list[Any] = [None, object(), -1, 2**70, 1.5, float("nan"), True, b"x", [], {}]
"""Objects that are no action of any game: every state must refuse them."""

CORE_VIEW_KEYS: dict[str, tuple[type, ...]] = {
    "game": (str,),
    "current_player": (int, str, type(None)),
    "legal_actions": (list,),
    "terminal": (bool,),
    "scores": (list,),
    "winners": (list,),
}
"""What ``State.public_view`` must hold (core) and the server and table page read of every game."""

OPTIONAL_VIEW_KEYS: dict[str, tuple[type, ...]] = {"events": (list,), "players": (list,)}
"""Read by the server (``dicehall.web.live.page_view``) when present."""

EXACT_CHANCE_LIMIT = 10_000
"""In ``make test``, enumerable chance nodes with more outcomes than this (Clever's six dice and solo platter
rolls) have the notation of a sample of 2,000 read back; the slow suite reads back every one."""

NOTATION_CHECKED: dict[tuple[str, int, int], bool] = {}
"""Outcome sets met before in this process, and whether every notation of them was read back: later meetings
read back a small sample (unless a limit now allows every one where only a sample was read before)."""


# -- snapshots -------------------------------------------------------------------------------------------------
def _data(value: Any, depth: int = 0) -> Any:
    """``value`` as plain JSON-able data, deep (objects by their attributes), for comparing positions."""
    if depth > 20:
        raise AssertionError(f"state data nested too deep (a cycle?) at {type(value).__name__}")
    if isinstance(value, float):
        return repr(value)  # nan == nan, and -0.0 differs from 0.0
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, bytes):
        return ["bytes", value.hex()]
    if isinstance(value, enum.Enum):
        return ["enum", type(value).__qualname__, value.name]
    if isinstance(value, np.ndarray):
        return ["ndarray", value.dtype.str, _data(value.tolist(), depth + 1)]
    if isinstance(value, np.generic):
        return ["numpy", type(value).__name__, _data(value.item(), depth + 1)]
    if isinstance(value, dict):
        items = [[_data(k, depth + 1), _data(v, depth + 1)] for k, v in value.items()]
        return [type(value).__qualname__, sorted(items, key=repr)]
    if isinstance(value, list | tuple):
        return [type(value).__qualname__, [_data(v, depth + 1) for v in value]]
    if isinstance(value, set | frozenset):
        return [type(value).__qualname__, sorted((_data(v, depth + 1) for v in value), key=repr)]
    if callable(value) and not hasattr(value, "__dict__") and not hasattr(type(value), "__slots__"):
        return ["callable", getattr(value, "__qualname__", type(value).__qualname__)]
    return [type(value).__qualname__, {k: _data(v, depth + 1) for k, v in sorted(_attributes(value).items())}]


def _attributes(obj: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for cls in type(obj).__mro__:
        slots = cls.__dict__.get("__slots__", ())
        for name in (slots,) if isinstance(slots, str) else slots:
            if name not in ("__dict__", "__weakref__") and hasattr(obj, name):
                out[name] = getattr(obj, name)
    out.update(getattr(obj, "__dict__", {}))
    return out


@dataclasses.dataclass
class Table:
    """One game set-up: the game, its rules and seats, and which state attributes snapshots leave out."""

    game: Game[Any]
    rules: RuleSet
    players: int
    left_out: frozenset[str]

    @classmethod
    def make(
        cls, game: str, preset: str | None, players: int, overrides: dict[str, Any] | None = None
    ) -> Table:
        g = get_game(game)
        rules = g.rules_type.from_preset(preset, overrides)
        a, b = g.new_initial_state(rules, players), g.new_initial_state(rules, players)
        va, vb = _attributes(a), _attributes(b)
        # Mutable objects two fresh states hold in common are tables and memos shared by design (the rules, a
        # roll table): the same in every state of this set-up, so left out of snapshots (they can be large).
        shared = {name for name, value in va.items() if vb.get(name) is value and _table_like(value)}
        # An attribute holding the very list legal_actions() returned is a cache of it (compared as ``legal``).
        after_chance = a.child(a.sample_chance(np.random.default_rng(0))) if a.is_chance_node() else a
        for state in (a, after_chance):
            try:
                legal = state.legal_actions()
            except ChanceNotEnumerable:
                continue
            shared |= {name for name, value in _attributes(state).items() if value is legal}
        return cls(g, rules, players, frozenset(shared))

    def new(self) -> State[Any]:
        state = self.game.new_initial_state(self.rules, self.players)
        state.set_names(self.names())
        return state

    def names(self) -> list[str]:
        return [f"P{i + 1}" for i in range(self.players)]


def _table_like(value: Any) -> bool:
    """A value that, held by two fresh states in common, is a shared table rather than an equal small value."""
    if isinstance(value, tuple):
        return len(repr(value)) > 200  # () or (0, 0) may be the same object by chance
    return not isinstance(value, bool | int | float | str | bytes | type(None))


def snapshot(state: State[Any], table: Table) -> str:
    """Everything about ``state`` as text: equal snapshots, equal positions.

    Decisions are compared by notation; a chance node's outcomes follow from the position (and may be tens of
    thousands), so they are checked by :func:`check_chance` instead.
    """
    cur = state.current_player()
    legal = [] if cur in (CHANCE, TERMINAL) else [state.action_to_string(a) for a in state.legal_actions()]
    fields = {
        name: _data(value)
        for name, value in _attributes(state).items()
        if name not in table.left_out and name not in NOT_POSITION
    }
    whole = {
        "current_player": cur,
        "legal": legal,
        "view": state.public_view(),
        "scores": state.scores(),
        "returns": state.returns(),
        "stats": state.stats(),
        "fields": fields,
    }
    return json.dumps(whole, sort_keys=True, default=repr)


# -- one game, played at random and recorded --------------------------------------------------------------------
@dataclasses.dataclass
class Played:
    table: Table
    seed: int
    actions: list[Any]
    chance: list[bool]
    record: GameRecord
    final: State[Any]


def play(table: Table, seed: int, max_steps: int = 50_000) -> Played:
    """A seeded game of uniformly random decisions to the end, recorded; every action's notation is read back."""
    state = table.new()
    dice, bots = np.random.default_rng(seed), np.random.default_rng(seed + 7919)
    agent = RandomAgent(table.rules)
    record = GameRecord.start(table.game.name, table.rules, table.names(), seed)
    actions: list[Any] = []
    chance: list[bool] = []
    for _ in range(max_steps):
        if state.is_terminal():
            break
        is_chance = state.is_chance_node()
        action = state.sample_chance(dice) if is_chance else agent.choose(state, bots)
        text = state.action_to_string(action)
        assert state.string_to_action(text) == action, (text, action)
        record.add(state, action)
        state.apply_action(action)
        actions.append(action)
        chance.append(is_chance)
    assert state.is_terminal(), f"no end after {max_steps} steps"
    record.finish(state)
    return Played(table, seed, actions, chance, record, state)


# -- checks of one position -------------------------------------------------------------------------------------
def check_view(state: State[Any], table: Table) -> set[str]:
    view = json.loads(json.dumps(state.public_view(), allow_nan=False))  # what a page gets
    # A spectator's view: a game that hides simultaneous choices until all have chosen (Clever's passive players)
    # shows the position as the phase found it; the view must agree with that position.
    real = state
    hidden = state.hidden_from(None) if hasattr(state, "hidden_from") else ()
    state = state.seen_by(None) if hasattr(state, "seen_by") else state
    for key, types in CORE_VIEW_KEYS.items():
        assert key in view, f"public_view lacks {key!r}"
        assert isinstance(view[key], types), (key, view[key])
    for key, types in OPTIONAL_VIEW_KEYS.items():
        if key in view:
            assert isinstance(view[key], types), (key, view[key])
    if isinstance(view.get("players"), list):
        assert len(view["players"]) == state.num_players and all(isinstance(p, dict) for p in view["players"])
    assert view["game"] == table.game.name
    cur = state.current_player()
    assert view["current_player"] == ("chance" if cur == CHANCE else None if cur == TERMINAL else cur)
    assert view["terminal"] is state.is_terminal()
    assert view["scores"] == state.scores() and len(view["scores"]) == state.num_players
    if cur == TERMINAL:
        assert view["legal_actions"] == [] and view["winners"] == state.winners()
    elif cur == CHANCE or (cur in hidden and real.began_choosing(cur)):
        assert view["legal_actions"] == []
    else:
        assert view["legal_actions"] == [real.action_to_string(a) for a in real.legal_actions()]
    return set(view)


def check_basics(state: State[Any]) -> None:
    n = state.num_players
    cur = state.current_player()
    assert cur in (CHANCE, TERMINAL) or 0 <= cur < n, cur
    assert state.is_chance_node() is (cur == CHANCE) and state.is_terminal() is (cur == TERMINAL)
    assert len(state.scores()) == n and len(state.returns()) == n
    assert isinstance(state.render(), str) and state.render()
    roller = state.roller()
    assert roller is None or 0 <= roller < n, roller
    if cur not in (CHANCE, TERMINAL):
        legal = state.legal_actions()
        assert len(legal) > 0, "a decision node without legal actions"
        texts = [state.action_to_string(a) for a in legal]
        assert len(set(texts)) == len(texts), "legal actions with the same notation"


def plays_alike(state: State[Any], a: Any, b: Any, table: Table) -> None:
    """``a`` and ``b`` (an action and its notation read back) lead to the same position."""
    one, two = state.clone(), state.clone()
    one.apply_action(a)
    two.apply_action(b)
    assert snapshot(one, table) == snapshot(two, table), f"{a!r} and {b!r} (its notation read back) differ"


def round_trip(state: State[Any], action: Any, table: Table, play_it: bool) -> None:
    text = state.action_to_string(action)
    assert isinstance(text, str) and text, action
    back = state.string_to_action(text)
    assert back == action, (text, back, action)
    assert state.action_to_string(back) == text
    if play_it:
        plays_alike(state, action, back, table)


def check_fast_chance(state: State[Any], table: Table, seed: int) -> None:
    """The optional fast paths of a chance step give what ``sample_chance`` + ``apply_action`` give."""
    plain, plain_rng = state.clone(), np.random.default_rng(seed)
    outcome = plain.sample_chance(plain_rng)
    plain.apply_action(outcome)
    fast, fast_rng = state.clone(), np.random.default_rng(seed)
    assert fast.sample_and_apply_chance(fast_rng) == outcome
    assert snapshot(fast, table) == snapshot(plain, table)
    assert fast_rng.bit_generator.state == plain_rng.bit_generator.state
    if state.uniform_chance:
        uniform = state.clone()
        assert uniform.apply_chance_uniform(np.random.default_rng(seed).random()) == outcome
        assert snapshot(uniform, table) == snapshot(plain, table)


def check_chance(
    state: State[Any], table: Table, rng: np.random.Generator, pick: random.Random, exact_limit: float
) -> None:
    check_fast_chance(state, table, pick.randrange(2**32))
    try:
        outcomes = list(state.chance_outcomes())
    except ChanceNotEnumerable:
        for _ in range(2):  # continuous: sampled outcomes, each from a copy
            outcome = state.clone().sample_chance(rng)
            round_trip(state, outcome, table, play_it=True)
        return
    assert outcomes, "an enumerable chance node without outcomes"
    probs = [p for _, p in outcomes]
    assert all(isinstance(p, float | int) and p > 0 for p in probs), min(probs)
    assert math.isclose(math.fsum(probs), 1.0, rel_tol=0, abs_tol=1e-9), math.fsum(probs)
    actions = [a for a, _ in outcomes]
    assert len(set(actions)) == len(actions), "the same chance outcome twice"
    assert set(actions) == set(state.legal_actions()), "a chance node's legal actions are its outcomes"
    assert state.clone().sample_chance(rng) in set(actions)
    key = (table.game.name, len(actions), hash(tuple(actions)))
    every = len(actions) <= exact_limit
    if key in NOTATION_CHECKED and (NOTATION_CHECKED[key] or not every):
        chosen = pick.sample(actions, min(20, len(actions)))
    else:
        NOTATION_CHECKED[key] = every
        chosen = actions if every else pick.sample(actions, 2_000)
    for a in chosen:
        round_trip(state, a, table, play_it=False)
    for a in pick.sample(actions, min(3, len(actions))):
        plays_alike(state, a, state.string_to_action(state.action_to_string(a)), table)


def check_decisions(state: State[Any], table: Table, pick: random.Random) -> None:
    legal = list(state.legal_actions())
    for a in legal:
        round_trip(state, a, table, play_it=False)
        state.clone().apply_action(a)  # every listed action is taken
    for a in pick.sample(legal, min(4, len(legal))):
        round_trip(state, a, table, play_it=True)


def refused(state: State[Any], action: Any, table: Table, before: str | None = None) -> IllegalActionError:
    """``action`` must be refused with a rule named, and ``state`` stay exactly as it was."""
    before = snapshot(state, table) if before is None else before
    with pytest.raises(IllegalActionError) as info:
        state.apply_action(action)
    assert isinstance(info.value, ValueError)
    assert info.value.rule, f"refusal of {action!r} names no rule: {info.value}"
    assert str(info.value), f"refusal of {action!r} says nothing"
    assert snapshot(state, table) == before, f"refusing {action!r} ({info.value}) changed the state"
    return info.value


def check_refusals(
    state: State[Any], table: Table, pools: dict[str, list[Any]], pick: random.Random, action: Any = None
) -> None:
    """What must be refused here is, without a trace; moves of other positions are played or refused cleanly."""
    before = snapshot(state, table)
    cur = state.current_player()
    foreign: list[Any] = list(NO_ACTIONS)
    if cur == TERMINAL:
        foreign += pools["decision"][:3] + pools["chance"][:3]
    elif cur == CHANCE:
        foreign += pick.sample(pools["decision"], min(3, len(pools["decision"])))
    else:
        foreign += pick.sample(pools["chance"], min(3, len(pools["chance"])))
    for junk in foreign:
        refused(state, junk, table, before)
    if cur != CHANCE:  # the dice are not to be rolled now
        with pytest.raises(IllegalActionError):
            state.sample_chance(np.random.default_rng(0))
        assert snapshot(state, table) == before, "sample_chance away from a chance node changed the state"
    if cur == TERMINAL:
        return
    # Actions of the same kind met elsewhere in the game (an outcome of other dice, a decision of another phase)
    # and near misses of the action played here (one number or field off, one part short or too many): a listed
    # one must be taken; any other is refused without a trace, or taken (a game may take more than it lists: a
    # position typed in from real dice) and then its notation read back must play the same (or its record would
    # lie; parts without effect, such as the face of a Wurf die that left the arena, may go unwritten).
    same_kind = pools["chance" if cur == CHANCE else "decision"]
    tries = pick.sample(same_kind, min(4, len(same_kind)))
    misses = near_misses(action, pick)
    tries += pick.sample(misses, min(12, len(misses)))
    try:
        listed = set(state.legal_actions())
    except ChanceNotEnumerable:
        listed = set()
    for other in tries:
        copy = state.clone()
        if other in listed:
            copy.apply_action(other)
            continue
        try:
            copy.apply_action(other)
        except IllegalActionError as exc:
            assert exc.rule, f"refusal of {other!r} names no rule: {exc}"
            assert snapshot(copy, table) == before, f"refusing {other!r} ({exc}) changed the state"
        else:
            plays_alike(state, other, state.string_to_action(state.action_to_string(other)), table)
    assert snapshot(state, table) == before


def near_misses(action: Any, pick: random.Random, depth: int = 0) -> list[Any]:
    """Objects one small change away from ``action``: a number off, a part left out or repeated, a field
    changed (frozen dataclasses), for ints a bit flipped."""
    if depth > 3:
        return []
    if isinstance(action, bool):
        return [not action]
    if isinstance(action, int):
        flips = [action ^ (1 << pick.randrange(action.bit_length() + 1)) for _ in range(4)]
        return [action + 1, action - 1, *flips, 0, 7, -action - 1]
    if isinstance(action, float):
        return [action + 0.5, -action - 1.0, action * 1000 + 1, math.nan, math.inf]
    if isinstance(action, str):
        return [action + "x", action.upper(), action[:-1], action + " " + action]
    out: list[Any] = []
    if isinstance(action, tuple) and action:
        for i in pick.sample(range(len(action)), min(2, len(action))):
            near = near_misses(action[i], pick, depth + 1)
            for v in pick.sample(near, min(4, len(near))):
                out.append((*action[:i], v, *action[i + 1 :]))
        out += [action[:-1], (*action, action[0])]
    elif dataclasses.is_dataclass(action) and not isinstance(action, type):
        fields = dataclasses.fields(action)
        for f in pick.sample(fields, min(2, len(fields))):
            near = near_misses(getattr(action, f.name), pick, depth + 1)
            for v in pick.sample(near, min(4, len(near))):
                out.append(dataclasses.replace(action, **{f.name: v}))
    return out


def check_clone(state: State[Any], action: Any, table: Table) -> None:
    """A clone equals the original; a clone advanced by ``action`` leaves the original as it was."""
    before = snapshot(state, table)
    twin = state.clone()
    assert type(twin) is type(state) and twin is not state
    assert snapshot(twin, table) == before
    twin.apply_action(action)
    assert snapshot(state, table) == before, "advancing a clone changed the original"
    child = state.child(action)
    assert snapshot(child, table) == snapshot(twin, table)
    assert snapshot(state, table) == before


def check_terminal(state: State[Any], table: Table, pools: dict[str, list[Any]], pick: random.Random) -> None:
    assert state.current_player() == TERMINAL and state.is_terminal() and not state.is_chance_node()
    assert len(state.legal_actions()) == 0
    returns, scores = state.returns(), state.scores()
    assert len(returns) == len(scores) == state.num_players
    assert all(isinstance(r, float | int) and math.isfinite(r) and 0 <= r <= 1 for r in returns), returns
    assert math.isclose(sum(returns), 1.0), returns
    best = max(returns)
    assert state.winners() == [i for i, r in enumerate(returns) if r == best and r > 0]
    assert all(isinstance(s, float | int) and math.isfinite(s) for s in scores), scores
    check_refusals(state, table, pools, pick)


def pools_of(played: Played, pick: random.Random) -> dict[str, list[Any]]:
    """Actions of the game (decisions and chance outcomes), for playing them where they do not belong."""
    decisions = [a for a, c in zip(played.actions, played.chance, strict=True) if not c]
    outcomes = [a for a, c in zip(played.actions, played.chance, strict=True) if c]
    return {
        "decision": pick.sample(decisions, min(12, len(decisions))),
        "chance": pick.sample(outcomes, min(12, len(outcomes))),
    }


def probe(played: Played, checks: int, exact_limit: float) -> set[frozenset[str]]:
    """Play the game's actions again into a fresh state, checking ``checks`` positions spread over it (the first
    and the last always); returns the key sets of the public views met."""
    table = played.table
    pick = random.Random(played.seed)
    rng = np.random.default_rng(played.seed + 1)
    pools = pools_of(played, pick)
    steps = len(played.actions)
    at = {0, *pick.sample(range(steps), min(checks, steps))}
    partial = pick.choice(sorted(at))
    keys: set[frozenset[str]] = set()
    state = table.new()
    for i, action in enumerate(played.actions):
        if i in at:
            check_basics(state)
            keys.add(frozenset(check_view(state, table)))
            if state.is_chance_node():
                check_chance(state, table, rng, pick, exact_limit)
            else:
                check_decisions(state, table, pick)
            check_refusals(state, table, pools, pick, action)
            check_clone(state, action, table)
            if i == partial:
                assert snapshot(replay(played.record, i), table) == snapshot(state, table)
            other = state.clone()
            kept = snapshot(other, table)
            state.apply_action(action)
            assert snapshot(other, table) == kept, "advancing the original changed its clone"
        else:
            state.apply_action(action)
    check_basics(state)
    keys.add(frozenset(check_view(state, table)))
    check_terminal(state, table, pools, pick)
    assert snapshot(state, table) == snapshot(played.final, table), "the same actions gave another game"
    return keys


def check_record(played: Played) -> None:
    table, record = played.table, played.record
    text = record.dumps()
    again = GameRecord.loads(text)
    assert again.to_json() == record.to_json() and again.dumps() == text
    assert again.result == json.loads(json.dumps(record.result))
    replayed = replay(again)
    assert replayed.is_terminal()
    assert snapshot(replayed, table) == snapshot(played.final, table)
    assert replayed.returns() == played.final.returns() and replayed.scores() == played.final.scores()


# -- the games --------------------------------------------------------------------------------------------------
def setups(
    game: str, games_per_preset: int, max_seats: int
) -> Iterator[tuple[str, dict[str, Any], int, int]]:
    """(preset, overrides, players, seed): every preset (the default three times as often), then the default
    rules with each yes/no option the other way (one game each); player counts (up to ``max_seats``) in turn."""
    g = get_game(game)
    counts = list(range(g.min_players, min(g.max_players, max_seats) + 1))
    default = g.rules_type.from_preset(None)
    seed = 0
    for preset in g.rules_type.PRESETS:
        for _ in range(games_per_preset * (3 if preset == default.preset else 1)):
            yield preset, {}, counts[seed % len(counts)], seed
            seed += 1
    for field in dataclasses.fields(default):
        value = getattr(default, field.name)
        if isinstance(value, bool):
            yield default.preset, {field.name: not value}, counts[seed % len(counts)], seed
            seed += 1


def conformance(
    game: str, games_per_preset: int, checks: int, exact_limit: float = EXACT_CHANCE_LIMIT, max_seats: int = 4
) -> None:
    for preset, overrides, players, seed in setups(game, games_per_preset, max_seats):
        try:
            table = Table.make(game, preset, players, overrides)
        except RuleConfigError:
            continue  # a flip the rules refuse together with the rest of the preset
        played = play(table, seed)
        if seed == 0:  # the dice come from the generators given, nowhere else
            assert play(table, seed).record.events == played.record.events, "the same seeds gave another game"
        check_record(played)
        keys = probe(played, checks, exact_limit)
        assert len(keys) == 1, f"{preset} {overrides}: public_view's keys differ between positions: {keys}"


@pytest.mark.parametrize("game", GAMES)
def test_protocol(game: str) -> None:
    conformance(game, games_per_preset=1, checks=12)


@pytest.mark.slow
@pytest.mark.timeout(1800)  # Clever: 5 min of one core idle, over 10 loaded (measured)
@pytest.mark.parametrize("game", GAMES)
def test_protocol_many_games(game: str) -> None:
    conformance(game, games_per_preset=12, checks=40, exact_limit=math.inf, max_seats=8)


def test_every_registered_game_is_covered() -> None:
    assert GAMES and len(set(GAMES)) == len(GAMES)
    for name in GAMES:
        g = get_game(name)
        assert g.name == name and g.rules_type.PRESETS
        assert 1 <= g.min_players <= g.max_players
