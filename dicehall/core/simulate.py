"""Bot-versus-bot simulation, shared by every game.

Game ``i`` of a run rooted at ``seed`` always uses the same dice stream (:func:`~dicehall.core.rng.game_seed`),
so a run's results are identical whatever the number of worker processes — or Ray workers: ``backend="ray"`` runs
the same chunks as Ray tasks (:mod:`dicehall.core.cluster`) and yields them in the same order.

Results are streamed into a :class:`RunSummary` as the games finish, so memory stays flat however many games a
run plays (see :class:`~dicehall.core.stats.RunningStats` for when percentiles become estimates).
"""

from __future__ import annotations

import dataclasses
import itertools
import os
import signal
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor, wait
from pathlib import Path
from typing import Any

import numpy as np

from dicehall.core.agents import Agent, PlayerSpec, make_bot, seat_names
from dicehall.core.cluster import BACKENDS, ClusterError, RayExecutor
from dicehall.core.errors import PlayerSpecError
from dicehall.core.game import CHANCE, TERMINAL, State, get_game
from dicehall.core.playout import block_player, play_out
from dicehall.core.record import GameRecord
from dicehall.core.rng import agent_rng, game_seed, seeded_rng
from dicehall.core.rules import RuleSet
from dicehall.core.stats import RunningStats, wilson_interval

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

    Without a record (and unless ``fast`` is False) a fast path registered for these agents may finish it
    (:mod:`dicehall.core.playout`).
    """
    if record is None:  # the simulation loop: the same steps, with the hot methods bound once
        if fast and chance_rng is not bot_rng and play_out(state, agents, chance_rng, bot_rng):
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


@dataclasses.dataclass
class OutcomeBlock:
    """Consecutive games ``start``, ``start + 1``, … played as one block (a registered block path): one row per
    game of every seat's return and score, and one column per statistic."""

    start: int
    returns: np.ndarray
    scores: np.ndarray
    stats: dict[str, np.ndarray]

    def __len__(self) -> int:
        return int(self.scores.shape[0])


Part = list[GameOutcome] | OutcomeBlock
"""What a worker hands back: its games one by one, or as one block."""
BLOCK_GAMES = 20_000  # the most games of one block (a worker's chunk)
BLOCK_GAMES_RECORDED = 500  # the same when every game is recorded (the traces are held until written)
BLOCK_SECONDS = 0.25  # in this process, blocks of about this long: a stop is seen between them


@dataclasses.dataclass(frozen=True)
class SimulationJob:
    game: str
    rules: RuleSet
    players: tuple[PlayerSpec, ...]
    seed: int
    save_dir: str | None = None


class GameStopped(BaseException):
    """Raised by :func:`stop_game` into the game being played in this process: the game is dropped, the games
    finished before it are kept (a BaseException, so that no bot's ``except Exception`` swallows it)."""


_PLAYING = [False]
"""True while :func:`run_games` is inside a game in this process (only then may :func:`stop_game` raise)."""


def stop_game() -> None:
    """From a signal handler: leave the game being played in this process at once (see :class:`GameStopped`);
    nothing happens between games, where ``should_stop`` is asked instead."""
    if _PLAYING[0]:
        _PLAYING[0] = False
        raise GameStopped


def run_games(
    job: SimulationJob, indices: range, should_stop: Callable[[], bool] | None = None
) -> list[GameOutcome]:
    """Play the games numbered ``indices`` of ``job`` (one worker's share); with ``should_stop``, the games
    finished when it says so (or when :func:`stop_game` drops the game in play)."""
    return list(play_games(job, indices, should_stop))


def run_part(job: SimulationJob, indices: range) -> Part:
    """A worker's share: the games ``indices`` as one block where a block path applies, else one by one."""
    block = play_block(job, indices)
    return block if block is not None else run_games(job, indices)


def _agents(job: SimulationJob) -> list[Agent]:
    return [make_bot(job.game, spec.bot, job.rules) for spec in job.players if spec.bot]


def has_block_path(job: SimulationJob) -> bool:
    """Whether a registered block path plays this job's games (:mod:`dicehall.core.playout`)."""
    return block_player(job.game, _agents(job)) is not None


def play_block(job: SimulationJob, indices: range) -> OutcomeBlock | None:
    """The games ``indices`` of ``job`` as one block, or None when no block path applies."""
    agents = _agents(job)
    fn = block_player(job.game, agents)
    if fn is None:
        return None
    block: OutcomeBlock | None = fn(job, agents, indices)
    return block


def play_games(
    job: SimulationJob, indices: range, should_stop: Callable[[], bool] | None = None
) -> Iterator[GameOutcome]:
    """The outcomes of the games numbered ``indices``, one by one (see :func:`run_games`)."""
    game = get_game(job.game)
    agents = _agents(job)
    names = seat_names(list(job.players))
    for index in indices:
        if should_stop is not None and should_stop():
            return
        seed = game_seed(job.seed, index)
        state = game.new_initial_state(job.rules, len(agents))
        record = GameRecord.start(job.game, job.rules, names, seed) if job.save_dir else None
        _PLAYING[0] = should_stop is not None
        try:
            play_game(state, agents, seeded_rng(seed), agent_rng(seed), record)
        except GameStopped:
            return
        finally:
            _PLAYING[0] = False
        if record is not None and job.save_dir:
            record.save(Path(job.save_dir) / f"{job.game}-{job.seed}-{index:06d}.json")
        yield GameOutcome(index, state.returns(), state.scores(), state.stats())


def _batches(outcomes: Iterator[GameOutcome], size: int, seconds: float = 0.2) -> Iterator[list[GameOutcome]]:
    """``outcomes`` in lists of ``size``, or fewer when ``seconds`` passed (a progress bar moves for slow games)."""
    batch: list[GameOutcome] = []
    since = time.monotonic()
    for outcome in outcomes:
        batch.append(outcome)
        if len(batch) >= size or time.monotonic() - since >= seconds:
            yield batch
            batch, since = [], time.monotonic()
    if batch:
        yield batch


def _quiet_worker() -> None:
    # Ctrl-C reaches the whole process group: the main process decides, the workers do not die mid-chunk
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _chunks(games: int, size: int) -> Iterator[range]:
    return (range(start, min(games, start + size)) for start in range(0, games, size))


def iter_outcomes(
    job: SimulationJob,
    games: int,
    jobs: int = 1,
    chunk: int = 100,
    backend: str = "processes",
    address: str | None = None,
    should_stop: Callable[[], bool] | None = None,
) -> Iterator[Part]:
    """Yield finished games chunk by chunk, in game order (for a progress bar); a job with a block path
    (:func:`has_block_path`) comes in blocks of :data:`BLOCK_GAMES`.

    ``backend="processes"``: worker processes when ``jobs > 1``. ``backend="ray"``: Ray tasks, on a local Ray
    instance with ``jobs`` CPUs, or on the cluster at ``address`` (then the cluster's CPUs set the pace). At most
    a few chunks per worker are in flight, so a run of any length holds little in memory.
    """
    if backend not in BACKENDS:
        raise ClusterError(f"unknown backend {backend!r}; choose one of: {', '.join(BACKENDS)}")
    if address is not None and backend != "ray":
        raise ClusterError("a cluster address needs --backend ray")
    for spec in job.players:
        if spec.bot is None:
            raise PlayerSpecError(msgid="players.error.simulate_human", params={"seat": repr(spec.label)})
    get_game(job.game).check_player_count(len(job.players))
    for spec in job.players:
        make_bot(job.game, spec.bot or "", job.rules)  # fail fast on an unknown bot name
    blocks = has_block_path(job)
    if blocks:
        chunk = BLOCK_GAMES_RECORDED if job.save_dir else BLOCK_GAMES
        if jobs > 1 or backend == "ray":  # every worker gets a share, however few the games
            chunk = max(1, min(chunk, -(-games // (4 * max(1, jobs)))))
    parts = _chunks(games, chunk)
    pool: Executor
    if backend == "ray":
        ray_pool = RayExecutor(address, None if address else jobs)
        pool, workers = ray_pool, ray_pool.workers
    elif (
        jobs <= 1
    ):  # here, game after game: a stop is seen between games, and stop_game() ends the one in play
        if blocks:  # or block after block, each about BLOCK_SECONDS long: a stop is seen between blocks
            yield from _blocks_here(job, games, chunk, should_stop)
            return
        yield from _batches(play_games(job, range(games), should_stop), chunk)
        return
    else:
        pool, workers = ProcessPoolExecutor(max_workers=jobs, initializer=_quiet_worker), jobs
    stopped = False
    try:
        pending: list[Future[Part]] = [
            pool.submit(run_part, job, part) for part in itertools.islice(parts, 4 * workers)
        ]
        while pending:
            # waited on in short steps: a stop is seen at once, not when a long chunk ends
            while not stopped and not pending[0].done():
                stopped = should_stop is not None and should_stop()
                if not stopped:
                    wait([pending[0]], timeout=0.1)
            if stopped:
                return
            done = pending.pop(0).result()
            pending.extend(pool.submit(run_part, job, part) for part in itertools.islice(parts, 1))
            yield done
    finally:
        if stopped and isinstance(pool, ProcessPoolExecutor):
            _end_workers(pool)  # their chunks are dropped: the report covers the chunks finished
        else:
            pool.shutdown(wait=True, cancel_futures=True)


def _blocks_here(
    job: SimulationJob, games: int, largest: int, should_stop: Callable[[], bool] | None
) -> Iterator[Part]:
    """The games in blocks played in this process: 100 first, then as many as take about
    :data:`BLOCK_SECONDS` at the pace so far (at most ``largest``)."""
    start, size = 0, min(100, largest)
    while start < games:
        if should_stop is not None and should_stop():
            return
        part = range(start, min(games, start + size))
        began = time.perf_counter()
        found = play_block(job, part)
        if found is None:  # the path declined these agents after all (e.g. different weights)
            yield from _batches(play_games(job, part, should_stop), 100)
        else:
            yield found
        per_game = (time.perf_counter() - began) / len(part)
        size = max(1, min(largest, int(BLOCK_SECONDS / max(per_game, 1e-9))))
        start = part.stop


def _end_workers(pool: ProcessPoolExecutor) -> None:
    processes = list(getattr(pool, "_processes", {}).values())  # no public way to stop a running task
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.terminate()
    for process in processes:
        process.join(timeout=5)


def default_jobs() -> int:
    return max(1, (os.cpu_count() or 1))


class RunSummary:
    """The running totals of a simulation: win counts and score/statistic distributions, in bounded memory."""

    def __init__(self, job: SimulationJob) -> None:
        self.job = job
        self.names = seat_names(list(job.players))
        self.games = 0
        self.wins = [0.0] * len(job.players)
        self.scores = [RunningStats() for _ in job.players]
        self.stats: dict[str, RunningStats] = {}

    def add(self, outcome: GameOutcome) -> None:
        self.games += 1
        for seat in range(len(self.wins)):
            self.wins[seat] += outcome.returns[seat]
            self.scores[seat].add(outcome.scores[seat])
        for key, value in outcome.stats.items():
            found = self.stats.get(key)  # not setdefault: that would build a RunningStats every time
            if found is None:
                found = self.stats[key] = RunningStats()
            found.add(value)

    def add_block(self, block: OutcomeBlock) -> None:
        """:meth:`add` for every game of a block (the same totals)."""
        self.games += len(block)
        for seat in range(len(self.wins)):
            self.wins[seat] += float(np.sum(block.returns[:, seat]))
            self.scores[seat].add_many(block.scores[:, seat])
        for key, values in block.stats.items():
            found = self.stats.get(key)
            if found is None:
                found = self.stats[key] = RunningStats()
            found.add_many(values)

    def add_part(self, part: Part) -> None:
        if isinstance(part, OutcomeBlock):
            self.add_block(part)
        else:
            for outcome in part:
                self.add(outcome)

    def report(self) -> dict[str, Any]:
        """Win rates with 95% intervals, score distribution and per-seat/per-bot aggregates."""
        n = self.games
        seats = []
        for seat, name in enumerate(self.names):
            lo, hi = wilson_interval(self.wins[seat], n)
            seats.append(
                {
                    "seat": seat,
                    "player": name,
                    "wins": self.wins[seat],
                    "win_rate": self.wins[seat] / n if n else 0.0,
                    "win_rate_ci95": [lo, hi],
                    "score": self.scores[seat].describe(),
                    "score_histogram": self.scores[seat].histogram(),
                }
            )
        by_bot: dict[str, dict[str, Any]] = {}
        for seat, spec in enumerate(self.job.players):
            entry = by_bot.setdefault(spec.label, {"seats": 0, "wins": 0.0})
            entry["seats"] += 1
            entry["wins"] += self.wins[seat]
        for entry in by_bot.values():
            games_played = int(entry["seats"]) * n
            entry["win_rate"] = entry["wins"] / games_played if games_played else 0.0
            entry["win_rate_ci95"] = list(wilson_interval(entry["wins"], games_played))
        return {
            "game": self.job.game,
            "rules": self.job.rules.to_dict(),
            "players": self.names,
            "games": n,
            "seed": self.job.seed,
            "seats": seats,
            "by_player": by_bot,
            "stats": {k: self.stats[k].describe() for k in sorted(self.stats)},
        }


def summarize(job: SimulationJob, outcomes: Sequence[GameOutcome]) -> dict[str, Any]:
    """The report of a finished list of games (as :meth:`RunSummary.report`)."""
    summary = RunSummary(job)
    for outcome in sorted(outcomes, key=lambda o: o.index):
        summary.add(outcome)
    return summary.report()


ProgressHook = Callable[[int], None]


def simulate(
    job: SimulationJob,
    games: int,
    jobs: int = 1,
    progress: ProgressHook | None = None,
    summary: RunSummary | None = None,
    should_stop: Callable[[], bool] | None = None,
    backend: str = "processes",
    address: str | None = None,
) -> tuple[dict[str, Any], RunSummary]:
    """Play ``games`` games and return the report and the running totals it was made from.

    ``backend`` and ``address`` choose where the games run (see :func:`iter_outcomes`); the report is the same.

    ``should_stop`` is asked between games (in this process) or every 0.1 s (worker processes); when it says so
    the run ends early and the report covers the games finished: in this process every game before the one in
    play (which :func:`stop_game` ends at once), with workers the chunks they finished (the others are stopped).
    Totals are only added whole, never half-updated.
    """
    summary = summary or RunSummary(job)
    for part in iter_outcomes(job, games, jobs, backend=backend, address=address, should_stop=should_stop):
        summary.add_part(part)
        if progress is not None:
            progress(len(part))
        if should_stop is not None and should_stop():
            break
    return summary.report(), summary
