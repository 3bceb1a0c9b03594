"""Bot-versus-bot simulation, shared by every game.

Game ``i`` of a run rooted at ``seed`` always uses the same dice stream (:func:`~dicehall.core.rng.game_seed`),
so a run's results are identical whatever the number of worker processes.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

from dicehall.core.agents import Agent, PlayerSpec, make_bot, seat_names
from dicehall.core.errors import PlayerSpecError
from dicehall.core.game import CHANCE, TERMINAL, State, get_game
from dicehall.core.record import GameRecord
from dicehall.core.rng import agent_rng, game_seed, seeded_rng
from dicehall.core.rules import RuleSet
from dicehall.core.stats import describe, histogram, wilson_interval

MAX_STEPS = 1_000_000


def play_game(
    state: State[Any],
    agents: Sequence[Agent],
    chance_rng: np.random.Generator,
    bot_rng: np.random.Generator,
    record: GameRecord | None = None,
    fast: bool = True,
) -> State[Any]:
    """Play ``state`` to the end with ``agents`` choosing for their seats; dice come from ``chance_rng``.

    Without a record (and unless ``fast`` is False) the game's own :meth:`~State.play_out` may finish it.
    """
    if record is None:  # the simulation loop: the same steps, with the hot methods bound once
        if fast and chance_rng is not bot_rng and state.play_out(agents, chance_rng, bot_rng):
            return state
        choosers = [agent.choose for agent in agents]
        if state.uniform_chance and chance_rng is not bot_rng:
            return _play_uniform(state, choosers, chance_rng, bot_rng)
        current_player = state.current_player
        roll = state.sample_and_apply_chance
        apply = state.apply_action
        for _ in range(MAX_STEPS):
            player = current_player()
            if player == CHANCE:
                roll(chance_rng)
            elif player == TERMINAL:
                return state
            else:
                apply(choosers[player](state, bot_rng))
        raise RuntimeError(f"game did not end within {MAX_STEPS} steps")
    for _ in range(MAX_STEPS):
        player = state.current_player()
        if player == TERMINAL:
            record.finish(state)
            return state
        if player == CHANCE:
            action = state.sample_chance(chance_rng)
        else:
            action = agents[player].choose(state, bot_rng)
        record.add(state, action)
        state.apply_action(action)
    raise RuntimeError(f"game did not end within {MAX_STEPS} steps")


_BATCH = 512


def _play_uniform(
    state: State[Any],
    choosers: Sequence[Callable[[State[Any], np.random.Generator], Any]],
    chance_rng: np.random.Generator,
    bot_rng: np.random.Generator,
) -> State[Any]:
    """``play_game`` for a game whose every chance outcome comes from one ``rng.random()``.

    The uniform numbers are drawn in batches (``rng.random(n)`` gives the same numbers as ``n`` single calls), and
    at the end the generator is put back exactly where drawing them one by one would have left it.
    """
    current_player = state.current_player
    apply = state.apply_action
    roll = state.apply_chance_uniform
    bitgen = chance_rng.bit_generator
    saved = bitgen.state
    buf: list[float] = chance_rng.random(_BATCH).tolist()[::-1]  # reversed: pop() hands them out in order
    pop = buf.pop
    try:
        for _ in range(MAX_STEPS):
            player = current_player()
            if player == CHANCE:
                if not buf:
                    saved = bitgen.state
                    buf = chance_rng.random(_BATCH).tolist()[::-1]
                    pop = buf.pop
                roll(pop())
            elif player == TERMINAL:
                return state
            else:
                apply(choosers[player](state, bot_rng))
        raise RuntimeError(f"game did not end within {MAX_STEPS} steps")
    finally:
        used = _BATCH - len(buf)
        bitgen.state = saved
        if used:
            chance_rng.random(used)


@dataclasses.dataclass
class GameOutcome:
    index: int
    returns: list[float]
    scores: list[float]
    stats: dict[str, float]


@dataclasses.dataclass(frozen=True)
class SimulationJob:
    game: str
    rules: RuleSet
    players: tuple[PlayerSpec, ...]
    seed: int
    save_dir: str | None = None


def run_games(job: SimulationJob, indices: range) -> list[GameOutcome]:
    """Play the games numbered ``indices`` of ``job`` (one worker's share)."""
    game = get_game(job.game)
    agents = [make_bot(job.game, spec.bot, job.rules) for spec in job.players if spec.bot]
    names = seat_names(list(job.players))
    out = []
    for index in indices:
        seed = game_seed(job.seed, index)
        state = game.new_initial_state(job.rules, len(agents))
        record = GameRecord.start(job.game, job.rules, names, seed) if job.save_dir else None
        play_game(state, agents, seeded_rng(seed), agent_rng(seed), record)
        if record is not None and job.save_dir:
            record.save(Path(job.save_dir) / f"{job.game}-{job.seed}-{index:06d}.json")
        out.append(GameOutcome(index, state.returns(), state.scores(), state.stats()))
    return out


def _chunks(games: int, size: int) -> list[range]:
    return [range(start, min(games, start + size)) for start in range(0, games, size)]


def iter_outcomes(
    job: SimulationJob, games: int, jobs: int = 1, chunk: int = 100
) -> Iterator[list[GameOutcome]]:
    """Yield finished games chunk by chunk (for a progress bar); processes when ``jobs > 1``."""
    for spec in job.players:
        if spec.bot is None:
            raise PlayerSpecError(
                f"simulation needs bots in every seat; {spec.label!r} is not a bot (use bot:NAME)"
            )
    get_game(job.game).check_player_count(len(job.players))
    for spec in job.players:
        make_bot(job.game, spec.bot or "", job.rules)  # fail fast on an unknown bot name
    parts = _chunks(games, chunk)
    if jobs <= 1:
        for part in parts:
            yield run_games(job, part)
        return
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        futures = [pool.submit(run_games, job, part) for part in parts]
        for fut in futures:
            yield fut.result()


def default_jobs() -> int:
    return max(1, (os.cpu_count() or 1))


def summarize(job: SimulationJob, outcomes: list[GameOutcome]) -> dict[str, Any]:
    """Win rates with 95% intervals, score distribution and per-seat/per-bot aggregates."""
    outcomes = sorted(outcomes, key=lambda o: o.index)
    n = len(outcomes)
    names = seat_names(list(job.players))
    seats = []
    for seat, name in enumerate(names):
        wins = sum(o.returns[seat] for o in outcomes)
        lo, hi = wilson_interval(wins, n)
        scores = [o.scores[seat] for o in outcomes]
        seats.append(
            {
                "seat": seat,
                "player": name,
                "wins": wins,
                "win_rate": wins / n if n else 0.0,
                "win_rate_ci95": [lo, hi],
                "score": describe(scores),
                "score_histogram": histogram(scores),
            }
        )
    by_bot: dict[str, dict[str, float]] = {}
    for seat, spec in enumerate(job.players):
        entry = by_bot.setdefault(spec.label, {"seats": 0, "wins": 0.0})
        entry["seats"] += 1
        entry["wins"] += sum(o.returns[seat] for o in outcomes)
    for entry in by_bot.values():
        games_played = int(entry["seats"]) * n
        entry["win_rate"] = entry["wins"] / games_played if games_played else 0.0
        lo, hi = wilson_interval(entry["wins"], games_played)
        entry["win_rate_ci95"] = [lo, hi]  # type: ignore[assignment]
    stat_keys = sorted({k for o in outcomes for k in o.stats})
    return {
        "game": job.game,
        "rules": job.rules.to_dict(),
        "players": names,
        "games": n,
        "seed": job.seed,
        "seats": seats,
        "by_player": by_bot,
        "stats": {k: describe([o.stats[k] for o in outcomes if k in o.stats]) for k in stat_keys},
    }


ProgressHook = Callable[[int], None]


def simulate(
    job: SimulationJob, games: int, jobs: int = 1, progress: ProgressHook | None = None
) -> tuple[dict[str, Any], list[GameOutcome]]:
    outcomes: list[GameOutcome] = []
    for part in iter_outcomes(job, games, jobs):
        outcomes.extend(part)
        if progress is not None:
            progress(len(part))
    return summarize(job, outcomes), outcomes
