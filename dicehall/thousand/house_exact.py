"""The house rules' decisive moments valued by the exact table: ``bot:optimal`` against itself under every preset
whose table is stored on this machine (classic's is shipped; yard's and variant 2's are made by ``dicehall solve
thousand --preset …``), with the first player's win chance from the table itself (its start position's value).

Each event the game notes (:mod:`dicehall.thousand.lead`: a dump truck, a barrel fall, a bank a pit refused) is
valued by the hit player's exact win chance at the start of the next turn, with the event's effect undone (the
refused bank allowed) and as it happened. It *decided the game* when it turned that player from favourite
(≥ 50 %) into underdog (< 50 %) and they lost (docs/strategy.md, "When a house rule decided a game"). The
dump truck's own score is no position of the model (it is sent to 0 at once): with the truck undone the player
is valued as the mean of the two scores beside it (one step, 5 points, either side). Yard's positions carry the
skip flag (the opponent flagged to skip their next turn), read from the state as ``bot:optimal`` reads it.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

from dicehall.core.agents import Agent, make_bot
from dicehall.core.game import CHANCE, TERMINAL
from dicehall.core.rng import agent_rng, game_seed, seeded_rng
from dicehall.core.stats import Z95, wilson_interval
from dicehall.thousand.dp import STEP
from dicehall.thousand.lead import BARREL, DUMP_TRUCK, KINDS, LeadEvent
from dicehall.thousand.rules import ThousandRules
from dicehall.thousand.solver.exact import ExactModel, model_for
from dicehall.thousand.solver.size import FullState
from dicehall.thousand.solver.space import PlayerState, SolveError
from dicehall.thousand.state import ThousandState

if TYPE_CHECKING:  # the compiled solver is read only when a table is: the commands start without it
    from dicehall.thousand.solver.solve import Table

BOT = "optimal"
DEFAULT_GAMES = 4000
NAMES = {bit: kind for kind, bit in KINDS.items()}


def _player(state: ThousandState, seat: int) -> FullState:
    return FullState(
        state.score[seat],
        state.opened[seat],
        state.bolts[seat],
        state.falls[seat],
        state.attempts[seat],
        opening=state.opening_score[seat],
    )


class Values(Protocol):
    """A stored exact table read at a turn's start: the mover's win chance against the other seat."""

    max_error: float

    def mover_wins(
        self, state: ThousandState, mover: FullState, other: FullState, other_seat: int
    ) -> float: ...


class ClassicValues:
    """The classic model's table (:mod:`solver.solve`): shipped for classic, solved here for the others."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.max_error = table.max_error

    def mover_wins(self, state: ThousandState, mover: FullState, other: FullState, other_seat: int) -> float:
        space = self.table.space
        me, them = (space.index[space.canonical(PlayerState(*p[:5]))] for p in (mover, other))
        return self.table.value(me, them)


class ModelValues:
    """A stored table of an exact model besides classic's (:mod:`solver.exact`): the model reads a position."""

    max_error = 0.0  # the exact table (float32)

    def __init__(self, model: ExactModel, stored: Any) -> None:
        self.model = model
        self.stored = stored

    def mover_wins(self, state: ThousandState, mover: FullState, other: FullState, other_seat: int) -> float:
        return self.model.mover_wins(self.stored, state, mover, other, other_seat)


def values_of(table: Table | Values) -> Values:
    from dicehall.thousand.solver.solve import Table

    return ClassicValues(table) if isinstance(table, Table) else table


def stored_values(rules: ThousandRules) -> Values | None:
    """The exact table of ``rules`` stored on this machine (classic's shipped one included), or None: nothing is
    solved here (``dicehall solve thousand --preset …`` makes it)."""
    from dicehall.thousand.solver.solve import find_table

    model = model_for(rules)
    if model is not None:
        stored = model.load(rules)
        return None if stored is None else ModelValues(model, stored)
    try:
        table = find_table(rules)
    except SolveError:
        return None
    return None if table is None else ClassicValues(table)


def win_chance(
    table: Table | Values, state: ThousandState, seat: int, player: FullState | None = None
) -> float:
    """``seat``'s exact win chance at the start of the turn ``state`` is at (``player``: its state instead)."""
    if state.winner is not None:
        return 1.0 if state.winner == seat else 0.0
    values = values_of(table)
    other = 1 - seat
    me, them = player or _player(state, seat), _player(state, other)
    if state.player == seat:
        return values.mover_wins(state, me, them, other)
    return 1.0 - values.mover_wins(state, them, me, seat)


def solver_first_wins(table: Table | Values, rules: ThousandRules) -> float:
    """The first player's win chance from the table itself: its value at the game's start position."""
    return win_chance(table, ThousandState(rules, 2), 0)


def undone_chance(table: Table | Values, state: ThousandState, event: LeadEvent) -> float:
    """The hit seat's win chance with the event's effect undone (state: the turn after the event's)."""
    now = _player(state, event.seat)
    if event.kind == DUMP_TRUCK:
        near = [now._replace(score=event.undone + d) for d in (-STEP, STEP)]
        return sum(win_chance(table, state, event.seat, p) for p in near) / 2
    if event.kind == BARREL:
        top = max(state.rules.barrel_attempts - 1, 0)
        undone = now._replace(score=event.undone, falls=event.falls, attempts=min(event.attempts, top))
        return win_chance(table, state, event.seat, undone)
    return win_chance(table, state, event.seat, now._replace(score=event.undone))


class ValuedGame(NamedTuple):
    state: ThousandState  # finished
    events: list[tuple[LeadEvent, float, float]]  # each with the hit seat's win chance undone, and as it was
    chances: list[tuple[int, float]]  # at every turn's start: (turn, seat 0's win chance)


def play_valued(
    table: Table | Values, rules: ThousandRules, seed: int, index: int, agents: list[Agent]
) -> ValuedGame:
    """Game ``index`` of ``seed`` step by step through the engine, its lead followed and valued."""
    state = ThousandState(rules, 2)
    watch = state.follow_lead()
    gseed = game_seed(seed, index)
    dice, bots = seeded_rng(gseed), agent_rng(gseed)
    game = ValuedGame(state, [], [(state.turns, win_chance(table, state, 0))])
    turn = state.turns
    while (player := state.current_player()) != TERMINAL:
        if player == CHANCE:
            state.sample_and_apply_chance(dice)
        else:
            state.apply_action(agents[player].choose(state, bots))
        if state.turns != turn or state.winner is not None:
            for event in watch.events[len(game.events) :]:
                game.events.append(
                    (event, undone_chance(table, state, event), win_chance(table, state, event.seat))
                )
            game.chances.append((state.turns, win_chance(table, state, 0)))
        turn = state.turns
    return game


def deciding_events(game: ValuedGame) -> list[LeadEvent]:
    """The events that decided the game: each turned the seat it hit from favourite (≥ 50 %, its effect undone)
    into underdog, who stayed underdog at every turn's start to the end and lost; the last turn's such events
    only (a later one's undoing would have made them favourite again)."""
    winner = game.state.winner
    found: list[LeadEvent] = []
    for event, before, after in game.events:
        if event.seat == winner or not before >= 0.5 > after:
            continue
        later = [c if event.seat == 0 else 1.0 - c for t, c in game.chances if t > event.turn]
        if all(c < 0.5 for c in later):
            if found and found[-1].turn != event.turn:
                found = []
            found.append(event)
    return found


def _rate(hits: float, n: int) -> dict[str, float]:
    lo, hi = wilson_interval(hits, n)
    return {"value": hits / n if n else 0.0, "low": lo, "high": hi}


def _mean(values: list[float]) -> dict[str, float] | None:
    n = len(values)
    if not n:
        return None
    mean = sum(values) / n
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / max(n - 1, 1))
    half = Z95 * sd / math.sqrt(n)
    return {"value": mean, "low": mean - half, "high": mean + half, "n": n}


def exact_effects(
    preset: str,
    values: Values,
    games: int = DEFAULT_GAMES,
    seed: int = 26,
    progress: Callable[[int], None] | None = None,
    rules: ThousandRules | None = None,
) -> dict[str, Any]:
    """The exact row of ``preset`` (``rules``: these instead of the preset's): ``bot:optimal`` against itself,
    events valued by the stored exact table ``values``, and the table's own first-player win chance."""
    rules = rules or ThousandRules.from_preset(preset)
    table = values
    agents = [make_bot("thousand", BOT, rules) for _ in range(2)]
    happened = dict.fromkeys(KINDS, 0)
    decided = dict.fromkeys(KINDS, 0)
    swings: dict[str, list[float]] = {kind: [] for kind in KINDS}
    first = 0
    turns: list[float] = []
    for i in range(games):
        game = play_valued(table, rules, seed, i, agents)
        first += game.state.winner == 0
        turns.append(float(game.state.turns))
        for event, before, after in game.events:
            swings[NAMES[event.kind]].append(after - before)
        for kind in {NAMES[e.kind] for e, _, _ in game.events}:
            happened[kind] += 1
        for kind in {NAMES[e.kind] for e in deciding_events(game)}:
            decided[kind] += 1
        if progress is not None and ((i + 1) % 50 == 0 or i + 1 == games):
            progress(i + 1)
    return {
        "preset": preset,
        "bot": BOT,
        "games": games,
        "seed": seed,
        "table_max_error": table.max_error,
        "solver_first_player_wins": solver_first_wins(table, rules),
        "first_player_wins": _rate(first, games),
        "turns": _mean(turns),
        "games_with": {kind: _rate(happened[kind], games) for kind in KINDS},
        "decided_by": {kind: _rate(decided[kind], games) for kind in KINDS},
        "barrel_falls_per_game": len(swings["barrel"]) / games,
        "swing": {kind: _mean(swings[kind]) for kind in KINDS},
    }
