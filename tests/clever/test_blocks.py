"""``simulate clever`` in kernel blocks: the compiled generators draw exactly NumPy's numbers, a block plays the
very games the plain loop plays for the same seeds (random and master, 1–4 players, rule options), the report is
the same, and the records it writes replay in the engine to the stored result."""

from __future__ import annotations

import dataclasses
import importlib
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from dicehall.clever import blocks
from dicehall.clever import master as M
from dicehall.clever.game import CleverGame
from dicehall.clever.kernel import compiled, pcg
from dicehall.clever.kernel.block import STATS
from dicehall.clever.master import MasterAgent, load_weights
from dicehall.clever.rules import CleverRules
from dicehall.core.agents import parse_players
from dicehall.core.record import GameRecord, replay
from dicehall.core.rng import agent_rng, game_seed, seeded_rng
from dicehall.core.simulate import (
    RunSummary,
    SimulationJob,
    has_block_path,
    play_game,
    play_games,
    simulate,
)


@pytest.mark.parametrize("seed", [0, 7, 2029, 2**64 + 3])
def test_compiled_generators_draw_numpy_numbers(seed: int) -> None:
    for index in (0, 1, 5, 2**32 + 1):
        chance, bots = np.zeros(6, np.uint64), np.zeros(6, np.uint64)
        pcg.game_generators(pcg.int_words(seed), index, chance, bots)
        s = game_seed(seed, index)
        a, b = seeded_rng(s), agent_rng(s)
        mine = [pcg.integers(chance, 1, 7) for _ in range(13)] + [pcg.random(chance) for _ in range(5)]
        mine += [pcg.integers(chance, 0, k) for k in (1, 2, 3, 17, 64)] + [pcg.integers(chance, 1, 7)]
        theirs = [*a.integers(1, 7, size=13).tolist(), *a.random(5).tolist()]
        theirs += [int(a.integers(0, k)) for k in (1, 2, 3, 17, 64)] + [int(a.integers(1, 7))]
        assert mine == theirs
        assert [pcg.integers(bots, 0, 9) for _ in range(20)] == [int(b.integers(0, 9)) for _ in range(20)]


def _job(
    players: str, rules: CleverRules | None = None, seed: int = 31, save: Path | None = None
) -> SimulationJob:
    rules = rules or CleverRules.from_preset()
    return SimulationJob("clever", rules, tuple(parse_players(players)), seed, str(save) if save else None)


CASES = [
    ("bot:random", None),
    ("bot:random,bot:random", {"passive_fallback": False}),
    ("bot:random,bot:random,bot:random", {"auto_single_choice": False}),
    ("bot:random,bot:random,bot:random,bot:random", None),
]


@pytest.mark.parametrize(("players", "options"), CASES)
def test_a_block_plays_the_games_of_the_plain_loop(players: str, options: dict[str, bool] | None) -> None:
    rules = CleverRules.from_preset()
    if options:
        rules = dataclasses.replace(rules, **options)
    job = _job(players, rules)
    assert has_block_path(job)
    block = blocks.play(job, range(40, 100))
    plain = list(play_games(job, range(40, 100)))  # the per-game path (engine state in and out)
    assert block.scores.tolist() == [o.scores for o in plain]
    assert block.returns.tolist() == [o.returns for o in plain]
    for key in STATS:
        assert block.stats[key].tolist() == pytest.approx([o.stats[key] for o in plain], abs=1e-12)


@pytest.mark.parametrize(("players", "lookahead"), [(1, True), (3, True), (2, False)])
def test_master_blocks_play_the_engine_game(players: int, lookahead: bool) -> None:
    job = _job(",".join(["bot:master"] * players))
    agent = MasterAgent() if lookahead else MasterAgent(lookahead=None)
    block = M._block(job, [agent] * players, range(3))
    assert block is not None
    for j in range(3):
        s = game_seed(job.seed, j)
        state = CleverGame().new_initial_state(job.rules, players)
        play_game(
            state, [agent] * players, seeded_rng(s), agent_rng(s), fast=False
        )  # the engine, step by step
        assert block.scores[j].tolist() == state.scores()


def test_the_report_is_the_same_as_game_by_game() -> None:
    job = _job("bot:random,bot:random")
    report, _ = simulate(job, 300)
    summary = RunSummary(job)
    for outcome in play_games(job, range(300)):
        summary.add(outcome)
    assert report == summary.report()


def test_master_with_other_weights_is_played_game_by_game() -> None:
    job = _job("bot:master,bot:master")
    report, summary = simulate(job, 2)
    assert summary.games == 2 and report["games"] == 2
    weights = [w.copy() for w in load_weights()[0]]
    agents = [MasterAgent(), MasterAgent(weights=weights)]
    assert M._block(job, agents, range(2)) is None


def _records_replay(tmp_path: Path, players: str, games: int) -> None:
    job = _job(players, seed=77, save=tmp_path)
    block = blocks.play(job, range(games))
    files = sorted(tmp_path.glob("clever-77-*.json"))
    assert len(files) == games
    for j, path in enumerate(files):
        record = GameRecord.load(path)
        state = replay(record)  # checks the stored result against the engine's
        assert state.is_terminal() and state.scores() == block.scores[j].tolist()
        assert record.seed == game_seed(77, j)


@pytest.mark.parametrize("players", ["bot:random", "bot:random,bot:random,bot:random,bot:random"])
def test_records_from_the_trace_replay_in_the_engine(tmp_path: Path, players: str) -> None:
    _records_replay(tmp_path, players, 30)


@pytest.mark.slow
def test_ten_thousand_recorded_games_replay_in_the_engine(tmp_path: Path) -> None:
    for n, games in ((1, 4000), (2, 2000), (3, 2000), (4, 2000)):
        _records_replay(tmp_path / str(n), ",".join(["bot:random"] * n), games)


# -- the ahead-of-time module (dicehall/clever/kernel/compiled.py) ------------------------------------------------


def test_random_blocks_run_in_the_ahead_of_time_module_built_by_make_kernels() -> None:
    module = compiled.load()
    assert module is not None, "the compiled kernel is missing or stale: run `make kernels`"
    assert blocks.kernel(True)[0] is module.play_block
    assert blocks.kernel(False)[0] is not module.play_block  # bot:master stays with Numba's kernel


@pytest.mark.parametrize("seats", [1, 2, 3, 4])
def test_the_ahead_of_time_module_plays_the_just_in_time_kernels_games(
    seats: int, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Both compile the same functions; the same block, trace included, from each."""
    job = _job(",".join(["bot:random"] * seats), seed=5, save=tmp_path)
    games = range(100, 100 + 500 // seats)
    ahead = blocks.play(job, games)
    monkeypatch.setattr(compiled, "load", lambda: None)
    (tmp_path / "jit").mkdir()
    jit = blocks.play(dataclasses.replace(job, save_dir=str(tmp_path / "jit")), games)
    assert ahead.scores.tolist() == jit.scores.tolist() and ahead.returns.tolist() == jit.returns.tolist()
    for key in STATS:
        assert ahead.stats[key].tolist() == jit.stats[key].tolist()
    paths = sorted(tmp_path.glob("clever-5-*.json"))
    assert len(paths) == len(games)
    for path in paths:
        mine, theirs = GameRecord.load(path), GameRecord.load(tmp_path / "jit" / path.name)
        assert (mine.events, mine.result) == (theirs.events, theirs.result)


@pytest.fixture
def fresh_load() -> Iterator[None]:
    """:func:`compiled.load` checks the fingerprint once per process: again here, and again after the test."""
    compiled.load.cache_clear()
    yield
    compiled.load.cache_clear()


@pytest.mark.usefixtures("fresh_load")
def test_a_module_built_from_other_sources_is_not_used(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(compiled, "fingerprint", lambda: -1)
    assert compiled.load() is None
    play_block, _ = blocks.kernel(True)
    assert "CPUDispatcher" in type(play_block).__name__  # Numba's just-in-time kernel plays instead


def test_the_fingerprint_covers_every_module_the_kernel_loads() -> None:
    probe = (
        "import sys, dicehall.clever.kernel.block, dicehall.clever.kernel.rules; print(*sorted(sys.modules))"
    )
    loaded = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    files = {str(path) for path in compiled.source_files()}
    for name in loaded.split():
        if name == "dicehall" or name.startswith("dicehall."):
            module = importlib.import_module(name)
            assert str(Path(module.__file__ or "").resolve()) in files, name
