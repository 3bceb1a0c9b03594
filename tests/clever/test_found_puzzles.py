"""Clever puzzles found in played games: a recorded solo game gives exactly the puzzles the miner's own judging
finds at the person's decisions (clever/found_puzzles.py)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from dicehall.clever.found_puzzles import mover, puzzles_in_record, qualifies, standard
from dicehall.clever.puzzles import (
    MINED_PLAYERS,
    SHIPPED,
    Miner,
    Puzzle,
    position_json,
    position_key,
    read_file,
)
from dicehall.clever.rules import CleverRules
from dicehall.clever.state import CleverState
from dicehall.core.found_puzzles import FOUND, Found
from dicehall.core.record import GameRecord, replay
from dicehall.core.rng import game_rng

SEED = 11
GAMES = (1, 2, 3)
"""Seeded solo games of 1 to 3 puzzles (bot:master twice, bot:random once): a few seconds each."""


@pytest.fixture(scope="module")
def miner() -> Miner:
    return Miner()


def _recorded(
    miner: Miner, game: int, rules: CleverRules | None = None, resign_at: int | None = None
) -> GameRecord:
    """Game ``game`` of the miner's seed played as the miner plays it, written down as a table writes it."""
    rules = rules or standard()
    seats = miner.table(SEED, game, MINED_PLAYERS)
    dice = game_rng(SEED, game)
    bots = np.random.default_rng(np.random.SeedSequence(SEED, spawn_key=(game, 1)))
    record = GameRecord.start("clever", rules, ["Ann"] * len(seats))
    s = CleverState(rules, len(seats))
    while not s.is_terminal():
        if resign_at is not None and len(record.events) == resign_at:
            record.add_resign(0)
            break
        a = s.sample_chance(dice) if s.is_chance_node() else miner.bots[seats[0]].choose(s, bots)
        record.add(s, a)
        s.apply_action(a)
    return record


def _as_found(p: Puzzle) -> Puzzle:
    return dataclasses.replace(p, game=FOUND)


@pytest.fixture(scope="module")
def recorded(miner: Miner) -> dict[int, GameRecord]:
    return {g: _recorded(miner, g) for g in GAMES}


@pytest.fixture(scope="module")
def found(miner: Miner, recorded: dict[int, GameRecord]) -> dict[int, list[Found[Puzzle]]]:
    return {g: puzzles_in_record(recorded[g], (0,), miner) for g in GAMES}


def test_a_recorded_solo_game_gives_the_puzzles_the_miner_finds_in_it(
    miner: Miner, recorded: dict[int, GameRecord], found: dict[int, list[Found[Puzzle]]]
) -> None:
    met = 0
    for game in GAMES:
        mined = [_as_found(p) for p in miner.game(SEED, game)]
        unique = list({p.key: p for p in reversed(mined)}.values())[::-1]
        assert [f.puzzle for f in found[game]] == unique
        for f in found[game]:  # the step is where the position stands in the record, the person's decision
            s = replay(recorded[game], f.step)
            assert isinstance(s, CleverState)
            assert position_key(position_json(s)) == f.puzzle.key
            assert mover(f.puzzle) == 0 and s.current_player() == 0
        met += len(unique)
    assert met >= 3  # the games hold puzzles: the comparison is not of two empty lists


def test_a_resigned_game_gives_the_puzzles_before_the_resignation(
    miner: Miner, found: dict[int, list[Found[Puzzle]]]
) -> None:
    whole = found[1]
    assert len(whole) >= 2
    cut = _recorded(miner, 1, resign_at=whole[0].step + 1)
    assert puzzles_in_record(cut, (0,), miner) == whole[:1]
    assert puzzles_in_record(_recorded(miner, 1, resign_at=0), (0,), miner) == []


def test_only_solo_standard_games_and_the_persons_seat_give_puzzles(
    miner: Miner, recorded: dict[int, GameRecord]
) -> None:
    record = recorded[3]
    assert qualifies(record)
    assert puzzles_in_record(record, (), miner) == []  # a bot's game: nobody's decisions
    other = _recorded(miner, 3, rules=CleverRules.from_preset("no-fallback", {}))
    rules = other.rules()
    assert isinstance(rules, CleverRules) and not rules.passive_fallback and not qualifies(other)
    assert puzzles_in_record(other, (0,), miner) == []
    table = dataclasses.replace(record, players=[*record.players, {"name": "Bob"}])
    assert not qualifies(table)  # tables of 2–4: the judging is solo's
    assert not qualifies(dataclasses.replace(record, game="thousand", preset="classic"))


def test_the_miner_walking_its_games_through_play_still_finds_the_shipped_batchs_first_puzzles(
    miner: Miner,
) -> None:
    header, shipped = read_file(SHIPPED)
    assert header is not None and header["seed"] == 0 and shipped[0].game == 0
    first = [p for p in shipped if p.game == 0]
    assert first and list(miner.game(0, 0)) == first
